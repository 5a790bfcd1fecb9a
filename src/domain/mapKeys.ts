/**
 * Map keys of byte strings: the VM's session, a block's overlays, the change-set squash and the
 * ledger's commit keep state by key bytes in `Map`s, whose keys must be strings (two arrays with
 * the same bytes are different objects).
 *
 * A key string built for a lookup is a new string, and a `Map` hashes a string the first time it
 * is looked up (the hash is then kept in the string): building ~80 characters of a resource's state
 * key and hashing them took ~180 ns a lookup, and a transfer looks keys up dozens of times through
 * its block's overlays (V8's `String::ComputeAndSetRawHash` was 3 % of the event loop's samples at
 * full load, `perf`, session 42). Keys built once and kept (`cachedAccessPathKey`'s: the same array
 * for the same address and type) have their string kept too (`keepBytesKey`), so a lookup with one
 * of them costs a `WeakMap` hit (~20 ns) and reuses a string whose hash is already computed.
 */

/**
 * Node's native latin1 decoding (one byte → one char, 0–255: a bijection), called on any
 * Uint8Array: one flat one-byte string in one call, no intermediate strings (issue 22: building
 * keys piece by piece was a fifth of a transfer's allocations).
 */
const latin1Slice = (
  Buffer.prototype as unknown as { latin1Slice: (this: Uint8Array, start: number, end: number) => string }
).latin1Slice

/**
 * The key strings of arrays that live on (see `keepBytesKey`). Only arrays kept by a cache go in:
 * an entry per fresh array would make every scavenge walk more ephemerons (see `Loader.ts`'s
 * module keys).
 */
const keptKeys = new WeakMap<Uint8Array, string>()

/**
 * A map key of a byte string (so distinct byte strings never share a key); only ever compared,
 * never printed. An address (nearly every key) is 16 UTF-16 code units of two bytes each after a
 * first code unit above 255; any other length is its latin1 string, whose code units are all
 * below 256, so the two forms never meet and the length of a latin1 key is its byte count. The
 * string kept for `a` when it has one (`keepBytesKey`), else a new one.
 */
export const bytesKey = (a: Uint8Array): string => keptKeys.get(a) ?? newBytesKey(a)

/** `bytesKey(a)`, built. */
const newBytesKey = (a: Uint8Array): string => {
  if (a.length !== 32) return latin1Slice.call(a, 0, a.length)
  // One flat string from one call (the common case: cheaper than the native call).
  return String.fromCharCode(
    0x120,
    (a[0]! << 8) | a[1]!,
    (a[2]! << 8) | a[3]!,
    (a[4]! << 8) | a[5]!,
    (a[6]! << 8) | a[7]!,
    (a[8]! << 8) | a[9]!,
    (a[10]! << 8) | a[11]!,
    (a[12]! << 8) | a[13]!,
    (a[14]! << 8) | a[15]!,
    (a[16]! << 8) | a[17]!,
    (a[18]! << 8) | a[19]!,
    (a[20]! << 8) | a[21]!,
    (a[22]! << 8) | a[23]!,
    (a[24]! << 8) | a[25]!,
    (a[26]! << 8) | a[27]!,
    (a[28]! << 8) | a[29]!,
    (a[30]! << 8) | a[31]!
  )
}

/**
 * Keeps `a`'s key string for as long as `a` lives: for arrays a cache hands out again and again and
 * nobody mutates (`cachedAccessPathKey`'s state keys).
 */
export const keepBytesKey = (a: Uint8Array): void => {
  keptKeys.set(a, newBytesKey(a))
}

/**
 * Keys of address objects seen before. Addresses are never mutated in place (see `Value`), and the
 * hot ones are shared across runs (cached resources and derived addresses hand out the same
 * arrays), so most lookups skip building the key.
 */
const addressKeys = new WeakMap<Uint8Array, string>()

/** The key of an address in the session's maps (see `bytesKey`). */
export const addressKey = (address: Uint8Array): string => {
  let k = addressKeys.get(address)
  if (k === undefined) {
    // Built, not looked up among the kept keys: no address array is kept there.
    k = newBytesKey(address)
    addressKeys.set(address, k)
  }
  return k
}

/** The key of an address (see `bytesKey`), without remembering it for an array not seen before. */
export const knownAddressKey = (address: Uint8Array): string => addressKeys.get(address) ?? newBytesKey(address)
