/**
 * The local chain's test controls (anvil's `anvil_*` / `evm_*`, Hardhat's network helpers;
 * devchain.md §2–§3), as one service over the chain's parts. Every control answers an `ApiError`
 * in the contract's terms, so the HTTP surface (`src/http`, `/__movenode/v1/…`) and `LocalChain`'s
 * methods say the same thing.
 *
 *   snapshot ──► Snapshots: { ledger mark, clock settings, pending transactions }
 *   revert(id) ─► BlockProducer.exclusive: Ledger.rewind.rewindTo(mark) → Mempool.clear
 *                 → clock restored → ChainEvents "Rewound" → the pending transactions resubmitted
 *   reset ─────► the same, to the genesis mark (every snapshot forgotten)
 *   mine / time / epoch ─► ChainClock settings, then BlockProducer.produce
 *
 * What rewinds runs while no block is being made, so a block never lands on a ledger being cut.
 */
import type { NonEmptyArray, NonEmptyReadonlyArray } from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { toHex } from "../../bcs/hex.js"
import { Bcs } from "../../bcs/index.js"
import { ApiError, ApiErrors } from "../../domain/ApiError.js"
import { signedTransactionCodec } from "../../domain/PayloadCodec.js"
import { type BlockInfo, Ledger, type LedgerMark, type LedgerRewind } from "../../ledger/Ledger.js"
import type { LedgerError } from "../../ledger/LedgerError.js"
import { BlockProducer } from "../BlockProducer.js"
import { ChainEvents } from "../ChainEvents.js"
import { Mempool } from "../Mempool.js"
import { pooledTransaction } from "../mempool/pooledTransaction.js"
import { hashKeyOf, type PoolEntry } from "../mempool/TxPool.js"
import type { ClockSettings } from "./ChainClock.js"
import { ConfigKeys, decodeConfiguration } from "../onChainConfig.js"
import { nextEpochTimestamp } from "./nextEpochTimestamp.js"
import { Snapshots } from "./Snapshots.js"
import { decodeChainDump, type DumpedBlock, encodeChainDump } from "./chainDump.js"
import * as Result from "effect/Result"
import {
  type AccountAddress,
  addressEquals,
  addressFromNumber,
  addressToLongString
} from "../../domain/AccountAddress.js"
import type { StateKey } from "../../domain/StateKey.js"
import type { StructTag } from "../../domain/TypeTag.js"
import { structTagToString } from "../../domain/TypeTagString.js"
import type { StateReader } from "../../ledger/Ledger.js"
import type { CompiledModule } from "../../move/binary/CompiledModule.js"
import { deserializeModule } from "../../move/binary/deserialize.js"
import { jsonToBcs } from "../../move/json/jsonToBcs.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { resolveLayout } from "../../move/layout/resolveLayout.js"
import { accountSequenceNumber } from "../accountSequenceNumber.js"
import { Faucet } from "../Faucet.js"
import type { MiningMode } from "../MiningMode.js"
import { type MiningRequest, miningModeProblem, resolveMiningRequest } from "./MiningSwitch.js"
import { APT_COIN, planBalance } from "./balanceEdits.js"
import { Impersonation } from "./Impersonation.js"
import { keylessPublishTransaction } from "./keylessPublishTransaction.js"
import { editAccount, type KeyEdit, keyBytesOf, resourcePlace, withMember, writeSetOf } from "./stateEdits.js"

const APT_METADATA = addressFromNumber(0xa)
const ACCOUNT: StructTag = { address: addressFromNumber(1), module: "account", name: "Account", typeArgs: [] }

/** What `GET /__movenode/v1/time` reports. All times in µs since the Unix epoch. */
export interface ChainTime {
  /** The last block's timestamp (`timestamp::now_microseconds` on chain). */
  readonly chainUsec: bigint
  /** The timestamp the next block would get now. */
  readonly nextBlockUsec: bigint
  /** How far the chain's clock runs ahead of the wall clock (time travel). */
  readonly offsetUsec: bigint
  readonly nextBlockTimestampUsec: bigint | undefined
  readonly blockIntervalUsec: bigint | undefined
  readonly epoch: bigint
  /** The first timestamp at which a block starts the next epoch. */
  readonly nextEpochUsec: bigint | undefined
}

/**
 * The snapshot ids an error names: all of a few, else how many and the latest (a suite that takes a
 * snapshot per test and never reverts some holds thousands; the answer stays a line).
 */
const heldText = (ids: ReadonlyArray<bigint>): string =>
  ids.length === 0
    ? "none"
    : ids.length <= 10
      ? ids.join(", ")
      : `${ids.length}, the latest ${ids.slice(-10).join(", ")}`

/** The ledger's end after a control (snapshot id where one was taken). */
export interface ChainPosition {
  readonly version: bigint
  readonly height: bigint
  readonly timestampUsec: bigint
  readonly epoch: bigint
}

export interface MineOptions {
  /** Blocks to make (1..MAX_MINE_BLOCKS). */
  readonly blocks: number
  /** Fixed step between their timestamps; undefined = the clock's usual rule. */
  readonly intervalUsec?: bigint | undefined
}

/** Most blocks one `mine` call makes (each is a VM run and a commit: bounded work per request). */
export const MAX_MINE_BLOCKS = 10_000
/** The largest time jump accepted (about 31,700 years: far beyond any test, far below u64 µs). */
export const MAX_TIME_JUMP_USEC = 1_000_000_000_000_000n

export interface ChainControlsService {
  /** Where the ledger ends now. */
  readonly position: Effect.Effect<ChainPosition, ApiError>
  readonly snapshot: Effect.Effect<bigint, ApiError>
  /** Back to snapshot `id` (used up, with every later one). */
  readonly revert: (id: bigint) => Effect.Effect<ChainPosition, ApiError>
  /** Back to genesis: every block after it, the pool, the clock's settings and all snapshots go. */
  readonly reset: Effect.Effect<ChainPosition, ApiError>
  readonly snapshotIds: () => ReadonlyArray<bigint>
  /** The blocks made, in order: at least one (`blocks` outside 1..MAX_MINE_BLOCKS is a 400). */
  readonly mine: (options: MineOptions) => Effect.Effect<NonEmptyReadonlyArray<BlockInfo>, ApiError>
  readonly time: Effect.Effect<ChainTime, ApiError>
  /** Moves the clock ahead by `deltaUsec`; with `mine`, makes a block at the new time. */
  readonly increaseTime: (deltaUsec: bigint, mine: boolean) => Effect.Effect<ChainTime, ApiError>
  /** The next block's timestamp (must be after the chain's). */
  readonly setNextBlockTimestamp: (timestampUsec: bigint) => Effect.Effect<ChainTime, ApiError>
  /** "Now" from here on (blocks stay after the chain's last one whatever it is). */
  readonly setTime: (timestampUsec: bigint) => Effect.Effect<ChainTime, ApiError>
  /** A fixed step per block; undefined = the wall clock (plus the offset). */
  readonly setBlockInterval: (intervalUsec: bigint | undefined) => Effect.Effect<ChainTime, ApiError>
  /** One block at the first timestamp that reconfigures: a new epoch (stake and lockups settle there). */
  readonly advanceEpoch: Effect.Effect<BlockInfo, ApiError>

  /** When blocks are made now (`MiningSwitch.ts`). */
  readonly mining: () => MiningMode
  /**
   * Changes when blocks are made, at once (anvil's `evm_setAutomine`, `evm_setIntervalMining`):
   * instant, at an interval, or only when mined by hand. Answers the mode now.
   */
  readonly setMining: (request: MiningRequest) => Effect.Effect<MiningMode, ApiError>
  /**
   * The pending transactions (anvil's `txpool_content`): how many, and the first `limit` in arrival
   * order, each with whether it would go in the next block (not parked behind a sequence-number gap).
   */
  readonly pendingTransactions: (limit: number) => PendingTransactions
  /**
   * Takes one pending transaction out of the pool (anvil's `anvil_dropTransaction`): it will not
   * commit, and a client waiting for it is answered as for an unknown hash. 404 when it is not
   * pending (never was, or already committed). Answers the dropped hash keys.
   */
  readonly dropTransaction: (hashKey: string) => Effect.Effect<ReadonlyArray<string>, ApiError>
  /**
   * Takes every pending transaction of `sender` out of the pool (anvil's
   * `anvil_removePoolTransactions`); answers the dropped hash keys (none: an empty list).
   */
  readonly dropSenderTransactions: (sender: AccountAddress) => Effect.Effect<ReadonlyArray<string>, ApiError>
  /** Empties the pool (anvil's `anvil_dropAllTransactions`); answers the dropped hash keys. */
  readonly dropAllTransactions: Effect.Effect<ReadonlyArray<string>, ApiError>

  /** Impersonation (see `Impersonation.ts`): key-less transactions accepted for these addresses. */
  readonly impersonate: (address: AccountAddress) => Effect.Effect<void, ApiError>
  readonly stopImpersonating: (address: AccountAddress) => Effect.Effect<void, ApiError>
  readonly setAutoImpersonate: (enabled: boolean) => Effect.Effect<void, ApiError>
  readonly impersonation: () => { readonly auto: boolean; readonly addresses: ReadonlyArray<string> }

  /**
   * State edits: each a committed transaction of its own (a write-set transaction, the API's
   * `genesis_transaction` type), so reads at earlier versions still see the old values.
   */
  readonly setBalance: (request: BalanceRequest) => Effect.Effect<EditAnswer & { readonly supply: string }, ApiError>
  readonly setResource: (
    address: AccountAddress,
    type: StructTag,
    value: ResourceValue | undefined
  ) => Effect.Effect<EditAnswer, ApiError>
  readonly setTableItem: (
    handle: AccountAddress,
    key: Uint8Array,
    value: Uint8Array | undefined
  ) => Effect.Effect<EditAnswer, ApiError>
  readonly setStateValue: (key: StateKey, value: Uint8Array | undefined) => Effect.Effect<EditAnswer, ApiError>
  readonly setAccount: (
    address: AccountAddress,
    changes: { readonly sequenceNumber?: bigint | undefined; readonly authenticationKey?: Uint8Array | undefined }
  ) => Effect.Effect<EditAnswer, ApiError>
  /** The whole chain after genesis, with the clock's settings, as one file (`chainDump.ts`). */
  readonly dump: Effect.Effect<Uint8Array, ApiError>
  /**
   * Replaces the chain after genesis with a dump of a chain on the same genesis, in one atomic
   * step; the pool is emptied, snapshots are forgotten, the clock is the dump's.
   */
  readonly load: (bytes: Uint8Array) => Effect.Effect<ChainPosition, ApiError>
  /** Publishes a package at `address` without its key (an impersonated `code::publish_package_txn`). */
  readonly publish: (
    address: AccountAddress,
    metadata: Uint8Array,
    modules: ReadonlyArray<Uint8Array>
  ) => Effect.Effect<EditAnswer & { readonly hash: string }, ApiError>
}

export interface PendingTransactions {
  /** Every transaction the pool holds. */
  readonly count: number
  /** The first of them in arrival order (at most the limit asked). */
  readonly transactions: ReadonlyArray<{ readonly entry: PoolEntry; readonly ready: boolean }>
}

/** The most pending transactions one listing names (the pool holds up to 100,000 by default). */
export const MAX_PENDING_LISTED = 1000

export interface BalanceRequest {
  readonly address: AccountAddress
  readonly amount: bigint
  /** The fungible asset's metadata address; undefined = APT (0xa, with its CoinStore<AptosCoin>). */
  readonly asset?: AccountAddress | undefined
}

/** A resource's new value: JSON read through its type's layout, or its BCS bytes. */
export type ResourceValue =
  | { readonly _tag: "Json"; readonly value: unknown }
  | { readonly _tag: "Bcs"; readonly bytes: Uint8Array }

/** Where an edit landed. */
export interface EditAnswer {
  readonly version: bigint
  readonly height: bigint
}

interface Snapshot {
  readonly mark: LedgerMark
  readonly clock: ClockSettings
  readonly pending: ReadonlyArray<PoolEntry>
}

const fromLedger = (e: LedgerError): ApiError =>
  e._tag === "StorageError"
    ? ApiErrors.internal(`ledger: ${e.message}`)
    : e._tag === "VersionPruned"
      ? ApiErrors.badRequest(
          `the ledger no longer holds version ${e.version} (pruned): the snapshot cannot be restored`
        )
      : ApiErrors.internal(`ledger: ${e._tag}`)

const wallUsec = () => BigInt(Date.now()) * 1000n

export class ChainControls extends Context.Service<ChainControls, ChainControlsService>()(
  "movenode/chain/ChainControls"
) {
  static readonly layer: Layer.Layer<
    ChainControls,
    never,
    Ledger | BlockProducer | Mempool | ChainEvents | Impersonation | Faucet
  > = Layer.effect(
    ChainControls,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const producer = yield* BlockProducer
      const mempool = yield* Mempool
      const events = yield* ChainEvents
      const impersonation = yield* Impersonation
      const faucet = yield* Faucet
      const clock = producer.clock
      const snapshots = new Snapshots<Snapshot>()
      let genesisMark: LedgerMark | undefined

      const rewind: Effect.Effect<LedgerRewind, ApiError> = Effect.suspend(() =>
        ledger.rewind === undefined
          ? Effect.fail(
              new ApiError({
                status: 403,
                code: "api_disabled",
                message: "this chain's ledger cannot go back (no rewind)"
              })
            )
          : Effect.succeed(ledger.rewind)
      )

      const position: Effect.Effect<ChainPosition, ApiError> = Effect.map(
        Effect.mapError(ledger.ledgerInfo, fromLedger),
        (i) => ({
          version: i.ledgerVersion,
          height: i.blockHeight,
          timestampUsec: i.ledgerTimestampUsec,
          epoch: i.epoch
        })
      )

      const produce = Effect.mapError(producer.produce, (e) => ApiErrors.internal(`cannot make a block: ${e.message}`))

      /** Rewinds to `mark` with the pool emptied and the clock restored, then resubmits `pending`. */
      const goBack = (
        r: LedgerRewind,
        mark: LedgerMark,
        settings: ClockSettings,
        pending: ReadonlyArray<PoolEntry>,
        reason: "revert" | "reset" | "load"
      ) =>
        Effect.gen(function* () {
          yield* producer.exclusive(
            Effect.gen(function* () {
              yield* Effect.mapError(r.rewindTo(mark), fromLedger)
              const dropped = mempool.clear()
              clock.restore(settings)
              yield* events.publish({
                _tag: "Rewound",
                reason,
                version: mark.version,
                height: mark.height,
                dropped: dropped.map(hashKeyOf)
              })
            })
          )
          // The faucet's mint delegation is part of the chain: gone if the chain went back to before it
          // (a reset to genesis), so it is made again (nothing happens when the chain still has it).
          yield* faucet.redelegate
          // What was pending at the snapshot is pending again (when it still validates).
          for (const e of pending) yield* Effect.ignore(mempool.submit(pooledTransaction(e), e.signedBcs))
          return yield* position
        })

      const snapshot = Effect.gen(function* () {
        const r = yield* rewind
        return yield* producer.exclusive(
          Effect.gen(function* () {
            const mark = yield* Effect.mapError(r.mark, fromLedger)
            const id = snapshots.add({ mark, clock: clock.current, pending: mempool.pending() })
            yield* events.publish({ _tag: "Marked", version: mark.version })
            return id
          })
        )
      })

      const revert = (id: bigint) =>
        Effect.gen(function* () {
          const r = yield* rewind
          const s = snapshots.take(id)
          if (s === undefined)
            return yield* ApiErrors.badRequest(
              `no snapshot ${id}: ids are used once, and reverting discards later snapshots (held: ${heldText(snapshots.ids())})`
            )
          return yield* goBack(r, s.mark, s.clock, s.pending, "revert")
        })

      const reset = Effect.gen(function* () {
        const r = yield* rewind
        genesisMark ??= yield* Effect.mapError(r.markAtHeight(0n), fromLedger)
        snapshots.clear()
        return yield* goBack(
          r,
          genesisMark,
          { offsetUsec: 0n, nextUsec: undefined, intervalUsec: undefined },
          [],
          "reset"
        )
      })

      const time = Effect.gen(function* () {
        const info = yield* Effect.mapError(ledger.ledgerInfo, fromLedger)
        const state = yield* Effect.mapError(ledger.stateAt(info.ledgerVersion), fromLedger)
        const s = clock.current
        return {
          chainUsec: info.ledgerTimestampUsec,
          nextBlockUsec: clock.peek(info.ledgerTimestampUsec, wallUsec()),
          offsetUsec: s.offsetUsec,
          nextBlockTimestampUsec: s.nextUsec,
          blockIntervalUsec: s.intervalUsec,
          epoch: info.epoch,
          nextEpochUsec: nextEpochTimestamp(state, info.ledgerTimestampUsec)
        } satisfies ChainTime
      })

      const chainUsec = Effect.map(Effect.mapError(ledger.ledgerInfo, fromLedger), (i) => i.ledgerTimestampUsec)

      const mine = (options: MineOptions) =>
        Effect.gen(function* () {
          if (!Number.isSafeInteger(options.blocks) || options.blocks < 1 || options.blocks > MAX_MINE_BLOCKS)
            return yield* ApiErrors.badRequest(`blocks: expected 1..${MAX_MINE_BLOCKS}, got ${options.blocks}`)
          const interval = options.intervalUsec
          if (interval !== undefined && (interval < 1n || interval > MAX_TIME_JUMP_USEC))
            return yield* ApiErrors.badRequest(`interval: expected 1 µs..${MAX_TIME_JUMP_USEC} µs, got ${interval}`)
          const next = Effect.gen(function* () {
            if (interval !== undefined) clock.setNext((yield* chainUsec) + interval)
            return yield* produce
          })
          const made: NonEmptyArray<BlockInfo> = [yield* next]
          for (let i = 1; i < options.blocks; i++) made.push(yield* next)
          return made
        })

      const increaseTime = (deltaUsec: bigint, mine: boolean) =>
        Effect.gen(function* () {
          if (deltaUsec < 0n || deltaUsec > MAX_TIME_JUMP_USEC)
            return yield* ApiErrors.badRequest(
              `time only moves forward: expected 0..${MAX_TIME_JUMP_USEC} µs, got ${deltaUsec}`
            )
          clock.increase(deltaUsec)
          if (mine) yield* produce
          return yield* time
        })

      const setNextBlockTimestamp = (timestampUsec: bigint) =>
        Effect.gen(function* () {
          const now = yield* chainUsec
          if (timestampUsec <= now || timestampUsec > now + MAX_TIME_JUMP_USEC)
            return yield* ApiErrors.badRequest(
              `the next block's timestamp must be after the chain's (${now} µs) and at most ${MAX_TIME_JUMP_USEC} µs later, got ${timestampUsec}`
            )
          clock.setNext(timestampUsec)
          return yield* time
        })

      const setTime = (timestampUsec: bigint) =>
        Effect.gen(function* () {
          const now = yield* chainUsec
          if (timestampUsec > now + MAX_TIME_JUMP_USEC)
            return yield* ApiErrors.badRequest(
              `at most ${MAX_TIME_JUMP_USEC} µs after the chain's clock, got ${timestampUsec}`
            )
          clock.setNow(timestampUsec, wallUsec())
          return yield* time
        })

      const setBlockInterval = (intervalUsec: bigint | undefined) =>
        Effect.gen(function* () {
          if (intervalUsec !== undefined && (intervalUsec < 1n || intervalUsec > MAX_TIME_JUMP_USEC))
            return yield* ApiErrors.badRequest(
              `interval: expected 1 µs..${MAX_TIME_JUMP_USEC} µs or none, got ${intervalUsec}`
            )
          clock.setInterval(intervalUsec)
          return yield* time
        })

      /** The on-chain epoch (`0x1::reconfiguration::Configuration`) at the latest version. */
      const onChainEpoch = Effect.gen(function* () {
        const info = yield* Effect.mapError(ledger.ledgerInfo, fromLedger)
        const state = yield* Effect.mapError(ledger.stateAt(info.ledgerVersion), fromLedger)
        return { info, state, epoch: decodeConfiguration(state.get(ConfigKeys.configuration))?.epoch }
      })

      const advanceEpoch = Effect.gen(function* () {
        const before = yield* onChainEpoch
        const due = nextEpochTimestamp(before.state, before.info.ledgerTimestampUsec)
        if (due === undefined || before.epoch === undefined)
          return yield* ApiErrors.internal(
            "cannot read 0x1::reconfiguration::Configuration or 0x1::block::BlockResource"
          )
        // Later than `due` if the clock already is (a block made now reconfigures anyway).
        const now = clock.peek(before.info.ledgerTimestampUsec, wallUsec())
        clock.setNext(now > due ? now : due)
        const block = yield* produce
        const after = yield* onChainEpoch
        // (An idle block made meanwhile may have been the one that reconfigured: the epoch moved all the same.)
        if (after.epoch === undefined || after.epoch <= before.epoch)
          return yield* ApiErrors.internal(
            `the block at ${block.timestampUsec} µs did not start a new epoch (still ${after.epoch})`
          )
        return block
      })

      // ---- mining and the pool

      const setMining = (request: MiningRequest) =>
        Effect.suspend(() => {
          const mode = resolveMiningRequest(request, producer.mining.instantSettings)
          const problem = miningModeProblem(mode)
          if (problem !== undefined) return Effect.fail(ApiErrors.badRequest(problem))
          producer.mining.set(mode)
          return Effect.succeed(producer.mining.current)
        })

      const pendingTransactions = (limit: number): PendingTransactions => {
        const all = mempool.pending()
        const n = Math.max(0, Math.min(limit, MAX_PENDING_LISTED))
        return {
          count: all.length,
          transactions: all.slice(0, n).map((entry) => ({ entry, ready: mempool.isReady(entry.hashKey) }))
        }
      }

      /** Drops while no block is being made: one in flight settles first (its transactions commit). */
      const announceDropped = (take: () => ReadonlyArray<PoolEntry>) =>
        producer.exclusive(
          Effect.gen(function* () {
            const dropped = take().map(hashKeyOf)
            if (dropped.length > 0) yield* events.publish({ _tag: "Dropped", dropped })
            return dropped
          })
        )

      const dropTransaction = (hashKey: string) =>
        Effect.flatMap(
          announceDropped(() => {
            const e = mempool.drop(hashKey)
            return e === undefined ? [] : [e]
          }),
          (dropped) =>
            dropped.length > 0
              ? Effect.succeed(dropped)
              : Effect.fail(
                  new ApiError({
                    status: 404,
                    code: "transaction_not_found",
                    message: `Transaction not found by Transaction hash(0x${hashKey}): not pending`
                  })
                )
        )

      const dropSenderTransactions = (sender: AccountAddress) =>
        announceDropped(() => {
          const key = toHex(sender)
          const out: PoolEntry[] = []
          for (const e of mempool.pending())
            if (e.senderKey === key && mempool.drop(e.hashKey) !== undefined) out.push(e)
          return out
        })

      const dropAllTransactions = announceDropped(() => mempool.clear())

      // ---- impersonation

      const impersonate = (address: AccountAddress) => Effect.sync(() => impersonation.start(address))
      const stopImpersonating = (address: AccountAddress) => Effect.sync(() => impersonation.stop(address))
      const setAutoImpersonate = (enabled: boolean) => Effect.sync(() => impersonation.setAuto(enabled))

      // ---- state edits

      const latestState = Effect.gen(function* () {
        const info = yield* Effect.mapError(ledger.ledgerInfo, fromLedger)
        return yield* Effect.mapError(ledger.stateAt(info.ledgerVersion), fromLedger)
      })

      /** Commits `edits` as one write-set transaction (nothing to change: no transaction). */
      const commitEdits = (edits: ReadonlyArray<KeyEdit>) =>
        Effect.gen(function* () {
          const state = yield* latestState
          const writeSet = writeSetOf(state, edits)
          if (writeSet.entries.length === 0) {
            const p = yield* position
            return { version: p.version, height: p.height }
          }
          const block = yield* Effect.mapError(producer.commitChanges(writeSet), (e) =>
            ApiErrors.internal(`cannot commit the edit: ${e.message}`)
          )
          return { version: block.lastVersion, height: block.height }
        })

      const modulesAt = (state: StateReader): ModuleSource => {
        const cache = new Map<string, CompiledModule | undefined>()
        return (address, name) => {
          const k = `${Buffer.from(address).toString("hex")}::${name}`
          if (cache.has(k)) return cache.get(k)
          const bytes = state.get(
            keyBytesOf({ _tag: "AccessPath", address, path: { _tag: "Code", module: { address, name } } })
          )
          const m = bytes === undefined ? undefined : Result.getOrUndefined(deserializeModule(bytes))
          cache.set(k, m)
          return m
        }
      }

      const setResource = (address: AccountAddress, type: StructTag, value: ResourceValue | undefined) =>
        Effect.gen(function* () {
          const state = yield* latestState
          const modules = modulesAt(state)
          const place = resourcePlace(modules, address, type)
          if (typeof place === "string") return yield* ApiErrors.badRequest(`${structTagToString(type)}: ${place}`)
          let bytes: Uint8Array | undefined
          if (value?._tag === "Bcs") bytes = value.bytes
          else if (value?._tag === "Json") {
            const layout = resolveLayout(modules, { _tag: "struct", struct: type })
            if (Result.isFailure(layout))
              return yield* ApiErrors.badRequest(`${structTagToString(type)}: ${layout.failure.message}`)
            const encoded = jsonToBcs(layout.success, value.value)
            if (Result.isFailure(encoded))
              return yield* ApiErrors.badRequest(`${structTagToString(type)}: ${encoded.failure.message}`)
            bytes = encoded.success
          }
          if (place.group === undefined) return yield* commitEdits([{ key: place.key, value: bytes }])
          const group = withMember(state.get(keyBytesOf(place.key)), type, bytes)
          if (group === "undecodable")
            return yield* ApiErrors.internal(`the resource group holding ${structTagToString(type)} does not decode`)
          return yield* commitEdits([{ key: place.key, value: group }])
        })

      const setTableItem = (handle: AccountAddress, key: Uint8Array, value: Uint8Array | undefined) =>
        commitEdits([{ key: { _tag: "TableItem", handle, key }, value }])

      const setStateValue = (key: StateKey, value: Uint8Array | undefined) => commitEdits([{ key, value }])

      const setAccount = (
        address: AccountAddress,
        changes: { readonly sequenceNumber?: bigint | undefined; readonly authenticationKey?: Uint8Array | undefined }
      ) =>
        Effect.gen(function* () {
          if (changes.authenticationKey !== undefined && changes.authenticationKey.length !== 32)
            return yield* ApiErrors.badRequest("authentication_key: expected 32 bytes")
          const state = yield* latestState
          const key: StateKey = { _tag: "AccessPath", address, path: { _tag: "Resource", struct: ACCOUNT } }
          const bytes = state.get(keyBytesOf(key))
          if (bytes === undefined) {
            // A stateless account (no Account resource yet, as the framework allows): create the
            // resource the framework's account::create_account would, with the changes applied.
            const addr = addressToLongString(address)
            return yield* setResource(address, ACCOUNT, {
              _tag: "Json",
              value: {
                authentication_key: `0x${Buffer.from(changes.authenticationKey ?? address).toString("hex")}`,
                sequence_number: `${changes.sequenceNumber ?? 0n}`,
                guid_creation_num: "2",
                coin_register_events: { counter: "0", guid: { id: { creation_num: "0", addr } } },
                key_rotation_events: { counter: "0", guid: { id: { creation_num: "1", addr } } },
                rotation_capability_offer: { for: { vec: [] } },
                signer_capability_offer: { for: { vec: [] } }
              }
            })
          }
          const edited = editAccount(bytes, changes)
          if (typeof edited === "string") return yield* ApiErrors.internal(edited)
          return yield* commitEdits([{ key, value: edited }])
        })

      const setBalance = (request: BalanceRequest) =>
        Effect.gen(function* () {
          const metadata = request.asset ?? APT_METADATA
          const coin = request.asset === undefined || addressEquals(request.asset, APT_METADATA) ? APT_COIN : undefined
          const plan = planBalance(yield* latestState, request.address, metadata, coin, request.amount)
          if (plan === "no-store") {
            if (coin === undefined)
              return yield* ApiErrors.badRequest(
                `${addressToLongString(request.address)} has no primary store of ${addressToLongString(metadata)}: it must receive the asset once before its balance can be set`
              )
            if (request.amount === 0n) {
              const p = yield* position
              return { version: p.version, height: p.height, supply: "unchanged" }
            }
            // No store yet: the faucet mints the amount (the framework creates the store; the supply grows with it).
            yield* Effect.mapError(faucet.fund(request.address, request.amount), (e) =>
              ApiErrors.internal(`the faucet could not fund ${addressToLongString(request.address)}: ${e.message}`)
            )
            const block = yield* produce
            return {
              version: block.lastVersion,
              height: block.height,
              supply: "grew by the amount (minted by the faucet)"
            }
          }
          if (typeof plan === "string") return yield* ApiErrors.internal(plan)
          const at = yield* commitEdits(plan.edits)
          return { ...at, supply: plan.supply }
        })

      const publish = (address: AccountAddress, metadata: Uint8Array, modules: ReadonlyArray<Uint8Array>) =>
        Effect.gen(function* () {
          if (modules.length === 0) return yield* ApiErrors.badRequest("modules: at least one module")
          const state = yield* latestState
          const info = yield* Effect.mapError(ledger.ledgerInfo, fromLedger)
          const time = clock.peek(info.ledgerTimestampUsec, wallUsec())
          const txn = keylessPublishTransaction({
            sender: address,
            sequenceNumber: accountSequenceNumber(state, address),
            metadata,
            modules,
            chainId: info.chainId,
            expirationSecs: time / 1_000_000n + 600n
          })
          const was = impersonation.isImpersonated(address)
          impersonation.start(address)
          const submitted = yield* Effect.ensuring(
            Effect.gen(function* () {
              const entry = yield* Effect.mapError(mempool.submit(txn, Bcs.encode(signedTransactionCodec, txn)), (e) =>
                ApiErrors.badRequest(
                  `the publish transaction was refused: ${e._tag === "InvalidTransaction" ? e.statusName : e.message}`
                )
              )
              yield* produce
              return entry
            }),
            Effect.sync(() => {
              if (!was) impersonation.stop(address)
            })
          )
          const committed = yield* Effect.mapError(ledger.transactionByHash(submitted.hash), () =>
            ApiErrors.internal("the publish transaction was not committed (discarded by the VM)")
          )
          if (committed.outcome.status._tag !== "Success")
            return yield* ApiErrors.badRequest(`publishing failed: ${committed.outcome.vmStatus}`)
          return {
            version: committed.version,
            height: committed.blockHeight,
            hash: `0x${Buffer.from(committed.hash).toString("hex")}`
          }
        })

      // ---- dump and load

      /**
       * What a dump's first block continues (`chainDump.ts`): genesis on a chain of its own; on a
       * fork, the fork point (its history up to V is its source's, read from it: a dump holds the
       * fork's own blocks, which load into a fork of the same point).
       */
      const dumpBase = Effect.gen(function* () {
        let version = 0n
        let height = 0n
        if (ledger.firstOwnVersion !== undefined) {
          const r = yield* rewind
          genesisMark ??= yield* Effect.mapError(r.markAtHeight(0n), fromLedger)
          version = genesisMark.version
          height = genesisMark.height
        }
        const at = yield* Effect.mapError(ledger.transactionByVersion(version), fromLedger)
        return { version, height, hash: at.hash }
      })
      const baseText = (version: bigint) =>
        version === 0n ? "a chain from its genesis" : `a fork at version ${version}`

      const dump = producer.exclusive(
        Effect.gen(function* () {
          const base = yield* dumpBase
          const info = yield* Effect.mapError(ledger.ledgerInfo, fromLedger)
          if (info.oldestLedgerVersion > base.version)
            return yield* ApiErrors.badRequest(
              `the ledger was pruned below version ${info.oldestLedgerVersion}: a dump needs the whole history (start without --prune-window)`
            )
          const blocks: DumpedBlock[] = []
          for (let h = base.height + 1n; h <= info.blockHeight; h++) {
            const b = yield* Effect.mapError(ledger.blockByHeight(h), fromLedger)
            const transactions = yield* Effect.mapError(
              ledger.transactionsFrom(b.firstVersion, Number(b.lastVersion - b.firstVersion + 1n)),
              fromLedger
            )
            blocks.push({ epoch: b.epoch, timestampUsec: b.timestampUsec, transactions })
          }
          return encodeChainDump({ chainId: info.chainId, base, clock: clock.current }, blocks)
        })
      )

      const load = (bytes: Uint8Array) =>
        Effect.gen(function* () {
          const r = yield* rewind
          const decoded = decodeChainDump(bytes)
          if (typeof decoded === "string") return yield* ApiErrors.badRequest(decoded)
          const info = yield* Effect.mapError(ledger.ledgerInfo, fromLedger)
          if (decoded.chainId !== info.chainId)
            return yield* ApiErrors.badRequest(`the dump is of chain ${decoded.chainId}, this chain is ${info.chainId}`)
          const base = yield* dumpBase
          if (decoded.base.version !== base.version)
            return yield* ApiErrors.badRequest(
              `the dump was made on ${baseText(decoded.base.version)}, this chain is ${baseText(base.version)}: load it into a chain started the same way`
            )
          if (Buffer.compare(decoded.base.hash, base.hash) !== 0)
            return yield* ApiErrors.badRequest(
              base.version === 0n
                ? "the dump was made on another genesis (another seed, accounts, balances or epoch length): start the chain with the same settings"
                : `the dump was made on a fork of another chain (its transaction at version ${base.version} differs): fork the same source at the same version`
            )
          genesisMark ??= yield* Effect.mapError(r.markAtHeight(0n), fromLedger)
          const mark = genesisMark
          snapshots.clear()
          yield* producer.exclusive(
            Effect.gen(function* () {
              yield* Effect.mapError(r.replaceAfter(mark, decoded.blocks), (e) =>
                e._tag === "StorageError" ? ApiErrors.badRequest(`the dump does not load: ${e.message}`) : fromLedger(e)
              )
              const dropped = mempool.clear()
              clock.restore(decoded.clock)
              yield* events.publish({
                _tag: "Rewound",
                reason: "load",
                version: mark.version,
                height: mark.height,
                dropped: dropped.map(hashKeyOf)
              })
            })
          )
          yield* faucet.redelegate
          return yield* position
        })

      return ChainControls.of({
        dump,
        load,
        position,
        snapshot,
        revert,
        reset,
        snapshotIds: () => snapshots.ids(),
        mine,
        time,
        increaseTime,
        setNextBlockTimestamp,
        setTime,
        setBlockInterval,
        advanceEpoch,
        mining: () => producer.mining.current,
        setMining,
        pendingTransactions,
        dropTransaction,
        dropSenderTransactions,
        dropAllTransactions,
        impersonate,
        stopImpersonating,
        setAutoImpersonate,
        impersonation: () => ({ auto: impersonation.auto(), addresses: impersonation.addresses() }),
        setBalance,
        setResource,
        setTableItem,
        setStateValue,
        setAccount,
        publish
      })
    })
  )
}
