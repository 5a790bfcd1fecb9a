/**
 * Which versions wrote a module. Modules change rarely (a publication, an upgrade) while state
 * changes at every version, so what is derived from modules alone (the VM's loaded modules, decoded
 * ABIs for rendering) can outlive the version it was read at: it holds for every version up to the
 * next module write. A store records the versions whose write set writes a module
 * (`writesModule`, src/domain/WriteSet.ts; `LedgerBackend.codeVersionAt`); a reader names the
 * modules it sees by the newest of them at or below its version (`StateReader.codeSnapshotId`), so
 * caches keyed by that name are re-checked only when a module may have changed (issue 22: the
 * loader re-read every cached module at every block, 7 % of the event loop's time at 100 blocks/s).
 */

/**
 * The name of the modules a reader sees: `codeVersion` (the newest module write at or below its
 * version) within the store's history generation (its truncations: after a rewind, versions are
 * reused by other writes).
 */
export const codeSnapshotName = (truncations: number, codeVersion: bigint): string =>
  `${truncations}/code@${codeVersion}`
