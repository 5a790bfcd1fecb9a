#!/usr/bin/env node
/**
 * The indexer's own cost, apart from the chain (docs/benchmarks.md, "Session 8: the indexer off the
 * event loop"): indexes the ledger of a kept data directory (`bench-indexer.mjs graphql --keep DIR`
 * builds one) from version 0 into a new SQLite file, in the indexer's worker thread as the node runs
 * it, and reports the CPU it took per version after genesis — the worker thread, the other threads
 * (V8's GC helpers collect the worker's garbage there) and the whole process — and versions per
 * second; the start with genesis apart; and the index file's bytes per version once closed.
 *
 *   node scripts/bench-indexer-worker.mjs --data-dir DIR [--young-mb N] [--batch N]
 *
 * No chain runs: the worker polls the ledger (nothing commits), so the figure is the indexer's alone.
 * Prints one JSON line.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { cliArgs, cpuSplit, loadAverage, root, sleep, threadCpu } from "./lib.mjs"

const { arg, num, has } = cliArgs()
const dataDir = arg("data-dir")
if (dataDir === undefined) throw new Error("--data-dir DIR: a kept chain (bench-indexer.mjs graphql --keep DIR)")
const dist = (p) => import(pathToFileURL(join(root, "dist", p)).href)
const { indexerThreadLayer, Indexer } = await dist("indexer/index.js")
const { ChainEvents } = await dist("chain/ChainEvents.js")
const { Effect, Layer, Context } = await import("effect")
const { open } = await import("lmdb")

// The ledger's last version, read from its head (format byte, chain id, then the latest version u64 LE).
const env = open({ path: join(dataDir, "ledger"), keyEncoding: "binary", encoding: "binary", maxDbs: 16, readOnly: true })
const head = env.openDB({ name: "meta", keyEncoding: "binary", encoding: "binary" }).getBinary(Buffer.from("head"))
const latest = head.readBigUInt64LE(2)
await env.close()

const dir = mkdtempSync(join(tmpdir(), "movenode-bench-indexer-worker-"))
const youngMb = num("young-mb", 0)
const layer = indexerThreadLayer({
  ledgerPath: join(dataDir, "ledger"),
  store: { _tag: "Sqlite", path: join(dir, "index.sqlite") },
  schemaExtra: "bench",
  workerUrl: pathToFileURL(join(root, "dist", "bin", "indexerWorker.js")),
  maxBatchTransactions: num("batch", 500),
  ...(youngMb > 0 ? { resourceLimits: { maxYoungGenerationSizeMb: youngMb } } : {})
}).pipe(Layer.provide(ChainEvents.layer))

const out = await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const indexer = Context.get(yield* Layer.build(layer), Indexer)
      const until = (version) =>
        Effect.gen(function* () {
          for (;;) {
            const h = yield* indexer.health
            if (h.indexedVersion >= version) return
            if (h.lastError !== undefined && h.state === "failing") throw new Error(h.lastError)
            yield* Effect.promise(() => sleep(5))
          }
        })
      // The worker starts, opens the store (a new file) and indexes genesis (the whole framework's
      // write set: a start's cost, which the prebuilt genesis index spares a new chain), then the rest.
      const t0 = performance.now()
      const cpu0 = threadCpu(process.pid)
      yield* until(0n)
      const t1 = performance.now()
      const cpu1 = threadCpu(process.pid)
      yield* until(latest)
      const secs = (performance.now() - t1) / 1000
      const genesis = cpuSplit(process.pid, cpu0, cpu1)
      const split = cpuSplit(process.pid, cpu1, threadCpu(process.pid))
      const versions = Number(latest)
      const ms = (s) => Math.round((s * 1e6) / versions) / 1000
      return {
        versions,
        startAndGenesis: { seconds: Math.round(t1 - t0) / 1000, cpuSecs: genesis },
        seconds: Math.round(secs * 10) / 10,
        versionsPerSec: Math.round(versions / secs),
        cpuSecs: split,
        cpuMsPerVersion: { worker: ms(split.busiestOther), otherThreads: ms(split.rest), process: ms(split.total) },
        youngMb: youngMb || "default",
        // The whole process (the bench's own thread is small): mostly the worker's heap and SQLite's cache.
        rssMb: Math.round(process.memoryUsage().rss / 1048576),
        load: loadAverage()
      }
    })
  )
)
// The index's file once the worker has closed it (SQLite folds its write-ahead log in at the last close).
const fileBytes = ["index.sqlite", "index.sqlite-wal"]
  .map((f) => join(dir, f))
  .reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0)
out.indexBytesPerVersion = Math.round(fileBytes / out.versions)
console.log(JSON.stringify(out))
rmSync(dir, { recursive: true, force: true })
