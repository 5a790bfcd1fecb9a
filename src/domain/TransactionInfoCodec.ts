/** BCS codec of `TransactionInfo` (enum V0) and its CryptoHash. */
import { Bcs, type BcsReader, type BcsWriter, type Codec, withScratchWriter } from "../bcs/index.js"
import { readHashValue, writeHashValue } from "./BlockCodec.js"
import { readExecutionStatus, writeExecutionStatus } from "./ExecutionStatusCodec.js"
import { hashWithPrefix } from "./hash.js"
import type { TransactionInfo } from "./TransactionInfo.js"

const writeOptionalHash = (w: BcsWriter, h: Uint8Array | undefined): void => {
  if (h === undefined) w.u8(0)
  else {
    w.u8(1)
    writeHashValue(w, h)
  }
}

const readOptionalHash = (r: BcsReader): Uint8Array | undefined => (r.optionTag() ? readHashValue(r) : undefined)

export const writeTransactionInfo = (w: BcsWriter, i: TransactionInfo): void => {
  w.u8(0).u64(i.gasUsed)
  writeExecutionStatus(w, i.status)
  writeHashValue(w, i.transactionHash)
  writeHashValue(w, i.eventRootHash)
  writeHashValue(w, i.stateChangeHash)
  writeOptionalHash(w, i.stateCheckpointHash)
  writeOptionalHash(w, i.auxiliaryInfoHash)
}

export const readTransactionInfo = (r: BcsReader): TransactionInfo => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag !== 0) {
    r.offset = start
    r.fail(`invalid TransactionInfo variant ${tag}`)
  }
  return {
    gasUsed: r.u64(),
    status: readExecutionStatus(r),
    transactionHash: readHashValue(r),
    eventRootHash: readHashValue(r),
    stateChangeHash: readHashValue(r),
    stateCheckpointHash: readOptionalHash(r),
    auxiliaryInfoHash: readOptionalHash(r)
  }
}

export const transactionInfoCodec: Codec<TransactionInfo> = Bcs.codec(writeTransactionInfo, readTransactionInfo)

/** sha3(prefix("TransactionInfo") ‖ BCS(info)): the transaction accumulator's leaf. */
export const transactionInfoHash = (info: TransactionInfo): Uint8Array => withScratchWriter(hashInfoWith, info)

const hashInfoWith = (w: BcsWriter, info: TransactionInfo): Uint8Array => {
  writeTransactionInfo(w, info)
  return hashWithPrefix("TransactionInfo", w.written())
}
