import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import type { ApiError } from "../domain/ApiError.js"
import { ApiErrors } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { type CommittedTransaction, Ledger, type StateReader } from "../ledger/Ledger.js"
import type { ModuleSource } from "../move/layout/ModuleSource.js"
import { hasMissed } from "../ledger/stateMisses.js"
import { apiErrorFromLedger } from "./apiErrorFromLedger.js"
import { makeSnapshotModules, moduleCache, stateModuleSource } from "./encode/stateModuleSource.js"
import { forgetOnRewind } from "./forgetOnRewind.js"
import { followLedger } from "./tableInfo/followLedger.js"
import type { TableTypes } from "./tableInfo/TableInfoIndex.js"
import { NodeConfig } from "./NodeConfig.js"
import { transactionJson } from "./render/transactionJson.js"

export interface RendererService {
  /** The modules of `state`, as the layout resolver wants them (decoded once per stored module version). */
  readonly modulesAt: (state: StateReader) => ModuleSource
  /**
   * A committed transaction's JSON text (`src/node/render/transactionJson.ts`), its Move values
   * rendered with the state at its own version: the same text however the transaction is reached
   * (by version, by hash, in a list, in a block). Kept per version (a transaction never changes).
   */
  readonly transactionText: (t: CommittedTransaction, ledger: LedgerInfo) => Effect.Effect<string, ApiError>
  /**
   * The tables' key and value types known through `version` (`tableInfo/`: learned from the write
   * sets up to it), with which table items are rendered; the indexer's table processors read them too.
   */
  readonly tableTypesThrough: (version: bigint) => Effect.Effect<TableTypes>
}

/** How long a transaction answer waits for the table-info index (see `followLedger`). */
const TABLE_INFO_BUDGET = "1 second"

/** Rendered transactions kept, by total text size. */
const TEXT_CACHE_BYTES = 64 * 1024 * 1024

/**
 * The shared loader of the read services: decoded modules for layouts, the tables' types (the
 * table-info index, following the ledger), and committed transactions rendered once. A transaction is rendered at its own version, so its text is final and can be
 * kept for as long as the cache holds it (pruning is checked by the ledger reads that reach it).
 */
export class Renderer extends Context.Service<Renderer, RendererService>()("movenode/node/Renderer") {
  static readonly layer = Layer.effect(
    Renderer,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const config = yield* NodeConfig
      const decoded = moduleCache(config.moduleAbiCacheSize)
      // One memo of looked-up modules for every render: renders at versions with the same modules
      // (`codeSnapshotId`: every block between two publications) look each one up once.
      const looked = makeSnapshotModules()
      const modulesAt = (state: StateReader): ModuleSource => stateModuleSource(state, decoded, looked)
      // A transaction answer waits at most this long for the table-info index to catch up (a fork
      // reads its old history from its source); one rendered before it caught up is not kept.
      const tableInfo = followLedger(ledger, modulesAt, { budget: TABLE_INFO_BUDGET })

      const texts = new Map<bigint, string>()
      let textBytes = 0
      const keep = (version: bigint, text: string) => {
        // On a fork, a text rendered while state was missing is dropped, not kept (ledger/stateMisses.ts).
        if (text.length > TEXT_CACHE_BYTES / 4 || hasMissed()) return
        for (const [v, t] of texts) {
          if (textBytes + text.length <= TEXT_CACHE_BYTES) break
          texts.delete(v)
          textBytes -= t.length
        }
        texts.set(version, text)
        textBytes += text.length
      }

      // A rewound ledger reuses versions: a text kept for one is another transaction's.
      const rewound = forgetOnRewind(ledger, () => {
        texts.clear()
        textBytes = 0
        decoded.clear()
      })
      const transactionText = (t: CommittedTransaction, info: LedgerInfo): Effect.Effect<string, ApiError> => {
        rewound()
        // A fork's history: the text its source rendered (src/fork/ForkHistory.ts).
        if (t.sourceJson !== undefined) return Effect.succeed(t.sourceJson)
        const hit = texts.get(t.version)
        if (hit !== undefined) return Effect.succeed(hit)
        return Effect.mapError(Effect.zip(ledger.stateAt(t.version), tableInfo.through(t.version)), (e) =>
          apiErrorFromLedger(e, info, "Failed to read the state of a transaction")
        ).pipe(
          Effect.flatMap(([state, tables]) => {
            const complete = tableInfo.learnedThrough() >= t.version
            const json = transactionJson(modulesAt(state), t, tables)
            if (Result.isFailure(json))
              return Effect.fail(
                ApiErrors.internal(`Failed to convert transaction ${t.version}: ${json.failure.message}`, info)
              )
            const text = JSON.stringify(json.success)
            if (complete) keep(t.version, text)
            return Effect.succeed(text)
          })
        )
      }

      return Renderer.of({ modulesAt, transactionText, tableTypesThrough: tableInfo.through })
    })
  )
}
