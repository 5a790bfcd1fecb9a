import { K } from "../Type.js"
import { type Ref, StructValue, type Value } from "../Value.js"
import { deref, makeString, readString } from "./helpers.js"
import { type NativeFunction, nativeAbort } from "./NativeContext.js"

/**
 * `0x1::aggregator_v2` natives without the delayed-field machinery: an aggregator is the plain
 * struct `{value, max_value}` and is read and changed in place (views and a sequential VM need no
 * more). Abort codes as the framework declares them.
 */
const EAGGREGATOR_OVERFLOW = 0x20001n
const EAGGREGATOR_UNDERFLOW = 0x20002n
const EUNSUPPORTED_AGGREGATOR_TYPE = 0x30005n
const EAGGREGATOR_FUNCTION_NOT_YET_SUPPORTED = 0x30009n

const fieldsOf = (v: Value): Value[] => (deref(v) as StructValue).fields
/** A change through the reference marks the global holding the aggregator dirty. */
const touch = (v: Value): void => (v as Ref).touch()
const big = (v: Value): bigint => BigInt(v as number | bigint)
const same = (like: Value, v: bigint): Value => (typeof like === "number" ? Number(v) : v)

export const aggregatorV2Natives: Record<string, NativeFunction> = {
  create_aggregator: (ctx, [t], [max]) => {
    if (t!.k !== K.U64 && t!.k !== K.U128) return nativeAbort(ctx, EUNSUPPORTED_AGGREGATOR_TYPE)
    return [new StructValue(-1, [t!.k === K.U64 ? 0n : 0n, max])]
  },
  create_unbounded_aggregator: (ctx, [t]) => {
    if (t!.k !== K.U64 && t!.k !== K.U128) return nativeAbort(ctx, EUNSUPPORTED_AGGREGATOR_TYPE)
    return [new StructValue(-1, [0n, t!.k === K.U64 ? (1n << 64n) - 1n : (1n << 128n) - 1n])]
  },
  try_add: (_c, _t, [a, v]) => {
    const f = ((a as Ref).get() as StructValue).fields
    const next = big(f[0]) + big(v)
    if (next > big(f[1])) return [false]
    f[0] = same(f[0], next)
    touch(a)
    return [true]
  },
  try_sub: (_c, _t, [a, v]) => {
    const f = ((a as Ref).get() as StructValue).fields
    const next = big(f[0]) - big(v)
    if (next < 0n) return [false]
    f[0] = same(f[0], next)
    touch(a)
    return [true]
  },
  is_at_least_impl: (_c, _t, [a, min]) => [big(fieldsOf(a)[0]) >= big(min)],
  read: (_c, _t, [a]) => [fieldsOf(a)[0]],
  snapshot: (_c, _t, [a]) => [new StructValue(-1, [fieldsOf(a)[0]])],
  create_snapshot: (_c, _t, [v]) => [new StructValue(-1, [v])],
  copy_snapshot: (ctx) => nativeAbort(ctx, EAGGREGATOR_FUNCTION_NOT_YET_SUPPORTED),
  read_snapshot: (_c, _t, [s]) => [fieldsOf(s)[0]],
  string_concat: (_c, _t, [before, s, after]) => {
    const v = fieldsOf(s)[0]
    return [new StructValue(-1, [makeString(readString(before) + String(v) + readString(after))])]
  },
  create_derived_string: (_c, _t, [v]) => [new StructValue(-1, [v, []])],
  derive_string_concat: (_c, _t, [before, s, after]) => {
    const v = fieldsOf(s)[0]
    return [new StructValue(-1, [makeString(readString(before) + String(v) + readString(after)), []])]
  },
  read_derived_string: (_c, _t, [s]) => [fieldsOf(s)[0]]
}
void EAGGREGATOR_OVERFLOW
void EAGGREGATOR_UNDERFLOW
