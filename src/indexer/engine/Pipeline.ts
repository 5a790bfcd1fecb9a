/**
 * What the `Indexer` runs per batch: read the committed blocks from a version on and turn them into
 * store writes. The default pipeline is the processors' (`processorPipeline`); tests and library
 * users may give another.
 */
import type * as Effect from "effect/Effect"
import type { LedgerService } from "../../ledger/Ledger.js"
import type { LedgerError } from "../../ledger/LedgerError.js"
import type { StoreWrite } from "../store/writes.js"

export interface BatchResult {
  readonly writes: ReadonlyArray<StoreWrite>
  /** The last version of the batch (whole blocks), its hash (`0x…`) and block timestamp. */
  readonly lastVersion: bigint
  readonly lastHash: string
  readonly lastTimestampUsec: bigint
  /**
   * The ledger's transaction accumulator root after the last version (`0x…`): what lets the index
   * go back to this batch's end after a rewind (`store/undoLog.ts`). A pipeline that leaves it out
   * is rebuilt from genesis after every rewind instead.
   */
  readonly lastAccumulatorRoot?: string | undefined
  readonly transactions: number
}

export interface Pipeline {
  /** The names `processor_status` reports (one row each, from the first answer on). */
  readonly processorNames: ReadonlyArray<string>
  /** Changes when the rows the pipeline writes change (the index is then rebuilt). */
  readonly fingerprint: string
  /** The writes of the whole blocks from `next` on, at most ~`maxTransactions`; undefined past the ledger's end. */
  readonly batch: (
    ledger: LedgerService,
    next: bigint,
    maxTransactions: number
  ) => Effect.Effect<BatchResult | undefined, LedgerError>
}
