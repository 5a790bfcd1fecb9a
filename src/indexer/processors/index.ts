/**
 * The indexer's processors: pure functions from committed transactions to table rows, one per
 * reference processor (indexer.md §2), as the `Indexer` service runs them on every committed block.
 *
 * Data path:
 *   ledger ─ readIndexerChunks (input/) ─▶ IndexerTransaction[] (runs of 32 within a block)
 *   ─ processor.process ─▶ TableWrite[] ─ the engine ─▶ one SQL transaction per batch (with processor_status)
 *
 * - `Processor.ts`: the contract (input, `Insert`/`Upsert` writes, processor names).
 * - `input/`: the processors' view of a committed transaction (`IndexerTransaction`) and how it is
 *   read from the ledger; `resourceJsonCache.ts` keeps the JSON of resource values that repeat
 *   (group members rewritten unchanged) so they decode once.
 * - `rows.ts`: value formats (addresses, timestamps) and the in-batch collapse of `current_*` rows.
 * - `moveValues.ts`: readers for Move values in the API's JSON (never throw: garbage is skipped).
 * - `objectResources.ts`: the object and fungible-store resources a transaction wrote, by address.
 * - one file (or folder) per processor: `userTransactions.ts`, `accountTransactions.ts`,
 *   `events.ts`, `accountRestoration.ts`, `fungibleAsset/` (metadata, activities, paired balances, coin mappings),
 *   `objects.ts`, `ledgerInfos.ts`, `blockMetadataTransactions.ts`; `processors` lists them all, in the
 *   order the engine runs them.
 * - nft (issue 20): `tableItems.ts` (the default processor's table rows, from the node's table info),
 *   `tokenV2/` (digital assets: v2 objects and v1 tables), `stake.ts` (delegation pools).
 */
import { accountRestorationProcessor } from "./accountRestoration.js"
import { accountTransactionsProcessor } from "./accountTransactions.js"
import { blockMetadataProcessor } from "./blockMetadataTransactions.js"
import { eventsProcessor } from "./events.js"
import { fungibleAssetProcessor } from "./fungibleAsset/fungibleAssetProcessor.js"
import { ledgerInfosProcessor } from "./ledgerInfos.js"
import { objectsProcessor } from "./objects.js"
import type { Processor } from "./Processor.js"
import { userTransactionProcessor } from "./userTransactions.js"
// nft (issue 20)
import { stakeProcessor } from "./stake.js"
import { tableItemsProcessor } from "./tableItems.js"
import { tokenV2Processor } from "./tokenV2/tokenV2Processor.js"

export * from "./input/IndexerTransaction.js"
export * from "./input/indexerTransactionOf.js"
export * from "./input/readIndexerBatch.js"
export * from "./Processor.js"
export * from "./rows.js"

/** Every processor the indexer runs. */
export const processors: ReadonlyArray<Processor> = [
  // idx-proc (issue 19)
  userTransactionProcessor,
  accountTransactionsProcessor,
  eventsProcessor,
  fungibleAssetProcessor,
  objectsProcessor,
  ledgerInfosProcessor,
  blockMetadataProcessor,
  accountRestorationProcessor,
  // nft (issue 20): table items, digital assets, delegation pools
  tableItemsProcessor,
  tokenV2Processor,
  stakeProcessor
]
