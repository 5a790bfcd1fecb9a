/**
 * BCS codec for the ledger `Transaction` enum: 0 User, 1 Genesis, 2 BlockMetadata,
 * 3 StateCheckpoint(HashValue), 4 ValidatorTransaction, 5 BlockMetadataExt, 6 BlockEpilogue.
 */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import {
  readBlockEpiloguePayload,
  readBlockMetadata,
  readBlockMetadataExt,
  readHashValue,
  readValidatorTransaction,
  writeBlockEpiloguePayload,
  writeBlockMetadata,
  writeBlockMetadataExt,
  writeHashValue,
  writeValidatorTransaction
} from "./BlockCodec.js"
import { readWriteSetPayload, writeWriteSetPayload } from "./ChangeSetCodec.js"
import { readSignedTransaction, writeSignedTransaction } from "./PayloadCodec.js"
import type { Transaction } from "./Transaction.js"

export const writeTransaction = (w: BcsWriter, t: Transaction): void => {
  switch (t._tag) {
    case "UserTransaction":
      w.u8(0)
      writeSignedTransaction(w, t.signed)
      return
    case "GenesisTransaction":
      w.u8(1)
      writeWriteSetPayload(w, t.payload)
      return
    case "BlockMetadata":
      w.u8(2)
      writeBlockMetadata(w, t.metadata)
      return
    case "StateCheckpoint":
      w.u8(3)
      writeHashValue(w, t.hash)
      return
    case "ValidatorTransaction":
      w.u8(4)
      writeValidatorTransaction(w, t.transaction)
      return
    case "BlockMetadataExt":
      w.u8(5)
      writeBlockMetadataExt(w, t.metadata)
      return
    case "BlockEpilogue":
      w.u8(6)
      writeBlockEpiloguePayload(w, t)
      return
  }
}

export const readTransaction = (r: BcsReader): Transaction => {
  const start = r.offset
  const tag = r.uleb128()
  switch (tag) {
    case 0:
      return { _tag: "UserTransaction", signed: readSignedTransaction(r) }
    case 1:
      return { _tag: "GenesisTransaction", payload: readWriteSetPayload(r) }
    case 2:
      return { _tag: "BlockMetadata", metadata: readBlockMetadata(r) }
    case 3:
      return { _tag: "StateCheckpoint", hash: readHashValue(r) }
    case 4:
      return { _tag: "ValidatorTransaction", transaction: readValidatorTransaction(r) }
    case 5:
      return { _tag: "BlockMetadataExt", metadata: readBlockMetadataExt(r) }
    case 6: {
      const p = readBlockEpiloguePayload(r)
      return p.feeDistribution === undefined
        ? { _tag: "BlockEpilogue", blockId: p.blockId, blockEndInfo: p.blockEndInfo }
        : {
            _tag: "BlockEpilogue",
            blockId: p.blockId,
            blockEndInfo: p.blockEndInfo,
            feeDistribution: p.feeDistribution
          }
    }
    default:
      r.offset = start
      return r.fail(`invalid Transaction variant ${tag}`)
  }
}

export const transactionCodec: Codec<Transaction> = Bcs.codec(writeTransaction, readTransaction)
