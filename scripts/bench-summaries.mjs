#!/usr/bin/env node
// Where a transaction_summaries request spends its time outside HTTP: the ledger read of a 25-item
// page from LMDB against rendering it. Populates a temporary data dir (bench-populate.mjs) over the
// compiled tree, so run `npm run build` first.
//
//   node scripts/bench-summaries.mjs [--genesis genesis/devnet.blob]
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Effect } from "effect"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const dist = (p) => pathToFileURL(join(root, "dist", p)).href
const i = process.argv.indexOf("--genesis")
const genesis = resolve(i < 0 ? join(root, "genesis/devnet.blob") : process.argv[i + 1])
const { LedgerLmdb } = await import(dist("ledger/index.js"))
const { addressFromNumber } = await import(dist("domain/index.js"))
const { summariesJson, summariesJsonBytes } = await import(dist("http/Render.js"))

/** Best of 5 timed batches of `n` calls after a warm-up, in µs per call. */
const time = (f, n = 20_000) => {
  for (let k = 0; k < 2_000; k++) f()
  let best = Number.POSITIVE_INFINITY
  for (let r = 0; r < 5; r++) {
    const t = performance.now()
    for (let k = 0; k < n; k++) f()
    best = Math.min(best, ((performance.now() - t) * 1000) / n)
  }
  return best.toFixed(2)
}

const dir = mkdtempSync(join(tmpdir(), "movenode-summaries-"))
try {
  mkdirSync(join(dir, "scratch"))
  execFileSync(process.execPath, [join(root, "scripts/bench-populate.mjs"), genesis, join(dir, "data"), join(dir, "scratch"), "40", "25", "51966"], {
    timeout: 300_000
  })
  await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const { service } = yield* LedgerLmdb.open({ path: join(dir, "data") })
        const sender = addressFromNumber(0xcafe)
        const read = () => Effect.runSync(service.summariesBySender(sender, { limit: 25 }))
        const page = read()
        console.log(`25-item page of ${page.length}, µs per call (best of 5 batches):`)
        console.log(`  ledger.summariesBySender (LMDB)   ${time(read)}`)
        console.log(`  ledger.ledgerInfo                 ${time(() => Effect.runSync(service.ledgerInfo))}`)
        console.log(`  summariesJson (string)            ${time(() => summariesJson(page))}`)
        console.log(`  summariesJsonBytes (latin1 bytes) ${time(() => summariesJsonBytes(page))}`)
      })
    )
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
