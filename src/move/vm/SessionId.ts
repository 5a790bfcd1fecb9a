import { BcsWriter } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { writeHashValue } from "../../domain/BlockCodec.js"
import { hashWithPrefix } from "../../domain/hash.js"

/**
 * The reference's `SessionId`: what a VM session is run for. Its CryptoHash
 * (sha3("APTOS::SessionId") ‖ BCS) is the "transaction hash" the natives see: `get_txn_hash`, unique
 * addresses (AUIDs), new table handles and aggregator keys are derived from it. Variants in BCS
 * order; `scriptHash` is the sha3-256 of a script payload's code, empty otherwise.
 */
export type SessionId =
  | {
      readonly _tag: "Txn"
      readonly sender: AccountAddress
      readonly sequenceNumber: bigint
      readonly scriptHash: Uint8Array
    }
  | { readonly _tag: "BlockMeta"; readonly id: Uint8Array }
  | { readonly _tag: "Genesis"; readonly id: Uint8Array }
  | {
      readonly _tag: "Prologue"
      readonly sender: AccountAddress
      readonly sequenceNumber: bigint
      readonly scriptHash: Uint8Array
    }
  | {
      readonly _tag: "Epilogue"
      readonly sender: AccountAddress
      readonly sequenceNumber: bigint
      readonly scriptHash: Uint8Array
    }
  | { readonly _tag: "Void" }
  | {
      readonly _tag: "RunOnAbort"
      readonly sender: AccountAddress
      readonly sequenceNumber: bigint
      readonly scriptHash: Uint8Array
    }
  | { readonly _tag: "BlockMetaExt"; readonly id: Uint8Array }
  | { readonly _tag: "ValidatorTxn"; readonly scriptHash: Uint8Array }
  | {
      readonly _tag: "OrderlessTxn" | "OrderlessTxnProlouge" | "OrderlessTxnEpilogue" | "OrderlessRunOnAbort"
      readonly sender: AccountAddress
      readonly nonce: bigint
      readonly expirationTime: bigint
      readonly scriptHash: Uint8Array
    }
  | { readonly _tag: "BlockEpilogue"; readonly id: Uint8Array }

const VARIANT: Record<SessionId["_tag"], number> = {
  Txn: 0,
  BlockMeta: 1,
  Genesis: 2,
  Prologue: 3,
  Epilogue: 4,
  Void: 5,
  RunOnAbort: 6,
  BlockMetaExt: 7,
  ValidatorTxn: 8,
  OrderlessTxn: 9,
  OrderlessTxnProlouge: 10,
  OrderlessTxnEpilogue: 11,
  OrderlessRunOnAbort: 12,
  BlockEpilogue: 13
}

/** BCS of a session id. */
export const writeSessionId = (w: BcsWriter, id: SessionId): void => {
  w.uleb128(VARIANT[id._tag])
  switch (id._tag) {
    case "Txn":
    case "Prologue":
    case "Epilogue":
    case "RunOnAbort":
      w.fixed(id.sender).u64(id.sequenceNumber).bytesWithLength(id.scriptHash)
      return
    case "OrderlessTxn":
    case "OrderlessTxnProlouge":
    case "OrderlessTxnEpilogue":
    case "OrderlessRunOnAbort":
      w.fixed(id.sender).u64(id.nonce).u64(id.expirationTime).bytesWithLength(id.scriptHash)
      return
    case "BlockMeta":
    case "Genesis":
    case "BlockMetaExt":
    case "BlockEpilogue":
      writeHashValue(w, id.id)
      return
    case "ValidatorTxn":
      w.bytesWithLength(id.scriptHash)
      return
    case "Void":
      return
  }
}

/** The session id's CryptoHash: the session's "transaction hash" (32 bytes). One per session: kept cheap. */
export const sessionIdHash = (id: SessionId): Uint8Array => {
  const w = new BcsWriter(48 + ("scriptHash" in id ? id.scriptHash.length : 0))
  writeSessionId(w, id)
  return hashWithPrefix("SessionId", w.toBytes())
}

/**
 * The session's place among a transaction's sessions (`monotonically_increasing_counter` carries
 * it): Prologue < Txn < RunOnAbort < Epilogue, as the reference numbers them.
 */
export const sessionCounter = (id: SessionId): number => SESSION_COUNTER[id._tag]

const SESSION_COUNTER: Record<SessionId["_tag"], number> = {
  Genesis: 0,
  Void: 5,
  BlockMeta: 10,
  BlockMetaExt: 15,
  ValidatorTxn: 20,
  Prologue: 25,
  OrderlessTxnProlouge: 30,
  Txn: 35,
  OrderlessTxn: 40,
  RunOnAbort: 45,
  OrderlessRunOnAbort: 50,
  Epilogue: 55,
  OrderlessTxnEpilogue: 60,
  BlockEpilogue: 65
}

/** The script hash a session's natives report (`get_script_hash`): empty unless a script runs. */
export const sessionScriptHash = (id: SessionId): Uint8Array => ("scriptHash" in id ? id.scriptHash : EMPTY)

const EMPTY = new Uint8Array(0)
