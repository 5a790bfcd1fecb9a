import type { StateReader } from "./Ledger.js"
import type { LedgerBackend } from "./LedgerBackend.js"

/**
 * The state at `version` over a backend, without any range check (the caller has checked that the
 * version is retained). Shared by the ledger service and readers in other threads (view workers).
 * After a truncation the version alone no longer names the state (versions are reused), so the
 * reader names it `truncations/version` (`snapshotId`).
 */
export const stateReaderAt = (backend: LedgerBackend, version: bigint): StateReader => {
  const truncations = backend.truncations?.() ?? 0
  return {
    version,
    snapshotId: truncations === 0 ? undefined : `${truncations}/${version}`,
    generation: truncations,
    get: (keyBytes) => backend.stateGet(keyBytes, version)?.value,
    getVersioned: (keyBytes) => {
      const found = backend.stateGet(keyBytes, version)
      return found?.value === undefined ? undefined : { value: found.value, version: found.version }
    },
    metadata: (keyBytes) => backend.stateMetadata(keyBytes, version),
    versionOf: (keyBytes) => {
      if (backend.stateVersion !== undefined) return backend.stateVersion(keyBytes, version)
      const found = backend.stateGet(keyBytes, version)
      return found?.value === undefined ? undefined : found.version
    }
  }
}
