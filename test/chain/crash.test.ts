/**
 * Kill -9 during block production (issue 14): scripts/crash-chain.mjs runs the built local chain
 * on one data directory, keeps transfers flowing, SIGKILLs it at random moments and checks after
 * each restart that no transaction reported committed is lost, none is half-applied, and the chain
 * continues. A few rounds here; `node scripts/crash-chain.mjs --runs 100` is the figure in
 * docs/benchmarks.md.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const script = fileURLToPath(new URL("../../scripts/crash-chain.mjs", import.meta.url))
const bundle = fileURLToPath(new URL("../../dist/bin/movenode.js", import.meta.url))

describe("the local chain across kill -9", () => {
  it("loses no committed transaction, applies none by half, and continues", async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first`)
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [script, "--runs", "4", "--min-ms", "400", "--max-ms", "1200"],
        { timeout: 120_000 },
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
    expect(summary.committedAndVerified as number).toBeGreaterThan(0)
    expect(summary.committedAfterLastRestart as number).toBeGreaterThan(0)
    expect((summary.kills as { total: number }).total).toBe(4)
  }, 150_000)
})
