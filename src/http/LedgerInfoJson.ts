import * as Schema from "effect/Schema"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { U8Json, U64String } from "./IntegerSchemas.js"

/** `GET /v1`: the ledger info as the reference serves it (u64 fields as decimal strings). */
export const LedgerInfoJson = Schema.Struct({
  chain_id: U8Json,
  epoch: U64String,
  ledger_version: U64String,
  oldest_ledger_version: U64String,
  ledger_timestamp: U64String,
  node_role: Schema.String,
  oldest_block_height: U64String,
  block_height: U64String,
  git_hash: Schema.optional(Schema.String)
}).annotate({ identifier: "IndexResponse" })
export type LedgerInfoJson = typeof LedgerInfoJson.Type

export const ledgerInfoToJson = (info: LedgerInfo, gitHash: string | undefined): LedgerInfoJson => ({
  chain_id: info.chainId,
  epoch: info.epoch.toString(),
  ledger_version: info.ledgerVersion.toString(),
  oldest_ledger_version: info.oldestLedgerVersion.toString(),
  ledger_timestamp: info.ledgerTimestampUsec.toString(),
  node_role: "full_node",
  oldest_block_height: info.oldestBlockHeight.toString(),
  block_height: info.blockHeight.toString(),
  ...(gitHash === undefined ? {} : { git_hash: gitHash })
})
