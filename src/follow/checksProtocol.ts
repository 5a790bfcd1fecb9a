/** Messages between a follower's main thread and its checks' worker (`checksWorker.ts`). */
import type { Accumulator } from "../domain/MerkleAccumulator.js"

export interface ChecksJob {
  readonly id: number
  /** Where the run starts; undefined: where the previous job ended (it passed). */
  readonly start: { readonly version: bigint; readonly accumulator: Accumulator } | undefined
  /** `Vec<TransactionOnChainData>` BCS: the run's transactions as received. */
  readonly body: Uint8Array
}

export type ChecksAnswer =
  | { readonly id: number; readonly _tag: "Checked"; readonly leaves: Uint8Array }
  | {
      readonly id: number
      readonly _tag: "Failed"
      readonly error: "SourceInvalid" | "SourceDiverged"
      readonly text: string
    }
