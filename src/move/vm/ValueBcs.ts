import { BcsError, BcsReader, BcsWriter } from "../../bcs/index.js"
import { substitute, type Type } from "./Type.js"
import { fromBytes, signerValue, StructValue, type Value } from "./Value.js"
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

/** A scalar of type `t` (k 0..14), read from `r`. */
const readScalar = (r: BcsReader, t: Type): Value => {
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
    default:
      return vmError("VALUE_DESERIALIZATION_ERROR", "function values and references cannot be deserialized")
  }
}

/**
 * A vector or struct being filled: `out` receives its elements in order; `types` are a struct's
 * field types (undefined for a vector, whose elements all have type `elem`).
 */
interface ReadFrame {
  readonly out: Value[]
  readonly elem: Type | undefined
  readonly types: ReadonlyArray<Type> | undefined
  /** The variant of an enum, -1 for a struct; undefined for a vector. */
  readonly tag: number | undefined
  i: number
}

/**
 * Reads one value of `t`. Containers are walked with an explicit stack (one frame per open vector
 * or struct, at most MAX_VALUE_DEPTH), so no host recursion depends on the input.
 */
const read = (r: BcsReader, t: Type): Value => {
  const stack: ReadFrame[] = []
  let cur = t
  for (;;) {
    let v: Value
    if (cur.k === 15 || cur.k === 16) {
      if (stack.length >= MAX_VALUE_DEPTH) return vmError("VM_MAX_VALUE_DEPTH_REACHED", "value nested too deep")
      let frame: ReadFrame | undefined
      if (cur.k === 15) {
        const elem = cur.elem
        if (elem.k === 1) v = fromBytes(r.bytesWithLength())
        else {
          const n = r.length(1)
          const out: Value[] = new Array(n)
          v = out
          // Scalar elements: read in place, no frame.
          if (elem.k < 15) for (let i = 0; i < n; i++) out[i] = readScalar(r, elem)
          else if (n > 0) frame = { out, elem, types: undefined, tag: undefined, i: 0 }
        }
      } else {
        const isEnum = cur.def.variants !== undefined
        const tag = isEnum ? r.uleb128() : -1
        if (isEnum && tag >= cur.def.variants!.length) r.fail(`invalid variant ${tag} of ${cur.def.name}`)
        const types = fieldTypes(cur, tag)
        const fields: Value[] = new Array(types.length)
        // A struct with fields is made when its last field is read (below), not here as well.
        if (types.length > 0) frame = { out: fields, elem: undefined, types, tag, i: 0 }
        else v = new StructValue(tag, fields)
      }
      if (frame !== undefined) {
        stack.push(frame)
        cur = frame.elem ?? frame.types![0]!
        continue
      }
    } else v = readScalar(r, cur)
    // Hand the value to the open containers; a container just completed is handed on in turn.
    for (;;) {
      const f = stack[stack.length - 1]
      if (f === undefined) return v
      f.out[f.i++] = v
      if (f.i < f.out.length) {
        cur = f.elem ?? f.types![f.i]!
        break
      }
      stack.pop()
      v = f.tag === undefined ? f.out : new StructValue(f.tag, f.out)
    }
  }
}

/** Decodes BCS bytes as a value of `t` (closed type); all bytes must be consumed. */
export const deserializeValue = (bytes: Uint8Array, t: Type): Value => {
  try {
    const r = new BcsReader(bytes)
    const v = read(r, t)
    r.expectEnd()
    return v
  } catch (e) {
    if (e instanceof BcsError) throw new VmError("FAILED_TO_DESERIALIZE_RESOURCE", e.message)
    throw e
  }
}

/** A scalar `v` of type `t` (k 0..14), written to `w`. */
const writeScalar = (w: BcsWriter, t: Type, v: Value): void => {
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
    default:
      vmError("VALUE_SERIALIZATION_ERROR", "function values and references cannot be serialized")
  }
}

/** A vector or struct being written: its elements `items[i..]`, of type `elem` or `types[i]`. */
interface WriteFrame {
  readonly items: ReadonlyArray<Value>
  readonly elem: Type | undefined
  readonly types: ReadonlyArray<Type> | undefined
  i: number
}

/** Writes `v` of type `t`, containers walked with an explicit stack (at most MAX_VALUE_DEPTH frames). */
const write = (w: BcsWriter, t: Type, v: Value): void => {
  const stack: WriteFrame[] = []
  let cur = t
  let val = v
  for (;;) {
    if (cur.k === 15 || cur.k === 16) {
      if (stack.length >= MAX_VALUE_DEPTH) vmError("VM_MAX_VALUE_DEPTH_REACHED", "value nested too deep")
      let frame: WriteFrame | undefined
      if (cur.k === 15) {
        const arr = val as Value[]
        w.uleb128(arr.length)
        const elem = cur.elem
        if (elem.k === 1) for (let i = 0; i < arr.length; i++) w.u8(arr[i] as number)
        // Scalar elements: written in place, no frame.
        else if (elem.k < 15) for (let i = 0; i < arr.length; i++) writeScalar(w, elem, arr[i])
        else if (arr.length > 0) frame = { items: arr, elem, types: undefined, i: 0 }
      } else {
        const s = val as StructValue
        if (cur.def.variants !== undefined) w.uleb128(s.tag)
        const types = fieldTypes(cur, cur.def.variants !== undefined ? s.tag : -1)
        if (types.length > 0) frame = { items: s.fields, elem: undefined, types, i: 0 }
      }
      if (frame !== undefined) {
        stack.push(frame)
        cur = frame.elem ?? frame.types![0]!
        val = frame.items[0]
        continue
      }
    } else writeScalar(w, cur, val)
    // Move on to the next element of the innermost open container, closing finished ones.
    for (;;) {
      const f = stack[stack.length - 1]
      if (f === undefined) return
      if (++f.i < (f.types?.length ?? f.items.length)) {
        cur = f.elem ?? f.types![f.i]!
        val = f.items[f.i]
        break
      }
      stack.pop()
    }
  }
}

export const writeValue = (w: BcsWriter, t: Type, v: Value): void => write(w, t, v)

/** One writer reused by `serializeValue` (table keys, results): no buffer and DataView per call. */
let scratch = new BcsWriter(256)
let scratchBusy = false
/** A scratch buffer grown past this (a huge value) is dropped rather than kept alive. */
const SCRATCH_KEEP = 64 * 1024

/** BCS bytes of a value of the closed type `t`. */
export const serializeValue = (v: Value, t: Type): Uint8Array => serializeWith(v, t, false)

/**
 * `serializeValue` for what a session writes or emits (a resource's or table item's new value, an
 * event's data): bytes that die with the block they go into, so they are copied into a slab
 * (bcs/slabBytes.ts, whose rules apply) rather than each into a buffer of its own.
 */
export const serializeOutput = (v: Value, t: Type): Uint8Array => serializeWith(v, t, true)

const serializeWith = (v: Value, t: Type, slab: boolean): Uint8Array => {
  // Not re-entered today; the flag keeps that an optimisation rather than an assumption.
  const own = scratchBusy
  const w = own ? new BcsWriter(64) : scratch.reset()
  scratchBusy = true
  try {
    write(w, t, v)
    return slab ? w.toSlabBytes() : w.toBytes()
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
