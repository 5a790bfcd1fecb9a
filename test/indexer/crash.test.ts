/**
 * A few rounds of scripts/crash-indexer.mjs (the 50-run version is in docs/benchmarks.md): the
 * built node is killed with SIGKILL while transfers are being indexed, restarted on the same data
 * directory, and its index must match the ledger exactly once caught up.
 */
import { describe, expect, it } from "vitest"
import { runCrashScript } from "../support/crashScript.js"

describe.each([
  ["flushing (the default)", []],
  ["with --no-fsync", ["--no-fsync"]]
])("kill -9 during indexing, %s", (_, flags) => {
  it("the index matches the ledger after every restart (3 rounds)", async () => {
    const summary = await runCrashScript(
      "crash-indexer.mjs",
      ["--runs", "3", "--min-ms", "200", "--max-ms", "900", ...flags],
      240_000
    )
    expect(summary).toMatchObject({ ok: true, runs: 3 })
    expect(summary.userTransactions).toBeGreaterThan(0)
  }, 300_000)
})
