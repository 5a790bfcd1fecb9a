/**
 * The indexer, in the node: the GraphQL API (Hasura's dialect, indexer.md §3) that the SDK's
 * indexer functions, wallets and the Explorer read, kept level with the chain in process.
 *
 * Data path:
 *
 *   ledger ─ BlockCommitted ─▶ worker/IndexerThread ─ "Wake" ─▶ worker thread (worker/indexerWorker):
 *          engine/followLedger reads the blocks from the LMDB store ─ pipeline (processors/: pure,
 *          txns → writes) ─▶ store/IndexerStore (effect/sql: SQLite embedded, or PostgreSQL) — one
 *          transaction per batch (blocks gathered, boundedly: engine/gatherPolicy) ─ "Progress" (version
 *          indexed) ─▶ IndexerThread (read-after-write; a waiting query sends "Hurry")
 *   HTTP 8090 ─▶ GraphqlServer ─▶ graphql/ (plan: parse+validate+coerce; sql: plan → parameterised SQL;
 *          execute: statements → JSON text) ─▶ the chain thread's own read connection (openIndexReads)
 *
 * A ledger in memory cannot be read from another thread: its indexer runs the same loop on the
 * chain's thread (`engine/Indexer.layer`), as it does when the worker script is not built (vitest).
 *
 * - `schema/`: the table catalogue (columns with Hasura types, keys, relationships, views); the
 *   store's DDL and the GraphQL schema are both derived from it.
 * - `store/`: the dialects, value encodings (exact u64/u128 in SQLite), DDL, the write merge rules
 *   and how much of a merged row is written (`upsertKind.ts`), the per-table row binders, the undo log
 *   (what takes batches back when the chain reverts).
 * - `graphql/`: schema generation, request planning, SQL compilation, execution, Hasura's errors.
 * - `engine/`: the `Indexer` service (follows the chain, resumes, goes back with it or rebuilds, read-after-write waits,
 *   gathers blocks into one store transaction), and the chain's gate on its lag.
 * - `worker/`: the indexer in a worker thread, and the chain thread's side of it.
 * - `processors/`: one pure processor per reference processor.
 * - `codeKey.ts`: what names the processors' built code in a kept index's key.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { IndexerDatabase } from "../chain/LocalChainConfig.js"
import { Indexer } from "./engine/Indexer.js"
import { processorPipeline } from "./engine/processorPipeline.js"
import { seedIndex } from "./prebuiltIndex.js"
import { IndexerStore, type IndexerStoreConfig } from "./store/IndexerStore.js"
import { defaultIndexerWorkerUrl, indexerThreadLayer } from "./worker/IndexerThread.js"

export { processorsCodeKey } from "./codeKey.js"
export { Indexer, type IndexerHealth, type IndexerService } from "./engine/Indexer.js"
import type { Pipeline } from "./engine/Pipeline.js"
export type { Pipeline } from "./engine/Pipeline.js"
export { processorPipeline } from "./engine/processorPipeline.js"
export { GraphqlServer } from "./GraphqlServer.js"
export { makeGraphqlEngine } from "./graphql/GraphqlEngine.js"
export { prebuiltIndexFileOf, writeGenesisIndex } from "./prebuiltIndex.js"
export { catalogueTables } from "./schema/index.js"
export {
  IndexerStore,
  type IndexerStoreConfig,
  type IndexPosition,
  type IndexReads,
  openIndexReads
} from "./store/IndexerStore.js"
export { defaultIndexerWorkerUrl, indexerThreadLayer } from "./worker/IndexerThread.js"

/** What besides the DDL makes a stored index current: the build (code, chain parameters) and the processors. */
export const indexerSchemaExtra = (buildKey: string, pipeline: Pipeline): string =>
  `${buildKey}\n${pipeline.fingerprint}`

/** Where the embedded index of a data directory lives. */
export const embeddedIndexPath = (dataDir: string | undefined): string => {
  if (dataDir === undefined) return ":memory:"
  mkdirSync(join(dataDir, "indexer"), { recursive: true })
  return join(dataDir, "indexer", "index.sqlite")
}

/** Where the indexer runs: `ledgerPath` (an LMDB ledger's directory) lets it run in a worker thread. */
export interface IndexerPlacement {
  readonly ledgerPath?: string | undefined
  /** The worker script; default the build's (`defaultIndexerWorkerUrl`); false = on the chain's thread. */
  readonly workerUrl?: URL | false | undefined
  /** The embedded store flushes at its checkpoints (default true; the local chain's `--no-fsync`). */
  readonly fsync?: boolean | undefined
  /**
   * A fork's index: its first version (the fork's first block of its own) and the guard each batch
   * runs under (the fork's `retryOnMiss`: the processors read state before each transaction, which
   * may not be fetched from the source yet). It runs on the chain's thread — a worker reading the
   * LMDB store would not see the source's state — and starts from no prebuilt index.
   */
  readonly fork?:
    | {
        readonly firstVersion: bigint
        readonly guardBatch: <A, E, R>(batch: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
      }
    | undefined
}

/**
 * The indexer of a local chain: `database` embedded or PostgreSQL; `buildKey` names the processors'
 * code and the chain parameters, so a build whose processors changed rebuilds the index. Over an
 * LMDB ledger (`placement.ledgerPath`) it runs in a worker thread when the worker script is built;
 * otherwise on the chain's thread.
 */
export const indexerLayerFor = (
  database: IndexerDatabase,
  dataDir: string | undefined,
  buildKey: string,
  prebuiltIndex?: string | undefined,
  placement: IndexerPlacement = {}
) => {
  const processors = processorPipeline()
  const fork = placement.fork
  const pipeline: Pipeline =
    fork === undefined
      ? processors
      : { ...processors, batch: (ledger, next, max) => fork.guardBatch(processors.batch(ledger, next, max)) }
  const storeConfig: IndexerStoreConfig =
    database._tag === "Postgres"
      ? { _tag: "Postgres", url: database.url }
      : { _tag: "Sqlite", path: embeddedIndexPath(dataDir), fsync: placement.fsync }
  // A new data directory starts from the prebuilt genesis's index (checked like any stored index).
  if (storeConfig._tag === "Sqlite" && storeConfig.path !== ":memory:" && fork === undefined)
    seedIndex(prebuiltIndex, storeConfig.path)
  const schemaExtra = indexerSchemaExtra(buildKey, pipeline)
  const workerUrl = placement.workerUrl === false ? undefined : (placement.workerUrl ?? defaultIndexerWorkerUrl())
  if (placement.ledgerPath !== undefined && workerUrl !== undefined && fork === undefined)
    return indexerThreadLayer({
      ledgerPath: placement.ledgerPath,
      store: storeConfig,
      schemaExtra,
      processorNames: pipeline.processorNames,
      workerUrl
    })
  const store = IndexerStore.layer(storeConfig, { schemaExtra, processorNames: pipeline.processorNames })
  return Indexer.layer({ pipeline, firstVersion: fork?.firstVersion }).pipe(Layer.provide(store))
}
