import { equalBytes } from "../../bcs/index.js"
import type { Type } from "./Type.js"

/**
 * Runtime values.
 *
 * - bool: `boolean`; u8/u16/u32/i8/i16/i32: `number`; wider integers: `bigint`;
 *   address: a 32-byte `Uint8Array` (never mutated in place, so it is shared freely).
 * - vector: a plain JS array of values (`Value[]`), mutated in place through references.
 * - struct / enum / signer: a `StructValue` (`tag` is the variant index, -1 for a struct).
 * - reference: a `Ref`, a slot `arr[idx]` in some mutable array: a frame's locals, a struct's
 *   fields, a vector's elements, or a global's one-element box. Reading copies, writing replaces
 *   the slot; the bytecode verifier's borrow rules make this sound. A reference into a global
 *   value (resource, table item) carries that global's `root`; a write through it marks the global
 *   dirty (the reference's rule: a mutation counts even when the bytes end up unchanged).
 * - function value: a `Closure`.
 */
export type Value = boolean | number | bigint | Uint8Array | Value[] | StructValue | Ref | Closure | undefined

export class StructValue {
  constructor(
    /** Variant index of an enum value; -1 for a struct. */
    readonly tag: number,
    readonly fields: Value[]
  ) {}
}

/** What a write through a reference marks: the global value the reference was borrowed from. */
export interface DirtyMark {
  dirty: boolean
}

export class Ref {
  constructor(
    readonly arr: Value[],
    readonly idx: number,
    /** The global this reference points into; undefined for locals and values on the stack. */
    readonly root: DirtyMark | undefined
  ) {}
  get(): Value {
    return this.arr[this.idx]
  }
  set(v: Value): void {
    this.arr[this.idx] = v
    if (this.root !== undefined) this.root.dirty = true
  }
  /** Records a mutation made through this reference (vector push/pop/swap, aggregator changes). */
  touch(): void {
    if (this.root !== undefined) this.root.dirty = true
  }
}

/** A function value: the function, its type arguments, the mask of captured params and the captured values. */
export class Closure {
  constructor(
    /** The loaded function (typed loosely here to keep this file free of loader imports). */
    readonly fn: unknown,
    readonly tyArgs: ReadonlyArray<Type>,
    readonly mask: bigint,
    readonly captured: Value[]
  ) {}
}

/**
 * V8 gives an array a hidden class per "elements kind" (small integers, doubles or any value;
 * packed or holey), chosen by what was put in it and by what arrays made at the same place in the
 * code became later: `[7]` and `[struct]` differ, as do `new Array(n)` and a literal. Optimized
 * code checks the class of every array it reads and is thrown away when one it has not seen
 * arrives (a "wrong map" deoptimization); for the interpreter's loop that is ~0.2–0.4 s of
 * compiling each time, per thread, while the chain warms up. The arrays that reach the loop from
 * many places (a call's arguments, a global value's box) are made here instead, always of the one
 * kind no store can change: holey, any value (a hole made, then `undefined` stored, which no
 * number kind holds). This one is `n` holes of that kind, for the caller to fill.
 */
export const generalArrayOfLength = (n: number): Value[] => {
  const out: Value[] = new Array(n + 1)
  out[n] = undefined
  out.length = n
  return out
}

/** A copy of `values` in an array of the one kind (`generalArrayOfLength`): a call's arguments. */
export const generalArray = (values: ReadonlyArray<Value>): Value[] => {
  const out = generalArrayOfLength(values.length)
  for (let i = 0; i < values.length; i++) out[i] = values[i]
  return out
}

/** A one-element array of the one kind (`generalArrayOfLength`): a global value's box. */
export const generalBox = (value: Value): Value[] => {
  const out = generalArrayOfLength(1)
  out[0] = value
  return out
}

/** Deep copy (CopyLoc, ReadRef, constants): containers are copied, scalars shared. */
export const copyValue = (v: Value): Value => {
  if (typeof v !== "object" || v instanceof Uint8Array) return v
  if (Array.isArray(v)) {
    const n = v.length
    const out: Value[] = new Array(n)
    for (let i = 0; i < n; i++) {
      const x = v[i]
      out[i] = typeof x === "object" && !(x instanceof Uint8Array) ? copyValue(x) : x
    }
    return out
  }
  if (v instanceof StructValue) return new StructValue(v.tag, copyValue(v.fields) as Value[])
  if (v instanceof Closure) return new Closure(v.fn, v.tyArgs, v.mask, copyValue(v.captured) as Value[])
  return v // a Ref is copied by identity
}

/** Structural equality (Eq/Neq); references compare what they point to. */
export const valueEquals = (a: Value, b: Value): boolean => {
  if (a === b) return true
  if (a instanceof Ref) a = a.get()
  if (b instanceof Ref) b = b.get()
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object") return false
  if (a instanceof Uint8Array) return b instanceof Uint8Array && equalBytes(a, b)
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!valueEquals(a[i], b[i])) return false
    return true
  }
  if (a instanceof StructValue) {
    if (!(b instanceof StructValue) || a.tag !== b.tag) return false
    return valueEquals(a.fields, b.fields)
  }
  if (a instanceof Closure) {
    return (
      b instanceof Closure &&
      a.fn === b.fn &&
      a.mask === b.mask &&
      a.tyArgs.length === b.tyArgs.length &&
      valueEquals(a.captured, b.captured)
    )
  }
  return false
}

/** u8 vectors as bytes (natives take and return `vector<u8>`). */
export const toBytes = (v: Value): Uint8Array => {
  const arr = v as number[]
  return Uint8Array.from(arr)
}

/**
 * Bytes as a `vector<u8>` value. A loop, not `Array.from(b)`: on a typed array that goes through
 * the iterator protocol (an iteration result object per byte) and took ~12 times as long for an
 * address's 32 bytes (465 against 40 ns, Node 20), and `vector<u8>`s are read for every account,
 * store and event a transaction touches.
 */
export const fromBytes = (b: Uint8Array): Value[] => {
  const n = b.length
  const out: number[] = new Array(n)
  for (let i = 0; i < n; i++) out[i] = b[i]!
  return out
}

export const signerValue = (address: Uint8Array): StructValue => new StructValue(-1, [address])
