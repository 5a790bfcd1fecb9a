// Child of damagedStore.test.ts: opens an LMDB ledger through the compiled layer (importing the
// genesis when the store is new, checking it otherwise), reads every module of the genesis back,
// prints "ok <version>"; with "hold" it then keeps the store open until killed.
// Usage: node storeChild.mjs <open|hold> <store path> <genesis blob>
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import { LedgerLmdb } from "../../dist/ledger/index.js"

const [mode, path, genesisPath] = process.argv.slice(2)
const genesis = new Uint8Array(readFileSync(genesisPath))
try {
  await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const handle = yield* LedgerLmdb.open({ path, genesis })
        const info = yield* handle.service.ledgerInfo
        process.stdout.write(`ok ${info.ledgerVersion}\n`)
        // Effect.never alone does not keep the event loop (so the process) alive: a timer does.
        if (mode === "hold") yield* Effect.promise(() => new Promise(() => setInterval(() => {}, 60_000)))
      })
    )
  )
} catch (e) {
  process.stderr.write(`${e?.message ?? e}\n`)
  process.exit(3)
}
