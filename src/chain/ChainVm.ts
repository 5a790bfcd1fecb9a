/**
 * What the local chain needs of the VM, as one small interface (reth's injected
 * `TransactionValidator` plus the block executor's three calls). The chain never imports the
 * executor's internals: `LocalChain` provides an implementation over `src/execution`
 * (`ChainVmLive`), tests provide fakes. Every method is synchronous and never throws for a bad
 * transaction: a transaction's fate is data (Valid/Invalid, Keep/Discard); a throw means the VM
 * itself is broken and stops block production.
 */
import * as Context from "effect/Context"
import type { ContractEvent } from "../domain/ContractEvent.js"
import type { ExecutionStatus } from "../domain/ExecutionStatus.js"
import type { BlockMetadata, SignedTransaction } from "../domain/Transaction.js"
import type { WriteSet } from "../domain/WriteSet.js"
import type { StateView } from "../move/vm/StateView.js"
import type { SignatureCheck } from "../execution/verifySignature.js"

/** A VM status code as the reference numbers and names it (`StatusCode`, e.g. 3 SEQUENCE_NUMBER_TOO_OLD). */
export interface VmStatusCode {
  readonly code: bigint
  readonly name: string
}

/** Mempool admission: the signature and the prologue on the latest state (local-chain.md §2.3). */
export type ValidationResult = { readonly _tag: "Valid" } | { readonly _tag: "Invalid"; readonly status: VmStatusCode }

/** A system call's change set (block prologue, block epilogue), or why the VM failed it. */
export type SystemCallResult =
  | { readonly _tag: "Success"; readonly writeSet: WriteSet; readonly events: ReadonlyArray<ContractEvent> }
  | { readonly _tag: "Failure"; readonly message: string }

/** A user transaction executed in a block: kept (committed, maybe failed) or discarded (never in the ledger). */
export type UserTransactionResult =
  | {
      readonly _tag: "Keep"
      readonly writeSet: WriteSet
      /** In emission order; the FeeStatement last. */
      readonly events: ReadonlyArray<ContractEvent>
      readonly gasUsed: bigint
      /** How it ended, as the transaction info records it. */
      readonly status: ExecutionStatus
      /** The reference's `vm_status` text ("Executed successfully", "Move abort in …"). */
      readonly vmStatus: string
    }
  | { readonly _tag: "Discard"; readonly status: VmStatusCode }

export interface ChainVmService {
  /**
   * Signature + prologue only. SEQUENCE_NUMBER_TOO_NEW is reported as Invalid; the mempool accepts
   * it. `signatureCheck`: one made of these bytes already (the admission worker's verification),
   * taken instead of checking again.
   */
  readonly validate: (
    view: StateView,
    transaction: SignedTransaction,
    signatureCheck?: SignatureCheck | undefined
  ) => ValidationResult
  /**
   * `0x1::block::block_prologue` as a system call (local-chain.md §8.6); with a `randomnessSeed`,
   * `block_prologue_ext` (the block's seed for `0x1::randomness`, a chain with randomness on).
   */
  readonly blockPrologue: (view: StateView, metadata: BlockMetadata, randomnessSeed?: Uint8Array) => SystemCallResult
  /**
   * The full user-transaction pipeline (signature, prologue, payload, epilogue); `index` in the
   * block; `signatureCheck` as `validate`'s (the pool entry's: admission's check).
   */
  readonly executeUser: (
    view: StateView,
    transaction: SignedTransaction,
    index: number,
    signatureCheck?: SignatureCheck | undefined
  ) => UserTransactionResult
  /** `0x1::block::block_epilogue(vm, validator indices, amounts)` (BlockEpilogue V1, §8.5). */
  readonly blockEpilogue: (
    view: StateView,
    blockId: Uint8Array,
    feeDistribution: ReadonlyArray<readonly [bigint, bigint]>
  ) => SystemCallResult
}

export class ChainVm extends Context.Service<ChainVm, ChainVmService>()("movenode/chain/ChainVm") {}
