/**
 * How long a reader's LMDB snapshot may live: `beforeRead` renews it (`renew`) at a read once it
 * is older than `maxAgeMs`.
 *
 * Why: LMDB hands the pages a commit frees to later commits only once no reader's snapshot
 * predates that commit. lmdb-js renews a thread's read snapshot at the next timer tick, which
 * never comes while the thread runs one long stretch: the indexer's worker learning the
 * framework's tables from genesis at start (~350–700 ms on a 2-core machine), a cold batch, a view
 * that reads a lot. Every block the chain committed meanwhile took fresh pages at the end of the
 * file instead of reusing freed ones: 1,000 transfers submitted one after another grew `data.mdb`
 * by up to 4.6 KB each instead of 3.3 (issue 22), the difference all free pages.
 *
 * Renewing between two reads is safe for the ledger's readers: every read names its version or
 * height, and what is committed at or below the head does not change (a rewind's garbage is
 * filtered by the head; `refreshReads` notices a truncation). lmdb-js keeps a snapshot that an
 * open iterator still uses until the iterator is done. The clock is read at every eighth read only:
 * a stretch long enough to matter reads far more often than that.
 */
export interface SnapshotBound {
  /** Call before a read: renews the snapshot when it has lived `maxAgeMs` or more. */
  readonly beforeRead: () => void
  /** The snapshot was just renewed by other means (a commit, an explicit refresh). */
  readonly renewed: () => void
}

/** The default bound: a few blocks of a chain committing one transfer at a time. */
export const MAX_SNAPSHOT_AGE_MS = 20

/** Reads between two looks at the clock (a power of two). */
const READS_PER_LOOK = 8

export const snapshotBound = (
  renew: () => void,
  maxAgeMs: number = MAX_SNAPSHOT_AGE_MS,
  now: () => number = () => performance.now()
): SnapshotBound => {
  let since = now()
  let reads = 0
  return {
    beforeRead: () => {
      if ((++reads & (READS_PER_LOOK - 1)) !== 0) return
      const t = now()
      if (t - since < maxAgeMs) return
      since = t
      renew()
    },
    renewed: () => {
      since = now()
    }
  }
}
