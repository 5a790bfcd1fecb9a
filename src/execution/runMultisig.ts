/**
 * `execute_multisig_transaction` (aptos-vm `aptos_vm.rs`): a transaction whose payload runs as a
 * multisig account. After the intrinsic gas, `0x1::multisig_account::get_next_transaction_payload`
 * (metered, in the user session) yields the payload to run (the one given, or the one stored on
 * chain); it runs with the multisig account as its only signer. The transaction itself succeeds
 * whether or not that inner payload does:
 * - inner success: its changes are charged, then `successful_transaction_execution_cleanup` runs
 *   in the epilogue session before the epilogue;
 * - inner failure: its changes are dropped and `failed_transaction_execution_cleanup` (told the
 *   `ExecutionError`) runs in an epilogue session over the prologue's changes, before the epilogue.
 * A failure before the inner payload runs, or in a cleanup call, fails the transaction as any
 * payload failure does (`failureCleanup`).
 */
import * as Result from "effect/Result"
import { BcsReader, BcsWriter } from "../bcs/index.js"
import { addressFromNumber, addressToLongString } from "../domain/AccountAddress.js"
import type { ChangeSet, EntryFunction } from "../domain/Transaction.js"
import { readEntryFunction } from "../domain/PayloadCodec.js"
import type { VmSession } from "../move/vm/VmSession.js"
import { chargeChangeSet } from "./chargeChangeSet.js"
import { feeStatementOf, viewWith } from "./epilogue.js"
import { failureCleanup } from "./failureCleanup.js"
import { multisigPayloadBytes } from "./prologue.js"
import { publishModules } from "./publishModules.js"
import { createAccountIfDoesNotExist, chargeIntrinsic } from "./runPayload.js"
import { shouldCreateAccountResource } from "./prologue.js"
import { squashChangeSets } from "./squashChangeSets.js"
import { successOutput } from "./successOutput.js"
import { StatusCodes } from "../move/vm/StatusCode.js"
import { discardedOutput, type TransactionOutput } from "./TransactionOutput.js"
import type { TransactionMeter } from "./TransactionMeter.js"
import { sessionId, type TransactionRun } from "./TransactionRun.js"
import { vmStatusOf } from "./vmStatusOf.js"
import { type VmStatus, vmError, vmStatusCode } from "./VmStatus.js"

const MULTISIG = { address: addressFromNumber(1), name: "multisig_account" }

const bytesArg = (b: Uint8Array): Uint8Array => new BcsWriter(b.length + 5).bytesWithLength(b).toBytes()
const addressArg = (a: Uint8Array): Uint8Array => new BcsWriter(32).fixed(a).toBytes()

/** `AbortLocation`'s Debug text: `<64 hex digits>::<module>`, or `Script`. */
const locationText = (m: { address: Uint8Array; name: string } | undefined): string =>
  m === undefined ? "Script" : `${addressToLongString(m.address).slice(2)}::${m.name}`

/** BCS of the reference's `ExecutionError { abort_location, error_type, error_code }` for a failed inner payload. */
export const executionErrorBytes = (s: VmStatus): Uint8Array => {
  const w = new BcsWriter(128)
  switch (s._tag) {
    case "MoveAbort":
      w.string(locationText(s.location)).string("MoveAbort").u64(s.code)
      break
    case "ExecutionFailure":
      w.string(locationText(s.location)).string("MoveExecutionFailure").u64(BigInt(StatusCodes[s.status]))
      break
    case "Error":
      w.string("").string("VMError").u64(BigInt(StatusCodes[s.status]))
      break
    case "Executed":
      w.string("").string("VMError").u64(BigInt(StatusCodes.UNREACHABLE))
  }
  return w.toBytes()
}

/** The payload bytes `get_next_transaction_payload` returned, as the entry function to run. */
const decodePayload = (returned: Uint8Array): { bytes: Uint8Array; entry: EntryFunction } | undefined => {
  try {
    const bytes = new BcsReader(returned).bytesWithLength()
    const r = new BcsReader(bytes)
    if (r.uleb128() !== 0) return undefined // MultisigTransactionPayload::EntryFunction is the only variant
    const entry = readEntryFunction(r)
    r.expectEnd()
    return { bytes, entry }
  } catch {
    return undefined
  }
}

/** The inner payload, run in `session` as the multisig account; its change set with the prologue's. */
const runInner = (
  run: TransactionRun,
  session: VmSession,
  prologue: ChangeSet,
  entry: EntryFunction,
  meter: TransactionMeter
): ChangeSet | VmStatus => {
  const multisig = run.md.multisigAddress!
  const out = session.execute(
    { module: entry.module, function: entry.function, tyArgs: entry.typeArgs, signers: [multisig], args: entry.args },
    { mode: "entry", gas: meter.gas }
  )
  if (out._tag !== "Success") return vmStatusOf(out)
  const request = session.takePublishRequest()
  if (request !== undefined) {
    const failed = publishModules(run, session, request, meter)
    if (failed !== undefined) return failed
  }
  const finished = session.finish()
  if (finished._tag !== "Success") return vmStatusOf(finished)
  const combined = squashChangeSets(prologue, finished.changeSet)
  return Result.isSuccess(combined) ? combined.success : vmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", combined.failure)
}

export const runMultisig = (run: TransactionRun, prologue: ChangeSet, meter: TransactionMeter): TransactionOutput => {
  const md = run.md
  const multisig = md.multisigAddress!
  const session = run.vm.session(viewWith(run.view, prologue), { id: sessionId(run, "Txn"), user: run.user })
  if (shouldCreateAccountResource(md, run.features, run.view)) {
    const created = createAccountIfDoesNotExist(run, session, meter)
    if (created._tag !== "Success") {
      const s = vmStatusOf(created)
      return discardedOutput(vmStatusCode(s), s)
    }
  }
  const charged = chargeIntrinsic(run, meter)
  if (charged !== undefined) return failureCleanup(run, prologue, charged, meter)

  const next = session.execute(
    {
      module: MULTISIG,
      function: "get_next_transaction_payload",
      tyArgs: [],
      signers: [],
      args: [addressArg(multisig), bytesArg(multisigPayloadBytes(md, run.features))]
    },
    { mode: "system", gas: meter.gas }
  )
  if (next._tag !== "Success") return failureCleanup(run, prologue, vmStatusOf(next), meter)
  const payload = decodePayload(next.values[0] ?? new Uint8Array(0))
  if (payload === undefined) return failureCleanup(run, prologue, vmError("FAILED_TO_DESERIALIZE_ARGUMENT"), meter)

  const cleanupArgs = [addressArg(md.sender), addressArg(multisig), bytesArg(payload.bytes)]
  const cleanup =
    (fn: string, extra: Uint8Array[] = []) =>
    (epilogueSession: VmSession): VmStatus | undefined => {
      const out = epilogueSession.execute(
        { module: MULTISIG, function: fn, tyArgs: [], signers: [], args: [...cleanupArgs, ...extra] },
        { mode: "system" }
      )
      return out._tag === "Success" ? undefined : vmStatusOf(out)
    }

  const inner = runInner(run, session, prologue, payload.entry, meter)
  let previous: ChangeSet
  let refund = 0n
  let before: (s: VmSession) => VmStatus | undefined
  if ("writeSet" in inner) {
    const priced = chargeChangeSet(run, meter, inner)
    if (priced._tag === "Failed") return failureCleanup(run, prologue, priced.vmStatus, meter)
    previous = priced.changeSet
    refund = priced.storageRefund
    before = cleanup("successful_transaction_execution_cleanup")
  } else {
    previous = prologue
    before = cleanup("failed_transaction_execution_cleanup", [executionErrorBytes(inner)])
  }
  return successOutput(run, prologue, meter, previous, feeStatementOf(meter, refund), before)
}
