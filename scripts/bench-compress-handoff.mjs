#!/usr/bin/env node
/**
 * lmdb-js's compression hand-off to libuv's thread pool against compression on LMDB's write thread
 * (src/ledger/compressOnWriteThread.ts), in one process, alternating every round so both see the
 * same minutes of the machine: a "block" is K values of 1,500 bytes (compressible, 200 random)
 * put to a compressing table and awaited, then 2 ms of idleness (the pool falls asleep, as
 * between blocks of one transfer). Prints the event loop's CPU per block (its thread's schedstat)
 * for each way, the median over the rounds, and in how many rounds the write thread's way was cheaper.
 *
 *   node scripts/bench-compress-handoff.mjs [--values 3] [--rounds 10] [--blocks 300] [--sync]
 *
 * `--sync`: the store fsyncs each commit, as the ledger does (default: no sync, to see the
 * hand-off alone). It reaches into lmdb-js's internals as compressOnWriteThread.ts does.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { open } from "lmdb"
import { cliArgs, sleep, threadCpuNs } from "./lib.mjs"

const { num, has } = cliArgs()
const K = num("values", 3)
const ROUNDS = num("rounds", 10)
const BLOCKS = num("blocks", 300)

const native = await import(new URL("./native.js", import.meta.resolve("lmdb")).href)
const pool = native.nativeAddon
const writeThread = Object.create(pool)
writeThread.compress = () => {}

const value = () => {
  const b = Buffer.alloc(1500)
  randomBytes(200).copy(b, 100)
  return b
}

const dir = mkdtempSync(join(tmpdir(), "movenode-compress-handoff-"))
const env = open({ path: dir, noSync: !has("sync") })
const db = env.openDB("t", { encoding: "binary", keyEncoding: "binary", compression: { threshold: 64 } })
const perBlockUs = { pool: [], writeThread: [] }
let key = 0
try {
  for (let r = 0; r < ROUNDS * 2; r++) {
    const way = r % 2 === 0 ? "pool" : "writeThread"
    native.setNativeFunctions(way === "pool" ? pool : writeThread)
    let ns = 0
    for (let b = 0; b < BLOCKS; b++) {
      const values = Array.from({ length: K }, value)
      const t0 = threadCpuNs()
      let last
      for (const v of values) {
        const k = Buffer.alloc(8)
        k.writeBigUInt64BE(BigInt(key++))
        last = db.put(k, v)
      }
      await last
      ns += threadCpuNs() - t0
      await sleep(2)
    }
    perBlockUs[way].push(ns / BLOCKS / 1000)
  }
} finally {
  native.setNativeFunctions(pool)
  await env.close()
  rmSync(dir, { recursive: true, force: true })
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
console.log(
  JSON.stringify({
    values: K,
    sync: has("sync"),
    eventLoopUsPerBlock: { pool: +median(perBlockUs.pool).toFixed(1), writeThread: +median(perBlockUs.writeThread).toFixed(1) },
    roundsWriteThreadCheaper: `${perBlockUs.pool.filter((p, i) => perBlockUs.writeThread[i] < p).length} of ${ROUNDS}`,
    rounds: { pool: perBlockUs.pool.map((x) => Math.round(x)), writeThread: perBlockUs.writeThread.map((x) => Math.round(x)) }
  })
)
