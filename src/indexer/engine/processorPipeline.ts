/**
 * The default pipeline: the processors of `src/indexer/processors` over whole committed blocks
 * (`blocksFrom`, `readIndexerBatch`), their writes in processor order. A processor that throws is a
 * bug: the batch fails (the `Indexer` reports it and retries) rather than being stored without
 * that processor's rows.
 */
import * as Effect from "effect/Effect"
import { StorageError } from "../../ledger/LedgerError.js"
import {
  processors as allProcessors,
  blocksFrom,
  makeIndexerInput,
  type Processor,
  processorNames,
  readIndexerBatch
} from "../processors/index.js"
import type { StoreWrite } from "../store/writes.js"
import type { Pipeline } from "./Pipeline.js"

export const processorPipeline = (processors: ReadonlyArray<Processor> = allProcessors): Pipeline => {
  const input = makeIndexerInput()
  return {
    processorNames,
    fingerprint: JSON.stringify(processors.map((p) => [p.name, p.tables])),
    batch: (ledger, next, maxTransactions) =>
      Effect.gen(function* () {
        const blocks = yield* blocksFrom(ledger, next, maxTransactions)
        if (blocks.length === 0) return undefined
        const transactions = yield* readIndexerBatch(ledger, input, blocks)
        const writes: StoreWrite[] = []
        for (const p of processors) {
          const out = yield* Effect.try({
            try: () => p.process(transactions),
            catch: (e) =>
              new StorageError({ message: `processor ${p.name} failed: ${e instanceof Error ? e.message : String(e)}` })
          })
          writes.push(...(out as ReadonlyArray<StoreWrite>))
        }
        const last = blocks[blocks.length - 1]!
        return {
          writes,
          lastVersion: last.lastVersion,
          lastHash: transactions[transactions.length - 1]?.hash ?? "",
          lastTimestampUsec: last.timestampUsec,
          transactions: transactions.length
        }
      })
  }
}
