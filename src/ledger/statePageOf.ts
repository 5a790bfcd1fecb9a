import type { StateEntry, StatePage, StatePageQuery } from "./Ledger.js"

/**
 * The paging rule both stores share, over candidate keys in byte order (`valueAt` gives a key's
 * value at the version read, undefined when it has none there): accepted keys with a value fill the
 * page up to `limit`; past that, the next such key is the cursor; when `maxScan` keys were looked at
 * first, the next unscanned key is (a shorter page, with a cursor all the same). The iteration stops
 * there, so a store reads at most `maxScan + 1` keys.
 */
export const pageOf = (
  keys: Iterable<Uint8Array>,
  query: StatePageQuery,
  valueAt: (keyBytes: Uint8Array) => { readonly value: Uint8Array | undefined; readonly version: bigint } | undefined
): StatePage => {
  const entries: StateEntry[] = []
  let scanned = 0
  for (const keyBytes of keys) {
    if (scanned++ >= query.maxScan) return { entries, next: keyBytes }
    if (!query.accept(keyBytes)) continue
    const found = valueAt(keyBytes)
    if (found?.value === undefined) continue
    if (entries.length >= query.limit) return { entries, next: keyBytes }
    entries.push({ keyBytes, value: found.value, version: found.version })
  }
  return { entries, next: undefined }
}
