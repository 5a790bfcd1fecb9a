/**
 * The README's local-chain example is examples/localChain.ts, run here as written (its `movenode`
 * import is the sources, vitest.config.ts), and the README shows it verbatim.
 * test/package/consumer.test.ts compiles and runs the same file against the packed package.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const example = readFileSync(new URL("../../examples/localChain.ts", import.meta.url), "utf8")
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8")

describe("the README's local-chain example", () => {
  it("is in the README verbatim", () => {
    expect(readme).toContain("```ts\n" + example + "```")
  })

  it("spawns a chain, funds an account from the faucet and pays it with the TypeScript SDK", async () => {
    const { result } = await import("../../examples/localChain.js")
    expect(result).toEqual({
      chainId: 4,
      success: true,
      vmStatus: "Executed successfully",
      balance: 100_001_000
    })
  })
})
