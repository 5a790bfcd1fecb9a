/**
 * Kill -9 during a revert or a load (issue 21): scripts/crash-controls.mjs runs the built local
 * chain on one data directory, sends a revert or a load, SIGKILLs it a few milliseconds later, and
 * checks after each restart that the chain is whole, either before the control or after it (never
 * a part of it), that nothing before the snapshot is lost or moved, and that the chain continues.
 * A few rounds here; `node scripts/crash-controls.mjs --runs 40` is the figure in docs/benchmarks.md.
 */
import { describe, expect, it } from "vitest"
import { runCrashScript } from "../support/crashScript.js"

describe("revert and load across kill -9", () => {
  it("leave the chain whole, before or after", async () => {
    const summary = await runCrashScript(
      "crash-controls.mjs",
      ["--runs", "4", "--transfers", "60", "--max-ms", "300"],
      240_000
    )
    expect(summary.ok).toBe(true)
    expect(summary.runs).toBe(4)
    const outcomes = summary.outcomes as { before: number; after: number }
    expect(outcomes.before + outcomes.after).toBe(4)
  }, 300_000)
})
