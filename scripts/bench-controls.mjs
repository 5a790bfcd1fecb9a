#!/usr/bin/env node
/**
 * The test controls' figures (docs/benchmarks.md, "Test controls"), on the built library, in one
 * process, over an LMDB data directory (fsync on, as `npm start`):
 *
 *   snapshot           `controls.snapshot`, in process and over HTTP (median of 20)
 *   revert             `controls.revert` with N transfers (default 10,000) committed since the snapshot
 *   dump / load        the chain of N transfers dumped, then loaded into a fresh chain on the same genesis
 *   revert in store    the same revert on the stopped chain's ledger alone: the rewind (the head moved
 *                      back) and the collection of the forgotten versions' entries after it, with CPU time
 *   idle hour          a chain left idle for an hour of chain time: 3,600 idle blocks, one per chain
 *                      second (the default idle rate; made here every 5 ms with a 1 s block interval),
 *                      the ledger's growth (no indexer)
 *   idle real          (--idle-real-secs N) the default chain with its embedded indexer left idle N
 *                      seconds of wall clock: the growth of the ledger and of the indexer, per block and
 *                      per hour; `--only-idle-real` runs only this
 *
 *   node scripts/bench-controls.mjs [--transfers 10000] [--rounds 3] [--idle-blocks 3600]
 *                                   [--idle-real-secs 0] [--idle-real-warmup 5] [--only-idle-real]
 *                                   [--only-idle-hour]
 *
 * Transfers are signed beforehand (node:crypto Ed25519) from 64 pre-funded accounts and pushed
 * through POST /v1/transactions (BCS); the load generator shares the process (and the machine).
 */
import { execSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import { aptTransfer, cliArgs, loadDist, localSigners } from "./lib.mjs"

const lib = await loadDist()
const { startLocalChain, MiningMode, defaultLocalChainConfig } = lib

const { num: arg } = cliArgs()
const TRANSFERS = arg("transfers", 10_000)
const ROUNDS = arg("rounds", 3)
const IDLE_BLOCKS = arg("idle-blocks", 3600)
/** Also (or only, with --only-idle-real) idle for this many wall-clock seconds with the default idle blocks. */
const IDLE_REAL_SECS = arg("idle-real-secs", 0)
/**
 * Seconds the idle chain runs before the measured window: the indexer's SQLite write-ahead log
 * grows to its checkpoint size (~4 MB, once) in the first minute or two; 90 leaves it out.
 */
const IDLE_REAL_WARMUP = arg("idle-real-warmup", 5)
const ACCOUNTS = 64

const run = (effect) => Effect.runPromise(effect)
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const ms = (x) => `${x.toFixed(2)} ms`
const duBytes = (dir) => Number(execSync(`du -sb ${dir}`).toString().split("\t")[0])

const transfer = (from, to, expiration) => aptTransfer(lib, from, to, 1n, expiration).bytes

const ledgerVersion = async (api) => BigInt((await (await fetch(api)).json()).ledger_version)

/** Pushes `n` transfers (signed first), waits until all are committed. */
const pushTransfers = async (api, signers, n, expiration) => {
  const signed = Array.from({ length: n }, (_, i) => transfer(signers[i % signers.length], signers[(i + 1) % signers.length].address, expiration))
  const start = await ledgerVersion(api)
  let next = 0
  const worker = async () => {
    while (next < signed.length) {
      const body = signed[next++]
      const r = await fetch(`${api}/transactions`, { method: "POST", headers: { "content-type": "application/x.aptos.signed_transaction+bcs" }, body })
      if (r.status !== 202) throw new Error(`submit: ${r.status} ${await r.text()}`)
    }
  }
  await Promise.all(Array.from({ length: 32 }, worker))
  // Each block: metadata + transfers + block end; wait for the last transfer's sender to be done.
  for (;;) {
    const committed = await Promise.all(signers.map(async (s) => BigInt((await (await fetch(`${api}/accounts/0x${Buffer.from(s.address).toString("hex")}`)).json()).sequence_number)))
    if (committed.every((c, i) => c === signers[i].next)) break
    await new Promise((r) => setTimeout(r, 50))
  }
  return (await ledgerVersion(api)) - start
}

const dir = mkdtempSync(join(tmpdir(), "movenode-bench-controls-"))
const config = { ...defaultLocalChainConfig, accounts: ACCOUNTS }
const signers = localSigners(lib, ACCOUNTS)
const results = {}
const ONLY_IDLE_REAL = cliArgs().has("only-idle-real")
/** Only the idle hour of chain time (3,600 mined idle blocks, no indexer), with its per-table growth. */
const ONLY_IDLE_HOUR = cliArgs().has("only-idle-hour")
const ledgerTables = (ledgerDir) => JSON.parse(execSync(`node ${join(import.meta.dirname, "ledger-stats.mjs")} ${ledgerDir} --json`).toString())
/** Per block: the bytes of the pages each table gained, and of the pages no table holds (free or held for a reader). */
const pageBytesPerBlock = (before, after, blocks) =>
  Object.fromEntries([
    ...after.tables
      .map((t) => [t.table, Math.round((t.pageBytes - (before.tables.find((x) => x.table === t.table)?.pageBytes ?? 0)) / blocks)])
      .filter(([, v]) => v !== 0),
    ["unreferenced", Math.round(((after.unreferencedPages - before.unreferencedPages) * after.pageSize) / blocks)]
  ])
if (!ONLY_IDLE_REAL) try {
if (!ONLY_IDLE_HOUR) {
  const chain = await startLocalChain({ accounts: ACCOUNTS, dataDir: join(dir, "a"), mining: MiningMode.still() })
  const api = chain.info.apiUrl
  const controls = chain.info.controls
  const expiration = BigInt(Math.floor(Date.now() / 1000) + 3600)

  // Snapshot: in process and over HTTP.
  const inProcess = []
  const overHttp = []
  for (let i = 0; i < 20; i++) {
    let t = performance.now()
    await run(controls.snapshot)
    inProcess.push(performance.now() - t)
    t = performance.now()
    await chain.controls.snapshot()
    overHttp.push(performance.now() - t)
  }
  results.snapshot = { inProcessMedian: ms(median(inProcess)), httpMedian: ms(median(overHttp)) }

  // Revert with TRANSFERS transfers since the snapshot, ROUNDS times.
  const reverts = []
  for (let round = 0; round < ROUNDS; round++) {
    const id = await run(controls.snapshot)
    const saved = signers.map((s) => s.next)
    const versions = await pushTransfers(api, signers, TRANSFERS, expiration)
    const t = performance.now()
    await run(controls.revert(id))
    const revertMs = performance.now() - t
    signers.forEach((s, i) => (s.next = saved[i]))
    // The revert returns once the head moved back; the forgotten versions' entries are removed
    // after it, in slices between blocks. A transfer sent right away, submitted to committed:
    const t1 = performance.now()
    await pushTransfers(api, signers, 1, expiration)
    const nextMs = performance.now() - t1
    reverts.push({ versionsDropped: Number(versions), ms: ms(revertMs), nextTransferMs: ms(nextMs) })
  }
  results.revert = reverts

  // A chain of TRANSFERS transfers: dump it, load it into a fresh chain.
  const heightBefore = BigInt((await (await fetch(api)).json()).block_height)
  await pushTransfers(api, signers, TRANSFERS, expiration)
  let t = performance.now()
  const dump = await run(controls.dump)
  const dumpMs = performance.now() - t
  const b = await startLocalChain({ accounts: ACCOUNTS, dataDir: join(dir, "b"), mining: MiningMode.still() })
  // Chain a is idle (still mining) meanwhile: the process's CPU time is the load's.
  const cpuBefore = process.cpuUsage()
  t = performance.now()
  await run(b.info.controls.load(dump))
  const loadMs = performance.now() - t
  const cpuUsed = process.cpuUsage(cpuBefore)
  results.dumpLoad = {
    versions: String(await ledgerVersion(api)),
    dumpBytes: dump.length,
    dumpMs: ms(dumpMs),
    loadMs: ms(loadMs),
    loadCpuMs: ms((cpuUsed.user + cpuUsed.system) / 1000),
    loadedVersion: String(await ledgerVersion(b.info.apiUrl))
  }
  await b.stop()
  await chain.stop()

  // The same revert in the store alone, with the CPU time it takes (a figure the machine's load
  // does not change much): the stopped chain's ledger opened again, rewound to the block before
  // the last TRANSFERS transfers, then the forgotten versions' entries collected (what the chain
  // does in slices after a revert).
  if (process.env.BENCH_CONTROLS_KEEP) execSync(`rm -rf ${process.env.BENCH_CONTROLS_KEEP} && cp -r ${join(dir, "a", "ledger")} ${process.env.BENCH_CONTROLS_KEEP}`)
  {
    const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
    const opened = await run(Effect.scoped(Effect.gen(function* () {
      const handle = yield* lib.LedgerLmdb.open({ path: join(dir, "a", "ledger"), collectInBackground: false })
      const r = handle.service.rewind
      const mark = yield* r.markAtHeight(heightBefore)
      const top = (yield* handle.service.ledgerInfo).ledgerVersion
      let t = performance.now()
      let c = cpu()
      yield* r.rewindTo(mark)
      const rewind = { ms: performance.now() - t, cpuMs: cpu() - c }
      t = performance.now()
      c = cpu()
      let slices = 0
      while ((yield* r.collectGarbage(256)) > 0) slices++
      const collect = { ms: performance.now() - t, cpuMs: cpu() - c, slices }
      return { versionsDropped: String(top - mark.version), rewind, collect }
    })))
    results.revertInStore = {
      versionsDropped: opened.versionsDropped,
      rewindMs: ms(opened.rewind.ms),
      rewindCpuMs: ms(opened.rewind.cpuMs),
      collectMs: ms(opened.collect.ms),
      collectCpuMs: ms(opened.collect.cpuMs),
      collectSlices: opened.collect.slices
    }
  }

}
  // An idle hour of chain time: default mining, idle blocks, a 1 s interval per block.
  const idle = await startLocalChain({ accounts: 10, dataDir: join(dir, "idle"), mining: MiningMode.manual })
  await idle.controls.mine(1)
  await idle.controls.setBlockInterval(1)
  const before = duBytes(join(dir, "idle"))
  const tablesBefore = ledgerTables(join(dir, "idle", "ledger"))
  for (let i = 0; i < IDLE_BLOCKS; i += 500) await idle.controls.mine(Math.min(500, IDLE_BLOCKS - i))
  const time = await idle.controls.time()
  await idle.stop()
  const after = duBytes(join(dir, "idle"))
  results.idleHour = {
    blocks: IDLE_BLOCKS,
    epoch: time.epoch,
    grewBytes: after - before,
    grewMB: ((after - before) / 1e6).toFixed(2),
    ledgerPageBytesPerBlock: pageBytesPerBlock(tablesBefore, ledgerTables(join(dir, "idle", "ledger")), IDLE_BLOCKS)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
if (IDLE_REAL_SECS > 0) {
  // The default chain (instant mining, a block after 1 s idle, the embedded indexer as `npm start`
  // runs it, GraphQL on a free port), left alone for real: the growth per hour extrapolated from
  // IDLE_REAL_SECS, the ledger's and the indexer's apart.
  const realDir = mkdtempSync(join(tmpdir(), "movenode-bench-idle-"))
  try {
    const idle = await startLocalChain({
      accounts: 10,
      dataDir: realDir,
      indexer: { _tag: "Embedded" },
      graphql: { host: "127.0.0.1", port: 0 }
    })
    await new Promise((r) => setTimeout(r, IDLE_REAL_WARMUP * 1000))
    const part = (name) => duBytes(join(realDir, name))
    // Where the ledger's bytes go (scripts/ledger-stats.mjs, read-only, in its own process).
    const tables = () => ledgerTables(join(realDir, "ledger"))
    const statsBefore = tables()
    const before = { all: duBytes(realDir), ledger: part("ledger"), indexer: part("indexer") }
    const h0 = BigInt((await (await fetch(idle.info.apiUrl)).json()).block_height)
    await new Promise((r) => setTimeout(r, IDLE_REAL_SECS * 1000))
    const h1 = BigInt((await (await fetch(idle.info.apiUrl)).json()).block_height)
    const after = { all: duBytes(realDir), ledger: part("ledger"), indexer: part("indexer") }
    const statsAfter = tables()
    await idle.stop()
    const perHour = (k) => (((after[k] - before[k]) / IDLE_REAL_SECS) * 3600 / 1e6).toFixed(2)
    const blocks = Number(h1 - h0)
    results.idleReal = {
      seconds: IDLE_REAL_SECS,
      warmupSeconds: IDLE_REAL_WARMUP,
      blocks,
      indexer: idle.info.indexer,
      grewBytes: after.all - before.all,
      bytesPerBlock: { ledger: Math.round((after.ledger - before.ledger) / blocks), indexer: Math.round((after.indexer - before.indexer) / blocks) },
      perHourMB: { all: perHour("all"), ledger: perHour("ledger"), indexer: perHour("indexer") },
      ledgerPageBytesPerBlock: pageBytesPerBlock(statsBefore, statsAfter, blocks),
      ledgerUnreferencedPages: [statsBefore.unreferencedPages, statsAfter.unreferencedPages]
    }
  } finally {
    rmSync(realDir, { recursive: true, force: true })
  }
}
console.log(JSON.stringify(results, null, 2))
process.exit(0)
