import { sha3 as sha3_256 } from "../../../domain/hash.js"
import { StructValue, type Ref, type Value } from "../Value.js"
import { Types } from "../Type.js"
import { deref } from "./helpers.js"
import { type NativeContext, type NativeFunction, nativeAbort } from "./NativeContext.js"

/**
 * The 2022 aggregators (`0x1::aggregator`, `0x1::aggregator_factory`): an `Aggregator { handle,
 * key, limit }` whose u128 value lives in a table item (handle, BCS(key)). Read and changed
 * through the session's table cache, so a view sees stored values and changes stay in the run.
 */
const EAGGREGATOR_OVERFLOW = 0x20001n
const EAGGREGATOR_UNDERFLOW = 0x20002n

const slot = (ctx: NativeContext, agg: Value) => {
  const f = (deref(agg) as StructValue).fields
  return ctx.session.tableEntry(f[0] as Uint8Array, f[1] as Uint8Array, Types.u128, false)
}

const set = (ctx: NativeContext, agg: Value, v: bigint): void => {
  const s = slot(ctx, agg)
  s.box[0] = v
  s.dirty = true
}

const value = (ctx: NativeContext, agg: Value): bigint => (slot(ctx, agg).box[0] as bigint | undefined) ?? 0n
const limit = (agg: Value): bigint => (deref(agg) as StructValue).fields[2] as bigint

export const aggregatorNatives: Record<string, NativeFunction> = {
  read: (ctx, _t, [a]) => [value(ctx, a)],
  add: (ctx, _t, [a, v]) => {
    const next = value(ctx, a) + (v as bigint)
    if (next > limit(a)) return nativeAbort(ctx, EAGGREGATOR_OVERFLOW)
    set(ctx, a, next)
    return []
  },
  sub: (ctx, _t, [a, v]) => {
    const next = value(ctx, a) - (v as bigint)
    if (next < 0n) return nativeAbort(ctx, EAGGREGATOR_UNDERFLOW)
    set(ctx, a, next)
    return []
  },
  destroy: (ctx, _t, [a]) => {
    slot(ctx, a).box[0] = undefined
    return []
  }
}

export const aggregatorFactoryNatives: Record<string, NativeFunction> = {
  new_aggregator: (ctx, _t, [factory, lim]) => {
    const handle = (((factory as Ref).get() as StructValue).fields[0] as StructValue).fields[0] as Uint8Array
    // The reference's key: sha3-256(session hash ‖ u32 big-endian count of aggregators created).
    const buf = new Uint8Array(36)
    buf.set(ctx.session.txnHash, 0)
    new DataView(buf.buffer).setUint32(32, ctx.session.aggregatorCounter++, false)
    const agg = new StructValue(-1, [handle, sha3_256(buf), lim])
    set(ctx, agg, 0n)
    return [agg]
  }
}
