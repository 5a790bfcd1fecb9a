/**
 * Executes one block over the committed state without writing anything (reth's block builder,
 * the reference's sequential block executor): the `BlockMetadata` through the block prologue, the
 * chosen user transactions in order, then the block end the execution config asks for. The result
 * is the list of ledger transactions to commit and what happened to each candidate.
 *
 *   prologue ──reconfigured?──► block ends here (no block end: an epoch-ending block has none)
 *      │
 *   user txns ── Discard ──► dropped (never in the ledger), its sender's later txns wait
 *      │      ── Keep ─────► applied; a reconfiguring one ends the block, the rest retry next block
 *      │
 *   block end: StateCheckpoint | BlockEpilogue V0 | V1 (block::block_epilogue, fee distribution)
 *
 * Pure apart from the VM calls; a system call the VM fails is a `BlockExecutionFailure` (the chain
 * cannot move on: it stops with that message rather than commit a block the framework refused).
 */
import { u64LeAt } from "../bcs/u64LeAt.js"
import { addressEquals, addressFromNumber } from "../domain/AccountAddress.js"
import type { ContractEvent } from "../domain/ContractEvent.js"
import { isSuccessStatus } from "../domain/ExecutionStatus.js"
import { outputHashes } from "../domain/outputHashes.js"
import type { BlockEndInfo, BlockMetadata, Randomness, Transaction } from "../domain/Transaction.js"
import type { WriteSet } from "../domain/WriteSet.js"
import type { TransactionOutcome, TransactionToCommit } from "../ledger/Ledger.js"
import { OverlayStateView } from "../execution/OverlayStateView.js"
import type { StateView } from "../move/vm/StateView.js"
import type { ChainVmService, VmStatusCode } from "./ChainVm.js"
import { pooledTransaction } from "./mempool/pooledTransaction.js"
import type { PoolEntry } from "./mempool/TxPool.js"
import { decodeBlockEndConfig, featureEnabled, readConfig } from "./onChainConfig.js"

/** Feature 96, CALCULATE_TRANSACTION_FEE_FOR_DISTRIBUTION: BlockEpilogue V1 instead of V0. */
const FEE_DISTRIBUTION_FLAG = 96

export interface BlockExecution {
  /** The ledger transactions in order: metadata, kept user transactions, the block end (if any). */
  readonly transactions: ReadonlyArray<TransactionToCommit>
  /** Candidates committed (kept), in block order, with the version offset within the block. */
  readonly committed: ReadonlyArray<PoolEntry>
  /** Candidates the VM discarded, with its status: they leave the pool, never reach the ledger. */
  readonly discarded: ReadonlyArray<{ readonly entry: PoolEntry; readonly status: VmStatusCode }>
  /** Candidates not executed (the block ended early, or a predecessor was discarded): they stay pooled. */
  readonly skipped: ReadonlyArray<PoolEntry>
  /** The block reconfigured (a new epoch starts with the next block). */
  readonly epochEnded: boolean
}

export class BlockExecutionFailure extends Error {
  readonly _tag = "BlockExecutionFailure"
}

const ONE = addressFromNumber(1)

const SUCCESS: TransactionOutcome = { gasUsed: 0n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }

const isNewEpoch = (e: ContractEvent): boolean => {
  const t = e.typeTag
  if (t._tag !== "struct") return false
  const s = t.struct
  return (
    s.module === "reconfiguration" &&
    (s.name === "NewEpochEvent" || s.name === "NewEpoch") &&
    addressEquals(s.address, ONE)
  )
}

/** `0x1::transaction_fee::FeeStatement` (the last event of a user transaction): gas used and storage fee. */
const feeStatementOf = (
  events: ReadonlyArray<ContractEvent>
): { readonly total: bigint; readonly storageFee: bigint } | undefined => {
  const last = events[events.length - 1]
  if (last === undefined || last.typeTag._tag !== "struct") return undefined
  const s = last.typeTag.struct
  if (
    s.module !== "transaction_fee" ||
    s.name !== "FeeStatement" ||
    !addressEquals(s.address, ONE) ||
    last.data.length !== 40
  )
    return undefined
  // Read from the bytes, not through a DataView: the event's 40 bytes live in V8's heap, and asking
  // for their `buffer` would move them into a backing store of their own (an allocation a transfer).
  return { total: u64LeAt(last.data, 0), storageFee: u64LeAt(last.data, 24) }
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b

/** Rough output size of a kept transaction for BlockEndInfo (write-set values and event data, plus the txn). */
const approxOutputSize = (writeSetBytes: number, events: ReadonlyArray<ContractEvent>, txnBytes: number): bigint => {
  let n = writeSetBytes + txnBytes
  for (const e of events) n += e.data.length
  return BigInt(n)
}

/**
 * Runs the block over `base`, the committed state at `baseVersion` (the parent). `proposerIndex`
 * is the proposer's validator index (fee distribution); `candidates` come from the pool in block order.
 */
export const executeBlock = (
  vm: ChainVmService,
  base: StateView,
  baseVersion: bigint,
  metadata: BlockMetadata,
  proposerIndex: bigint,
  candidates: ReadonlyArray<PoolEntry>,
  randomness?: Randomness
): BlockExecution => {
  const steps = executeBlockSteps(vm, base, baseVersion, metadata, proposerIndex, candidates, randomness)
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
  }
}

/**
 * `executeBlock` one transaction at a time: the generator yields after the prologue and after
 * each user transaction, and returns the block's execution. The block producer runs it in slices
 * of the event loop's turn budget (TurnBudget.ts), so a block of thousands of transactions does not
 * hold the event loop for its whole duration. Nothing else writes the state it executes over (the
 * committed state at `baseVersion`, under its own overlay) while it is suspended.
 */
export function* executeBlockSteps(
  vm: ChainVmService,
  base: StateView,
  baseVersion: bigint,
  metadata: BlockMetadata,
  proposerIndex: bigint,
  candidates: ReadonlyArray<PoolEntry>,
  /** The block's randomness (a chain with randomness on): `block_prologue_ext`, a `BlockMetadataExt` V1. */
  randomness?: Randomness
): Generator<void, BlockExecution, void> {
  // Each output goes on top at the version it will be committed at.
  const state = new OverlayStateView(base)
  let version = baseVersion
  const apply = (writeSet: WriteSet) => state.push({ writeSet, version: ++version })
  const transactions: TransactionToCommit[] = []
  const committed: PoolEntry[] = []
  const discarded: Array<{ readonly entry: PoolEntry; readonly status: VmStatusCode }> = []
  const skipped: PoolEntry[] = []

  const prologue = vm.blockPrologue(state, metadata, randomness?.randomness)
  if (prologue._tag === "Failure") throw new BlockExecutionFailure(`block prologue failed: ${prologue.message}`)
  apply(prologue.writeSet)
  transactions.push({
    transaction:
      randomness === undefined
        ? { _tag: "BlockMetadata", metadata }
        : { _tag: "BlockMetadataExt", metadata: { _tag: "V1", metadata, randomness } },
    writeSet: prologue.writeSet,
    events: prologue.events,
    outcome: SUCCESS
  })
  if (prologue.events.some(isNewEpoch))
    return { transactions, committed, discarded, skipped: [...candidates], epochEnded: true }
  yield

  const blocked = new Set<string>()
  const fees = new Map<bigint, bigint>()
  const endConfig = decodeBlockEndConfig(readConfig(state, "executionConfig")) ?? {
    blockEpilogue: false,
    gasPriceToBurn: 90n
  }
  let gasUnits = 0n
  let outputSize = 0n
  let epochEnded = false
  for (let i = 0; i < candidates.length; i++) {
    const entry = candidates[i]!
    if (epochEnded || (entry.replay._tag === "SequenceNumber" && blocked.has(entry.senderKey))) {
      skipped.push(entry)
      continue
    }
    if (i > 0) yield
    const transaction = pooledTransaction(entry)
    // Values decoded for earlier transactions are not kept for this one (OverlayStateView).
    state.forgetDecodedResources()
    // Admission's signature check of these bytes stands: execution does not check again.
    const result = vm.executeUser(state, transaction, transactions.length, entry.signatureCheck)
    if (result._tag === "Discard") {
      discarded.push({ entry, status: result.status })
      // Its sender's later sequence numbers cannot run in this block (they would be "too new").
      if (entry.replay._tag === "SequenceNumber") blocked.add(entry.senderKey)
      continue
    }
    apply(result.writeSet)
    const userTransaction: Transaction = { _tag: "UserTransaction", signed: transaction }
    transactions.push({
      transaction: userTransaction,
      // The pool's hash of the submitted bytes: the ledger does not encode the transaction again for it.
      hash: entry.hash,
      writeSet: result.writeSet,
      events: result.events,
      // Hashed here, in this transaction's slice, not all at once by the commit (see TransactionToCommit).
      outputHashes: outputHashes(result.writeSet, result.events),
      outcome: { gasUsed: result.gasUsed, status: result.status, vmStatus: result.vmStatus }
    })
    committed.push(entry)
    gasUnits += result.gasUsed
    let writeBytes = 0
    for (const w of result.writeSet.entries) writeBytes += w.keyBytes.length + ("data" in w.op ? w.op.data.length : 0)
    outputSize += approxOutputSize(writeBytes, result.events, entry.bytes)
    const price = entry.gasUnitPrice
    const fee = isSuccessStatus(result.status) ? feeStatementOf(result.events) : undefined
    if (fee !== undefined && price > endConfig.gasPriceToBurn) {
      const units = fee.total - ceilDiv(fee.storageFee, price)
      if (units > 0n)
        fees.set(proposerIndex, (fees.get(proposerIndex) ?? 0n) + units * (price - endConfig.gasPriceToBurn))
    }
    if (result.events.some(isNewEpoch)) epochEnded = true
  }
  if (epochEnded) return { transactions, committed, discarded, skipped, epochEnded }

  const blockId = metadata.id
  if (!endConfig.blockEpilogue) {
    transactions.push({
      transaction: { _tag: "StateCheckpoint", hash: blockId },
      writeSet: { entries: [] },
      events: [],
      outcome: SUCCESS
    })
  } else {
    const blockEndInfo: BlockEndInfo = {
      blockGasLimitReached: false,
      blockOutputLimitReached: false,
      blockEffectiveBlockGasUnits: gasUnits,
      blockApproxOutputSize: outputSize
    }
    if (!featureEnabled(readConfig(state, "features"), FEE_DISTRIBUTION_FLAG)) {
      transactions.push({
        transaction: { _tag: "BlockEpilogue", blockId, blockEndInfo },
        writeSet: { entries: [] },
        events: [],
        outcome: SUCCESS
      })
    } else {
      const feeDistribution = [...fees].sort((a, b) => (a[0] < b[0] ? -1 : 1))
      const epilogue = vm.blockEpilogue(state, blockId, feeDistribution)
      if (epilogue._tag === "Failure") throw new BlockExecutionFailure(`block epilogue failed: ${epilogue.message}`)
      apply(epilogue.writeSet)
      transactions.push({
        transaction: { _tag: "BlockEpilogue", blockId, blockEndInfo, feeDistribution },
        writeSet: epilogue.writeSet,
        events: epilogue.events,
        outcome: SUCCESS
      })
    }
  }
  return { transactions, committed, discarded, skipped, epochEnded }
}
