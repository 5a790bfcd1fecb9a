/**
 * An index store for the engine's tests (gather.test.ts, rewindRace.test.ts): it keeps only its
 * position (a reset clears it) and tells `onCommit` of each commit, with the position before it.
 */
import * as Effect from "effect/Effect"
import type { IndexerStoreService } from "../../src/indexer/store/IndexerStore.js"

export interface FakeIndexStore {
  readonly store: IndexerStoreService
  /** The last committed version; undefined before the first commit and after a reset. */
  readonly indexed: () => bigint | undefined
}

export const fakeIndexStore = (
  onCommit: (writes: unknown, version: bigint, before: bigint | undefined) => void = () => {}
): FakeIndexStore => {
  let position: { version: bigint } | undefined
  const store = {
    position: Effect.sync(() => position),
    reset: Effect.sync(() => {
      position = undefined
    }),
    commit: (writes: unknown, at: { version: bigint }) =>
      Effect.sync(() => {
        onCommit(writes, at.version, position?.version)
        position = at
      }),
    settle: Effect.void,
    // No undo log: a rewind rebuilds.
    undoPoints: () => Effect.succeed([]),
    dropUndo: Effect.void
  } as unknown as IndexerStoreService
  return { store, indexed: () => position?.version }
}
