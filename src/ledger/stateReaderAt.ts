import { codeSnapshotName } from "./codeVersions.js"
import type { StateReader } from "./Ledger.js"
import type { LedgerBackend } from "./LedgerBackend.js"

/**
 * The state at `version` over a backend, without any range check (the caller has checked that the
 * version is retained). Shared by the ledger service and readers in other threads (view workers).
 * After a truncation the version alone no longer names the state (versions are reused), so the
 * reader names it `truncations/version` (`snapshotId`). Its modules are named by the store's
 * record of module writes (`codeSnapshotId`, see codeVersions.ts).
 */
export const stateReaderAt = (backend: LedgerBackend, version: bigint): StateReader => {
  const truncations = backend.truncations?.() ?? 0
  // Named on first use (a store read or two; most readers never ask).
  let code: string | undefined | null = null
  return {
    version,
    snapshotId: truncations === 0 ? undefined : `${truncations}/${version}`,
    get codeSnapshotId() {
      if (code === null) {
        const codeVersion = backend.codeVersionAt?.(version)
        code = codeVersion === undefined ? undefined : codeSnapshotName(truncations, codeVersion)
      }
      return code
    },
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
