/**
 * Block production: one block at a time (a semaphore serialises the mining loop and on-demand
 * calls, as anvil's single `BlockProducer`). A block is made from the latest committed state:
 *
 *   metadata (epoch from the chain, next round, the validator as proposer, a timestamp from
 *   `Clock` strictly after the chain's) → `executeBlock` (prologue, pool's best transactions,
 *   block end) → `Ledger.commitBlock` (atomic) → mempool maintenance → `ChainEvents`.
 *
 * The mining loop pipelines (`produceNext`): once a block's records are queued to the store, the
 * next block executes over that block's writes while its commit and fsync run, as the
 * reference's consensus pipeline executes a block over its parent's uncommitted output. Commits
 * stay in order and one at a time, and a block is announced only once durable; the pool changes
 * only then, so a transaction in flight still reads as pending.
 *
 * `BlockProducer.loop` is the mining loop for the configured `MiningMode`, a scoped background
 * fiber (`Layer.effectDiscard` + `forkScoped`): it stops with its layer.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Semaphore from "effect/Semaphore"
import { BcsWriter } from "../bcs/index.js"
import { hashWithPrefix } from "../domain/hash.js"
import type { BlockMetadata, Randomness } from "../domain/Transaction.js"
import type { WriteSet } from "../domain/WriteSet.js"
import { OverlayStateView } from "../execution/OverlayStateView.js"
import { type BlockInfo, Ledger, type StateReader } from "../ledger/Ledger.js"
import type { LedgerError } from "../ledger/LedgerError.js"
import { hasMissed } from "../ledger/stateMisses.js"
import { type StateView, stateViewFromReader } from "../move/vm/StateView.js"
import { ChainUnavailable } from "./ChainError.js"
import { ChainEvents } from "./ChainEvents.js"
import { ChainVm } from "./ChainVm.js"
import { type BlockExecution, BlockExecutionFailure, executeBlockSteps } from "./executeBlock.js"
import { Mempool } from "./Mempool.js"
import { type BlockInFlightTxns, type CommittedSender, hashKeyOf, type PoolEntry } from "./mempool/TxPool.js"
import * as Option from "effect/Option"
import { ChainClock, ChainClockService } from "./controls/ChainClock.js"
import { MiningSwitch } from "./controls/MiningSwitch.js"
import { type InstantMining, MiningMode } from "./MiningMode.js"
import { ProductionGate } from "./ProductionGate.js"
import {
  ConfigKeys,
  decodeBlockResource,
  decodeConfiguration,
  decodeFirstValidator,
  decodeRandomnessEnabled,
  decodeTimestamp
} from "./onChainConfig.js"
import { blockBudget } from "./TurnBudget.js"

export interface BlockProducerConfigShape {
  readonly mining: MiningMode
  /** User transactions per block at most (the reference's quorum store pulls up to a few thousand). */
  readonly maxBlockTransactions: number
  /** Their BCS bytes per block at most. */
  readonly maxBlockBytes: number
}

export const defaultBlockProducerConfig: BlockProducerConfigShape = {
  mining: MiningMode.instant(),
  // Bounded so that committing one block (hashes, records, LMDB puts: on the event loop) stays a
  // short turn: under a flood, blocks of 2,000 held the loop for hundreds of ms (issue 22). The
  // next block starts as soon as this one is committed, so throughput barely depends on it.
  maxBlockTransactions: 250,
  maxBlockBytes: 4 * 1024 * 1024
}

export const BlockProducerConfig = Context.Reference<BlockProducerConfigShape>("movenode/chain/BlockProducerConfig", {
  defaultValue: () => defaultBlockProducerConfig
})

export interface BlockProducerService {
  /** Makes one block now, with whatever is ready (maybe none): the library's "mine". */
  readonly produce: Effect.Effect<BlockInfo, ChainUnavailable>
  /** Makes one block if a transaction is ready; undefined otherwise. */
  readonly produceIfReady: Effect.Effect<BlockInfo | undefined, ChainUnavailable>
  /**
   * The mining loop's step: makes one block if a transaction is ready past the block in flight,
   * and returns once its records are queued to the store, not once they are durable. The block is
   * announced (`ChainEvents`) once durable, as every block; meanwhile the next call executes the
   * next block on top of its writes, and commits only after it. `produce`, `produceIfReady`,
   * `exclusive` and `commitChanges` wait for the block in flight first.
   */
  readonly produceNext: Effect.Effect<void, ChainUnavailable>
  /** The pooled transactions the block in flight took, if one is (the mining loop waits for others). */
  readonly blockInFlight: () => BlockInFlightTxns | undefined
  /** What timestamp the next block gets (the time controls change it; `controls/ChainClock.ts`). */
  readonly clock: ChainClock
  /** When blocks are made: `BlockProducerConfig.mining` at first, changed by the controls (`controls/MiningSwitch.ts`). */
  readonly mining: MiningSwitch
  /**
   * Runs `effect` while no block is being made (the producer's own permit): what rewinds the
   * ledger (revert, reset, load) runs here, and the producer re-reads the chain afterwards.
   */
  readonly exclusive: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Commits `writeSet` as a block of one write-set transaction (`GenesisTransaction` with a direct
   * write set: the API's `genesis_transaction` type), at the chain's current timestamp (no block
   * metadata: the on-chain clock does not move). What the test controls' state edits commit.
   */
  readonly commitChanges: (writeSet: WriteSet) => Effect.Effect<BlockInfo, ChainUnavailable>
}

/** The block id (`BlockMetadata.id`, the API's `block_hash`): a hash of where the block sits. */
const blockIdOf = (epoch: bigint, round: bigint, timestampUsec: bigint, parentVersion: bigint): Uint8Array => {
  const w = new BcsWriter(32)
  w.u64(epoch)
  w.u64(round)
  w.u64(timestampUsec)
  w.u64(parentVersion)
  return hashWithPrefix("movenode::BlockId", w.toBytes())
}

const unavailable = (message: string) => new ChainUnavailable({ message })

/**
 * The block's randomness where the chain has randomness on (its `RandomnessConfig`: a fork of a
 * network that has it): the seed a validator set's DKG and VRF would give, here a hash of the block
 * id (deterministic, not secret: a test chain's), so `#[randomness]` entry functions draw as on
 * the source. Undefined with randomness off, and for a block that ends the epoch: with a seed the
 * framework's `block_prologue_ext` would start a DKG no validator finishes, so that block takes
 * the plain prologue, which reconfigures at once (docs/fork.md "Randomness").
 */
const blockRandomness = (
  state: { get: (key: Uint8Array) => Uint8Array | undefined },
  configuration: { readonly epoch: bigint; readonly lastReconfigurationTimeUsec: bigint },
  metadata: BlockMetadata
): Randomness | undefined => {
  if (!decodeRandomnessEnabled(state.get(ConfigKeys.randomnessConfig))) return undefined
  const interval = decodeBlockResource(state.get(ConfigKeys.blockResource))?.epochIntervalUsec
  if (interval === undefined || metadata.timestampUsecs - configuration.lastReconfigurationTimeUsec >= interval)
    return undefined
  return {
    epoch: metadata.epoch,
    round: metadata.round,
    blockId: metadata.id,
    timestamp: metadata.timestampUsecs,
    randomness: hashWithPrefix("movenode::BlockRandomness", metadata.id)
  }
}

/** A ledger failure as the chain reports it. */
const ledgerFailure = (e: LedgerError | ChainUnavailable): ChainUnavailable =>
  e._tag === "ChainUnavailable" ? e : unavailable(`ledger: ${e._tag === "StorageError" ? e.message : e._tag}`)

// Per-block arrays built by functions made once, not arrows made anew for each block
// (docs/architecture.md, "Hot loops live in functions made once").
const discardedKeyOf = (d: BlockExecution["discarded"][number]): string => d.entry.hashKey
const discardedOf = (d: BlockExecution["discarded"][number]) => ({ hashKey: d.entry.hashKey, status: d.status })
const committedSender = ([senderKey, nextSequenceNumber]: readonly [string, bigint]): CommittedSender => ({
  senderKey,
  nextSequenceNumber
})
/** The block's writes at the versions they get from `firstVersion` on (the next block's overlay). */
const writesFrom = (
  transactions: ReadonlyArray<{ readonly writeSet: WriteSet }>,
  firstVersion: bigint
): Array<{ writeSet: WriteSet; version: bigint }> => {
  const out = new Array<{ writeSet: WriteSet; version: bigint }>(transactions.length)
  for (let i = 0; i < transactions.length; i++)
    out[i] = { writeSet: transactions[i]!.writeSet, version: firstVersion + BigInt(i) }
  return out
}
/** The committed user transactions' versions: after the block metadata at `firstVersion`, in order. */
const committedVersions = (committed: ReadonlyArray<PoolEntry>, firstVersion: bigint) => {
  const out = new Array<{ hashKey: string; version: bigint }>(committed.length)
  for (let i = 0; i < committed.length; i++)
    out[i] = { hashKey: committed[i]!.hashKey, version: firstVersion + 1n + BigInt(i) }
  return out
}

/**
 * Runs a block's steps inside the calling fiber (a fork's state reads find their miss log through
 * it): as many steps (transactions) as the turn's budget allows, then the next turn. One Effect per
 * slice, not per transaction (the runtime's own cost showed per transaction).
 */
const executeInSlices = Effect.fnUntraced(function* (steps: ReturnType<typeof executeBlockSteps>) {
  const nextStep = () => steps.next()
  const slice = () => {
    for (;;) {
      const step = blockBudget.timed(nextStep)
      if (step.done === true || !blockBudget.hasBudget()) return step
    }
  }
  for (;;) {
    const step = yield* Effect.try({
      try: slice,
      catch: (e) => unavailable(e instanceof BlockExecutionFailure ? e.message : `block execution failed: ${String(e)}`)
    })
    if (step.done === true) return step.value
    yield* Effect.promise(() => blockBudget.nextTurn())
  }
})

/** What a block executes over. */
interface Parent {
  /** The committed state below `view` (the on-chain settings are read from it). */
  readonly state: StateReader
  /** `state`, with the block in flight's writes on top when there is one. */
  readonly view: StateView
  /** The version the block follows (its metadata's is the next). */
  readonly version: bigint
  readonly chainTime: bigint
  readonly configuration: NonNullable<ReturnType<typeof decodeConfiguration>>
  readonly validator: NonNullable<ReturnType<typeof decodeFirstValidator>>
}

/** A block executed and queued to the store, not yet durable (`produceNext`). */
interface BlockInFlight {
  /** Its commit, then the pool told and the block announced. */
  readonly tail: Fiber.Fiber<BlockInfo, ChainUnavailable>
  /** The pooled transactions it took (the next block's `best` leaves them out). */
  readonly txns: BlockInFlightTxns
  /** What the next block executes over: this one's writes on its parent's state. */
  readonly next: Parent
}

export class BlockProducer extends Context.Service<BlockProducer, BlockProducerService>()(
  "movenode/chain/BlockProducer"
) {
  static readonly layer: Layer.Layer<BlockProducer, never, Ledger | ChainVm | Mempool | ChainEvents> = Layer.effect(
    BlockProducer,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const vm = yield* ChainVm
      const mempool = yield* Mempool
      const events = yield* ChainEvents
      const config = yield* BlockProducerConfig
      const permit = Semaphore.makeUnsafe(1)
      const clock = Option.getOrElse(yield* Effect.serviceOption(ChainClockService), () => new ChainClock())
      const mining = new MiningSwitch(config.mining)
      // The (epoch, round) of the last block made; read from the ledger the first time.
      let last: { epoch: bigint; round: bigint } | undefined

      const lastRound = Effect.gen(function* () {
        if (last !== undefined) return last
        const info = yield* ledger.ledgerInfo
        const block = yield* ledger.blockByHeight(info.blockHeight)
        const first = yield* ledger.transactionByVersion(block.firstVersion)
        const t = first.transaction
        const m =
          t._tag === "BlockMetadata" ? t.metadata : t._tag === "BlockMetadataExt" ? t.metadata.metadata : undefined
        last = m === undefined ? { epoch: 0n, round: 0n } : { epoch: m.epoch, round: m.round }
        return last
      })

      /**
       * The block whose records are queued to the store but not yet durable (`produceNext`): the
       * next block executes over its writes while its commit and fsync run on lmdb-js's write
       * thread, and commits only once it is durable and announced. It fills the wait a full
       * block's durable commit left on the event loop (~20 % of a block's time under load,
       * docs/benchmarks.md, session 26).
       */
      let inFlight: BlockInFlight | undefined
      /**
       * The pooled transactions (hash keys) of the block being made over the block in flight: that
       * block's announcement must not drop them as expired while this one may commit them (it
       * leaves them to this block's own announcement, committed or discarded).
       */
      let taken: ReadonlySet<string> | undefined

      /**
       * Waits for the block in flight to be committed and announced. Its failure (a commit that did
       * not reach the disk) fails this wait, once; the block's transactions stay pooled.
       */
      const settle: Effect.Effect<void, ChainUnavailable> = Effect.suspend(() => {
        const f = inFlight
        if (f === undefined) return Effect.void
        // Forgotten once it ended, not when this wait is interrupted: the layer's finalizer still
        // waits for a commit under way when the chain stops.
        return Effect.flatMap(Effect.exit(Fiber.join(f.tail)), (exit) => {
          if (inFlight === f) inFlight = undefined
          return Exit.isSuccess(exit) ? Effect.void : Effect.failCause(exit.cause)
        })
      })

      /** `settle` for what must run with no block in flight whatever became of it (its failure was logged). */
      const settled: Effect.Effect<void> = Effect.catchCause(settle, () => Effect.void)

      /** What a block executes over when no block is in flight: the ledger's head. */
      const headParent: Effect.Effect<Parent, ChainUnavailable | LedgerError> = Effect.gen(function* () {
        const info = yield* ledger.ledgerInfo
        const state = yield* ledger.stateAt(info.ledgerVersion)
        const configuration = decodeConfiguration(state.get(ConfigKeys.configuration))
        const validator = decodeFirstValidator(state.get(ConfigKeys.validatorSet))
        const chainTime = decodeTimestamp(state.get(ConfigKeys.timestamp))
        if (configuration === undefined || validator === undefined || chainTime === undefined)
          return yield* unavailable(
            "cannot make blocks: the chain has no readable reconfiguration::Configuration, active validator or timestamp"
          )
        return {
          state,
          view: stateViewFromReader(state, info.ledgerVersion),
          version: info.ledgerVersion,
          chainTime,
          configuration,
          validator
        }
      })

      /**
       * Makes a block over the ledger's head or over the block in flight. `pipelined`: once its
       * records are queued, it is the block in flight and this returns undefined (the mining loop);
       * otherwise this returns once it is durable and announced.
       */
      const make: (allowEmpty: boolean, pipelined: boolean) => Effect.Effect<BlockInfo | undefined, ChainUnavailable> =
        Effect.fnUntraced(
          function* (allowEmpty: boolean, pipelined: boolean) {
            const previous = inFlight
            const candidates = mempool.best(config.maxBlockTransactions, config.maxBlockBytes, previous?.txns)
            taken = previous === undefined ? undefined : new Set(candidates.map(hashKeyOf))
            if (!allowEmpty && candidates.length === 0) {
              // Nothing past the block in flight: wait for it (not for more work: the loop does that).
              yield* settle
              return undefined
            }
            const parent = previous?.next ?? (yield* headParent)
            const { state, configuration, validator } = parent
            const previousRound = yield* lastRound
            const round = previousRound.epoch === configuration.epoch ? previousRound.round + 1n : 1n
            const nowUsec = (yield* Clock.currentTimeNanos) / 1000n
            const timestampUsec = clock.nextBlockTimestamp(parent.chainTime, nowUsec)
            const metadata: BlockMetadata = {
              id: blockIdOf(configuration.epoch, round, timestampUsec, parent.version),
              epoch: configuration.epoch,
              round,
              proposer: validator.address,
              previousBlockVotesBitvec: new Uint8Array(0),
              failedProposerIndices: [],
              timestampUsecs: timestampUsec
            }
            // In slices of the event loop's turn budget: other turns read sockets, admit
            // submissions and accept connections between two slices (TurnBudget.ts).
            const steps = executeBlockSteps(
              vm,
              parent.view,
              parent.version,
              metadata,
              validator.index,
              candidates,
              blockRandomness(state, configuration, metadata)
            )
            const execution = yield* executeInSlices(steps)
            // The parent is committed and announced before this block is committed.
            if (previous !== undefined) yield* settle
            const head = yield* ledger.ledgerInfo
            if (head.ledgerVersion !== parent.version)
              return yield* unavailable(
                `the ledger is at version ${head.ledgerVersion}, the block was made on ${parent.version}`
              )
            last = { epoch: configuration.epoch, round }
            const next = new Map<string, bigint>()
            for (const e of execution.committed)
              if (e.replay._tag === "SequenceNumber") next.set(e.senderKey, e.replay.sequenceNumber + 1n)
            const tail = commitAndAnnounce(execution, next, configuration.epoch, timestampUsec)
            // Committed here, not in flight: a block that ends the epoch (the next one needs the new
            // epoch's settings), and a run that read state a fork has not fetched yet (its ledger
            // refuses the commit, and this run must fail for it to be run again: src/fork/StateMisses.ts).
            if (!pipelined || execution.epochEnded || hasMissed()) return yield* tail
            // In flight: the next block executes over this one's writes, at the versions they get, on
            // the state this one follows (committed now: one layer of writes, never a stack of them).
            const below = yield* ledger.stateAt(parent.version)
            const firstVersion = parent.version + 1n
            const fiber = yield* Effect.forkDetach(tail, { startImmediately: true, uninterruptible: true })
            inFlight = {
              tail: fiber,
              txns: {
                hashKeys: new Set([...execution.committed.map(hashKeyOf), ...execution.discarded.map(discardedKeyOf)]),
                nextSequenceNumbers: next
              },
              next: {
                state: below,
                view: new OverlayStateView(
                  stateViewFromReader(below, parent.version),
                  writesFrom(execution.transactions, firstVersion)
                ),
                version: parent.version + BigInt(execution.transactions.length),
                chainTime: timestampUsec,
                configuration,
                validator
              }
            }
            return undefined
          },
          (effect) => effect.pipe(Effect.mapError(ledgerFailure), Semaphore.withPermit(permit))
        )

      /**
       * Commits an executed block, then tells the pool and announces it: the block in flight's
       * fiber, or inline. On failure the next block re-reads its round from the ledger.
       */
      const commitAndAnnounce: (
        execution: BlockExecution,
        next: ReadonlyMap<string, bigint>,
        epoch: bigint,
        timestampUsec: bigint
      ) => Effect.Effect<BlockInfo, ChainUnavailable> = Effect.fnUntraced(
        function* (execution: BlockExecution, next: ReadonlyMap<string, bigint>, epoch: bigint, timestampUsec: bigint) {
          const block = yield* ledger.commitBlock({ epoch, timestampUsec, transactions: execution.transactions })
          const senders: CommittedSender[] = [...next].map(committedSender)
          const dropped = yield* mempool.afterBlock({
            senders,
            committed: execution.committed.map(hashKeyOf),
            discarded: execution.discarded.map(discardedKeyOf),
            chainTimeSecs: timestampUsec / 1_000_000n,
            taken
          })
          yield* events.publish({
            _tag: "BlockCommitted",
            block,
            // The block metadata is at firstVersion; the kept user transactions follow in order.
            committed: committedVersions(execution.committed, block.firstVersion),
            discarded: execution.discarded.map(discardedOf),
            dropped: dropped.map(hashKeyOf)
          })
          return block
        },
        (effect) =>
          effect.pipe(
            Effect.mapError(ledgerFailure),
            Effect.tapCause((cause) =>
              Effect.sync(() => {
                last = undefined
              }).pipe(
                Effect.andThen(
                  // A fork's block that read state not fetched yet is refused by design and executed
                  // again once the state is fetched (src/fork/StateMisses.ts): not a failure to report.
                  hasMissed()
                    ? Effect.logDebug(
                        "block not committed: it read fork state not fetched yet; executed again once fetched"
                      )
                    : Effect.logError(`block commit failed: ${Cause.pretty(cause)}`)
                )
              )
            )
          )
      )

      const commitChanges = (writeSet: WriteSet): Effect.Effect<BlockInfo, ChainUnavailable> =>
        Effect.gen(function* () {
          yield* settled
          const info = yield* ledger.ledgerInfo
          const block = yield* ledger.commitBlock({
            epoch: info.epoch,
            timestampUsec: info.ledgerTimestampUsec,
            transactions: [
              {
                transaction: {
                  _tag: "GenesisTransaction",
                  payload: { _tag: "Direct", changeSet: { writeSet, events: [] } }
                },
                writeSet,
                events: [],
                outcome: { gasUsed: 0n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }
              }
            ]
          })
          // An edit may change what pooled transactions can do (a sequence number, a balance): the
          // pool's usual maintenance, and the event every follower reads.
          const dropped = yield* mempool.afterBlock({
            senders: [],
            committed: [],
            discarded: [],
            chainTimeSecs: info.ledgerTimestampUsec / 1_000_000n
          })
          yield* events.publish({
            _tag: "BlockCommitted",
            block,
            committed: [],
            discarded: [],
            dropped: dropped.map(hashKeyOf)
          })
          return block
        }).pipe(Effect.mapError(ledgerFailure), Semaphore.withPermit(permit))

      // A block in flight when the chain stops is committed and announced before the ledger closes.
      yield* Effect.addFinalizer(() => settled)

      return BlockProducer.of({
        commitChanges,
        produce: Effect.map(make(true, false), (b) => b!),
        produceIfReady: make(false, false),
        produceNext: Effect.asVoid(make(false, true)),
        blockInFlight: () => inFlight?.txns,
        clock,
        mining,
        exclusive: (effect) =>
          Effect.ensuring(
            Effect.andThen(settled, effect),
            Effect.sync(() => {
              last = undefined
            })
          ).pipe(Semaphore.withPermit(permit))
      })
    })
  )

  /**
   * The mining loop: follows the producer's mining mode (`BlockProducer.mining`, which the controls
   * may change while it runs), re-read at every step. Instant: a block as soon as transactions are
   * ready (and idle blocks); Interval: a block every interval; Manual: none (only `produce` calls).
   */
  static readonly loop: Layer.Layer<never, never, BlockProducer | Mempool> = Layer.effectDiscard(
    Effect.gen(function* () {
      const producer = yield* BlockProducer
      const mempool = yield* Mempool
      // What must keep up with the chain (its in-process indexer) may hold the next block a while.
      const gate = Option.getOrUndefined(yield* Effect.serviceOption(ProductionGate))
      const { maxBlockTransactions } = yield* BlockProducerConfig
      const mining = producer.mining
      // A failure is logged and retried after a pause, so a broken VM does not spin the loop; so is
      // a defect (a bug must not stop block production for good). Interruption ends the loop.
      const guarded = <A>(effect: Effect.Effect<A, ChainUnavailable>) =>
        Effect.catchCause(effect, (cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.andThen(Effect.logError(`block production failed: ${Cause.pretty(cause)}`), Effect.sleep(1000))
        )
      // Work past the block in flight, if one is: its own transactions are still pooled.
      const ready = Effect.suspend(() => mempool.awaitReady(producer.blockInFlight()))

      /** What one step waits for before it makes a block: work, an idle block due, or a new mode. */
      type Wake = "work" | "idle" | "changed"
      const instantStep = (mode: InstantMining, changed: Effect.Effect<void>) =>
        Effect.gen(function* () {
          // Idle blocks: an empty block when no transaction came for `idleBlockMs`.
          const waits: Array<Effect.Effect<Wake>> = [Effect.as(ready, "work"), Effect.as(changed, "changed")]
          if (mode.idleBlockMs !== undefined) waits.push(Effect.as(Effect.sleep(mode.idleBlockMs), "idle"))
          const wake = yield* Effect.raceAll(waits)
          if (wake === "changed") return
          if (wake === "idle") {
            yield* guarded(producer.produce)
            return
          }
          // The delay gathers a burst into one block; cut short when a client waits for a
          // pending transaction (wait_by_hash), and not waited when a full block is already
          // pooled (under load: the next block starts as soon as the last one is committed).
          if (mempool.size() < maxBlockTransactions)
            yield* Effect.race(
              Effect.sleep(mode.delayMs),
              Effect.suspend(() => mempool.awaitWanted(producer.blockInFlight()))
            )
          if (gate !== undefined) yield* gate.beforeBlock
          yield* guarded(producer.produceNext)
        })

      // A block being made is never raced with a change of mode: only the waits before it are.
      const step = Effect.suspend((): Effect.Effect<void, ChainUnavailable> => {
        const changed = mining.changed
        const mode = mining.current
        switch (mode._tag) {
          case "Instant":
            return instantStep(mode, changed)
          case "Interval":
            return Effect.flatMap(
              Effect.raceAll([Effect.as(Effect.sleep(mode.intervalMs), true), Effect.as(changed, false)]),
              (due) => (due ? Effect.asVoid(guarded(producer.produce)) : Effect.void)
            )
          case "Manual":
            return changed
        }
      })
      yield* Effect.forkScoped(Effect.forever(step))
    })
  )
}
