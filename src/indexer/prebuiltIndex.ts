/**
 * The index of a prebuilt genesis, built with it (`npm run build`): indexing genesis — a write set of
 * the whole framework — takes a few hundred milliseconds of the event loop, which a new chain would
 * otherwise spend while its first faucet request waits. A new data directory's index starts as a
 * copy of it (`seedIndex`); the `Indexer` still checks, as for any stored index, that its version 0
 * has the ledger's hash (else it rebuilds from the ledger), and the schema hash covers the code.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs"
import { dirname } from "node:path"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { LedgerMemory } from "../ledger/index.js"
import { Ledger } from "../ledger/Ledger.js"
import type { Pipeline } from "./engine/Pipeline.js"
import { IndexerStore } from "./store/IndexerStore.js"

/** Where the index of the prebuilt genesis `genesisFile` is kept. */
export const prebuiltIndexFileOf = (genesisFile: string): string => genesisFile.replace(/\.blob$/, ".index.sqlite")

/** Indexes the genesis block of `genesis` into a new SQLite file `file`, as the node's Indexer would. */
export const writeGenesisIndex = (
  genesis: Uint8Array,
  file: string,
  pipeline: Pipeline,
  schemaExtra: string
): Promise<void> => {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true })
  mkdirSync(dirname(file), { recursive: true })
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const ctx = yield* Layer.build(
          Layer.mergeAll(
            LedgerMemory.layer({ genesis }),
            IndexerStore.layer({ _tag: "Sqlite", path: file }, { schemaExtra })
          )
        )
        const ledger = Context.get(ctx, Ledger)
        const store = Context.get(ctx, IndexerStore)
        const info = yield* ledger.ledgerInfo
        const batch = yield* pipeline.batch(ledger, 0n, 1)
        if (batch === undefined) return yield* Effect.die(new Error("the genesis ledger has no block"))
        yield* store.commit(
          batch.writes,
          {
            version: batch.lastVersion,
            hash: batch.lastHash,
            timestampUsec: batch.lastTimestampUsec,
            chainId: info.chainId
          },
          pipeline.processorNames
        )
      })
    )
  )
}

/** Copies the prebuilt index to `target` when `target` does not exist yet (a new data directory). */
export const seedIndex = (prebuilt: string | undefined, target: string): void => {
  if (prebuilt === undefined || existsSync(target) || !existsSync(prebuilt)) return
  mkdirSync(dirname(target), { recursive: true })
  copyFileSync(prebuilt, target)
}
