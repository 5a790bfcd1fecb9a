import { BcsError, BcsReader, BcsWriter } from "../../bcs/index.js"
import { substitute, type Type } from "./Type.js"
import { signerValue, StructValue, type Value } from "./Value.js"
import { VmError, vmError } from "./VmError.js"

/** The VM's value nesting limit (`max_value_nest_depth`). */
export const MAX_VALUE_DEPTH = 128

/** Field types of each struct type (index 0) or enum variant (index 1 + variant), by (interned) type. */
const layouts = new WeakMap<Type, Array<ReadonlyArray<Type> | undefined>>()

const fieldTypes = (t: Extract<Type, { k: 16 }>, variant: number): ReadonlyArray<Type> => {
  let perVariant = layouts.get(t)
  if (perVariant === undefined) {
    perVariant = []
    layouts.set(t, perVariant)
  }
  const cached = perVariant[variant + 1]
  if (cached !== undefined) return cached
  const def = t.def
  const fields = variant < 0 ? def.fields : def.variants?.[variant]?.fields
  if (fields === undefined) return vmError("VALUE_DESERIALIZATION_ERROR", `no variant ${variant} in ${def.name}`)
  const out = t.args.length === 0 ? fields.map((f) => f.type) : fields.map((f) => substitute(f.type, t.args))
  perVariant[variant + 1] = out
  return out
}

/**
 * An address copied out of the input (values outlive it), without the intermediate `subarray`
 * view: typed-array views are costly garbage (a view per address read drove scavenge time).
 */
const readAddress = (r: BcsReader): Uint8Array => {
  const o = r.offset
  const src = r.bytes
  if (o + 32 > src.length) return r.fixed(32) // throws: truncated
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = src[o + i]!
  r.offset = o + 32
  return out
}

const read = (r: BcsReader, t: Type, depth: number): Value => {
  switch (t.k) {
    case 0:
      return r.bool()
    case 1:
      return r.u8()
    case 2:
      return r.u16()
    case 3:
      return r.u32()
    case 4:
      return r.u64()
    case 5:
      return r.u128()
    case 6:
      return r.u256()
    case 7:
      return r.signed(8)
    case 8:
      return r.signed(16)
    case 9:
      return r.signed(32)
    case 10:
      return r.signed(64)
    case 11:
      return r.signed(128)
    case 12:
      return r.signed(256)
    case 13:
      return readAddress(r)
    case 14:
      return signerValue(readAddress(r))
    case 15: {
      if (depth >= MAX_VALUE_DEPTH) return vmError("VM_MAX_VALUE_DEPTH_REACHED", "value nested too deep")
      if (t.elem.k === 1) return Array.from(r.bytesWithLength())
      const n = r.length(1)
      const out: Value[] = new Array(n)
      for (let i = 0; i < n; i++) out[i] = read(r, t.elem, depth + 1)
      return out
    }
    case 16: {
      if (depth >= MAX_VALUE_DEPTH) return vmError("VM_MAX_VALUE_DEPTH_REACHED", "value nested too deep")
      const isEnum = t.def.variants !== undefined
      const tag = isEnum ? r.uleb128() : -1
      if (isEnum && tag >= t.def.variants!.length) r.fail(`invalid variant ${tag} of ${t.def.name}`)
      const types = fieldTypes(t, tag)
      const fields: Value[] = new Array(types.length)
      for (let i = 0; i < types.length; i++) fields[i] = read(r, types[i]!, depth + 1)
      return new StructValue(tag, fields)
    }
    default:
      return vmError("VALUE_DESERIALIZATION_ERROR", "function values and references cannot be deserialized")
  }
}

/** Decodes BCS bytes as a value of `t` (closed type); all bytes must be consumed. */
export const deserializeValue = (bytes: Uint8Array, t: Type): Value => {
  try {
    const r = new BcsReader(bytes)
    const v = read(r, t, 0)
    r.expectEnd()
    return v
  } catch (e) {
    if (e instanceof BcsError) throw new VmError("FAILED_TO_DESERIALIZE_RESOURCE", e.message)
    throw e
  }
}

const write = (w: BcsWriter, t: Type, v: Value, depth: number): void => {
  switch (t.k) {
    case 0:
      w.bool(v as boolean)
      return
    case 1:
      w.u8(v as number)
      return
    case 2:
      w.u16(v as number)
      return
    case 3:
      w.u32(v as number)
      return
    case 4:
      w.u64(v as bigint)
      return
    case 5:
      w.u128(v as bigint)
      return
    case 6:
      w.u256(v as bigint)
      return
    case 7:
      w.signed(8, v as number)
      return
    case 8:
      w.signed(16, v as number)
      return
    case 9:
      w.signed(32, v as number)
      return
    case 10:
      w.signed(64, v as bigint)
      return
    case 11:
      w.signed(128, v as bigint)
      return
    case 12:
      w.signed(256, v as bigint)
      return
    case 13:
      w.fixed(v as Uint8Array)
      return
    case 14:
      w.fixed((v as StructValue).fields[0] as Uint8Array)
      return
    case 15: {
      if (depth >= MAX_VALUE_DEPTH) vmError("VM_MAX_VALUE_DEPTH_REACHED", "value nested too deep")
      const arr = v as Value[]
      w.uleb128(arr.length)
      if (t.elem.k === 1) {
        for (let i = 0; i < arr.length; i++) w.u8(arr[i] as number)
        return
      }
      for (let i = 0; i < arr.length; i++) write(w, t.elem, arr[i], depth + 1)
      return
    }
    case 16: {
      if (depth >= MAX_VALUE_DEPTH) vmError("VM_MAX_VALUE_DEPTH_REACHED", "value nested too deep")
      const s = v as StructValue
      if (t.def.variants !== undefined) w.uleb128(s.tag)
      const types = fieldTypes(t, t.def.variants !== undefined ? s.tag : -1)
      for (let i = 0; i < types.length; i++) write(w, types[i]!, s.fields[i], depth + 1)
      return
    }
    default:
      vmError("VALUE_SERIALIZATION_ERROR", "function values and references cannot be serialized")
  }
}

export const writeValue = (w: BcsWriter, t: Type, v: Value): void => write(w, t, v, 0)

/** One writer reused by `serializeValue` (table keys, results): no buffer and DataView per call. */
let scratch = new BcsWriter(256)
let scratchBusy = false
/** A scratch buffer grown past this (a huge value) is dropped rather than kept alive. */
const SCRATCH_KEEP = 64 * 1024

/** BCS bytes of a value of the closed type `t`. */
export const serializeValue = (v: Value, t: Type): Uint8Array => {
  // Not re-entered today; the flag keeps that an optimisation rather than an assumption.
  const own = scratchBusy
  const w = own ? new BcsWriter(64) : scratch.reset()
  scratchBusy = true
  try {
    write(w, t, v, 0)
    return w.toBytes()
  } catch (e) {
    if (e instanceof VmError) throw e
    throw new VmError("VALUE_SERIALIZATION_ERROR", e instanceof Error ? e.message : String(e))
  } finally {
    if (!own) {
      scratchBusy = false
      if (w.length > SCRATCH_KEEP) scratch = new BcsWriter(256)
    }
  }
}
