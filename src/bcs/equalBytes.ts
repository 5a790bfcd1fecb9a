/**
 * Whether two byte arrays hold the same bytes — the one comparison the codebase uses (it was written
 * out nine times). Short arrays (keys, hashes, addresses) are compared here; from 64 bytes on, the
 * platform's memcmp does it where there is one (Node's `Buffer.compare`, which takes any
 * `Uint8Array`): a JS loop over a resource's bytes — the gas schedule, compared for every transaction
 * the admission worker validates — costs microseconds that memcmp does in tens of nanoseconds.
 */
const nativeCompare: ((a: Uint8Array, b: Uint8Array) => number) | undefined = (
  globalThis as { Buffer?: { compare?: (a: Uint8Array, b: Uint8Array) => number } }
).Buffer?.compare

const NATIVE_FROM = 64

export const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a === b) return true
  const n = a.length
  if (n !== b.length) return false
  if (n >= NATIVE_FROM && nativeCompare !== undefined) return nativeCompare(a, b) === 0
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false
  return true
}
