/**
 * Kill -9 during a revert or a load (issue 21): scripts/crash-controls.mjs runs the built local
 * chain on one data directory, sends a revert or a load, SIGKILLs it a few milliseconds later, and
 * checks after each restart that the chain is whole, either before the control or after it (never
 * a part of it), that nothing before the snapshot is lost or moved, and that the chain continues.
 * A few rounds here; `node scripts/crash-controls.mjs --runs 40` is the figure in docs/benchmarks.md.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const script = fileURLToPath(new URL("../../scripts/crash-controls.mjs", import.meta.url))
const bundle = fileURLToPath(new URL("../../dist/bin/movenode.js", import.meta.url))

describe("revert and load across kill -9", () => {
  it("leave the chain whole, before or after", async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first`)
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [script, "--runs", "4", "--transfers", "60", "--max-ms", "300"],
        { timeout: 240_000 },
        (e, stdout) => (e === null ? resolve(stdout) : reject(new Error(`${e.message}\n${stdout}`)))
      )
    )
    const lines = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const summary = lines[lines.length - 1]!
    expect(summary.ok).toBe(true)
    expect(summary.runs).toBe(4)
    const outcomes = summary.outcomes as { before: number; after: number }
    expect(outcomes.before + outcomes.after).toBe(4)
  }, 300_000)
})
