import { fromBytes } from "../Value.js"
import { bytesOf, chargeParam, utf8 } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/** `0x1::string` natives over UTF-8 byte vectors. */
const isBoundary = (b: Uint8Array, i: number): boolean => i === b.length || (i < b.length && (b[i]! & 0xc0) !== 0x80)

export const stringNatives: Record<string, NativeFunction> = {
  internal_check_utf8: (ctx, _t, [v]) => {
    const b = bytesOf(v)
    chargeParam(ctx, "move_stdlib.string.check_utf8.per_byte", b.length)
    try {
      utf8.decode(b)
      return [true]
    } catch {
      return [false]
    }
  },
  internal_is_char_boundary: (_c, _t, [v, i]) => {
    const b = bytesOf(v)
    const n = i as bigint
    return [n <= BigInt(b.length) && isBoundary(b, Number(n))]
  },
  internal_sub_string: (ctx, _t, [v, i, j]) => {
    const b = bytesOf(v)
    const out = b.subarray(Number(i), Number(j))
    chargeParam(ctx, "move_stdlib.string.sub_string.per_byte", out.length)
    return [fromBytes(out)]
  },
  internal_index_of: (ctx, _t, [v, r]) => {
    const b = bytesOf(v)
    const p = bytesOf(r)
    chargeParam(ctx, "move_stdlib.string.index_of.per_byte_pattern", p.length)
    let found = b.length
    outer: for (let i = 0; i + p.length <= b.length; i++) {
      for (let k = 0; k < p.length; k++) if (b[i + k] !== p[k]) continue outer
      found = i
      break
    }
    chargeParam(ctx, "move_stdlib.string.index_of.per_byte_searched", Math.min(b.length, found + p.length))
    return [BigInt(found)]
  }
}
