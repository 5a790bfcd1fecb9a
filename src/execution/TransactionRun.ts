/**
 * What every stage of one transaction's execution reads: the VM, the state it runs on, the
 * transaction's metadata, and the environment read from state once (gas schedule, `txn.*`
 * params, feature flags, the block time). Built by `transactionRun`, which fails only when the
 * state lacks what any transaction needs (the reference's VM_STARTUP_FAILURE).
 */
import { Bcs, BcsReader } from "../bcs/index.js"
import { addressFromNumber } from "../domain/AccountAddress.js"
import type { StructTag } from "../domain/TypeTag.js"
import { structTagCodec } from "../domain/TypeTagCodec.js"
import type { StateValueMetadata } from "../domain/WriteSet.js"
import { type GasSchedule, readGasSchedule } from "../move/vm/GasSchedule.js"
import type { MoveVm } from "../move/vm/MoveVm.js"
import type { SessionId } from "../move/vm/SessionId.js"
import { DerivedKey } from "../move/vm/StateCache.js"
import type { StateView } from "../move/vm/StateView.js"
import type { UserTransactionContext } from "../move/vm/TransactionContext.js"
import { VmError } from "../move/vm/VmError.js"
import { type Features, readFeatures } from "./Features.js"
import { type TransactionGasParams, transactionGasParams } from "./TransactionGasParams.js"
import type { TransactionMetadata } from "./TransactionMetadata.js"
import type { SignatureCheck } from "./verifySignature.js"

export interface ExecuteOptions {
  /**
   * The simulate endpoint's run (the reference's `is_simulation`): no signature check, the
   * prologue skips empty keys and, with fee payer 0x0, the payer's balance.
   */
  readonly simulation?: boolean
  /**
   * The metadata (deposits, creation time) recorded in state for a slot, by BCS(StateKey);
   * undefined = none recorded (a legacy slot). Default: the view's `stateValueMetadata` (an
   * OverlayStateView answers from a block's earlier outputs, then its base); a view without it
   * makes every existing slot legacy: deletions refund nothing (docs/gas.md).
   */
  readonly stateValueMetadata?: (keyBytes: Uint8Array) => StateValueMetadata | undefined
  /** The transaction's index in its block (`monotonically_increasing_counter`); 0 by default. */
  readonly transactionIndex?: number
  /**
   * The signature check already made of these very bytes (admission's, kept by the mempool with
   * the pooled bytes: `PoolEntry.signatureCheck`): taken as the answer instead of checking again,
   * and its signers are the metadata's. Undefined: `verifySignature` checks.
   */
  readonly signatureCheck?: SignatureCheck | undefined
}

export interface TransactionRun {
  readonly vm: MoveVm
  readonly view: StateView
  readonly md: TransactionMetadata
  readonly schedule: GasSchedule
  readonly params: TransactionGasParams
  readonly features: Features
  readonly simulation: boolean
  /** `timestamp::now_microseconds()`: the creation time recorded for new slots. */
  readonly nowUsecs: bigint
  readonly user: UserTransactionContext
  readonly metadataOf: (keyBytes: Uint8Array) => StateValueMetadata | undefined
}

const ONE = addressFromNumber(1)
const TIMESTAMP: StructTag = { address: ONE, module: "timestamp", name: "CurrentTimeMicroseconds", typeArgs: [] }
/** BCS(TIMESTAMP), built once: a view then reads the resource without writing its key's tag per run. */
const TIMESTAMP_BYTES = Bcs.encode(structTagCodec, TIMESTAMP)

const readNow = (view: StateView): bigint => {
  const bytes = view.resource(ONE, TIMESTAMP, TIMESTAMP_BYTES)
  if (bytes === undefined) return 0n
  try {
    return new BcsReader(bytes).u64()
  } catch {
    return 0n
  }
}

const noMetadata = (): undefined => undefined

/** The view's recorded metadata (OverlayStateView: a block's earlier writes, then its base), else none. */
const metadataOfView = (view: StateView): ((keyBytes: Uint8Array) => StateValueMetadata | undefined) =>
  view.stateValueMetadata === undefined ? noMetadata : (keyBytes) => view.stateValueMetadata?.(keyBytes)

/** What a transaction's run reads from state before it starts: the same for every run at one state. */
interface RunEnvironment {
  readonly schedule: GasSchedule
  readonly params: TransactionGasParams
  readonly features: Features
  readonly nowUsecs: bigint
}

/**
 * Kept with a snapshot's cache (`MoveVm.snapshotCache`): the admission worker validates a batch of
 * transactions at one snapshot, and read the gas schedule, the feature flags and the block time from
 * state (the schedule's few KB copied out of the store) for each one (session 14). A block's overlay
 * has no snapshot: it reads them per transaction from its own cache of the base's values.
 */
const RUN_ENVIRONMENT = new DerivedKey<RunEnvironment>("TransactionRun.environment")

/** The environment at `view`, or the VM_STARTUP_FAILURE message when the state cannot run transactions. */
const runEnvironment = (vm: MoveVm, view: StateView): RunEnvironment | string => {
  const cache = vm.snapshotCache(view)
  const known = cache?.derived(RUN_ENVIRONMENT)
  if (known !== undefined) return known
  let schedule: GasSchedule
  try {
    schedule = readGasSchedule(view)
  } catch (e) {
    return e instanceof VmError ? e.detail : String(e)
  }
  const params = transactionGasParams(schedule)
  if (params._tag === "Missing") return `gas parameter ${params.entry} does not exist`
  const environment: RunEnvironment = {
    schedule,
    params: params.params,
    features: readFeatures(view),
    nowUsecs: readNow(view)
  }
  cache?.keepDerived(RUN_ENVIRONMENT, environment)
  return environment
}

/** The run's environment, or the VM_STARTUP_FAILURE message when the state cannot run transactions. */
export const transactionRun = (
  vm: MoveVm,
  view: StateView,
  md: TransactionMetadata,
  options: ExecuteOptions
): TransactionRun | string => {
  const environment = runEnvironment(vm, view)
  if (typeof environment === "string") return environment
  const multisig = md.multisigAddress
  const executable = md.executable
  return {
    vm,
    view,
    md,
    schedule: environment.schedule,
    params: environment.params,
    features: environment.features,
    simulation: options.simulation === true,
    nowUsecs: environment.nowUsecs,
    user: {
      sender: md.sender,
      secondarySigners: md.signers.secondarySignerAddresses,
      gasPayer: md.signers.feePayer?.address ?? md.sender,
      maxGasAmount: md.maxGasAmount,
      gasUnitPrice: md.gasUnitPrice,
      chainId: md.chainId,
      entryFunction:
        multisig === undefined && executable._tag === "EntryFunction" ? executable.entryFunction : undefined,
      multisig:
        multisig === undefined
          ? undefined
          : {
              multisigAddress: multisig,
              entryFunction: executable._tag === "EntryFunction" ? executable.entryFunction : undefined
            },
      transactionIndex: options.transactionIndex ?? 0
    },
    metadataOf: options.stateValueMetadata ?? metadataOfView(view)
  }
}

export type SessionKind = "Prologue" | "Txn" | "Epilogue" | "RunOnAbort"

/** The session id the reference gives each of a user transaction's sessions (orderless forms for a nonce). */
export const sessionId = (run: TransactionRun, kind: SessionKind): SessionId => {
  const md = run.md
  const scriptHash = md.scriptHash
  if (md.replayProtector._tag === "SequenceNumber")
    return { _tag: kind, sender: md.sender, sequenceNumber: md.replayProtector.sequenceNumber, scriptHash }
  const orderless = {
    Prologue: "OrderlessTxnProlouge",
    Txn: "OrderlessTxn",
    Epilogue: "OrderlessTxnEpilogue",
    RunOnAbort: "OrderlessRunOnAbort"
  } as const
  return {
    _tag: orderless[kind],
    sender: md.sender,
    nonce: md.replayProtector.nonce,
    expirationTime: md.expirationTimestampSecs,
    scriptHash
  }
}
