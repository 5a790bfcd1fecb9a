import { Closure, Ref, StructValue, type Value } from "../Value.js"
import { abstractSize } from "../MemorySize.js"
import { chargeParam, deref, variantIndex } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/** Move's total order on values (`cmp::compare`): numbers, bools, bytes, then containers lexicographically. */
export const compareValues = (a: Value, b: Value): number => {
  if (a instanceof Ref) a = a.get()
  if (b instanceof Ref) b = b.get()
  if (typeof a === "number" || typeof a === "bigint") return a < (b as number) ? -1 : a > (b as number) ? 1 : 0
  if (typeof a === "boolean") return a === b ? 0 : a ? 1 : -1
  if (a instanceof Uint8Array) {
    const bb = b as Uint8Array
    for (let i = 0; i < a.length; i++) if (a[i] !== bb[i]) return a[i]! < bb[i]! ? -1 : 1
    return 0
  }
  if (Array.isArray(a)) {
    const bb = b as Value[]
    const n = Math.min(a.length, bb.length)
    for (let i = 0; i < n; i++) {
      const c = compareValues(a[i], bb[i])
      if (c !== 0) return c
    }
    return a.length < bb.length ? -1 : a.length > bb.length ? 1 : 0
  }
  if (a instanceof StructValue) {
    const bb = b as StructValue
    if (a.tag !== bb.tag) return a.tag < bb.tag ? -1 : 1
    for (let i = 0; i < a.fields.length; i++) {
      const c = compareValues(a.fields[i], bb.fields[i])
      if (c !== 0) return c
    }
    return 0
  }
  if (a instanceof Closure) return compareValues(a.captured, (b as Closure).captured)
  return 0
}

export const cmpNatives: Record<string, NativeFunction> = {
  compare: (ctx, _t, [x, y]) => {
    const node = ctx.gas.params.sized.absValNode || 40
    chargeParam(
      ctx,
      "move_stdlib.cmp.compare.per_abs_val_unit",
      abstractSize(deref(x), node) + abstractSize(deref(y), node)
    )
    const c = compareValues(deref(x), deref(y))
    const name = c < 0 ? "Less" : c > 0 ? "Greater" : "Equal"
    return [new StructValue(variantIndex(ctx, "cmp", "Ordering", name), [])]
  }
}
