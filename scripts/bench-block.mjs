#!/usr/bin/env node
/**
 * CPU per APT transfer through block production and commit (issue 22, the execution half), in one
 * process, on the built library (`npm run build` first), over an LMDB data directory (fsync on, as
 * `npm start` runs it), manual mining:
 *
 *   1. N signed transfers (node:crypto Ed25519, from 64 pre-funded accounts) are admitted through
 *      POST /v1/transactions (not measured);
 *   2. blocks are made with the library's `mine` until the pool is empty (≤ 250 user transactions
 *      each, as the local chain makes them): execution, commit (LMDB write transaction, fsync),
 *      mempool maintenance, the chain event. This phase is measured: CPU of the whole process and of
 *      the event-loop thread alone, per committed transfer; the ledger's growth per transfer.
 *
 * The load generator's HTTP work is outside the measured phase, so the figure does not depend on
 * how fast another process submits (what the throughput run's CPU per transfer does: refused
 * submissions cost CPU there and commit nothing).
 *
 *   node scripts/bench-block.mjs [--transfers 6000] [--rounds 3] [--profile FILE.cpuprofile] [--alloc FILE.heapprofile]
 *
 * `--profile`: a CPU profile of the measured phase of the last round only, and its samples split
 * by where they go (execution, commit's preparation, LMDB writes, GC…) printed as shares.
 * `--alloc`: instead, V8's sampling heap profile of that phase with the objects already collected
 * kept in it (what the collector has to deal with, not what stays), and the bytes allocated per
 * transfer printed: in all and by the functions that allocate most (their own allocations).
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { aptTransfer, cliArgs, cpuSecs, loadAverage, loadDist, localSigners } from "./lib.mjs"

const lib = await loadDist()
const { LocalChain, MiningMode } = lib
const { num, arg } = cliArgs()
const TRANSFERS = num("transfers", 6000)
const ROUNDS = num("rounds", 3)
const PROFILE = arg("profile", undefined)
const ALLOC = arg("alloc", undefined)
const ACCOUNTS = 64

/** The event loop thread's CPU seconds so far (its /proc task: the main thread's id is the pid). */
const mainThreadSecs = () => cpuSecs(process.pid, { mainThread: true })
const processSecs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

/** Shares of a profile's samples by where they go: the first listed frame on the stack decides. */
const buckets = [
  ["execution: user transactions (VM)", ["executeUser"]],
  ["execution: block prologue/epilogue", ["blockPrologue", "blockEpilogue"]],
  ["commit: hashes and accumulator (prepareBlock)", ["prepareBlock"]],
  ["commit: records and LMDB puts (writeBlock)", ["writeBlock"]],
  ["mempool maintenance (best, afterBlock)", ["afterBlock", "best"]],
  ["chain event (publish)", ["publish"]],
  ["garbage collection", ["(garbage collector)"]]
]
const splitProfile = (profile) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const time = new Map()
  let total = 0
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0
    time.set(id, (time.get(id) ?? 0) + dt)
    total += dt
  })
  const shares = new Map()
  for (const [id, t] of time) {
    let bucket = "other (Effect runtime, idle, rest)"
    // Innermost first: the deepest frame named by a bucket wins (prepareBlock inside writeBlock…).
    found: for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur).callFrame.functionName
      for (const [label, names] of buckets)
        if (names.includes(name)) {
          bucket = label
          break found
        }
    }
    shares.set(bucket, (shares.get(bucket) ?? 0) + t)
  }
  return Object.fromEntries([...shares].sort((a, b) => b[1] - a[1]).map(([k, t]) => [k, `${((100 * t) / total).toFixed(1)} %`]))
}

/** Bytes allocated per transfer, in all and by allocating function (self), from a sampling heap profile. */
const allocationsOf = (profile, transfers, top = 15) => {
  const bySite = new Map()
  let total = 0
  const walk = (node) => {
    const f = node.callFrame
    const site = `${f.functionName || "(anonymous)"} ${f.url.split("/").slice(-2).join("/")}:${f.lineNumber + 1}`
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize)
    total += node.selfSize
    for (const child of node.children) walk(child)
  }
  walk(profile.head)
  const kb = (bytes) => +(bytes / 1024 / transfers).toFixed(2)
  return {
    kbPerTransfer: kb(total),
    topKbPerTransfer: Object.fromEntries([...bySite].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => [k, kb(v)]))
  }
}

const dir = mkdtempSync(join(tmpdir(), "movenode-bench-block-"))
const signers = localSigners(lib, ACCOUNTS)
const results = []
let split
let allocations
try {
  // LocalChain.spawn rather than the testing helper: the same script runs on older builds (A/B).
  const scope = Effect.runSync(Scope.make())
  const info = await Effect.runPromise(
    Scope.provide(scope)(LocalChain.spawn({ accounts: ACCOUNTS, dataDir: join(dir, "chain"), mining: MiningMode.manual }))
  )
  const chain = { info, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
  const api = chain.info.apiUrl
  const dataMdb = join(dir, "chain", "ledger", "data.mdb")
  const expiration = BigInt(Math.floor(Date.now() / 1000) + 3600)
  for (let round = 0; round < ROUNDS; round++) {
    const signed = Array.from({ length: TRANSFERS }, (_, i) => aptTransfer(lib, signers[i % ACCOUNTS], signers[(i + 1) % ACCOUNTS].address, 1n, expiration).bytes)
    let next = 0
    const worker = async () => {
      while (next < signed.length) {
        const body = signed[next++]
        const r = await fetch(`${api}/transactions`, { method: "POST", headers: { "content-type": "application/x.aptos.signed_transaction+bcs" }, body })
        if (r.status !== 202) throw new Error(`submit: ${r.status} ${await r.text()}`)
      }
    }
    await Promise.all(Array.from({ length: 16 }, worker))
    const last = round === ROUNDS - 1
    const session = last && (PROFILE !== undefined || ALLOC !== undefined) ? new Session() : undefined
    if (session !== undefined) {
      session.connect()
      if (ALLOC !== undefined) {
        await session.post("HeapProfiler.enable")
        await session.post("HeapProfiler.startSampling", {
          samplingInterval: 4096,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: true
        })
      } else {
        await session.post("Profiler.enable")
        await session.post("Profiler.start")
      }
    }
    const bytes0 = statSync(dataMdb).size
    const cpu0 = processSecs()
    const main0 = mainThreadSecs()
    const t0 = performance.now()
    let first
    let block
    for (;;) {
      block = await Effect.runPromise(chain.info.mine)
      first ??= block
      // Metadata + block end only: the pool is empty (a block ending an epoch has no block end).
      if (block.lastVersion - block.firstVersion === 1n) break
    }
    const wallSecs = (performance.now() - t0) / 1000
    const cpu = processSecs() - cpu0
    const main = mainThreadSecs() - main0
    if (session !== undefined) {
      if (ALLOC !== undefined) {
        const { profile } = await session.post("HeapProfiler.stopSampling")
        writeFileSync(ALLOC, JSON.stringify(profile))
        allocations = allocationsOf(profile, TRANSFERS)
      } else {
        const { profile } = await session.post("Profiler.stop")
        writeFileSync(PROFILE, JSON.stringify(profile))
        split = splitProfile(profile)
      }
      session.disconnect()
    }
    const versions = Number(block.lastVersion - first.firstVersion + 1n)
    const blocks = Number(block.height - first.height + 1n)
    results.push({
      round,
      transfers: TRANSFERS,
      blocks,
      versions,
      cpuMsPerTransfer: +((cpu * 1000) / TRANSFERS).toFixed(3),
      mainThreadMsPerTransfer: +((main * 1000) / TRANSFERS).toFixed(3),
      transfersPerSecWall: Math.round(TRANSFERS / wallSecs),
      ledgerBytesPerTransfer: Math.round((statSync(dataMdb).size - bytes0) / TRANSFERS)
    })
  }
  await chain.stop()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
console.table(results)
if (split !== undefined) console.table(split)
if (allocations !== undefined) {
  console.log(`allocated in the last round: ${allocations.kbPerTransfer} KB a transfer; by function (its own allocations, KB a transfer):`)
  console.table(allocations.topKbPerTransfer)
}
console.log(JSON.stringify({ load: loadAverage(), results, split, allocations }))
