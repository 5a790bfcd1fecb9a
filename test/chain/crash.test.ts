/**
 * Kill -9 during block production (issue 14): scripts/crash-chain.mjs runs the built local chain
 * on one data directory, keeps transfers flowing, SIGKILLs it at random moments and checks after
 * each restart that no transaction reported committed is lost, none is half-applied, and the chain
 * continues. A few rounds here; `node scripts/crash-chain.mjs --runs 100` is the figure in
 * docs/benchmarks.md.
 */
import { describe, expect, it } from "vitest"
import { runCrashScript } from "../support/crashScript.js"

describe.each([
  ["flushing each block (the default)", []],
  ["with --no-fsync", ["--no-fsync"]]
])("the local chain across kill -9, %s", (_, flags) => {
  it("loses no committed transaction, applies none by half, and continues", async () => {
    const summary = await runCrashScript(
      "crash-chain.mjs",
      ["--runs", "4", "--min-ms", "400", "--max-ms", "1200", ...flags],
      120_000
    )
    expect(summary.ok).toBe(true)
    expect(summary.runs).toBe(4)
    expect(summary.committedAndVerified as number).toBeGreaterThan(0)
    expect(summary.committedAfterLastRestart as number).toBeGreaterThan(0)
    expect((summary.kills as { total: number }).total).toBe(4)
  }, 150_000)
})
