/**
 * The fork's state below local writes: the remote cache in front of the source, pinned at one
 * version. Reads are synchronous (`read`: the VM's inner loop) and answer only from the cache; a
 * key not fetched yet is a miss (`StateMisses`), fetched by `fetch` (asynchronous) before the work
 * runs again. One request in flight per key: a second fetch of a key joins the first.
 */
import * as Effect from "effect/Effect"
import { toHex } from "../bcs/index.js"
import type { AccountAddress } from "../domain/AccountAddress.js"
import type { StateValue } from "../domain/StateValueCodec.js"
import type { ForkSourceClient } from "./ForkSourceClient.js"
import { ForkSourceError } from "./ForkSourceClient.js"
import { ABSENT, type RemoteStateCache } from "./RemoteStateCache.js"
import { fetchAccountKeys, moduleKey } from "./accountKeys.js"
import { describeStateKey } from "./describeStateKey.js"
import { fetchMisses, recordMiss } from "./StateMisses.js"

export interface ForkStateSource {
  /** The pinned version: the source's state after it. */
  readonly version: bigint
  readonly cache: RemoteStateCache
  /**
   * The source's value of `keyBytes` at the pinned version (undefined = absent there), from the
   * cache; a key never fetched is logged as a miss and the read throws (see `StateMisses`).
   */
  readonly read: (keyBytes: Uint8Array) => StateValue | undefined
  /**
   * The source's state keys of `address` at the pinned version, sorted (for listings), from the
   * cache; never fetched = a miss, like a state key (the listing is fetched by `accountKeys.ts`).
   */
  readonly accountKeys: (address: AccountAddress) => ReadonlyArray<Uint8Array>
  /** Fetches every key not cached yet (8 at a time); fails naming the first key the source could not answer. */
  readonly fetch: (keys: ReadonlyArray<Uint8Array>) => Effect.Effect<void, ForkSourceError>
  /** Caches every module of `address` in one request (a bulk prefetch). */
  readonly fetchModules: (address: AccountAddress) => Effect.Effect<number, ForkSourceError>
  /** Fetches what is not cached in the background (a prefetch ahead of need); failures are ignored. */
  readonly fetchInBackground: (keys: ReadonlyArray<Uint8Array>) => void
  /** Source requests made by this process (what the benchmarks count). */
  readonly requests: () => number
}

export const makeForkStateSource = (
  client: ForkSourceClient | undefined,
  cache: RemoteStateCache,
  version: bigint
): ForkStateSource => {
  const inFlight = new Map<string, Promise<void>>()

  const fetchOne = (keyBytes: Uint8Array): Promise<void> => {
    const hex = toHex(keyBytes)
    if (cache.get(keyBytes) !== undefined) return Promise.resolve()
    const joined = inFlight.get(hex)
    if (joined !== undefined) return joined
    if (client === undefined)
      return Promise.reject(
        new ForkSourceError(`fork: ${describeStateKey(keyBytes)} is not in the cache and the fork has no source`)
      )
    const p = client
      .rawStateValue(keyBytes, version)
      .then((answer) => cache.put(keyBytes, answer ?? ABSENT))
      .finally(() => inFlight.delete(hex))
    inFlight.set(hex, p)
    return p
  }

  const fetchAll = (keys: ReadonlyArray<Uint8Array>): Promise<void> =>
    fetchMisses(keys.map((keyBytes) => ({ keyBytes, fetch: () => fetchOne(keyBytes) })))

  const asError = (e: unknown) => (e instanceof ForkSourceError ? e : new ForkSourceError(String(e)))

  const listings = new Map<string, ReadonlyArray<Uint8Array>>()
  const listingName = (address: AccountAddress) => `keys ${toHex(address)}`
  const fetchListing = async (address: AccountAddress): Promise<void> => {
    if (client === undefined)
      throw new ForkSourceError(
        `fork: the keys of account 0x${toHex(address)} are not in the cache and the fork has no source`
      )
    const keys = await fetchAccountKeys(client, address, version, async (a, name) => {
      const k = moduleKey(a, name)
      await fetchOne(k)
      const v = cache.get(k)
      return v === undefined || v === ABSENT ? undefined : v.data
    })
    cache.meta.put(listingName(address), keys.map(toHex).join(","))
  }

  return {
    version,
    cache,
    accountKeys: (address) => {
      const name = listingName(address)
      const held = listings.get(name)
      if (held !== undefined) return held
      const stored = cache.meta.get(name)
      if (stored === undefined) return recordMiss(Uint8Array.of(0xfe, ...address), version, () => fetchListing(address))
      const keys = stored === "" ? [] : stored.split(",").map((h) => new Uint8Array(Buffer.from(h, "hex")))
      listings.set(name, keys)
      return keys
    },
    read: (keyBytes) => {
      const hit = cache.get(keyBytes)
      if (hit === ABSENT) return undefined
      if (hit !== undefined) return hit
      return recordMiss(keyBytes, version, () => fetchOne(keyBytes))
    },
    fetch: (keys) => Effect.tryPromise({ try: () => fetchAll(keys), catch: asError }),
    fetchModules: (address) =>
      Effect.tryPromise({
        try: async () => {
          if (client === undefined) throw new ForkSourceError("fork: no source to prefetch modules from (offline)")
          const modules = await client.modules(address, version)
          for (const m of modules)
            if (cache.get(m.keyBytes) === undefined) cache.put(m.keyBytes, { data: m.bytes, metadata: undefined })
          return modules.length
        },
        catch: asError
      }),
    fetchInBackground: (keys) => {
      if (client === undefined) return
      const missing = keys.filter((k) => cache.get(k) === undefined)
      if (missing.length > 0) fetchAll(missing).catch(() => undefined)
    },
    requests: () => client?.requests() ?? 0
  }
}
