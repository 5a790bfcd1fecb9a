/**
 * The README's library example is examples/library.ts, run here as written (its `movenode` import
 * is the sources, vitest.config.ts), and the README shows it verbatim. test/package/consumer.test.ts
 * compiles and runs the same file in a project that installed the packed package.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const example = readFileSync(new URL("../../examples/library.ts", import.meta.url), "utf8")
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8")

describe("the README's library example", () => {
  it("is in the README verbatim", () => {
    expect(readme).toContain("```ts\n" + example + "```")
  })

  it("starts a node, reads it with the typed client and with the TypeScript SDK", async () => {
    const { result } = await import("../../examples/library.js")
    expect(result).toEqual({
      chainId: 243,
      balance: 18446744073709551615n,
      missing: "404 module_not_found",
      sdkLedgerVersion: "0",
      sdkChainId: 243,
      coinFunctions: expect.any(Number)
    })
    expect(result.coinFunctions).toBeGreaterThan(20)
  })
})
