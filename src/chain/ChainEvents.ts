import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { BlockInfo } from "../ledger/Ledger.js"
import type { VmStatusCode } from "./ChainVm.js"

/** What happened to one pooled transaction when a block was made. */
export interface CommittedTransactionNote {
  readonly hashKey: string
  readonly version: bigint
}

export interface DiscardedTransactionNote {
  readonly hashKey: string
  readonly status: VmStatusCode
}

/**
 * Chain notifications (anvil's `ChainNotification`):
 *
 * - `BlockCommitted`: a committed block with the transactions it committed, those the VM
 *   discarded while making it, and those the pool dropped as expired. The mempool's own
 *   maintenance happens before this is published, so a listener that reads the pool or the ledger
 *   on this event sees both up to date.
 * - `Rewound`: the ledger went back (a test control: `revert`, `reset`, or `load` of a dumped
 *   chain): every version above `version` (and block above `height`) is gone, and later blocks
 *   reuse those numbers. A follower (the indexer) drops what it derived from them and continues
 *   from `version + 1`. The mempool was emptied; its transactions were dropped (`dropped`).
 * - `Marked`: a snapshot was taken at `version` (the controls' `snapshot`): the ledger may later
 *   go back to it. A follower that can keep what going back needs (the indexer's undo log) starts
 *   keeping it; nothing else changed.
 * - `Dropped`: pending transactions were taken out of the pool by the controls (anvil's
 *   `anvil_dropTransaction`, `anvil_dropAllTransactions`): they will not commit. The ledger did not
 *   change.
 */
export type ChainEvent = BlockCommittedEvent | RewoundEvent | MarkedEvent | DroppedEvent

export interface BlockCommittedEvent {
  readonly _tag: "BlockCommitted"
  readonly block: BlockInfo
  readonly committed: ReadonlyArray<CommittedTransactionNote>
  readonly discarded: ReadonlyArray<DiscardedTransactionNote>
  readonly dropped: ReadonlyArray<string>
}

export interface RewoundEvent {
  readonly _tag: "Rewound"
  readonly reason: "revert" | "reset" | "load"
  /** The latest version and block after going back. */
  readonly version: bigint
  readonly height: bigint
  /** The pooled transactions that were dropped (by hash key). */
  readonly dropped: ReadonlyArray<string>
}

export interface MarkedEvent {
  readonly _tag: "Marked"
  /** The ledger's latest version when the snapshot was taken. */
  readonly version: bigint
}

export interface DroppedEvent {
  readonly _tag: "Dropped"
  /** The pooled transactions that were dropped (by hash key). */
  readonly dropped: ReadonlyArray<string>
}

/**
 * The events that settle pooled transactions: a block (committed, discarded, dropped ones), going
 * back (dropped ones), or a drop by the controls.
 */
export type PoolSettlingEvent = BlockCommittedEvent | RewoundEvent | DroppedEvent

/** The events that concern the ledger: a block, going back, a snapshot taken (a drop leaves it as it is). */
export type LedgerEvent = BlockCommittedEvent | RewoundEvent | MarkedEvent

export interface ChainEventsService {
  readonly publish: (event: ChainEvent) => Effect.Effect<void>
  /** Every event published after the subscription (scoped: it ends with its scope). */
  readonly subscription: Effect.Effect<Effect.Effect<ChainEvent>, never, Scope.Scope>
  /**
   * The same without `Marked` (a snapshot changes neither the ledger nor the pool): for those that
   * wait for pooled transactions to be settled (`wait_by_hash`, the faucet, a fork's local store).
   */
  readonly poolSubscription: Effect.Effect<Effect.Effect<PoolSettlingEvent>, never, Scope.Scope>
  /**
   * The same without `Dropped` (the pool changed, not the ledger): for those that follow the ledger
   * (the in-process indexer, in this thread or its worker).
   */
  readonly ledgerSubscription: Effect.Effect<Effect.Effect<LedgerEvent>, never, Scope.Scope>
  readonly stream: Stream.Stream<ChainEvent>
}

/** The next event of `take` that is not a `tag` (those are passed over). */
const skipping =
  <T extends ChainEvent["_tag"]>(tag: T) =>
  (take: Effect.Effect<ChainEvent>): Effect.Effect<Exclude<ChainEvent, { readonly _tag: T }>> => {
    const next: Effect.Effect<Exclude<ChainEvent, { readonly _tag: T }>> = Effect.flatMap(take, (event) =>
      event._tag === tag ? next : Effect.succeed(event as Exclude<ChainEvent, { readonly _tag: T }>)
    )
    return next
  }

/** Blocks a slow subscriber may lag before the producer waits for it (bounded memory, no drops). */
const CAPACITY = 1024

export class ChainEvents extends Context.Service<ChainEvents, ChainEventsService>()("movenode/chain/ChainEvents") {
  static readonly layer = Layer.effect(
    ChainEvents,
    Effect.gen(function* () {
      const pubsub = yield* PubSub.bounded<ChainEvent>(CAPACITY)
      yield* Effect.addFinalizer(() => PubSub.shutdown(pubsub))
      const subscription = Effect.map(PubSub.subscribe(pubsub), (s) => PubSub.take(s))
      return ChainEvents.of({
        publish: (event) => Effect.asVoid(PubSub.publish(pubsub, event)),
        subscription,
        poolSubscription: Effect.map(subscription, skipping("Marked")),
        ledgerSubscription: Effect.map(subscription, skipping("Dropped")),
        stream: Stream.fromPubSub(pubsub)
      })
    })
  )
}
