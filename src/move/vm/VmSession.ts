import * as Result from "effect/Result"
import { BcsWriter } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import type { ChangeSet, Script, TransactionArgument } from "../../domain/Transaction.js"
import type { ModuleId, TypeTag } from "../../domain/TypeTag.js"
import { deserializeScript } from "../binary/deserialize.js"
import { AttributeKind } from "../metadata/ModuleMetadata.js"
import { resolverOverState, verifyScript } from "../verifier/index.js"
import { type Construct, decodeArguments, entryArguments, isSignerParam, signerArg } from "./callArguments.js"
import { scriptNamesEventEmit } from "./eventValidation.js"
import { GasMeter } from "./GasMeter.js"
import { Interpreter } from "./Interpreter.js"
import type { LoadedFunction } from "./Loader.js"
import type { MoveVm } from "./MoveVm.js"
import { type PublishRequest, Session } from "./Session.js"
import { type SessionId, sessionCounter, sessionIdHash, sessionScriptHash } from "./SessionId.js"
import type { StateView } from "./StateView.js"
import type { UserTransactionContext } from "./TransactionContext.js"
import { K, substituteAll, type Type } from "./Type.js"
import { Ref, type Value } from "./Value.js"
import { serializeValue } from "./ValueBcs.js"
import { MoveAbort, VmError, vmError } from "./VmError.js"
import { type VmFailure, vmFailureOf } from "./VmFailure.js"

/** What a session runs for. */
export interface SessionOptions {
  /** Hashed into the natives' transaction hash; its script hash is `get_script_hash`'s answer. */
  readonly id: SessionId
  /** The user transaction, for `transaction_context`; undefined for system sessions. */
  readonly user?: UserTransactionContext | undefined
  /**
   * The chain id natives report outside a user transaction (`type_info::chain_id`); read from
   * `0x1::chain_id::ChainId` when not given (genesis gives it: the resource does not exist yet).
   */
  readonly chainId?: number | undefined
}

/** One function call in a session. */
export interface SessionCall {
  readonly module: ModuleId
  readonly function: string
  readonly tyArgs: ReadonlyArray<TypeTag>
  /** Fill the leading `signer` / `&signer` parameters, in order. */
  readonly signers: ReadonlyArray<AccountAddress>
  /** BCS of each remaining parameter. */
  readonly args: ReadonlyArray<Uint8Array>
}

/**
 * "system": any visibility, any parameter types, the signer count must equal the leading signer
 * parameters (genesis, block prologue/epilogue, transaction prologue/epilogue). "entry": a user
 * payload: the function must be `entry`, arguments are validated and built as the reference's
 * `validate_combine_signer_and_txn_args` does.
 */
export type CallMode = "system" | "entry"

export interface ExecuteOptions {
  readonly mode?: CallMode
  /** Charged for instructions, natives, dependencies and storage reads; default unmetered. */
  readonly gas?: GasMeter
  /** Bound on branches + calls (see `Interpreter`). */
  readonly maxBranches?: number
}

export type ExecOutcome = { readonly _tag: "Success"; readonly values: ReadonlyArray<Uint8Array> } | VmFailure

/** Versions given to modules staged in a session: below any ledger version, distinct per staging. */
let stagedVersion = 0n
let stagedSnapshots = 0

/**
 * A VM session (the reference's `SessionExt`): one data cache over a `StateView` that several
 * calls share, then `finish()` turns its effects into a change set. Sessions stack: a session
 * over `overlayStateView(base, [earlier change sets])` sees the earlier sessions' writes (prologue →
 * payload → epilogue); a failed call leaves the session's data partial, so the caller drops the
 * session (nothing is written anywhere until the caller commits a change set).
 */
export class VmSession {
  private readonly session: Session
  private view: StateView
  private readonly staged = new Map<string, { readonly bytes: Uint8Array; readonly version: bigint }>()
  private chainId: number | undefined
  private finished = false

  constructor(
    private readonly vm: MoveVm,
    private readonly base: StateView,
    options: SessionOptions
  ) {
    this.view = base
    this.chainId = options.chainId
    const id = options.id
    let txnHash: Uint8Array | undefined
    // Over a snapshot (the mempool's validation, a simulation) the prologue's reads — the sender's
    // account and balance, the chain's configuration — are decoded once per snapshot, not per
    // transaction; a block's overlay names none, so its sessions decode (once per transaction: the
    // overlay's own cache, OverlayStateView.forgetDecodedResources).
    this.session = new Session(base, GasMeter.unmetered(), vm.snapshotCache(base), {
      // Hashed on first use: only sessions whose natives derive addresses or handles need it.
      get txnHash() {
        txnHash ??= sessionIdHash(id)
        return txnHash
      },
      scriptHash: sessionScriptHash(id),
      user: options.user,
      sessionCounter: sessionCounter(id)
    })
  }

  /** Runs one function; never throws. */
  execute(call: SessionCall, options: ExecuteOptions = {}): ExecOutcome {
    const mode = options.mode ?? "system"
    return this.run(options, (gas) => {
      const loader = this.vm.loader
      const fn = loader.loadFunction(call.module.address, call.module.name, call.function)
      const m = fn.module
      if (mode === "entry") {
        if (!fn.def.isEntry)
          return vmError(
            "EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION",
            `${fn.fullName} is not an entry function`
          )
        // A `#[randomness]` entry function may use the randomness API (the reference marks the session).
        if (m.metadata.metadata.functionAttributes.get(fn.name)?.some((a) => a.kind === AttributeKind.Randomness))
          this.session.unbiasable = true
      }
      const tyArgs = this.vm.instantiate(fn, call.tyArgs)
      const params = substituteAll(fn.params, tyArgs)
      const args =
        mode === "entry"
          ? entryArguments(fn, params, call.signers, call.args, loader, this.constructor_(gas))
          : systemArguments(params, call.signers, call.args)
      return this.invoke(fn, tyArgs, args, gas, options)
    })
  }

  /**
   * Runs a script payload: its `main` with `script.typeArgs`, `signers` in the leading signer
   * parameters and the transaction arguments after them (validated as an entry function's).
   */
  executeScript(script: Script, signers: ReadonlyArray<AccountAddress>, options: ExecuteOptions = {}): ExecOutcome {
    return this.run(options, (gas) => {
      const decoded = deserializeScript(script.code)
      if (Result.isFailure(decoded)) return vmError("CODE_DESERIALIZATION_ERROR", decoded.failure.message)
      if (scriptNamesEventEmit(decoded.success))
        return vmError("INVALID_OPERATION_IN_SCRIPT", "scripts cannot call 0x1::event::emit")
      const refused = verifyScript(decoded.success, resolverOverState(this.view))
      if (refused !== undefined) return vmError(refused.status, `script: ${refused.message}`)
      const m = this.vm.loader.loadScript(decoded.success, script.code.length)
      const fn = m.functions[0]!
      const tyArgs = this.vm.instantiate(fn, script.typeArgs)
      const params = substituteAll(fn.params, tyArgs)
      const raw = script.args.map(transactionArgumentBytes)
      const args = entryArguments(fn, params, signers, raw, this.vm.loader, this.constructor_(gas))
      return this.invoke(fn, tyArgs, args, gas, options)
    })
  }

  /** The publish request the last calls made (`0x1::code::request_publish*`), taken once. */
  takePublishRequest(): PublishRequest | undefined {
    const r = this.session.publishRequest
    this.session.publishRequest = undefined
    return r
  }

  /**
   * Writes modules in this session (the executor stages a publish request after checking it):
   * `finish()` emits their writes, and later calls load them (e.g. `init_module`). Modules linking
   * to a replaced module are dropped from the loader's cache.
   */
  stageModules(modules: ReadonlyArray<{ readonly id: ModuleId; readonly bytes: Uint8Array }>): void {
    for (const { id, bytes } of modules) {
      const existed = this.base.module(id.address, id.name) !== undefined
      this.session.stageModule(id.address, id.name, bytes, existed)
      this.staged.set(stagedKey(id.address, id.name), { bytes, version: --stagedVersion })
    }
    const base = this.base
    const staged = this.staged
    this.view = {
      snapshot: undefined,
      codeSnapshot: `staged:${++stagedSnapshots}`,
      generation: base.generation,
      module: (address, name) => staged.get(stagedKey(address, name)) ?? base.module(address, name),
      resource: base.resource,
      resourceGroup: base.resourceGroup,
      tableItem: base.tableItem,
      storageUsage: base.storageUsage,
      stateValueMetadata: base.stateValueMetadata,
      valueAt: base.valueAt
    }
  }

  /** The session's effects (see `Session.finish`); the session is done afterwards. */
  finish(): { readonly _tag: "Success"; readonly changeSet: ChangeSet } | VmFailure {
    if (this.finished) return { _tag: "Error", error: new VmError("UNREACHABLE", "session already finished") }
    this.finished = true
    try {
      return { _tag: "Success", changeSet: this.vm.loader.withView(this.view, () => this.session.finish()) }
    } catch (e) {
      return vmFailureOf(e, this.vm.loader, this.view)
    }
  }

  private run(options: ExecuteOptions, body: (gas: GasMeter) => ReadonlyArray<Uint8Array> | MoveAbort): ExecOutcome {
    if (this.finished) return { _tag: "Error", error: new VmError("UNREACHABLE", "session already finished") }
    const gas = options.gas ?? GasMeter.unmetered()
    const loader = this.vm.loader
    try {
      const values = loader.withView(this.view, () => {
        loader.onFirstUse = (address, size) => gas.chargeDependency(address, size)
        this.session.gas = gas
        return body(gas)
      })
      if (values instanceof MoveAbort) return vmFailureOf(values, loader, this.view)
      return { _tag: "Success", values }
    } catch (e) {
      return vmFailureOf(e, loader, this.view)
    }
  }

  private interpreter(gas: GasMeter, maxBranches: number | undefined): Interpreter {
    return new Interpreter(
      this.vm.loader,
      this.session,
      gas,
      () => (this.chainId ??= this.vm.chainIdOf(this.session)),
      maxBranches
    )
  }

  private invoke(
    fn: LoadedFunction,
    tyArgs: ReadonlyArray<Type>,
    args: Value[],
    gas: GasMeter,
    options: ExecuteOptions
  ): ReadonlyArray<Uint8Array> | MoveAbort {
    const results = this.interpreter(gas, options.maxBranches).execute(fn, tyArgs, args)
    if (results instanceof MoveAbort) return results
    const returnTypes = substituteAll(fn.returns, tyArgs)
    return returnTypes.map((t, i) => {
      const v = results[i]
      return serializeValue(v instanceof Ref ? v.get() : v, t.k === K.Ref || t.k === K.MutRef ? t.to : t)
    })
  }

  /** Runs argument constructors unmetered (as the reference does), reads included. */
  private constructor_(gas: GasMeter): Construct {
    return (fn, tyArgs, args) => {
      const free = GasMeter.unmetered()
      this.session.gas = free
      try {
        const results = this.interpreter(free, undefined).execute(fn, tyArgs, args)
        // An argument constructor that aborts (rare: a malformed argument) fails the call as a throw.
        if (results instanceof MoveAbort) throw results
        return results[0]
      } finally {
        this.session.gas = gas
      }
    }
  }
}

const stagedKey = (address: AccountAddress, name: string): string => `${addressToShortString(address)}::${name}`

/** System-call arguments: `signers` fill exactly the leading signer parameters, BCS the rest. */
const systemArguments = (
  params: ReadonlyArray<Type>,
  signers: ReadonlyArray<AccountAddress>,
  raw: ReadonlyArray<Uint8Array>
): Value[] => {
  let n = 0
  while (n < params.length && isSignerParam(params[n]!)) n++
  if (n !== signers.length)
    return vmError("NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH", `the function takes ${n} signers, ${signers.length} given`)
  const values: Value[] = signers.map((s, i) => signerArg(params[i]!, s))
  for (const v of decodeArguments(params.slice(n), raw)) values.push(v)
  return values
}

/** BCS of a script's `TransactionArgument` as the value its parameter takes. */
export const transactionArgumentBytes = (a: TransactionArgument): Uint8Array => {
  const w = new BcsWriter(40)
  switch (a._tag) {
    case "U8":
      w.u8(a.value)
      break
    case "U16":
      w.u16(a.value)
      break
    case "U32":
      w.u32(a.value)
      break
    case "U64":
      w.u64(a.value)
      break
    case "U128":
      w.u128(a.value)
      break
    case "U256":
      w.u256(a.value)
      break
    case "Address":
      w.fixed(a.value)
      break
    case "U8Vector":
      w.bytesWithLength(a.value)
      break
    case "Bool":
      w.bool(a.value)
      break
    case "Serialized":
      return a.value
    case "I8":
      w.signed(8, a.value)
      break
    case "I16":
      w.signed(16, a.value)
      break
    case "I32":
      w.signed(32, a.value)
      break
    case "I64":
      w.signed(64, a.value)
      break
    case "I128":
      w.signed(128, a.value)
      break
    case "I256":
      w.signed(256, a.value)
      break
  }
  return w.toBytes()
}
