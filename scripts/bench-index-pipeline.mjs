#!/usr/bin/env node
/**
 * The index's JavaScript alone (docs/benchmarks.md, "Session 61"): reads the committed versions of
 * a kept data directory and runs the processors over them as the index's worker does (the
 * pipeline's `batch`: blocks read from the ledger, `IndexerTransaction`s built, every processor
 * run), with no SQL store, in this thread, `--rounds` times; prints the CPU a version took in each
 * round and the least (the round the machine disturbed least: on a machine whose speed drifts
 * within minutes the minimum compares two builds better than one whole run of each).
 *
 *   node scripts/bench-index-pipeline.mjs --data-dir DIR [--from 20000] [--count 6000] [--rounds 8]
 *        [--root CHECKOUT] [--writes FILE]
 *
 * `--root`: the built checkout whose `dist/` runs (default this one): run the script of each
 * checkout alternately to compare two builds. `--writes FILE`: instead of timing, one round from
 * `--from` writing every table write the processors made to FILE, one JSON line each (bigints as
 * `123n`), so two builds' outputs can be compared byte for byte (`cmp`). A kept data directory
 * comes from `node scripts/bench-indexer.mjs graphql --transactions 30000 --keep DIR`.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { cliArgs, root as ownRoot } from "./lib.mjs"

const { arg, num } = cliArgs()
const dataDir = arg("data-dir")
if (dataDir === undefined) throw new Error("--data-dir DIR: a kept chain (bench-indexer.mjs graphql --keep DIR)")
const root = arg("root", ownRoot)
const from = BigInt(num("from", 20_000))
const count = num("count", 6_000)
const rounds = num("rounds", 8)
const writesFile = arg("writes")

const dist = (p) => import(pathToFileURL(join(root, "dist", p)).href)
const { openReadOnlyStore } = await dist("follow/readOnlyStore.js")
const { makeLedgerService } = await dist("ledger/makeLedgerService.js")
const { processorPipeline } = await dist("indexer/engine/processorPipeline.js")
const { Effect } = await import(pathToFileURL(join(root, "node_modules", "effect", "dist", "index.js")).href)

const ledger = makeLedgerService(openReadOnlyStore(join(dataDir, "ledger")), {}).service
const pipeline = processorPipeline()

/** Runs the pipeline over `count` versions from `from`, in batches of 500 as the worker does; `f` sees each batch. */
const run = async (f) => {
  let next = from
  let versions = 0
  while (versions < count) {
    const batch = await Effect.runPromise(pipeline.batch(ledger, next, 500))
    if (batch === undefined) break
    f(batch)
    versions += batch.transactions
    next = batch.lastVersion + 1n
  }
  return versions
}

if (writesFile !== undefined) {
  const lines = []
  const text = (x) => JSON.stringify(x, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))
  const versions = await run((batch) => {
    for (const w of batch.writes) lines.push(text(w))
  })
  writeFileSync(writesFile, lines.join("\n"))
  console.log(JSON.stringify({ root, versions, writes: lines.length, file: writesFile }))
} else {
  const msPerVersion = []
  for (let r = 0; r < rounds; r++) {
    const cpu = process.cpuUsage()
    const versions = await run(() => {})
    const used = process.cpuUsage(cpu)
    msPerVersion.push(Number(((used.user + used.system) / 1000 / versions).toFixed(4)))
  }
  // The first round also learns every table from genesis and compiles: the minimum leaves it out.
  console.log(JSON.stringify({ root, from: String(from), count, msPerVersion, min: Math.min(...msPerVersion.slice(1)) }))
}
