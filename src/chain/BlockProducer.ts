/**
 * Block production: one block at a time (a semaphore serialises the mining loop and on-demand
 * calls, as anvil's single `BlockProducer`). A block is made from the latest committed state:
 *
 *   metadata (epoch from the chain, next round, the validator as proposer, a timestamp from
 *   `Clock` strictly after the chain's) → `executeBlock` (prologue, pool's best transactions,
 *   block end) → `Ledger.commitBlock` (atomic) → mempool maintenance → `ChainEvents`.
 *
 * `BlockProducer.loop` is the mining loop for the configured `MiningMode`, a scoped background
 * fiber (`Layer.effectDiscard` + `forkScoped`): it stops with its layer.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Semaphore from "effect/Semaphore"
import { BcsWriter } from "../bcs/index.js"
import { hashWithPrefix } from "../domain/hash.js"
import type { BlockMetadata, Randomness } from "../domain/Transaction.js"
import type { WriteSet } from "../domain/WriteSet.js"
import { type BlockInfo, Ledger } from "../ledger/Ledger.js"
import { stateViewFromReader } from "../move/vm/StateView.js"
import { ChainUnavailable } from "./ChainError.js"
import { ChainEvents } from "./ChainEvents.js"
import { ChainVm } from "./ChainVm.js"
import { BlockExecutionFailure, executeBlockSteps } from "./executeBlock.js"
import { Mempool } from "./Mempool.js"
import type { CommittedSender } from "./mempool/TxPool.js"
import * as Option from "effect/Option"
import { ChainClock, ChainClockService } from "./controls/ChainClock.js"
import { MiningMode } from "./MiningMode.js"
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
  /** What timestamp the next block gets (the time controls change it; `controls/ChainClock.ts`). */
  readonly clock: ChainClock
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
  if (interval === undefined || metadata.timestampUsecs - configuration.lastReconfigurationTimeUsec >= interval) return undefined
  return {
    epoch: metadata.epoch,
    round: metadata.round,
    blockId: metadata.id,
    timestamp: metadata.timestampUsecs,
    randomness: hashWithPrefix("movenode::BlockRandomness", metadata.id)
  }
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

      const make = (allowEmpty: boolean): Effect.Effect<BlockInfo | undefined, ChainUnavailable> =>
        Effect.gen(function* () {
          const candidates = mempool.best(config.maxBlockTransactions, config.maxBlockBytes)
          if (!allowEmpty && candidates.length === 0) return undefined
          const info = yield* ledger.ledgerInfo
          const state = yield* ledger.stateAt(info.ledgerVersion)
          const configuration = decodeConfiguration(state.get(ConfigKeys.configuration))
          const validator = decodeFirstValidator(state.get(ConfigKeys.validatorSet))
          const chainTime = decodeTimestamp(state.get(ConfigKeys.timestamp))
          if (configuration === undefined || validator === undefined || chainTime === undefined)
            return yield* unavailable(
              "cannot make blocks: the chain has no readable reconfiguration::Configuration, active validator or timestamp"
            )
          const previous = yield* lastRound
          const round = previous.epoch === configuration.epoch ? previous.round + 1n : 1n
          const nowUsec = (yield* Clock.currentTimeNanos) / 1000n
          const timestampUsec = clock.nextBlockTimestamp(chainTime, nowUsec)
          const metadata: BlockMetadata = {
            id: blockIdOf(configuration.epoch, round, timestampUsec, info.ledgerVersion),
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
            stateViewFromReader(state, info.ledgerVersion),
            info.ledgerVersion,
            metadata,
            validator.index,
            candidates,
            blockRandomness(state, configuration, metadata)
          )
          // Each slice runs inside this fiber (a fork's state reads find their miss log through it):
          // as many steps (transactions) as the turn's budget allows, then the next turn. One Effect
          // per slice, not per transaction (the runtime's own cost showed per transaction).
          const nextStep = () => steps.next()
          const slice = () => {
            for (;;) {
              const step = blockBudget.timed(nextStep)
              if (step.done === true || !blockBudget.hasBudget()) return step
            }
          }
          const execution = yield* Effect.gen(function* () {
            for (;;) {
              const step = yield* Effect.try({
                try: slice,
                catch: (e) =>
                  unavailable(e instanceof BlockExecutionFailure ? e.message : `block execution failed: ${String(e)}`)
              })
              if (step.done === true) return step.value
              yield* Effect.promise(() => blockBudget.nextTurn())
            }
          })
          const block = yield* ledger.commitBlock({
            epoch: configuration.epoch,
            timestampUsec,
            transactions: execution.transactions
          })
          last = { epoch: configuration.epoch, round }
          const next = new Map<string, bigint>()
          for (const e of execution.committed)
            if (e.replay._tag === "SequenceNumber") next.set(e.senderKey, e.replay.sequenceNumber + 1n)
          const senders: CommittedSender[] = [...next].map(([senderKey, nextSequenceNumber]) => ({
            senderKey,
            nextSequenceNumber
          }))
          const dropped = yield* mempool.afterBlock({
            senders,
            committed: execution.committed.map((e) => e.hashKey),
            discarded: execution.discarded.map((d) => d.entry.hashKey),
            chainTimeSecs: timestampUsec / 1_000_000n
          })
          yield* events.publish({
            _tag: "BlockCommitted",
            block,
            // The block metadata is at firstVersion; the kept user transactions follow in order.
            committed: execution.committed.map((e, i) => ({
              hashKey: e.hashKey,
              version: block.firstVersion + 1n + BigInt(i)
            })),
            discarded: execution.discarded.map((d) => ({ hashKey: d.entry.hashKey, status: d.status })),
            dropped: dropped.map((e) => e.hashKey)
          })
          return block
        }).pipe(
          Effect.catchTags({
            VersionNotFound: (e) => Effect.fail(unavailable(`ledger: ${e._tag}`)),
            VersionPruned: (e) => Effect.fail(unavailable(`ledger: ${e._tag}`)),
            BlockPruned: (e) => Effect.fail(unavailable(`ledger: ${e._tag}`)),
            BlockNotFound: (e) => Effect.fail(unavailable(`ledger: ${e._tag}`)),
            TransactionNotFound: (e) => Effect.fail(unavailable(`ledger: ${e._tag}`)),
            StorageError: (e) => Effect.fail(unavailable(`ledger: ${e.message}`))
          }),
          Semaphore.withPermit(permit)
        )

      const commitChanges = (writeSet: WriteSet): Effect.Effect<BlockInfo, ChainUnavailable> =>
        Effect.gen(function* () {
          const info = yield* ledger.ledgerInfo
          const block = yield* ledger.commitBlock({
            epoch: info.epoch,
            timestampUsec: info.ledgerTimestampUsec,
            transactions: [
              {
                transaction: { _tag: "GenesisTransaction", payload: { _tag: "Direct", changeSet: { writeSet, events: [] } } },
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
          yield* events.publish({ _tag: "BlockCommitted", block, committed: [], discarded: [], dropped: dropped.map((e) => e.hashKey) })
          return block
        }).pipe(
          Effect.mapError((e) => unavailable(`ledger: ${e._tag === "StorageError" ? e.message : e._tag}`)),
          Semaphore.withPermit(permit)
        )

      return BlockProducer.of({
        commitChanges,
        produce: Effect.map(make(true), (b) => b!),
        produceIfReady: make(false),
        clock,
        exclusive: (effect) =>
          Effect.ensuring(
            effect,
            Effect.sync(() => {
              last = undefined
            })
          ).pipe(Semaphore.withPermit(permit))
      })
    })
  )

  /** The mining loop for `BlockProducerConfig.mining` (nothing in Manual mode). */
  static readonly loop: Layer.Layer<never, never, BlockProducer | Mempool> = Layer.effectDiscard(
    Effect.gen(function* () {
      const producer = yield* BlockProducer
      const mempool = yield* Mempool
      // What must keep up with the chain (its in-process indexer) may hold the next block a while.
      const gate = Option.getOrUndefined(yield* Effect.serviceOption(ProductionGate))
      const { mining, maxBlockTransactions } = yield* BlockProducerConfig
      // A failure is logged and retried after a pause, so a broken VM does not spin the loop; so is
      // a defect (a bug must not stop block production for good). Interruption ends the loop.
      const guarded = <A>(effect: Effect.Effect<A, ChainUnavailable>) =>
        Effect.catchCause(effect, (cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.andThen(Effect.logError(`block production failed: ${Cause.pretty(cause)}`), Effect.sleep(1000))
        )
      if (mining._tag === "Instant") {
        const idle = mining.idleBlockMs
        // Idle blocks: an empty block when no transaction came for `idleBlockMs`.
        const awaitWork: Effect.Effect<boolean> =
          idle === undefined
            ? Effect.as(mempool.awaitReady, true)
            : Effect.race(Effect.as(mempool.awaitReady, true), Effect.as(Effect.sleep(idle), false))
        yield* Effect.forkScoped(
          Effect.forever(
            Effect.gen(function* () {
              if (!(yield* awaitWork)) {
                yield* guarded(producer.produce)
                return
              }
              // The delay gathers a burst into one block; cut short when a client waits for a
              // pending transaction (wait_by_hash), and not waited when a full block is already
              // pooled (under load: the next block starts as soon as the last one is committed).
              if (mempool.size() < maxBlockTransactions)
                yield* Effect.race(Effect.sleep(mining.delayMs), mempool.awaitWanted)
              if (gate !== undefined) yield* gate.beforeBlock
              yield* guarded(producer.produceIfReady)
            })
          )
        )
      }
      else if (mining._tag === "Interval")
        yield* Effect.forkScoped(
          Effect.forever(Effect.andThen(Effect.sleep(mining.intervalMs), guarded(producer.produce)))
        )
    })
  )
}
