import { MAX_VECTOR_LENGTH } from "../Interpreter.js"
import { Ref, type Value } from "../Value.js"
import { vmError } from "../VmError.js"
import { chargeParam } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/** `0x1::vector` natives (the compiler emits Vec* opcodes for most; these remain for old code and move_range). */
const vecOf = (v: Value): Value[] => (v as Ref).get() as Value[]
/** A mutation through the reference `v` (marks the global it points into dirty). */
const touched = (v: Value): void => (v as Ref).touch()
const outOfBounds = (): never => vmError("VECTOR_OPERATION_ERROR", "index out of bounds")

export const vectorNatives: Record<string, NativeFunction> = {
  empty: () => [[]],
  length: (_c, _t, [v]) => [BigInt(vecOf(v).length)],
  borrow: (_c, _t, [v, i]) => {
    const arr = vecOf(v)
    if ((i as bigint) >= BigInt(arr.length)) outOfBounds()
    return [new Ref(arr, Number(i), (v as Ref).root)]
  },
  borrow_mut: (_c, _t, [v, i]) => {
    const arr = vecOf(v)
    if ((i as bigint) >= BigInt(arr.length)) outOfBounds()
    return [new Ref(arr, Number(i), (v as Ref).root)]
  },
  push_back: (_c, _t, [v, x]) => {
    const arr = vecOf(v)
    if (arr.length >= MAX_VECTOR_LENGTH) vmError("VECTOR_OPERATION_ERROR", "vector too long")
    arr.push(x)
    touched(v)
    return []
  },
  pop_back: (_c, _t, [v]) => {
    const arr = vecOf(v)
    if (arr.length === 0) vmError("VECTOR_OPERATION_ERROR", "pop from an empty vector")
    touched(v)
    return [arr.pop()]
  },
  destroy_empty: (_c, _t, [v]) => {
    if ((v as Value[]).length !== 0) vmError("VECTOR_OPERATION_ERROR", "destroy of a non-empty vector")
    return []
  },
  swap: (_c, _t, [v, i, j]) => {
    const arr = vecOf(v)
    const n = BigInt(arr.length)
    if ((i as bigint) >= n || (j as bigint) >= n) outOfBounds()
    const a = Number(i)
    const b = Number(j)
    const t = arr[a]
    arr[a] = arr[b]
    arr[b] = t
    touched(v)
    return []
  },
  /** move_range(from, removal_position, length, to, insert_position) */
  move_range: (ctx, _t, [from, pos, len, to, ins]) => {
    const src = vecOf(from)
    const dst = vecOf(to)
    const p = pos as bigint
    const l = len as bigint
    const q = ins as bigint
    if (p + l > BigInt(src.length) || q > BigInt(dst.length)) outOfBounds()
    // The reference: per index moved in both vectors (what follows the removal and insertion points).
    chargeParam(ctx, "move_stdlib.vector.move_range.per_index_moved", src.length - Number(p) + (dst.length - Number(q)))
    const moved = src.splice(Number(p), Number(l))
    // No `splice(q, 0, ...moved)`: spreading a vector's elements as call arguments overflows the JS
    // stack at a few hundred thousand elements (a 497 KB vector<u8> argument did).
    const tail = dst.splice(Number(q))
    for (let k = 0; k < moved.length; k++) dst.push(moved[k])
    for (let k = 0; k < tail.length; k++) dst.push(tail[k])
    touched(from)
    touched(to)
    return []
  }
}
