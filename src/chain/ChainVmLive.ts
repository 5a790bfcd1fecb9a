/**
 * `ChainVm` over the real executor: mempool validation is `validateTransaction` (signature,
 * check_gas, prologue), user transactions `executeTransaction`, and the block's system
 * transactions `executeSystemCall`s of `0x1::block::block_prologue` (the plain `BlockMetadata` a
 * one-validator chain with randomness off makes, local-chain.md §8.6) and
 * `0x1::block::block_epilogue` (BlockEpilogue V1's fee distribution, §8.5), as the VM signer 0x0.
 * One `MoveVm` serves them all, so loaded modules are shared between blocks.
 */
import * as Layer from "effect/Layer"
import { BcsWriter } from "../bcs/index.js"
import { addressFromNumber } from "../domain/AccountAddress.js"
import type { BlockMetadata, SignedTransaction } from "../domain/Transaction.js"
import { executeSystemCall, type SystemCallOutcome } from "../execution/executeSystemCall.js"
import { checkAndRunPrologue, executeTransaction } from "../execution/executeTransaction.js"
import { explainExecutionStatus } from "../execution/explainVmStatus.js"
import { functionNameIn } from "../execution/functionNameIn.js"
import { statusNumber } from "../move/vm/StatusCode.js"
import { type ValidationResult, validateTransaction } from "../execution/validateTransaction.js"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Impersonation, type ImpersonationService } from "./controls/Impersonation.js"
import { withoutMissesOf } from "../ledger/stateMisses.js"
import { MoveVm } from "../move/vm/MoveVm.js"
import type { StateView } from "../move/vm/StateView.js"
import type { VmFailure } from "../move/vm/VmFailure.js"
import { ChainVm, type ChainVmService, type SystemCallResult } from "./ChainVm.js"

const VM_SIGNER = addressFromNumber(0)
const BLOCK = { address: addressFromNumber(1), name: "block" }

const u64 = (v: bigint) => new BcsWriter(8).u64(v).toBytes()
const u64Vector = (vs: ReadonlyArray<bigint>) => {
  const w = new BcsWriter(8 * vs.length + 4)
  w.uleb128(vs.length)
  for (const v of vs) w.u64(v)
  return w.toBytes()
}

const describeFailure = (f: VmFailure): string =>
  f._tag === "Abort"
    ? `Move abort ${f.code} in ${f.location === undefined ? "a script" : `${f.location.name}`}${f.message === undefined ? "" : `: ${f.message}`}`
    : `${f.error.status}: ${f.error.detail}`

const systemResult = (o: SystemCallOutcome): SystemCallResult =>
  o._tag === "Success"
    ? { _tag: "Success", writeSet: o.changeSet.writeSet, events: o.changeSet.events }
    : { _tag: "Failure", message: describeFailure(o) }

/** `block_prologue(vm, hash, epoch, round, proposer, failed_proposer_indices, previous_block_votes_bitvec, timestamp)`. */
const prologueArgs = (m: BlockMetadata): ReadonlyArray<Uint8Array> => {
  const bitvec = new BcsWriter(m.previousBlockVotesBitvec.length + 4)
    .bytesWithLength(m.previousBlockVotesBitvec)
    .toBytes()
  return [
    m.id,
    u64(m.epoch),
    u64(m.round),
    m.proposer,
    u64Vector(m.failedProposerIndices.map(BigInt)),
    bitvec,
    u64(m.timestampUsecs)
  ]
}

/**
 * `impersonation`: the test controls' (`controls/Impersonation.ts`); a key-less transaction of
 * impersonated signers is authenticated as the reference's simulation does it (no signature; the
 * prologue skips the empty key), and runs otherwise as any other, gas charged.
 */
export const makeChainVm = (vm: MoveVm = new MoveVm(), impersonation?: ImpersonationService): ChainVmService => ({
  validate: (view, transaction, signatureCheck) => {
    const r =
      impersonation?.verdict(transaction)._tag === "Impersonated"
        ? validateImpersonated(vm, view, transaction)
        : validateTransaction(vm, view, transaction, { signatureCheck })
    return r._tag === "Valid"
      ? r
      : { _tag: "Invalid", status: { code: BigInt(statusNumber(r.status)), name: r.status } }
  },
  blockPrologue: (view, metadata, randomnessSeed) =>
    systemResult(
      executeSystemCall(
        vm,
        view,
        randomnessSeed === undefined
          ? {
              module: BLOCK,
              function: "block_prologue",
              tyArgs: [],
              signers: [VM_SIGNER],
              args: prologueArgs(metadata)
            }
          : {
              module: BLOCK,
              function: "block_prologue_ext",
              tyArgs: [],
              signers: [VM_SIGNER],
              // randomness_seed: Option<vector<u8>> = Some(seed)
              args: [...prologueArgs(metadata), new BcsWriter(40).u8(1).bytesWithLength(randomnessSeed).toBytes()]
            },
        // The session id names the transaction kind (the reference's SessionId::BlockMeta / BlockMetaExt).
        {
          id:
            randomnessSeed === undefined
              ? { _tag: "BlockMeta", id: metadata.id }
              : { _tag: "BlockMetaExt", id: metadata.id }
        }
      )
    ),
  executeUser: (view, transaction, index, signatureCheck) => {
    const run = withoutMissesOf(() =>
      executeTransaction(vm, view, transaction, {
        transactionIndex: index,
        signatureCheck,
        simulation: impersonation?.verdict(transaction)._tag === "Impersonated"
      })
    )
    // On a fork whose source is gone: this transaction needed state that cannot be fetched.
    if (run.missed)
      return { _tag: "Discard", status: { code: BigInt(statusNumber("STORAGE_ERROR")), name: "STORAGE_ERROR" } }
    const out = run.value
    if (out.status._tag === "Discard")
      return { _tag: "Discard", status: { code: BigInt(statusNumber(out.status.status)), name: out.status.status } }
    return {
      _tag: "Keep",
      writeSet: out.writeSet,
      events: out.events,
      gasUsed: out.gasUsed,
      status: out.status.status,
      vmStatus: explainExecutionStatus(out.status.status, (module, index) => functionNameIn(view, module, index))
    }
  },
  blockEpilogue: (view, blockId, fees) =>
    systemResult(
      executeSystemCall(
        vm,
        view,
        {
          module: BLOCK,
          function: "block_epilogue",
          tyArgs: [],
          signers: [VM_SIGNER],
          args: [u64Vector(fees.map(([i]) => i)), u64Vector(fees.map(([, amount]) => amount))]
        },
        { id: { _tag: "BlockEpilogue", id: blockId } }
      )
    )
})

/** Mempool admission of an impersonated transaction: the prologue with simulation's authentication. */
const validateImpersonated = (vm: MoveVm, view: StateView, txn: SignedTransaction): ValidationResult => {
  const started = checkAndRunPrologue(vm, view, txn, { simulation: true })
  if ("run" in started) return { _tag: "Valid" }
  const status = started.status
  return status._tag === "Discard"
    ? { _tag: "Invalid", status: status.status, vmStatus: started.vmStatus }
    : { _tag: "Invalid", status: "UNKNOWN_VALIDATION_STATUS", vmStatus: started.vmStatus }
}

/** The `ChainVm` layer over the real executor (a fresh `MoveVm`), with the chain's impersonation when it has one. */
export const ChainVmLive: Layer.Layer<ChainVm> = Layer.effect(
  ChainVm,
  Effect.map(Effect.serviceOption(Impersonation), (i) => makeChainVm(new MoveVm(), Option.getOrUndefined(i)))
)
