/**
 * The checks a follower makes on each transaction a source sends, before storing it. They are the
 * ones Aptos output sync makes, minus signatures (REST carries no signed ledger info, so a REST
 * follower trusts its source for what was committed, and checks that what it was sent is
 * internally consistent and continues the history it holds):
 *
 * 1. the version is the next one;
 * 2. `info.transaction_hash` = CryptoHash of the transaction's bytes;
 * 3. `info.state_change_hash` = CryptoHash of the write set's bytes;
 * 4. `info.event_root_hash` = the event accumulator's root over the events' hashes;
 * 5. `accumulator_root_hash` = the transaction accumulator, continued from the follower's own
 *    frozen subtree roots with the hash of the info's bytes (so any difference in any earlier
 *    version, or a skipped one, shows here: `SourceDiverged`);
 * 6. the bytes re-encode identically: the ledger stores decoded values and serves their encoding,
 *    so a part this movenode would not re-encode byte for byte (a newer format) is refused rather
 *    than altered.
 *
 * Hashes are over the bytes as received, never a re-encoding.
 */
import { BcsWriter, equalBytes, toHex0x } from "../bcs/index.js"
import { hashWithPrefix } from "../domain/hash.js"
import { type Accumulator, accumulatorRoot, accumulatorRootOf, appendLeaf } from "../domain/MerkleAccumulator.js"
import { encodedContractEvent, encodedWriteSet } from "../domain/outputHashes.js"
import { writeTransaction } from "../domain/TransactionCodec.js"
import { writeTransactionInfo } from "../domain/TransactionInfoCodec.js"
import { SourceDiverged, SourceInvalid } from "./FollowError.js"
import type { SourceTransaction } from "./sourceBlock.js"

/** One writer for the re-encodings (synchronous: nothing yields while it is in use). */
const scratch = new BcsWriter(4096)

const encoded = (write: (w: BcsWriter) => void): Uint8Array => {
  write(scratch.reset())
  return scratch.toBytes()
}

/** A transaction that passed: the accumulator with it appended, and its leaf (the info's hash). */
export interface CheckedTransaction {
  readonly accumulator: Accumulator
  readonly infoHash: Uint8Array
}

/**
 * Checks `t` as the transaction at `expectedVersion` after `accumulator`; returns the accumulator
 * with it appended, or the first failed check (naming the version and both values).
 */
export const checkTransaction = (
  t: SourceTransaction,
  expectedVersion: bigint,
  accumulator: Accumulator
): CheckedTransaction | SourceInvalid | SourceDiverged => {
  const at = `version ${expectedVersion}`
  if (t.version !== expectedVersion)
    return new SourceInvalid({ message: `the source sent version ${t.version} where ${at} was expected` })
  const txHash = hashWithPrefix("Transaction", t.bytes.transaction)
  if (!equalBytes(txHash, t.info.transactionHash))
    return new SourceInvalid({
      message: `${at}: the transaction hashes to ${toHex0x(txHash)}, its info says ${toHex0x(t.info.transactionHash)}`
    })
  const changeHash = hashWithPrefix("WriteSet", t.bytes.writeSet)
  if (!equalBytes(changeHash, t.info.stateChangeHash))
    return new SourceInvalid({
      message: `${at}: the write set hashes to ${toHex0x(changeHash)}, its info's state_change_hash is ${toHex0x(t.info.stateChangeHash)}`
    })
  const eventRoot = accumulatorRootOf(
    "EventAccumulator",
    t.bytes.events.map((e) => hashWithPrefix("ContractEvent", e))
  )
  if (!equalBytes(eventRoot, t.info.eventRootHash))
    return new SourceInvalid({
      message: `${at}: the events' root is ${toHex0x(eventRoot)}, its info's event_root_hash is ${toHex0x(t.info.eventRootHash)} (a source that translates module events to handle events cannot be followed: ask one without translation)`
    })
  const infoHash = hashWithPrefix("TransactionInfo", t.bytes.info)
  const next = appendLeaf("TransactionAccumulator", accumulator, infoHash)
  const root = accumulatorRoot("TransactionAccumulator", next)
  if (!equalBytes(root, t.accumulatorRootHash))
    return new SourceDiverged({
      message: `${at}: the source's history diverges from this follower's (the transaction accumulator continued from what this follower holds has root ${toHex0x(root)}, the source says ${toHex0x(t.accumulatorRootHash)})`
    })
  // The write set's and events' encodings are the ones the ledger's record then stores: the record
  // is built from the bytes received (`transactionRecordOfParts`), not encoded again at commit.
  const exact =
    equalBytes(
      encoded((w) => writeTransaction(w, t.transaction)),
      t.bytes.transaction
    ) &&
    equalBytes(
      encoded((w) => writeTransactionInfo(w, t.info)),
      t.bytes.info
    ) &&
    equalBytes(encodedWriteSet(t.writeSet).bytes, t.bytes.writeSet) &&
    t.events.every((e, i) => equalBytes(encodedContractEvent(e), t.bytes.events[i]!))
  if (!exact)
    return new SourceInvalid({
      message: `${at}: this movenode would not store the source's bytes unchanged (a transaction, info, write set or event format it decodes but does not re-encode identically)`
    })
  return { accumulator: next, infoHash }
}

/** The transactions of a run that passed: their leaves (info hashes) and the accumulator after them. */
export interface CheckedTransactions {
  readonly accumulator: Accumulator
  readonly infoHashes: ReadonlyArray<Uint8Array>
}

/** `checkTransaction` of consecutive transactions from `version` after `accumulator`; the first failure. */
export const checkTransactions = (
  transactions: ReadonlyArray<SourceTransaction>,
  version: bigint,
  accumulator: Accumulator
): CheckedTransactions | SourceInvalid | SourceDiverged => {
  let acc = accumulator
  const infoHashes: Uint8Array[] = new Array(transactions.length)
  for (let i = 0; i < transactions.length; i++) {
    const checked = checkTransaction(transactions[i]!, version + BigInt(i), acc)
    if (checked instanceof SourceInvalid || checked instanceof SourceDiverged) return checked
    acc = checked.accumulator
    infoHashes[i] = checked.infoHash
  }
  return { accumulator: acc, infoHashes }
}
