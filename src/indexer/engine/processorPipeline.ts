/**
 * The default pipeline: the processors of `src/indexer/processors` over whole committed blocks
 * (`blocksFrom`, `readIndexerChunks`), their writes in processor order. A processor that throws is a
 * bug: the batch fails (the `Indexer` reports it and retries) rather than being stored without
 * that processor's rows.
 */
import * as Effect from "effect/Effect"
import { toHex0x } from "../../bcs/index.js"
import type { LedgerService } from "../../ledger/Ledger.js"
import { StorageError } from "../../ledger/LedgerError.js"
import {
  processors as allProcessors,
  blocksFrom,
  makeIndexerInput,
  type IndexerTransaction,
  type Processor,
  processorNames,
  readIndexerChunks
} from "../processors/index.js"
import type { StoreWrite } from "../store/writes.js"
import type { Pipeline } from "./Pipeline.js"

/**
 * Transactions the processors get at a time. The decoded input of a whole batch (a block of a few
 * hundred transfers under load: transactions, write sets, events, their Move values) would stay
 * reachable until the last processor had read it, so the worker's young-generation collections
 * copied it and promoted it to die in old space. Measured at ~1,700–2,000 transfers/s over 15 s
 * (`--trace-gc-nvp`): whole batches 0.80–0.93 GB copied within the young generation, 0.55–0.64 GB
 * promoted, 24–27 mark-compacts; in runs of 32 (`runProcessors`) 0.54–0.62 GB, 0.19–0.21 GB and
 * 11–12 (docs/benchmarks.md, "Session 12"). The rows still go to the store as one transaction per batch.
 *
 * A run is a batch as far as the processors know. The reference's processors read the stream in
 * batches of whatever size it hands them, and the lookups a processor makes across its batch (a
 * coin type registered in it, a token's earlier owner) fall back to the state before the
 * transaction; their tests compare a whole history as one batch with block by block.
 */
export const PROCESS_CHUNK = 32

class ProcessorFailed extends Error {}

/**
 * Every processor's writes for `chunk`, appended to `writes` in processor order. A plain function
 * run in one `Effect.try` per run. With an `Effect.gen` per run (a `yield*` per processor) nothing
 * was saved — measured: promoted 0.56–0.64 GB in 15 s, 25–27 mark-compacts, as with whole batches;
 * why is not understood (a micro-benchmark of nested `Effect.gen` loops kept nothing) — and its
 * body was a closure made per run.
 */
const runProcessors = (
  processors: ReadonlyArray<Processor>,
  chunk: ReadonlyArray<IndexerTransaction>,
  writes: StoreWrite[]
): void => {
  for (const p of processors) {
    let out: ReadonlyArray<unknown>
    try {
      out = p.process(chunk)
    } catch (e) {
      throw new ProcessorFailed(`processor ${p.name} failed: ${e instanceof Error ? e.message : String(e)}`)
    }
    for (const w of out) writes.push(w as StoreWrite)
  }
}

export const processorPipeline = (processors: ReadonlyArray<Processor> = allProcessors): Pipeline => {
  const input = makeIndexerInput()
  return {
    processorNames,
    fingerprint: JSON.stringify(processors.map((p) => [p.name, p.tables])),
    // One generator function per pipeline, not one per batch
    // (docs/architecture.md, "Hot loops live in functions made once").
    batch: Effect.fnUntraced(function* (ledger: LedgerService, next: bigint, maxTransactions: number) {
      const blocks = yield* blocksFrom(ledger, next, maxTransactions)
      if (blocks.length === 0) return undefined
      const writes: StoreWrite[] = []
      let lastHash = ""
      /** The last transaction's accumulator root, as hex once the batch is done (not per run). */
      let lastRoot: Uint8Array | undefined
      const transactions = yield* readIndexerChunks(ledger, input, blocks, PROCESS_CHUNK, (chunk) =>
        Effect.try({
          try: () => {
            runProcessors(processors, chunk, writes)
            const end = chunk[chunk.length - 1]
            if (end !== undefined) {
              lastHash = end.hash
              lastRoot = end.committed.accumulatorRootHash
            }
          },
          catch: (e) => new StorageError({ message: e instanceof ProcessorFailed ? e.message : String(e) })
        })
      )
      const last = blocks[blocks.length - 1]!
      return {
        writes,
        lastVersion: last.lastVersion,
        lastHash,
        lastTimestampUsec: last.timestampUsec,
        lastAccumulatorRoot: lastRoot === undefined ? undefined : toHex0x(lastRoot),
        transactions
      }
    })
  }
}
