/**
 * A few rounds of scripts/crash-indexer.mjs (the 50-run version is in docs/benchmarks.md): the
 * built node is killed with SIGKILL while transfers are being indexed, restarted on the same data
 * directory, and its index must match the ledger exactly once caught up.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..", "..")

describe("kill -9 during indexing", () => {
  it.skipIf(!existsSync(join(root, "dist", "bin", "movenode.js")))(
    "the index matches the ledger after every restart (3 rounds)",
    async () => {
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [join(root, "scripts", "crash-indexer.mjs"), "--runs", "3", "--min-ms", "200", "--max-ms", "900"],
          { timeout: 240_000 },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout)
        )
      )
      const lines = out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
      expect(lines.at(-1)).toMatchObject({ ok: true, runs: 3 })
      expect(lines.at(-1).userTransactions).toBeGreaterThan(0)
    },
    300_000
  )
})
