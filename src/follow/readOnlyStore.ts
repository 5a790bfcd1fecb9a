import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { open } from "lmdb"
import { closeStore } from "../ledger/closeStore.js"
import type { LedgerService } from "../ledger/Ledger.js"
import type { LedgerBackend, LedgerHead } from "../ledger/LedgerBackend.js"
import { openLmdbBackend } from "../ledger/LmdbBackend.js"
import { decodeHead } from "../ledger/lmdbRecords.js"
import { makeLedgerService } from "../ledger/makeLedgerService.js"

const HEAD_KEY = Buffer.from("head")

/**
 * An LMDB ledger store that another process writes, opened to read (an API worker,
 * `apiWorkers.ts`): no data-directory lock, no commits, and the head re-read from the store's
 * `meta` table whenever its bytes changed. lmdb-js renews a read snapshot every event-loop turn, so
 * each request sees the newest block the writer committed; LMDB lets many processes read one
 * environment while one writes. The second `open` of the path shares the environment lmdb-js already
 * opened for the backend.
 */
export const openReadOnlyStore = (path: string): LedgerBackend => {
  // LMDB would make a new, empty store where there is none: a reader never does (a front process
  // trying again while the directory is moved, a worker given the wrong path).
  if (!existsSync(join(path, "data.mdb"))) throw new Error(`there is no ledger store at ${path}`)
  const backend = openLmdbBackend({ path, lock: false })
  const root = open<Buffer, Buffer>({ path, keyEncoding: "binary", encoding: "binary", maxDbs: 16, noSubdir: false })
  const meta = root.openDB<Buffer, Buffer>({ name: "meta", keyEncoding: "binary", encoding: "binary" })
  let bytes: Buffer | undefined
  let head: LedgerHead | undefined
  return {
    ...backend,
    head: () => {
      const b = meta.getBinary(HEAD_KEY)
      // A copy: this handle's snapshot is let go at once, not at the next timer tick (a reader in a
      // long stretch would otherwise keep the writer from reusing freed pages: `snapshotBound.ts`),
      // so the next look reads the newest head and `refreshReads` is the backend's alone.
      root.resetReadTxn()
      if (b !== undefined && (bytes === undefined || !b.equals(bytes))) {
        head = decodeHead(new Uint8Array(b.buffer, b.byteOffset, b.byteLength))
        bytes = b
        // The blocks the new head names are read through the backend's own handle, whose snapshot
        // is its own: lmdb-js renews a handle's snapshot at its first read after its reset (a timer
        // tick after the previous renewal), so the backend's may predate this head by a commit or
        // more — "no block holds version N" for a version the head says exists (the indexer's
        // worker, under load). Renewing it now makes it at least as new as the head.
        backend.refreshReads?.()
      }
      return head
    },
    commit: () => {
      throw new Error("this ledger store is opened read-only: another process writes it")
    },
    pruneStep: () => 0,
    close: () => Promise.all([root.close(), backend.close()]).then(() => undefined)
  }
}

/** The ledger service over `openReadOnlyStore(path)`, the store closed with the scope. */
export const readOnlyLedger = (path: string): Effect.Effect<LedgerService, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => openReadOnlyStore(path)),
      closeStore
    ),
    (backend) => makeLedgerService(backend, {}).service
  )
