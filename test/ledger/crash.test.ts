import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { LedgerService } from "../../src/ledger/Ledger.js"
import type { LedgerBackend } from "../../src/ledger/LedgerBackend.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { tempDir } from "./fixtures.js"

const child = fileURLToPath(new URL("./crashChild.mjs", import.meta.url))
const compiled = fileURLToPath(new URL("../../dist/ledger/index.js", import.meta.url))

/** When the child's commits count as done: fsync'd (the default), visible with the fsync following (a follower's store), or never fsync'd (the local chain's `--no-fsync`). */
type Durability = "flushed" | "committed" | "written"

/** Runs the child until it has reported `atLeast` commits, then SIGKILLs it; returns the heights it reported. */
const runAndKill = (path: string, atLeast: number, durability: Durability): Promise<bigint[]> =>
  new Promise((resolve, reject) => {
    const proc: ChildProcess = spawn(process.execPath, [child, path, durability], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    const heights: bigint[] = []
    let pending = ""
    let stderr = ""
    let killed = false
    proc.stderr!.on("data", (d) => (stderr += d))
    proc.stdout!.on("data", (d) => {
      pending += d
      const lines = pending.split("\n")
      pending = lines.pop()!
      for (const line of lines) {
        const m = /^committed (\d+)$/.exec(line)
        if (m) heights.push(BigInt(m[1]!))
        // Kill just after a commit began (a commit takes tens of ms here): most kills land inside one.
        if (!killed && heights.length >= atLeast && line.startsWith("begin ")) {
          killed = true
          setTimeout(() => proc.kill("SIGKILL"), Math.floor(Math.random() * 10))
        }
      }
    })
    proc.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(heights)
      else reject(new Error(`child exited with ${code}: ${stderr}`))
    })
  })

/** Everything a whole block implies is present and agrees; nothing past the head exists. */
const checkConsistent = (l: LedgerService, backend: LedgerBackend) =>
  Effect.gen(function* () {
    const info = yield* l.ledgerInfo
    const latestBlock = yield* l.blockByHeight(info.blockHeight)
    expect(latestBlock.lastVersion).toBe(info.ledgerVersion)
    expect(backend.transaction(info.ledgerVersion + 1n)).toBeUndefined()
    expect(backend.block(info.blockHeight + 1n)).toBeUndefined()
    const expectedState = new Map<string, { value: Uint8Array | undefined; version: bigint }>()
    let next = 0n
    for (let h = 0n; h <= info.blockHeight; h++) {
      const b = yield* l.blockByHeight(h)
      expect(b.firstVersion).toBe(next)
      next = b.lastVersion + 1n
      for (let v = b.firstVersion; v <= b.lastVersion; v++) {
        const t = yield* l.transactionByVersion(v)
        expect(t.blockHeight).toBe(h)
        for (const e of t.writeSet.entries)
          expectedState.set(Buffer.from(e.keyBytes).toString("hex"), {
            value: "data" in e.op ? e.op.data : undefined,
            version: v
          })
      }
    }
    // Summaries: one per user transaction, all of them, in order.
    const summaries = backend.summariesForward(addressFromNumber(0xaa), 0n, info.ledgerVersion + 100n, 1_000_000)
    expect(summaries.map((s) => s.version)).toEqual(Array.from({ length: Number(next) }, (_, i) => BigInt(i)))
    // State: newest write of each key, and no value from a version past the head.
    const state = yield* l.stateAt(info.ledgerVersion)
    for (const [hex, expected] of expectedState) {
      const key = Buffer.from(hex, "hex")
      expect(state.get(key)).toEqual(expected.value)
      expect(backend.stateGet(key, (1n << 64n) - 1n)?.version).toBe(expected.version)
    }
    return info
  })

describe.each<Durability>(["flushed", "committed", "written"])("LMDB crash safety, durability %s", (durability) => {
  it("keeps every reported block and no half block across SIGKILLs, and commits continue", () => {
    if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`npm run build\` first`)
    return Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const path = yield* tempDir()
          let lastHeight = -1n
          for (let round = 0; round < 3; round++) {
            const reported = yield* Effect.promise(() => runAndKill(path, 15, durability))
            expect(reported.length).toBeGreaterThanOrEqual(15)
            yield* Effect.scoped(
              Effect.gen(function* () {
                const handle = yield* Effect.acquireRelease(
                  Effect.sync(() => {
                    const backend = openLmdbBackend({ path })
                    return { backend, handle: makeLedgerService(backend) }
                  }),
                  ({ handle }) => Effect.sync(() => handle.close())
                )
                const info = yield* checkConsistent(handle.handle.service, handle.backend)
                expect(info.blockHeight).toBeGreaterThanOrEqual(reported[reported.length - 1]!)
                expect(reported[0]).toBe(lastHeight + 1n)
                lastHeight = info.blockHeight
              })
            )
          }
          // After the crashes, the store still takes commits, right after the last whole block.
          const reported = yield* Effect.promise(() => runAndKill(path, 3, durability))
          expect(reported[0]).toBe(lastHeight + 1n)
        })
      )
    )
  })
})
