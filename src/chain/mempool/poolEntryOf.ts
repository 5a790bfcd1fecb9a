import { toHex } from "../../bcs/hex.js"
import { userTransactionHashOfSigned } from "../../domain/hash.js"
import { replayProtectorOf } from "../../domain/ReplayProtector.js"
import type { ReplayProtector, SignedTransaction } from "../../domain/Transaction.js"
import type { SignatureCheck } from "../../execution/verifySignature.js"
import type { NewEntry } from "./TxPool.js"

/**
 * What the pool keeps of a submitted transaction, from its BCS bytes (`signedBcs`, as received or
 * re-encoded) and its decoded form: the bytes themselves (the transaction is decoded again where it
 * is needed: `pooledTransaction`), the signature check admission made (`signatureCheck`), the hash
 * the API reports (of `Transaction::UserTransaction`, variant byte 0 before the signed
 * transaction), the hex keys, the replay protector and the size.
 */
export const poolEntryOf = (
  transaction: SignedTransaction,
  signedBcs: Uint8Array,
  nowMs: number,
  signatureCheck?: SignatureCheck,
  /** Its replay protector, when the caller read it already (admission does, to check the sequence number). */
  replay: ReplayProtector = replayProtectorOf(transaction.rawTransaction)
): NewEntry => {
  const hash = userTransactionHashOfSigned(signedBcs)
  const raw = transaction.rawTransaction
  return {
    signedBcs,
    signatureCheck,
    hash,
    hashKey: toHex(hash),
    senderKey: toHex(raw.sender),
    replay,
    gasUnitPrice: raw.gasUnitPrice,
    maxGasAmount: raw.maxGasAmount,
    expirationSecs: raw.expirationTimestampSecs,
    bytes: signedBcs.length,
    insertedAtMs: nowMs
  }
}
