/**
 * Source blocks into the follower's ledger: every transaction checked (`checkTransaction`), then
 * each block committed whole with the source's transaction infos (`TransactionToCommit.source`),
 * so the follower's ledger version always ends on a block and its accumulator roots are the
 * source's. Several blocks (catching up) are checked one after the other, each continuing the one
 * before, before any is committed; a failed check commits none of them.
 *
 * What the BCS feed does not carry is derived the way the source derived it: the block's epoch is
 * its `BlockMetadata`'s (genesis: 0; a block without metadata keeps the previous epoch), the API's
 * `vm_status` text is `explainExecutionStatus` of the recorded status, naming functions from the
 * state before the block (as the executor named them from the state it ran on).
 */
import * as Effect from "effect/Effect"
import { type Accumulator, emptyAccumulator } from "../domain/MerkleAccumulator.js"
import type { Transaction } from "../domain/Transaction.js"
import { explainExecutionStatus } from "../execution/explainVmStatus.js"
import { functionNameIn } from "../execution/functionNameIn.js"
import { chainIdOfGenesis } from "../ledger/importGenesis.js"
import type { KnownRecord } from "../ledger/knownRecords.js"
import { transactionRecordOfParts } from "../ledger/lmdbRecords.js"
import type { BlockInfo, BlockToCommit, TransactionToCommit } from "../ledger/Ledger.js"
import type { LedgerHandle } from "../ledger/makeLedgerService.js"
import { type StateView, stateViewFromReader } from "../move/vm/StateView.js"
import { checkTransactions } from "./checkTransaction.js"
import { type FollowError, SourceDiverged, SourceInvalid } from "./FollowError.js"
import type { SourceBlock, SourceTransaction } from "./sourceBlock.js"

const epochOf = (t: Transaction | undefined): bigint | undefined =>
  t?._tag === "BlockMetadata"
    ? t.metadata.epoch
    : t?._tag === "BlockMetadataExt"
      ? t.metadata.metadata.epoch
      : undefined

/** The block a follower must apply next: where its ledger ends, and what it continues. */
interface Position {
  readonly version: bigint
  readonly height: bigint
  readonly epoch: bigint
  /** Not advanced past blocks whose transactions were checked elsewhere (`ChecksThread`). */
  readonly accumulator: Accumulator
}

const positionOf = (ledger: LedgerHandle): Position => {
  const h = ledger.head()
  return h === undefined
    ? { version: 0n, height: 0n, epoch: 0n, accumulator: emptyAccumulator }
    : { version: h.latestVersion + 1n, height: h.latestHeight + 1n, epoch: h.epoch, accumulator: h.accumulator }
}

/** A block checked as the one after `at`, ready to commit. */
interface CheckedBlock {
  readonly commit: BlockToCommit
  readonly after: Position
  /** The genesis block: the chain id it writes. */
  readonly genesisChainId: number | undefined
}

/** `t`'s LMDB record in `block`, copied from the bytes received (`transactionRecordOfParts`). */
export const sourceTransactionRecord = (t: SourceTransaction, block: SourceBlock, vmStatus: string): KnownRecord => {
  const ws = t.bytes.writeSet
  const list = t.bytes.eventList
  return transactionRecordOfParts({
    hash: t.info.transactionHash,
    transaction: t.transaction,
    events: t.events,
    blockHeight: block.height,
    timestampUsec: block.timestampUsec,
    info: t.bytes.info,
    accumulatorRootHash: t.accumulatorRootHash,
    vmStatus,
    transactionBytes: t.bytes.transaction,
    writeSet: ws,
    // Each entry's key is a view into the bytes received; its op starts right after it.
    opOffsets: t.writeSet.entries.map((e) => e.keyBytes.byteOffset + e.keyBytes.length - ws.byteOffset),
    eventList: list,
    eventOffsets: t.bytes.events.map((e) => e.byteOffset - list.byteOffset)
  })
}

/** Whether explaining a block's statuses names functions (from the state before the block). */
const namesFunctions = (block: SourceBlock): boolean =>
  (block.transactions ?? []).some(
    (t) => t.info.status._tag === "ExecutionFailure" && t.info.status.location._tag === "Module"
  )

/**
 * Checks `block` as the block at `at`. `stateBefore` gives the state before the block, for the
 * names in failure messages (read lazily: only an `ExecutionFailure` needs them). `leaves`: its
 * transactions' info hashes when their checks already passed elsewhere (the checks' worker).
 */
const checkSourceBlock = (
  at: Position,
  block: SourceBlock,
  stateBefore: () => StateView | undefined,
  leaves: ReadonlyArray<Uint8Array> | undefined
): CheckedBlock | FollowError => {
  const transactions = block.transactions ?? []
  if (block.firstVersion !== at.version || block.height !== at.height)
    return new SourceDiverged({
      message: `the source's block ${block.height} starts at version ${block.firstVersion}; this follower's next block is ${at.height} at version ${at.version}`
    })
  if (BigInt(transactions.length) !== block.lastVersion - block.firstVersion + 1n || transactions.length === 0)
    return new SourceInvalid({
      message: `the source's block ${block.height} spans versions ${block.firstVersion}..${block.lastVersion} but came with ${transactions.length} transactions`
    })
  // The block's hash and timestamp are its metadata's (genesis: zero and 0), as the source derives them.
  const first = transactions[0]!.transaction
  const metadata =
    first._tag === "BlockMetadata"
      ? first.metadata
      : first._tag === "BlockMetadataExt"
        ? first.metadata.metadata
        : undefined
  const expected =
    metadata !== undefined
      ? { hash: metadata.id, timestampUsec: metadata.timestampUsecs }
      : first._tag === "GenesisTransaction"
        ? { hash: new Uint8Array(32), timestampUsec: 0n }
        : undefined
  if (
    expected !== undefined &&
    (expected.timestampUsec !== block.timestampUsec || !Buffer.from(expected.hash).equals(Buffer.from(block.hash)))
  )
    return new SourceInvalid({
      message: `the source's block ${block.height} says hash 0x${Buffer.from(block.hash).toString("hex")} and timestamp ${block.timestampUsec}, its first transaction 0x${Buffer.from(expected.hash).toString("hex")} and ${expected.timestampUsec}`
    })
  let accumulator = at.accumulator
  let infoHashes = leaves
  if (infoHashes === undefined) {
    const checked = checkTransactions(transactions, at.version, accumulator)
    if (checked instanceof SourceInvalid || checked instanceof SourceDiverged) return checked
    accumulator = checked.accumulator
    infoHashes = checked.infoHashes
  } else if (infoHashes.length !== transactions.length)
    return new SourceInvalid({
      message: `block ${block.height}: ${infoHashes.length} checked transactions for ${transactions.length}`
    })
  const toCommit: TransactionToCommit[] = transactions.map((t, i) => {
    const vmStatus = explainExecutionStatus(t.info.status, (module, index) => {
      const v = stateBefore()
      return v === undefined ? undefined : functionNameIn(v, module, index)
    })
    return {
      transaction: t.transaction,
      writeSet: t.writeSet,
      events: t.events,
      outcome: { gasUsed: t.info.gasUsed, status: t.info.status, vmStatus },
      source: {
        info: t.info,
        accumulatorRootHash: t.accumulatorRootHash,
        infoHash: infoHashes[i]!,
        // The ledger's record from the bytes received (the checks found them to be exactly what
        // this movenode encodes), for the height and timestamp this block is committed at.
        record: {
          height: block.height,
          timestampUsec: block.timestampUsec,
          record: sourceTransactionRecord(t, block, vmStatus)
        }
      }
    }
  })
  const epoch = block.firstVersion === 0n ? 0n : (epochOf(first) ?? at.epoch)
  const after: Position = {
    version: block.lastVersion + 1n,
    height: block.height + 1n,
    epoch,
    accumulator
  }
  const commit = { epoch, timestampUsec: block.timestampUsec, transactions: toCommit }
  if (block.firstVersion !== 0n) return { commit, after, genesisChainId: undefined }
  // The genesis block: the chain id is the one genesis writes.
  const chainId = first._tag === "GenesisTransaction" ? chainIdOfGenesis(first) : undefined
  if (chainId === undefined || transactions.length !== 1)
    return new SourceInvalid({
      message: "the source's block 0 is not one genesis transaction writing 0x1::chain_id::ChainId"
    })
  return { commit, after, genesisChainId: chainId }
}

const refused = (what: string) => (e: { readonly _tag: string }) =>
  new SourceInvalid({
    message: `the ledger refused ${what}: ${e._tag}${"message" in e ? `: ${String(e.message)}` : ""}`
  })

/**
 * How many of `blocks` (from the first) `applySourceBlocks` checks and commits together: every
 * block, except that a block whose failure messages name functions ends the run before it unless
 * it is the first (those names come from the state just before it, which must be committed).
 */
export const blocksTogether = (blocks: ReadonlyArray<SourceBlock>): number => {
  let n = 1
  while (n < blocks.length && !namesFunctions(blocks[n]!)) n++
  return Math.min(n, blocks.length)
}

/**
 * Checks `blocks` (consecutive, the first the next block of `ledger`; see `blocksTogether`) and
 * commits them, each block whole, in order. Fails with `SourceInvalid` (a check failed) or
 * `SourceDiverged` (they do not continue this ledger's history); nothing is written then.
 * Returns the blocks committed. `leaves`: the info hashes of all their transactions, in order, when
 * the transactions' checks already passed (on the checks' worker, `ChecksThread`, from this ledger's
 * next version and accumulator); the block checks are made here all the same.
 */
export const applySourceBlocks = (
  ledger: LedgerHandle,
  blocks: ReadonlyArray<SourceBlock>,
  leaves?: ReadonlyArray<Uint8Array>
): Effect.Effect<ReadonlyArray<BlockInfo>, FollowError> =>
  Effect.suspend(() => {
    if (blocks.length === 0) return Effect.die(new Error("applySourceBlocks: no blocks"))
    const start = positionOf(ledger)
    // Function names for failure messages come from the state before the first block.
    let view: StateView | undefined
    const before = (): StateView | undefined => {
      if (view !== undefined || start.version === 0n) return view
      const reader = Effect.runSync(Effect.option(ledger.service.stateAt(start.version - 1n)))
      if (reader._tag === "Some") view = stateViewFromReader(reader.value, start.version - 1n)
      return view
    }
    const checked: CheckedBlock[] = []
    let at = start
    let offset = 0
    for (const [i, block] of blocks.entries()) {
      if (i > 0 && namesFunctions(block))
        return Effect.die(new Error("applySourceBlocks: a block naming functions must come first (blocksTogether)"))
      const n = block.transactions?.length ?? 0
      const c = checkSourceBlock(at, block, before, leaves?.slice(offset, offset + n))
      offset += n
      if (!("commit" in c)) return Effect.fail(c)
      checked.push(c)
      at = c.after
    }
    const genesis = checked[0]!.genesisChainId
    if (genesis !== undefined) {
      const rest = checked.slice(1)
      return Effect.flatMap(
        Effect.mapError(ledger.commitGenesis(checked[0]!.commit, genesis), refused("the genesis")),
        (info) => Effect.map(commitAll(ledger, rest), (infos) => [info, ...infos])
      )
    }
    return commitAll(ledger, checked)
  })

const commitAll = (
  ledger: LedgerHandle,
  checked: ReadonlyArray<CheckedBlock>
): Effect.Effect<ReadonlyArray<BlockInfo>, FollowError> =>
  // One write transaction (one fsync) for all of them.
  Effect.mapError(
    ledger.commitBlocks(checked.map((c) => c.commit)),
    refused(checked.length === 1 ? "the block" : "the blocks")
  )

/** `applySourceBlocks` of one block. */
export const applySourceBlock = (ledger: LedgerHandle, block: SourceBlock): Effect.Effect<BlockInfo, FollowError> =>
  Effect.map(applySourceBlocks(ledger, [block]), (infos) => infos[0]!)
