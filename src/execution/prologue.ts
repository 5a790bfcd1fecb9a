/**
 * `validate_signed_transaction` after the signature check, and `run_prologue_with_payload`
 * (aptos-vm `aptos_vm.rs`, `transaction_validation.rs`): the checks that need no Move code
 * (duplicate signers, payload and replay-protector feature gates, `check_gas`, empty or script
 * multisig payloads) around account abstraction's authentication functions
 * (`authenticateAbstraction`, metered), then the framework's `versioned_prologue` in the same,
 * otherwise unmetered, prologue session and, for a multisig payload, `multisig_account::validate_multisig_transaction`. Any failure
 * discards the transaction, with the status `convert_prologue_error` maps the abort to.
 *
 * Only the versioned validation pair (flag 112) is implemented; a framework with it off is refused
 * with FEATURE_UNDER_GATING and a message saying so.
 */
import { Bcs, BcsWriter } from "../bcs/index.js"
import { addressEquals, addressFromNumber, addressToShortString } from "../domain/AccountAddress.js"
import { writeEntryFunction } from "../domain/PayloadCodec.js"
import type { ChangeSet } from "../domain/Transaction.js"
import type { StructTag } from "../domain/TypeTag.js"
import { structTagCodec } from "../domain/TypeTagCodec.js"
import type { GasMeter } from "../move/vm/GasMeter.js"
import type { StateView } from "../move/vm/StateView.js"
import type { VmFailure } from "../move/vm/VmFailure.js"
import { authenticateAbstraction } from "./authenticateAbstraction.js"
import { checkGas } from "./checkGas.js"
import { encodePrologueArgs } from "./PrologueArgs.js"
import type { StatusName } from "../move/vm/StatusCode.js"
import type { TransactionMetadata } from "./TransactionMetadata.js"
import { sessionId, type TransactionRun } from "./TransactionRun.js"
import { boundedMessage, vmStatusOf } from "./vmStatusOf.js"
import { type VmStatus, vmError } from "./VmStatus.js"
import type { Features } from "./Features.js"

export type PrologueOutcome =
  | {
      readonly _tag: "Ok"
      readonly changeSet: ChangeSet
      /** What account abstraction's authentication functions used (undefined: none ran). */
      readonly authenticationGas: GasMeter | undefined
    }
  | { readonly _tag: "Discard"; readonly vmStatus: VmStatus }

const ONE = addressFromNumber(1)
const ACCOUNT: StructTag = { address: ONE, module: "account", name: "Account", typeArgs: [] }
const ACCOUNT_BYTES = Bcs.encode(structTagCodec, ACCOUNT)
const VALIDATION = { address: ONE, name: "transaction_validation" }
const MULTISIG = { address: ONE, name: "multisig_account" }

const discard = (status: StatusName, message?: string): PrologueOutcome => ({
  _tag: "Discard",
  vmStatus: vmError(status, message)
})

/**
 * `should_create_account_resource`: the sender's Account resource is created lazily (in the user
 * session, metered) when DEFAULT_ACCOUNT_RESOURCE (91) is on, or SPONSORED_AUTOMATIC_ACCOUNT_V1
 * (34) with a fee payer, the sequence number is 0 and no Account resource exists yet.
 */
export const shouldCreateAccountResource = (md: TransactionMetadata, features: Features, view: StateView): boolean => {
  const gate =
    features.isEnabled("DEFAULT_ACCOUNT_RESOURCE") ||
    (features.isEnabled("SPONSORED_AUTOMATIC_ACCOUNT_V1_CREATION") && md.signers.feePayer !== undefined)
  if (!gate || md.replayProtector._tag !== "SequenceNumber" || md.replayProtector.sequenceNumber !== 0n) return false
  return view.resource(md.sender, ACCOUNT, ACCOUNT_BYTES) === undefined
}

// `error` module categories (std::error).
const INVALID_ARGUMENT = 1n
const OUT_OF_RANGE = 2n
const INVALID_STATE = 3n
const PERMISSION_DENIED = 5n
const NOT_FOUND = 6n

/** Aborts of `transaction_validation` (`aptos_types::transaction::validation` reasons). */
const VALIDATION_ABORTS = new Map<string, StatusName>([
  [`${INVALID_ARGUMENT}:1001`, "INVALID_AUTH_KEY"],
  [`${INVALID_ARGUMENT}:1002`, "SEQUENCE_NUMBER_TOO_OLD"],
  [`${INVALID_ARGUMENT}:1003`, "SEQUENCE_NUMBER_TOO_NEW"],
  [`${INVALID_ARGUMENT}:1004`, "SENDING_ACCOUNT_DOES_NOT_EXIST"],
  [`${INVALID_ARGUMENT}:1005`, "INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE"],
  [`${INVALID_ARGUMENT}:1006`, "TRANSACTION_EXPIRED"],
  [`${INVALID_ARGUMENT}:1007`, "BAD_CHAIN_ID"],
  [`${OUT_OF_RANGE}:1008`, "SEQUENCE_NUMBER_TOO_BIG"],
  [`${INVALID_ARGUMENT}:1009`, "SECONDARY_KEYS_ADDRESSES_COUNT_MISMATCH"],
  [`${INVALID_ARGUMENT}:1010`, "GAS_PAYER_ACCOUNT_MISSING"],
  [`${INVALID_STATE}:1011`, "INSUFFICIENT_BALANCE_FOR_REQUIRED_DEPOSIT"],
  [`${INVALID_ARGUMENT}:1012`, "NONCE_ALREADY_USED"],
  [`${INVALID_ARGUMENT}:1013`, "TRANSACTION_EXPIRATION_TOO_FAR_IN_FUTURE"]
])

/** Aborts of other modules the prologue reaches (the multisig account's checks). */
const OTHER_ABORTS = new Map<string, StatusName>([
  [`${INVALID_STATE}:2002`, "ACCOUNT_NOT_MULTISIG"],
  [`${PERMISSION_DENIED}:2003`, "NOT_MULTISIG_OWNER"],
  [`${NOT_FOUND}:2006`, "MULTISIG_TRANSACTION_NOT_FOUND"],
  [`${INVALID_ARGUMENT}:2009`, "MULTISIG_TRANSACTION_INSUFFICIENT_APPROVALS"],
  [`${INVALID_ARGUMENT}:2008`, "MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH_HASH"],
  [`${INVALID_ARGUMENT}:2010`, "MULTISIG_TRANSACTION_PAYLOAD_DOES_NOT_MATCH"]
])

/** `convert_prologue_error`: a prologue failure as the validation status the transaction is discarded with. */
export const convertPrologueError = (f: VmFailure): VmStatus => {
  if (f._tag === "Abort") {
    const key = `${f.code >> 16n}:${f.code & 0xffffn}`
    const inValidation =
      f.location !== undefined && addressEquals(f.location.address, ONE) && f.location.name === VALIDATION.name
    const status = (inValidation ? VALIDATION_ABORTS : OTHER_ABORTS).get(key)
    if (status !== undefined) return vmError(status)
    const where =
      f.location === undefined ? "script" : `${addressToShortString(f.location.address)}::${f.location.name}`
    return vmError(
      "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION",
      `[aptos_vm] Unexpected prologue Move abort: ${where}::${f.code} (Category: ${f.code >> 16n} Reason: ${f.code & 0xffffn})${f.message === undefined ? "" : ` Message: ${boundedMessage(f.message)}`}`
    )
  }
  const s = vmStatusOf(f)
  return vmError(
    "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION",
    `[aptos_vm] Unexpected prologue error: ${s._tag === "Executed" ? "" : `${"status" in s ? s.status : ""} ${s.message ?? ""}`}`.trim()
  )
}

/** Sender, then secondary signers: duplicates are refused before anything runs. */
const hasDuplicateSigners = (md: TransactionMetadata): boolean => {
  const all = [md.sender, ...md.signers.secondarySignerAddresses]
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++) if (addressEquals(all[i]!, all[j]!)) return true
  return false
}

/** `MultisigTransactionPayload` bytes the multisig module compares with its stored payload. */
export const multisigPayloadBytes = (md: TransactionMetadata, features: Features): Uint8Array => {
  const w = new BcsWriter(256)
  if (md.executable._tag === "EntryFunction") {
    w.uleb128(0)
    writeEntryFunction(w, md.executable.entryFunction)
  } else if (!features.isEnabled("ABORT_IF_MULTISIG_PAYLOAD_MISMATCH")) w.uleb128(0) // BCS of an empty vector<u8>
  return w.toBytes()
}

/** Runs the checks and the prologue; the prologue session's change set on success. */
export const runPrologue = (run: TransactionRun): PrologueOutcome => {
  const { md, features } = run
  if (hasDuplicateSigners(md)) return discard("SIGNERS_CONTAIN_DUPLICATES")
  // The prologue session: account abstraction's authentication functions run in it first, so what
  // they write is part of the prologue's change set, as in the reference.
  const session = run.vm.session(run.view, { id: sessionId(run, "Prologue"), user: run.user })
  const authenticated = authenticateAbstraction(run, session)
  if (authenticated._tag === "Discard") return authenticated
  if (md.txn.rawTransaction.payload._tag === "PayloadV1" && !features.isEnabled("TRANSACTION_PAYLOAD_V2"))
    return discard(
      "FEATURE_UNDER_GATING",
      "User transactions with TransactionPayloadInner variant are not yet supported"
    )
  if (md.isOrderless && !features.isEnabled("ORDERLESS_TRANSACTIONS"))
    return discard("FEATURE_UNDER_GATING", "Orderless transactions are not yet supported")

  const gas = checkGas(run.params, {
    transactionSize: md.transactionSize,
    maxGasAmount: md.maxGasAmount,
    gasUnitPrice: md.gasUnitPrice,
    isKeyless: md.isKeyless,
    createsAccount: shouldCreateAccountResource(md, features, run.view),
    defaultAccountResource: features.isEnabled("DEFAULT_ACCOUNT_RESOURCE"),
    newAccountsDefaultToFaStore: features.isEnabled("NEW_ACCOUNTS_DEFAULT_TO_FA_STORE")
  })
  if (gas !== undefined) return discard(gas)
  if (md.executable._tag === "Empty" && md.multisigAddress === undefined)
    return discard("EMPTY_PAYLOAD_PROVIDED", "Empty provided for a non-multisig transaction")
  if (md.executable._tag === "Script" && md.multisigAddress !== undefined)
    return discard("FEATURE_UNDER_GATING", "Script payload not yet supported for multisig transactions")
  if (!features.isEnabled("VERSIONED_TRANSACTION_VALIDATION"))
    return discard(
      "FEATURE_UNDER_GATING",
      "this node runs only the versioned transaction validation (feature flag 112), which this framework has off"
    )

  const args = run.vm.loader.withView(run.view, () =>
    encodePrologueArgs((a, n) => run.vm.loader.tryLoad(a, n)?.cm, {
      needsFeePayerAuthCheck: md.signers.feePayer !== undefined,
      senderAuthKey: md.signers.sender.authKey,
      feePayerAuthKey: md.signers.feePayer?.authKey,
      replayProtector: md.replayProtector,
      secondarySignerAddresses: md.signers.secondarySignerAddresses,
      secondarySignerAuthKeys: md.signers.secondarySigners.map((s) => s.authKey),
      gasUnitPrice: md.gasUnitPrice,
      maxGasAmount: md.maxGasAmount,
      expirationTimestampSecs: md.expirationTimestampSecs,
      chainId: md.chainId,
      isSimulation: run.simulation
    })
  )
  if (typeof args === "string") return discard("VM_STARTUP_FAILURE", `PrologueArgs: ${args}`)
  const prologue = session.execute(
    {
      module: VALIDATION,
      function: "versioned_prologue",
      tyArgs: [],
      signers: [md.sender, md.signers.feePayer?.address ?? md.sender],
      args: [args]
    },
    { mode: "system" }
  )
  if (prologue._tag !== "Success") return { _tag: "Discard", vmStatus: convertPrologueError(prologue) }

  if (
    md.multisigAddress !== undefined &&
    (!run.simulation || features.isEnabled("TRANSACTION_SIMULATION_ENHANCEMENT"))
  ) {
    const w = new BcsWriter(40)
    w.fixed(md.multisigAddress)
    const payload = new BcsWriter(256).bytesWithLength(multisigPayloadBytes(md, features)).toBytes()
    const validated = session.execute(
      {
        module: MULTISIG,
        function: "validate_multisig_transaction",
        tyArgs: [],
        signers: [md.sender],
        args: [w.toBytes(), payload]
      },
      { mode: "system" }
    )
    if (validated._tag !== "Success") return { _tag: "Discard", vmStatus: convertPrologueError(validated) }
  }

  const finished = session.finish()
  if (finished._tag !== "Success") return { _tag: "Discard", vmStatus: convertPrologueError(finished) }
  return { _tag: "Ok", changeSet: finished.changeSet, authenticationGas: authenticated.gas }
}
