import { Closure, Ref, StructValue, type Value } from "./Value.js"

/**
 * Abstract value sizes, for per-unit gas terms and the memory tracker (`txn.memory_quota`).
 *
 * `abstractSize` is the gas schedule's `misc.abs_val` measure: one node per scalar, struct, vector
 * and reference, packed vectors of primitives at their byte width. The memory tracker counts only
 * what lives on the heap (`heapSize`: containers; scalars, addresses and references sit in their
 * slot), charging a container when it is created and a primitive when it enters a container
 * (`packedSize`), and releasing both when they are dropped. All iterative (no recursion on depth).
 */
export const abstractSize = (v: Value, node: number): number => {
  // Flat values (a vector of primitives, a struct of scalars) without the walk's stack array.
  if (typeof v !== "object" || v instanceof Uint8Array || v instanceof Ref) return node
  if (Array.isArray(v)) {
    const first = v[0]
    if (first === undefined) return node
    if (typeof first === "number" || typeof first === "boolean") return node + v.length
    if (typeof first === "bigint") return node + 8 * v.length
    if (first instanceof Uint8Array) return node + 32 * v.length
  } else if (v instanceof StructValue) {
    let total = node
    let flat = true
    for (const f of v.fields) {
      if (typeof f === "object" && !(f instanceof Uint8Array)) {
        flat = false
        break
      }
      total += node
    }
    if (flat) return total
  }
  let total = 0
  const stack: Value[] = [v]
  while (stack.length > 0) {
    const x = stack.pop()
    total += node
    if (typeof x !== "object" || x instanceof Uint8Array || x instanceof Ref) continue
    if (Array.isArray(x)) {
      const first = x[0]
      if (typeof first === "number") total += x.length
      else if (typeof first === "bigint") total += 8 * x.length
      else if (typeof first === "boolean") total += x.length
      else if (first instanceof Uint8Array) total += 32 * x.length
      else for (const e of x) stack.push(e)
    } else if (x instanceof StructValue) for (const f of x.fields) stack.push(f)
    else if (x instanceof Closure) for (const c of x.captured) stack.push(c)
  }
  return total
}

/** Memory-tracker units of a value on its own: containers at their abstract size, else 0. */
export const heapSize = (v: Value, node: number): number =>
  typeof v === "object" && !(v instanceof Uint8Array) && !(v instanceof Ref) ? abstractSize(v, node) : 0

/** Units `v` adds when it becomes an element of a vector (a container was already counted). */
export const packedSize = (v: Value): number => {
  switch (typeof v) {
    case "number":
    case "boolean":
      return 1
    case "bigint":
      return 8
    default:
      return v instanceof Uint8Array ? 32 : 0
  }
}

/** Units `v` adds when it becomes a struct field: a node for a scalar or address. */
export const fieldSize = (v: Value, node: number): number =>
  typeof v !== "object" || v instanceof Uint8Array ? node : 0

/** Memory units of a struct or vector header plus its scalar parts (what packing adds, unpacking frees). */
export const shellSize = (items: ReadonlyArray<Value>, node: number, vector: boolean): number => {
  let total = node
  if (vector) for (const x of items) total += packedSize(x)
  else for (const x of items) total += fieldSize(x, node)
  return total
}
