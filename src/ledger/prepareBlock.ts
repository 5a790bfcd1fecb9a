import type { ContractEvent } from "../domain/ContractEvent.js"
import { accumulatorRoot, appendLeaf, emptyAccumulator } from "../domain/MerkleAccumulator.js"
import { type OutputEncoding, type OutputHashes, outputHashes } from "../domain/outputHashes.js"
import type { TransactionInfo } from "../domain/TransactionInfo.js"
import { transactionInfoHash } from "../domain/TransactionInfoCodec.js"
import type {
  BlockInfo,
  BlockToCommit,
  CommittedTransaction,
  TransactionSummary,
  TransactionToCommit,
  VersionedEvent
} from "./Ledger.js"
import type { AccountSequence, LedgerHead, PreparedBlock } from "./LedgerBackend.js"
import { knownRecord, rememberRecord } from "./knownRecords.js"
import { oldestRetained } from "./pruneWindow.js"
import { transactionHashOf, userSummaryOf } from "./transactionFacts.js"

/**
 * Everything a store writes for one block, computed once for every store: versions after the
 * latest, the next height, transaction hashes and infos (state change hash, event root hash,
 * the transaction accumulator continued from the head), per-sender summaries and sequence
 * numbers, the handle events to index, and the head after the block (the epoch and timestamp are
 * the block's; the window moves forward when `window` is set).
 * Throws on an empty block: a block holds at least one transaction.
 */
export const prepareBlock = (
  before: LedgerHead | undefined,
  block: BlockToCommit,
  context: {
    /** Recorded only by the first block; later blocks keep the stored chain id. */
    readonly chainId: number
    readonly window: bigint | undefined
    readonly blockOfVersion: (version: bigint) => BlockInfo | undefined
  }
): PreparedBlock => {
  const info = blockInfoAfter(before, block.transactions.length, block)
  const { firstVersion, height } = info
  const transactions: CommittedTransaction[] = []
  const outputEncodings: Array<OutputEncoding | undefined> = new Array(block.transactions.length)
  let accumulator = before?.accumulator ?? emptyAccumulator
  // A loop, not a forEach callback: a callback made per block loses its optimized code at every
  // full collection (see `attemptWrite` in src/indexer/store/IndexerStore.ts).
  for (let i = 0; i < block.transactions.length; i++) {
    const t = block.transactions[i]!
    const version = firstVersion + BigInt(i)
    const hash = t.source?.info.transactionHash ?? t.hash ?? transactionHashOf(t.transaction)
    let txInfo: TransactionInfo
    if (t.source !== undefined) txInfo = t.source.info
    else {
      // Its output hashed here unless the caller did (`outputHashes`); the record stores the bytes hashed.
      const output = t.outputHashes ?? outputHashes(t.writeSet, t.events)
      outputEncodings[i] = output.encoding
      txInfo = infoOf(t, hash, output)
    }
    accumulator = appendLeaf("TransactionAccumulator", accumulator, t.source?.infoHash ?? transactionInfoHash(txInfo))
    const committed: CommittedTransaction = {
      transaction: t.transaction,
      writeSet: t.writeSet,
      events: t.events,
      outcome: t.outcome,
      version,
      hash,
      blockHeight: height,
      timestampUsec: block.timestampUsec,
      info: txInfo,
      // A source's root was checked against this very accumulator: not computed twice.
      accumulatorRootHash: t.source?.accumulatorRootHash ?? accumulatorRoot("TransactionAccumulator", accumulator)
    }
    // A follower's record built from the bytes it received, for this very height and timestamp.
    const record = t.source?.record
    if (record !== undefined && record.height === height && record.timestampUsec === block.timestampUsec)
      rememberRecord(committed, record.record)
    transactions.push(committed)
  }
  const current =
    before === undefined ? { version: 0n, height: 0n } : { version: before.oldestVersion, height: before.oldestHeight }
  const oldest = oldestRetained(context.window, info, current, context.blockOfVersion)
  const head: LedgerHead = {
    chainId: before?.chainId ?? context.chainId,
    latestVersion: info.lastVersion,
    latestHeight: height,
    epoch: block.epoch,
    timestampUsec: block.timestampUsec,
    oldestVersion: oldest.version,
    oldestHeight: oldest.height,
    genesisHash: before?.genesisHash ?? transactions[0]!.hash,
    accumulator
  }
  return { block: info, transactions, ...indexesOf(transactions), head, outputEncodings }
}

/** The transaction info of `t`, whose output hashed to `output`. */
const infoOf = (t: TransactionToCommit, hash: Uint8Array, output: OutputHashes): TransactionInfo => ({
  gasUsed: t.outcome.gasUsed,
  status: t.outcome.status,
  transactionHash: hash,
  eventRootHash: output.eventRootHash,
  stateChangeHash: output.stateChangeHash,
  // No Merkle tree of state is kept: see docs/reads.md.
  stateCheckpointHash: undefined,
  auxiliaryInfoHash: undefined
})

/** The block after `before` (the first when undefined) holding `count` transactions. */
const blockInfoAfter = (
  before: LedgerHead | undefined,
  count: number,
  block: { readonly timestampUsec: bigint; readonly epoch: bigint }
): BlockInfo => {
  if (count === 0) throw new Error("a block holds at least one transaction")
  const firstVersion = before === undefined ? 0n : before.latestVersion + 1n
  return {
    height: before === undefined ? 0n : before.latestHeight + 1n,
    firstVersion,
    lastVersion: firstVersion + BigInt(count) - 1n,
    timestampUsec: block.timestampUsec,
    epoch: block.epoch
  }
}

/** What a block's transactions add to the ledger's indexes: user summaries, sequence numbers, handle events. */
const indexesOf = (
  transactions: ReadonlyArray<CommittedTransaction>
): Pick<PreparedBlock, "summaries" | "accountSequences" | "events"> => {
  const summaries: TransactionSummary[] = []
  const accountSequences: AccountSequence[] = []
  const events: VersionedEvent[] = []
  for (const t of transactions) {
    const summary = userSummaryOf(t.transaction, t.version, t.hash)
    if (summary !== undefined) {
      summaries.push(summary)
      if (summary.replayProtector._tag === "SequenceNumber")
        accountSequences.push({
          sender: summary.sender,
          sequenceNumber: summary.replayProtector.sequenceNumber,
          version: t.version
        })
    }
    for (const e of t.events) if (isHandleEvent(e)) events.push({ version: t.version, event: e })
  }
  return { summaries, accountSequences, events }
}

const isHandleEvent = (e: ContractEvent): e is Extract<ContractEvent, { readonly _tag: "V1" }> => e._tag === "V1"

/** A block as another ledger committed it (a dumped chain): its transactions with their hashes and infos. */
export interface CommittedBlockInput {
  readonly epoch: bigint
  readonly timestampUsec: bigint
  /** As committed; their versions and heights are assigned again here. */
  readonly transactions: ReadonlyArray<CommittedTransaction>
}

/**
 * `prepareBlock` for a block committed before (loading a dumped chain): the hashes and transaction
 * infos are taken as recorded instead of computed again (hashing every transaction, its write set
 * and events is most of the work of a commit); the accumulator is continued from the infos and
 * must reach the block's last recorded root, so a dump whose infos do not chain into its roots (a
 * damaged or foreign one) is refused (throws). The roots recorded inside a block are taken as
 * recorded: checking each costs a root computation (~log2(version) hashes) per transaction, most
 * of a load's time, and the block's last root already covers every info before it (the dump's
 * checksum covers the bytes of the others).
 */
export const prepareCommittedBlock = (
  before: LedgerHead,
  input: CommittedBlockInput,
  context: { readonly window: bigint | undefined; readonly blockOfVersion: (version: bigint) => BlockInfo | undefined }
): PreparedBlock => {
  const info = blockInfoAfter(before, input.transactions.length, input)
  const { firstVersion, height } = info
  const transactions: CommittedTransaction[] = []
  let accumulator = before.accumulator
  input.transactions.forEach((t, i) => {
    const version = firstVersion + BigInt(i)
    accumulator = appendLeaf("TransactionAccumulator", accumulator, transactionInfoHash(t.info))
    if (
      i === input.transactions.length - 1 &&
      Buffer.compare(accumulatorRoot("TransactionAccumulator", accumulator), t.accumulatorRootHash) !== 0
    )
      throw new Error(`the transaction at version ${version} does not chain into its recorded accumulator root`)
    const committed = { ...t, version, blockHeight: height, timestampUsec: input.timestampUsec }
    // At its recorded height and timestamp, the record it was read from is still its encoding.
    const record = knownRecord(t)
    if (record !== undefined && t.blockHeight === height && t.timestampUsec === input.timestampUsec)
      rememberRecord(committed, record)
    transactions.push(committed)
  })
  const oldest = oldestRetained(
    context.window,
    info,
    { version: before.oldestVersion, height: before.oldestHeight },
    context.blockOfVersion
  )
  const head: LedgerHead = {
    ...before,
    latestVersion: info.lastVersion,
    latestHeight: height,
    epoch: input.epoch,
    timestampUsec: input.timestampUsec,
    oldestVersion: oldest.version,
    oldestHeight: oldest.height,
    accumulator
  }
  return { block: info, transactions, ...indexesOf(transactions), head }
}

/**
 * Blocks prepared one on the other from `before` (each on the head the previous one leaves): new
 * blocks (`BlockToCommit`) as `prepareBlock`, recorded ones (`CommittedBlockInput`: a dump's) as
 * `prepareCommittedBlock`, which needs a head to continue. `storedBlockOfVersion` answers versions
 * at or below `before`; the blocks prepared here answer theirs. Throws as those two do.
 */
export const prepareBlocksAfter = (
  before: LedgerHead | undefined,
  blocks: ReadonlyArray<BlockToCommit | CommittedBlockInput>,
  context: {
    readonly chainId: number
    readonly window: bigint | undefined
    readonly storedBlockOfVersion: (version: bigint) => BlockInfo | undefined
  }
): Array<PreparedBlock> => {
  const prepared: PreparedBlock[] = []
  const blockOfVersion = (v: bigint) =>
    before !== undefined && v <= before.latestVersion
      ? context.storedBlockOfVersion(v)
      : prepared.find((q) => q.block.firstVersion <= v && v <= q.block.lastVersion)?.block
  let head = before
  for (const block of blocks) {
    const recorded = block.transactions.length > 0 && "accumulatorRootHash" in block.transactions[0]!
    const p = recorded
      ? prepareCommittedBlock(head ?? failNoHead(), block as CommittedBlockInput, {
          window: context.window,
          blockOfVersion
        })
      : prepareBlock(head, block as BlockToCommit, { chainId: context.chainId, window: context.window, blockOfVersion })
    prepared.push(p)
    head = p.head
  }
  return prepared
}

const failNoHead = (): never => {
  throw new Error("a recorded block continues a stored head: the store has none")
}
