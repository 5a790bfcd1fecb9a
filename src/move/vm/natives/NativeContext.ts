import type { ModuleId } from "../../../domain/TypeTag.js"
import type { GasMeter } from "../GasMeter.js"
import type { LoadedFunction, Loader } from "../Loader.js"
import type { Session } from "../Session.js"
import type { Type } from "../Type.js"
import type { Value } from "../Value.js"
import { MoveAbort } from "../VmError.js"

/** What a native sees of the VM: the run's data cache, the loader, the gas meter, the chain. */
export interface NativeContext {
  readonly session: Session
  readonly loader: Loader
  readonly gas: GasMeter
  readonly chainId: () => number
  /** The module of the native being called (the location of its aborts). */
  readonly module: ModuleId
  /**
   * The module of the function that called the native's enclosing function (the reference's
   * `stack_frames(1)`: `event::emit`'s caller for `write_module_event_to_store`); undefined when
   * there is none (the native was the entry function, or its wrapper was).
   */
  readonly caller: ModuleId | undefined
}

/**
 * A native's answer: its return values, or a request to call a Move function in its place (the
 * dispatch natives), whose results become the native's results.
 */
export type NativeResult = Value[] | NativeCall

export interface NativeCall {
  readonly _tag: "call"
  readonly fn: LoadedFunction
  readonly tyArgs: ReadonlyArray<Type>
  readonly args: Value[]
}

export type NativeFunction = (ctx: NativeContext, tyArgs: ReadonlyArray<Type>, args: Value[]) => NativeResult

/** Natives by fully qualified name, `0x1::vector::length`. */
export type NativeTable = ReadonlyMap<string, NativeFunction>

/** A native's abort, located in the native's module. */
export const nativeAbort = (ctx: NativeContext, code: bigint): never => {
  throw new MoveAbort(code, ctx.module)
}
