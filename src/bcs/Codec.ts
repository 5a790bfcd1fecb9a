import * as Result from "effect/Result"
import { BcsError } from "./BcsError.js"
import { BcsReader } from "./BcsReader.js"
import { BcsWriter } from "./BcsWriter.js"
import type { BcsLimits } from "./limits.js"

/**
 * A BCS codec: a pair of functions over a reader and a writer. Codecs compose (vector, option,
 * struct, enum) into codecs for whole domain types; `encode`/`decode` below are the entry points.
 */
export interface Codec<A> {
  readonly write: (w: BcsWriter, value: A) => void
  readonly read: (r: BcsReader) => A
}

export const codec = <A>(write: Codec<A>["write"], read: Codec<A>["read"]): Codec<A> => ({ write, read })

export const u8: Codec<number> = codec(
  (w, v) => w.u8(v),
  (r) => r.u8()
)
export const u16: Codec<number> = codec(
  (w, v) => w.u16(v),
  (r) => r.u16()
)
export const u32: Codec<number> = codec(
  (w, v) => w.u32(v),
  (r) => r.u32()
)
export const u64: Codec<bigint> = codec(
  (w, v) => w.u64(v),
  (r) => r.u64()
)
export const u128: Codec<bigint> = codec(
  (w, v) => w.u128(v),
  (r) => r.u128()
)
export const u256: Codec<bigint> = codec(
  (w, v) => w.u256(v),
  (r) => r.u256()
)
export const bool: Codec<boolean> = codec(
  (w, v) => w.bool(v),
  (r) => r.bool()
)
export const uleb128: Codec<number> = codec(
  (w, v) => w.uleb128(v),
  (r) => r.uleb128()
)
export const bytes: Codec<Uint8Array> = codec(
  (w, v) => w.bytesWithLength(v),
  (r) => r.bytesWithLength()
)
export const string: Codec<string> = codec(
  (w, v) => w.string(v),
  (r) => r.string()
)

export const fixedBytes = (n: number): Codec<Uint8Array> =>
  codec(
    (w, v) => {
      if (v.length !== n) throw new RangeError(`expected ${n} bytes, got ${v.length}`)
      w.fixed(v)
    },
    (r) => r.fixed(n)
  )

/** `minElementSize` lets the length check reject counts that cannot fit in the bytes left. */
export const vector = <A>(item: Codec<A>, minElementSize = 1): Codec<ReadonlyArray<A>> =>
  codec(
    (w, v) => {
      w.uleb128(v.length)
      for (const x of v) item.write(w, x)
    },
    (r) => {
      const n = r.length(minElementSize)
      const out: A[] = new Array(n)
      for (let i = 0; i < n; i++) out[i] = item.read(r)
      return out
    }
  )

export const option = <A>(item: Codec<A>): Codec<A | undefined> =>
  codec(
    (w, v) => {
      if (v === undefined) w.u8(0)
      else {
        w.u8(1)
        item.write(w, v)
      }
    },
    (r) => {
      const tag = r.u8()
      if (tag === 0) return undefined
      if (tag !== 1) r.fail(`invalid option tag ${tag}`)
      return item.read(r)
    }
  )

type StructFields = Record<string, Codec<any>>
type StructValue<F extends StructFields> = { readonly [K in keyof F]: F[K] extends Codec<infer A> ? A : never }

/** A struct: its fields in declaration order (the order of the object's keys). */
export const struct = <F extends StructFields>(fields: F): Codec<StructValue<F>> => {
  const entries = Object.entries(fields)
  return codec(
    (w, v) => {
      for (const [k, c] of entries) c.write(w, (v as any)[k])
    },
    (r) => {
      const out: Record<string, unknown> = {}
      for (const [k, c] of entries) out[k] = c.read(r)
      return out as StructValue<F>
    }
  )
}

/** A BCS map: a vector of (key, value) pairs. Order is the caller's (BCS requires sorted keys). */
export const map = <K, V>(key: Codec<K>, value: Codec<V>): Codec<ReadonlyArray<readonly [K, V]>> =>
  vector(
    codec<readonly [K, V]>(
      (w, [k, v]) => {
        key.write(w, k)
        value.write(w, v)
      },
      (r) => [key.read(r), value.read(r)] as const
    )
  )

/** A recursive codec, built lazily; its reads count towards the reader's depth limit. */
export const lazy = <A>(f: () => Codec<A>): Codec<A> => {
  let c: Codec<A> | undefined
  return codec(
    (w, v) => (c ??= f()).write(w, v),
    (r) => {
      r.enter()
      const v = (c ??= f()).read(r)
      r.leave()
      return v
    }
  )
}

export const transform = <A, B>(inner: Codec<A>, to: (a: A) => B, from: (b: B) => A): Codec<B> =>
  codec(
    (w, v) => inner.write(w, from(v)),
    (r) => to(inner.read(r))
  )

export const encode = <A>(c: Codec<A>, value: A): Uint8Array => {
  const w = new BcsWriter()
  c.write(w, value)
  return w.toBytes()
}

/** Decodes all of `input`; trailing bytes are an error. Never throws. */
export const decode = <A>(c: Codec<A>, input: Uint8Array, limits?: BcsLimits): Result.Result<A, BcsError> => {
  try {
    const r = new BcsReader(input, limits)
    const v = c.read(r)
    r.expectEnd()
    return Result.succeed(v)
  } catch (e) {
    if (e instanceof BcsError) return Result.fail(e)
    // A RangeError from a value the decoder built is still a decoding failure of this input.
    return Result.fail(new BcsError(e instanceof Error ? e.message : String(e), -1))
  }
}

/** Like `decode` but throws the BcsError: for trusted bytes (our own store) on hot paths. */
export const decodeOrThrow = <A>(c: Codec<A>, input: Uint8Array, limits?: BcsLimits): A => {
  const r = new BcsReader(input, limits)
  const v = c.read(r)
  r.expectEnd()
  return v
}
