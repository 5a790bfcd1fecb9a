/**
 * When the indexer's worker may tell the chain's thread that the reset it asked last is done
 * (`Progress.resetsAcknowledged`; until then that thread counts the index empty, and a worker
 * started after this one dies does it again). A reset or rewind asked is done by the follower's
 * next go-back to *start* — one under way began before the request and may be of another kind (a
 * rewind under way when a full `reindex` is asked) — so the request notes the number that go-back
 * will have (`LedgerFollower.goBacksStarted() + 1`), and the acknowledgement waits for a go-back of
 * that number or later to be done (`onProgress`'s `lastGoBackDone`). Counting go-backs done instead
 * acknowledged a reindex when a rewind under way finished.
 */
export interface ResetAcknowledgement {
  /** The reset numbered `asked` was asked; the follower had started `goBacksStarted` go-backs. */
  readonly asked: (asked: number, goBacksStarted: number) => void
  /** The follower reported progress: the latest reset asked that is done (after `lastGoBackDone`). */
  readonly acknowledged: (lastGoBackDone: number) => number
}

/**
 * `done`: the resets a worker before this one acknowledged; `pending`: the reset asked of it and not
 * done, which this worker's follower does first (its go-back number 1).
 */
export const makeResetAcknowledgement = (done: number, pending: number | undefined): ResetAcknowledgement => {
  let acknowledged = done
  let asked = pending ?? done
  let coveredBy = 1
  return {
    asked: (n, goBacksStarted) => {
      asked = n
      coveredBy = goBacksStarted + 1
    },
    acknowledged: (lastGoBackDone) => {
      if (lastGoBackDone >= coveredBy) acknowledged = asked
      return acknowledged
    }
  }
}
