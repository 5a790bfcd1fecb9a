/**
 * Which versions wrote a module. Modules change rarely (a publication, an upgrade) while state
 * changes at every version, so what is derived from modules alone (the VM's loaded modules, decoded
 * ABIs for rendering) can outlive the version it was read at: it holds for every version up to the
 * next module write. A store records the versions whose write set writes a module
 * (`LedgerBackend.codeVersionAt`); a reader names the modules it sees by the newest of them at or
 * below its version (`StateReader.codeSnapshotId`), so caches keyed by that name are re-checked
 * only when a module may have changed (issue 22: the loader re-read every cached module at every
 * block, 7 % of the event loop's time at 100 blocks/s).
 */
import type { WriteSet } from "../domain/WriteSet.js"

/**
 * Whether `keyBytes` (BCS of a StateKey) names a module: `StateKey::AccessPath` (variant 0), then
 * the 32-byte address, then the path as a byte vector (ULEB128 length) whose first byte is the
 * `Path` variant, `Code` = 0. Any other bytes (another key kind, a truncated key) are not a module.
 */
export const isModuleKey = (keyBytes: Uint8Array): boolean => {
  if (keyBytes.length < 35 || keyBytes[0] !== 0) return false
  let at = 33
  while (at < keyBytes.length && (keyBytes[at]! & 0x80) !== 0) at++
  at++
  return at < keyBytes.length && keyBytes[at] === 0
}

/** Whether the write set writes or deletes a module. */
export const writesModule = (writeSet: WriteSet): boolean => {
  for (const entry of writeSet.entries) if (isModuleKey(entry.keyBytes)) return true
  return false
}

/**
 * The name of the modules a reader sees: `codeVersion` (the newest module write at or below its
 * version) within the store's history generation (its truncations: after a rewind, versions are
 * reused by other writes).
 */
export const codeSnapshotName = (truncations: number, codeVersion: bigint): string => `${truncations}/code@${codeVersion}`

/**
 * The greatest element of `ascending` at or below `version`, by binary search; undefined when none
 * is (the in-memory store's record of module writes).
 */
export const greatestAtOrBelow = (ascending: ReadonlyArray<bigint>, version: bigint): bigint | undefined => {
  let lo = 0
  let hi = ascending.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (ascending[mid]! <= version) lo = mid + 1
    else hi = mid
  }
  return lo === 0 ? undefined : ascending[lo - 1]
}
