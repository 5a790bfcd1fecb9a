import { addressFromNumber, addressToShortString } from "../../domain/AccountAddress.js"
import type { ModuleId, TypeTag } from "../../domain/TypeTag.js"
import { decodeArguments, isSignerParam } from "./callArguments.js"
import { GasMeter } from "./GasMeter.js"
import { type GasSchedule, meterFor, readGasSchedule } from "./GasSchedule.js"
import { Interpreter } from "./Interpreter.js"
import { type LoadedFunction, Loader, type ModuleDecoder } from "./Loader.js"
import { abortInfo } from "./moduleMetadata.js"
import { frameworkNatives } from "./natives/index.js"
import type { NativeTable } from "./natives/NativeContext.js"
import { Session } from "./Session.js"
import { StateCache } from "./StateCache.js"
import type { StateView } from "./StateView.js"
import { sharedModuleDecoder } from "./sharedModuleDecoder.js"
import { abilitiesOf, checkTypeSize, K, primitiveNamed, structOf, substituteAll, type Type, vectorOf } from "./Type.js"
import { Ref, type StructValue } from "./Value.js"
import { serializeValue } from "./ValueBcs.js"
import { MoveAbort, VmError, vmError } from "./VmError.js"
import type { VmFailure } from "./VmFailure.js"
import { type SessionOptions, VmSession } from "./VmSession.js"

export interface MoveVmOptions {
  readonly natives?: NativeTable
  readonly decode?: ModuleDecoder
  /** The loader's bound on cached bytecode (`DEFAULT_MAX_CACHED_BYTECODE`). */
  readonly maxCachedBytecode?: number
}

export interface FunctionCall {
  readonly module: ModuleId
  readonly function: string
  readonly tyArgs: ReadonlyArray<TypeTag>
  /** BCS of each non-signer argument. */
  readonly args: ReadonlyArray<Uint8Array>
}

export interface CallOptions {
  /** Budget in external gas units; undefined = unmetered. */
  readonly maxGas?: bigint | undefined
  /** Require the view attribute and at least one return value (POST /view). */
  readonly view?: boolean
  /** Bound on branches + calls (see `Interpreter`); default `DEFAULT_MAX_BRANCHES`. */
  readonly maxBranches?: number
  /**
   * Wall-clock bound on the run in milliseconds (EXECUTION_LIMIT_REACHED past it), checked every
   * `DEADLINE_SLICE` branches + calls; default `DEFAULT_VIEW_DEADLINE_MS` for views, none otherwise.
   */
  readonly deadlineMs?: number
  /** The clock the deadline is read from (milliseconds); default `performance.now`. */
  readonly now?: () => number
}

/** A view holds the event loop at most about this long (the reference has no wall-clock bound). */
export const DEFAULT_VIEW_DEADLINE_MS = 50

const clock = (): number => performance.now()

/** A call's end: its results, or a `VmFailure` (abort or VM error); either way the gas it used. */
export type CallOutcome =
  | {
      readonly _tag: "Success"
      /** One BCS value per return value. */
      readonly values: ReadonlyArray<Uint8Array>
      readonly returnTypes: ReadonlyArray<Type>
      readonly gasUsed: bigint
    }
  | (VmFailure & { readonly gasUsed: bigint })

const ONE = addressFromNumber(1)

/**
 * The Move VM: a loader (with its module cache, shared by every call) and the entry point that runs
 * one function against a `StateView` in a throw-away session.
 */
export class MoveVm {
  readonly loader: Loader
  /** The gas schedule of the last snapshot seen (views naming the same snapshot share it). */
  private schedule: { readonly snapshot: string | bigint; readonly schedule: GasSchedule } | undefined
  /** Global values read at the last snapshot seen (bounded; emptied when the snapshot changes). */
  private readonly stateCache = new StateCache()

  constructor(options: MoveVmOptions = {}) {
    this.loader = new Loader(
      options.natives ?? frameworkNatives,
      options.decode ?? sharedModuleDecoder,
      options.maxCachedBytecode
    )
  }

  /**
   * The cache of global values read at `view`'s snapshot, shared by every run over a view naming
   * it (views and transaction sessions alike: a snapshot's state is immutable); none for a view
   * without one (a block's overlay, whose reads change as its transactions write).
   */
  snapshotCache(view: StateView): StateCache | undefined {
    return view.snapshot === undefined ? undefined : this.stateCache.at(view.snapshot)
  }

  /** A runtime type from a type tag, loading the structs it names. */
  typeFromTag(tag: TypeTag, depth = 0): Type {
    if (depth > 64) return vmError("VM_MAX_TYPE_DEPTH_REACHED", "type argument nested too deep")
    switch (tag._tag) {
      case "vector":
        return vectorOf(this.typeFromTag(tag.element, depth + 1))
      case "struct": {
        const s = tag.struct
        const m = this.loader.tryLoad(s.address, s.module)
        if (m === undefined)
          return vmError("LINKER_ERROR", `module ${addressToShortString(s.address)}::${s.module} not found`)
        const def = m.struct(s.name)
        if (def === undefined) return vmError("TYPE_RESOLUTION_FAILURE", `struct ${m.key}::${s.name} not found`)
        if (def.typeParams.length !== s.typeArgs.length)
          return vmError(
            "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH",
            `${m.key}::${s.name} takes ${def.typeParams.length} type arguments`
          )
        return structOf(
          def,
          s.typeArgs.map((a) => this.typeFromTag(a, depth + 1))
        )
      }
      case "function":
        return vmError("TYPE_MISMATCH", "function type arguments are not supported")
      default: {
        const t = primitiveNamed(tag._tag)
        return t ?? vmError("TYPE_MISMATCH", `unknown type tag ${tag._tag}`)
      }
    }
  }

  private gasSchedule(view: StateView): GasSchedule {
    const snapshot = view.snapshot
    if (snapshot !== undefined && this.schedule?.snapshot === snapshot) return this.schedule.schedule
    const schedule = readGasSchedule(view)
    if (snapshot !== undefined) this.schedule = { snapshot, schedule }
    return schedule
  }

  /** Resolves a function by module id and name (any visibility). */
  resolveFunction(view: StateView, module: ModuleId, name: string): LoadedFunction | undefined {
    return this.loader.withView(view, () => this.loader.tryLoad(module.address, module.name)?.function(name))
  }

  /** Runs one function; never throws. */
  call(view: StateView, call: FunctionCall, options: CallOptions = {}): CallOutcome {
    const now = options.now ?? clock
    const deadlineMs = options.deadlineMs ?? (options.view === true ? DEFAULT_VIEW_DEADLINE_MS : undefined)
    const deadline = deadlineMs === undefined ? Number.POSITIVE_INFINITY : now() + deadlineMs
    let gas: GasMeter | undefined
    const used = (): bigint => {
      if (gas === undefined || !Number.isFinite(gas.limit)) return 0n
      return BigInt(Math.ceil(gas.used / gas.params.scalingFactor))
    }
    try {
      return this.loader.withView(view, () => {
        const schedule = options.maxGas === undefined ? undefined : this.gasSchedule(view)
        gas = schedule === undefined ? GasMeter.unmetered() : meterFor(schedule, options.maxGas!)
        const meter = gas
        this.loader.onFirstUse = (address, size) => meter.chargeDependency(address, size)
        const fn = this.loader.loadFunction(call.module.address, call.module.name, call.function)
        const m = fn.module
        if (options.view === true) {
          if (!m.metadata.views.has(fn.name))
            return vmError("INVALID_MAIN_FUNCTION_SIGNATURE", "function not marked as view function")
          if (fn.returns.length === 0)
            return vmError("INVALID_MAIN_FUNCTION_SIGNATURE", "view function must return values")
        }
        const tyArgs = this.instantiate(fn, call.tyArgs)
        const params = substituteAll(fn.params, tyArgs)
        if (params.some(isSignerParam))
          return vmError(
            "INVALID_MAIN_FUNCTION_SIGNATURE",
            "functions taking a signer cannot be called without a transaction"
          )
        const args = decodeArguments(params, call.args)
        const session = new Session(view, gas, this.snapshotCache(view))
        let chainId: number | undefined
        const interpreter = new Interpreter(
          this.loader,
          session,
          gas,
          () => {
            if (chainId === undefined) chainId = readChainId(this, session)
            return chainId
          },
          options.maxBranches,
          deadline,
          now
        )
        const results = interpreter.execute(fn, tyArgs, args)
        // A view that aborts is answered by the catch below, as a native's abort is.
        if (results instanceof MoveAbort) throw results
        const returnTypes = substituteAll(fn.returns, tyArgs)
        const values = returnTypes.map((t, i) => {
          const v = results[i]
          return serializeValue(v instanceof Ref ? v.get() : v, t.k === K.Ref || t.k === K.MutRef ? t.to : t)
        })
        return { _tag: "Success", values, returnTypes, gasUsed: used() } as const
      })
    } catch (e) {
      if (e instanceof MoveAbort) {
        const aborted =
          e.location === undefined
            ? undefined
            : this.loader.withView(view, () => this.loader.tryLoad(e.location!.address, e.location!.name))
        const info = aborted === undefined ? undefined : abortInfo(aborted.metadata, e.code)
        return { _tag: "Abort", code: e.code, location: e.location, info, message: e.abortMessage, gasUsed: used() }
      }
      if (e instanceof VmError) return { _tag: "Error", error: e, gasUsed: used() }
      if (e instanceof RangeError)
        return { _tag: "Error", error: new VmError("EXECUTION_STACK_OVERFLOW", e.message), gasUsed: used() }
      return {
        _tag: "Error",
        error: new VmError("UNKNOWN_INVARIANT_VIOLATION_ERROR", e instanceof Error ? e.message : String(e)),
        gasUsed: used()
      }
    }
  }

  /**
   * Type arguments for `fn` from tags: their count, sizes and the abilities its type parameters
   * require are checked.
   */
  instantiate(fn: LoadedFunction, tags: ReadonlyArray<TypeTag>): ReadonlyArray<Type> {
    if (fn.typeParamCount !== tags.length)
      return vmError(
        "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH",
        `expected ${fn.typeParamCount} type arguments, got ${tags.length}`
      )
    const constraints = fn.module.cm.functionHandles[fn.def.function]!.typeParameters
    return tags.map((t, i) => {
      const ty = this.typeFromTag(t)
      checkTypeSize(ty)
      const required = constraints[i] ?? 0
      if ((abilitiesOf(ty) & required) !== required)
        return vmError("CONSTRAINT_NOT_SATISFIED", `type argument ${i} lacks the abilities its parameter requires`)
      return ty
    })
  }

  /**
   * A session over `view` for calls that write (transactions, system calls, genesis): see
   * `VmSession`.
   */
  session(view: StateView, options: SessionOptions): VmSession {
    return new VmSession(this, view, options)
  }

  /** The chain id stored in the session's state (`0x1::chain_id::ChainId`). */
  chainIdOf(session: Session): number {
    return readChainId(this, session)
  }
}

const readChainId = (vm: MoveVm, session: Session): number => {
  const def = vm.loader.load(ONE, "chain_id").struct("ChainId")
  if (def === undefined) return vmError("VM_STARTUP_FAILURE", "0x1::chain_id::ChainId not found")
  const slot = session.resource(ONE, structOf(def, []) as Extract<Type, { k: 16 }>)
  const v = slot.box[0] as StructValue | undefined
  if (v === undefined) return vmError("VM_STARTUP_FAILURE", "chain id not found")
  return v.fields[0] as number
}
