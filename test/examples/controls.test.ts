/**
 * The README's test-controls example is examples/controls.ts, run here as written (its `movenode`
 * import is the sources, vitest.config.ts), and the README shows it verbatim.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const example = readFileSync(new URL("../../examples/controls.ts", import.meta.url), "utf8")
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8")

describe("the README's test-controls example", () => {
  it("is in the README verbatim", () => {
    expect(readme).toContain("```ts\n" + example + "```")
  })

  it("sets a balance, travels in time, pays as an impersonated account and reverts to the fixture", async () => {
    const { result } = await import("../../examples/controls.js")
    expect(result).toEqual({ paid: true, balanceAfterRevert: 5_000_000_000 })
  })
})
