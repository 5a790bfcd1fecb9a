import { addressFromNumber } from "../../../domain/AccountAddress.js"
import type { Type } from "../Type.js"
import { fromBytes, Ref, StructValue, type Value } from "../Value.js"
import { vmError } from "../VmError.js"
import type { NativeContext } from "./NativeContext.js"

export const ONE = addressFromNumber(1)

/** The value a reference argument points to. */
export const deref = (v: Value): Value => (v instanceof Ref ? v.get() : v)

export const bytesOf = (v: Value): Uint8Array => Uint8Array.from(deref(v) as number[])

export const utf8 = new TextDecoder("utf-8", { fatal: true })
export const utf8Encoder = new TextEncoder()

/** `0x1::string::String` is `{ bytes: vector<u8> }`. */
export const makeString = (s: string): StructValue => new StructValue(-1, [fromBytes(utf8Encoder.encode(s))])

export const readString = (v: Value): string => {
  const s = deref(v) as StructValue
  return utf8.decode(Uint8Array.from(s.fields[0] as number[]))
}

/**
 * An `0x1::option::Option<T>` value in the framework's current shape: the enum `None | Some{e}` in
 * the new framework, the struct `{vec: vector<T>}` in the old one (found from the loaded module).
 */
export const makeOption = (ctx: NativeContext, v: Value | undefined): StructValue => {
  const def = ctx.loader.load(ONE, "option").struct("Option")
  if (def?.variants !== undefined) return v === undefined ? new StructValue(0, []) : new StructValue(1, [v])
  return new StructValue(-1, [v === undefined ? [] : [v]])
}

/** Index of the variant `name` of the enum `module::struct` at 0x1. */
export const variantIndex = (ctx: NativeContext, module: string, struct: string, name: string): number => {
  const def = ctx.loader.load(ONE, module).struct(struct)
  const i = def?.variants?.findIndex((v) => v.name === name) ?? -1
  if (i < 0) return vmError("TYPE_RESOLUTION_FAILURE", `0x1::${module}::${struct} has no variant ${name}`)
  return i
}

export const structArg = (t: Type | undefined): Extract<Type, { k: 16 }> | undefined =>
  t !== undefined && t.k === 16 ? t : undefined

/** Charges the native's per-byte cost. */
export const chargeBytes = (ctx: NativeContext, n: number): void => ctx.gas.charge(ctx.gas.params.nativePerByte * n)

/** Charges `units` × the schedule entry `key` (0 when the schedule has no such entry). */
export const chargeParam = (ctx: NativeContext, key: string, units = 1): void => {
  const c = ctx.gas.params.costs.get(key)
  if (c !== undefined && units > 0) ctx.gas.charge(c * units)
}
