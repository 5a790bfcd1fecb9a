/**
 * One source block into the follower's ledger: every transaction checked (`checkTransaction`),
 * then the whole block committed in one step with the source's transaction infos
 * (`TransactionToCommit.source`), so the follower's ledger version always ends on a block and
 * its accumulator roots are the source's.
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
import type { BlockInfo, TransactionToCommit } from "../ledger/Ledger.js"
import type { LedgerHandle } from "../ledger/makeLedgerService.js"
import { type StateView, stateViewFromReader } from "../move/vm/StateView.js"
import { checkTransaction } from "./checkTransaction.js"
import { type FollowError, SourceDiverged, SourceInvalid } from "./FollowError.js"
import type { SourceBlock } from "./sourceBlock.js"

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
  readonly accumulator: Accumulator
}

const positionOf = (ledger: LedgerHandle): Position => {
  const h = ledger.head()
  return h === undefined
    ? { version: 0n, height: 0n, epoch: 0n, accumulator: emptyAccumulator }
    : { version: h.latestVersion + 1n, height: h.latestHeight + 1n, epoch: h.epoch, accumulator: h.accumulator }
}

/**
 * Checks `block` as the next block of `ledger` and commits it. Fails with `SourceInvalid` (a
 * check failed) or `SourceDiverged` (it does not continue this ledger's history); nothing is
 * written then.
 */
export const applySourceBlock = (ledger: LedgerHandle, block: SourceBlock): Effect.Effect<BlockInfo, FollowError> =>
  Effect.suspend(() => {
    const at = positionOf(ledger)
    const transactions = block.transactions ?? []
    if (block.firstVersion !== at.version || block.height !== at.height)
      return Effect.fail(
        new SourceDiverged({
          message: `the source's block ${block.height} starts at version ${block.firstVersion}; this follower's next block is ${at.height} at version ${at.version}`
        })
      )
    if (BigInt(transactions.length) !== block.lastVersion - block.firstVersion + 1n || transactions.length === 0)
      return Effect.fail(
        new SourceInvalid({
          message: `the source's block ${block.height} spans versions ${block.firstVersion}..${block.lastVersion} but came with ${transactions.length} transactions`
        })
      )
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
      return Effect.fail(
        new SourceInvalid({
          message: `the source's block ${block.height} says hash 0x${Buffer.from(block.hash).toString("hex")} and timestamp ${block.timestampUsec}, its first transaction 0x${Buffer.from(expected.hash).toString("hex")} and ${expected.timestampUsec}`
        })
      )
    let accumulator = at.accumulator
    for (let i = 0; i < transactions.length; i++) {
      const checked = checkTransaction(transactions[i]!, at.version + BigInt(i), accumulator)
      if (checked instanceof SourceInvalid || checked instanceof SourceDiverged) return Effect.fail(checked)
      accumulator = checked
    }
    // Function names for failure messages come from the state before the block (read lazily: only
    // an `ExecutionFailure` needs them).
    let view: StateView | undefined
    const before = (): StateView | undefined => {
      if (view !== undefined || at.version === 0n) return view
      const reader = Effect.runSync(Effect.option(ledger.service.stateAt(at.version - 1n)))
      if (reader._tag === "Some") view = stateViewFromReader(reader.value, at.version - 1n)
      return view
    }
    const toCommit: TransactionToCommit[] = transactions.map((t) => ({
      transaction: t.transaction,
      writeSet: t.writeSet,
      events: t.events,
      outcome: {
        gasUsed: t.info.gasUsed,
        status: t.info.status,
        vmStatus: explainExecutionStatus(t.info.status, (module, index) => {
          const v = before()
          return v === undefined ? undefined : functionNameIn(v, module, index)
        })
      },
      source: { info: t.info, accumulatorRootHash: t.accumulatorRootHash }
    }))
    const epoch = block.firstVersion === 0n ? 0n : (epochOf(first) ?? at.epoch)
    const commit = { epoch, timestampUsec: block.timestampUsec, transactions: toCommit }
    if (block.firstVersion !== 0n)
      return Effect.mapError(
        ledger.service.commitBlock(commit),
        (e) =>
          new SourceInvalid({
            message: `the ledger refused the block: ${e._tag}${"message" in e ? `: ${e.message}` : ""}`
          })
      )
    // The genesis block: the chain id is the one genesis writes.
    const genesis = transactions[0]!.transaction
    const chainId = genesis._tag === "GenesisTransaction" ? chainIdOfGenesis(genesis) : undefined
    if (chainId === undefined || transactions.length !== 1)
      return Effect.fail(
        new SourceInvalid({
          message: "the source's block 0 is not one genesis transaction writing 0x1::chain_id::ChainId"
        })
      )
    return Effect.mapError(
      ledger.commitGenesis(commit, chainId),
      (e) =>
        new SourceInvalid({
          message: `the ledger refused the genesis: ${e._tag}${"message" in e ? `: ${e.message}` : ""}`
        })
    )
  })
