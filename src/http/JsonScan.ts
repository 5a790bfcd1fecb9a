/**
 * A bounded pre-scan of a JSON request body, run before `JSON.parse`: it counts values and
 * containers and tracks nesting straight from the bytes, and stops at the first limit passed. So
 * the work a body can cost is bounded by what it holds, not only by its size: `JSON.parse` of an
 * 8 MB body of small arrays builds ~800,000 arrays and holds the event loop for seconds, while the
 * scan rejects it after its first 16,384 containers, in well under a millisecond.
 *
 * The scan does not validate syntax (`JSON.parse` does, afterwards): it only has to count what
 * `JSON.parse` would build. Every value `JSON.parse` allocates starts with a byte the scan sees
 * outside a string (`[`, `{`, `"`, a digit, `-`, `t`, `f`, `n`), and strings are skipped by the
 * same escape rule JSON uses, so a body the scan admits builds at most the counted values.
 */

export interface JsonBodyLimits {
  /** Deepest nesting of arrays and objects. */
  readonly maxDepth: number
  /** Most values of any kind (scalars, strings, object keys, arrays, objects). */
  readonly maxValues: number
  /** Most arrays and objects (each costs `JSON.parse` far more than a scalar). */
  readonly maxContainers: number
}

/**
 * Far above any request the API takes (a view or transaction argument nests a few levels; Move
 * type arguments at most 8; a 64 KB transaction holds at most ~8,000 u64 arguments), and far below
 * what holds the loop: `JSON.parse` of 16,384 small arrays takes ~1.5 ms, and converting 32,768
 * argument values for encode_submission ~6 ms (docs/benchmarks.md, "Hostile input").
 */
export const defaultJsonBodyLimits: JsonBodyLimits = {
  maxDepth: 64,
  maxValues: 32_768,
  maxContainers: 16_384
}

const QUOTE = 0x22
const BACKSLASH = 0x5c

/** The index of the quote closing the string whose opening quote is at `open`, or -1. */
const stringEnd = (bytes: Uint8Array, open: number): number => {
  let i = open + 1
  for (;;) {
    const q = bytes.indexOf(QUOTE, i)
    if (q < 0) return -1
    // An escaped quote has an odd number of backslashes right before it.
    let b = q - 1
    while (b > open && bytes[b] === BACKSLASH) b--
    if ((q - 1 - b) % 2 === 0) return q
    i = q + 1
  }
}

/** Byte classes: 0 part of a scalar (digits, letters, garbage), 1 separator or whitespace, 2 `[` `{`, 3 `]` `}`, 4 `"`. */
const CLASS = (() => {
  const t = new Uint8Array(256)
  for (const c of [0x2c, 0x3a, 0x20, 0x0a, 0x0d, 0x09]) t[c] = 1
  t[0x5b] = t[0x7b] = 2
  t[0x5d] = t[0x7d] = 3
  t[QUOTE] = 4
  return t
})()

/**
 * Scans `bytes` (UTF-8 JSON text) against `limits`: undefined when within them, else why not
 * (a message for the client). Linear in the bytes scanned (strings are skipped with the native
 * `indexOf`), and stops at the first limit passed.
 */
export const scanJsonLimits = (
  bytes: Uint8Array,
  limits: JsonBodyLimits = defaultJsonBodyLimits
): string | undefined => {
  const { maxDepth, maxValues, maxContainers } = limits
  let depth = 0
  let values = 0
  let containers = 0
  const n = bytes.length
  let i = 0
  while (i < n) {
    const k = CLASS[bytes[i]!]!
    if (k === 1) {
      i++
      while (i < n && CLASS[bytes[i]!] === 1) i++
    } else if (k === 2) {
      if (++depth > maxDepth) return `JSON nested deeper than ${maxDepth} levels`
      if (++containers > maxContainers) return `JSON with more than ${maxContainers} arrays and objects`
      if (++values > maxValues) return `JSON with more than ${maxValues} values`
      i++
    } else if (k === 3) {
      depth--
      i++
    } else if (k === 4) {
      if (++values > maxValues) return `JSON with more than ${maxValues} values`
      const end = stringEnd(bytes, i)
      if (end < 0) return undefined // unterminated: JSON.parse reports it
      i = end + 1
    } else {
      // A number or a literal (or garbage, which JSON.parse rejects): one value up to the next non-scalar byte.
      if (++values > maxValues) return `JSON with more than ${maxValues} values`
      i++
      while (i < n && CLASS[bytes[i]!] === 0) i++
    }
  }
  return undefined
}
