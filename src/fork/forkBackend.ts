/**
 * A ledger store for a fork: the local store (memory or LMDB) holds what happened after the pinned
 * version V (blocks V+1 on, their state writes), and state reads fall through to the source's state
 * at V (`ForkStateSource`) for keys the local store never wrote. A local deletion is a tombstone in
 * the local store (a `stateGet` answer with no value) and never falls through: a key deleted on
 * the fork stays deleted whatever the source holds.
 *
 * Before the first local block the store has no head of its own: `base` (the source's version,
 * block height, epoch and timestamp at V, its chain id) stands in, so the first local block gets
 * version V+1 and height H+1 (`prepareBlock` continues from whatever head it is given). The
 * transaction accumulator starts empty: local root hashes cover local transactions only.
 */
import type { LedgerBackend, LedgerHead } from "../ledger/LedgerBackend.js"
import { pageOf } from "../ledger/statePageOf.js"
import type { ForkStateSource } from "./ForkStateSource.js"

export const forkBackend = (
  local: LedgerBackend,
  remote: ForkStateSource,
  base: LedgerHead,
  /** Values the fork's base has instead of the source's (a chain id override), by BCS(StateKey) in latin1. */
  overrides: ReadonlyMap<string, Uint8Array> = new Map()
): LedgerBackend => {
  const remoteVersion = remote.version
  const overridden = (keyBytes: Uint8Array) =>
    overrides.size === 0 ? undefined : overrides.get(Buffer.from(keyBytes).toString("latin1"))
  const stateGet = (keyBytes: Uint8Array, version: bigint) => {
    const mine = local.stateGet(keyBytes, version)
    if (mine !== undefined) return mine
    const patched = overridden(keyBytes)
    if (patched !== undefined) return { value: patched, version: remoteVersion }
    const theirs = remote.read(keyBytes)
    return theirs === undefined ? undefined : { value: theirs.data, version: remoteVersion }
  }
  return {
    ...local,
    head: () => local.head() ?? base,
    stateGet,
    // Without the local store's shortcut: it cannot tell "deleted here" from "never written here".
    stateVersion: undefined,
    // Modules read from the source may be missing for a while (a fetch that failed is asked again,
    // `stateMisses.ts`): no name for a version's modules that would let a cache keep an absence.
    codeVersionAt: undefined,
    // An account's listing: the source's keys of the account and the local ones, each read as a
    // point read (local first: a local deletion hides the source's key).
    statePage: (version, query) => {
      const mine = local.statePage(version, {
        address: query.address,
        start: query.start,
        accept: () => true,
        limit: Number.MAX_SAFE_INTEGER,
        maxScan: Number.MAX_SAFE_INTEGER
      })
      const theirs = remote.accountKeys(query.address)
      const start = query.start
      const candidates = new Map<string, Uint8Array>()
      for (const k of theirs)
        if (start === undefined || Buffer.compare(k, start) >= 0) candidates.set(Buffer.from(k).toString("hex"), k)
      for (const e of mine.entries) candidates.set(Buffer.from(e.keyBytes).toString("hex"), e.keyBytes)
      const sorted = [...candidates.values()].sort((a, b) => Buffer.compare(a, b))
      return pageOf(sorted, query, (keyBytes) => stateGet(keyBytes, version))
    },
    stateMetadata: (keyBytes, version) => {
      const mine = local.stateGet(keyBytes, version)
      if (mine !== undefined) return mine.value === undefined ? undefined : local.stateMetadata(keyBytes, version)
      if (overridden(keyBytes) !== undefined) return undefined
      return remote.read(keyBytes)?.metadata
    }
  }
}
