/**
 * The mempool service (reth's pool behind its validator): admission, lookups and the
 * maintenance block production drives. Admission follows the reference's order
 * (mempool/src/shared_mempool/tasks.rs `process_incoming_transactions`): a sequence number below
 * the sender's on-chain one is refused with SEQUENCE_NUMBER_TOO_OLD before anything else; then
 * the VM validates (signature, prologue) on the latest committed state, where
 * SEQUENCE_NUMBER_TOO_NEW means "park it", not "refuse it"; then the pool inserts (limits,
 * updates, its own knowledge of the sender's sequence number). With an `AdmissionThread` (a ledger
 * in a data directory) the VM's validation of single-key Ed25519 submissions runs on its worker
 * thread; the sequence-number check, impersonation and the pool stay here.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { SignedTransaction } from "../domain/Transaction.js"
import { Ledger, type StateReader } from "../ledger/Ledger.js"
import { stateViewFromReader } from "../move/vm/StateView.js"
import { accountSequenceNumber } from "./accountSequenceNumber.js"
import * as Option from "effect/Option"
import { Impersonation } from "./controls/Impersonation.js"
import {
  ChainUnavailable,
  ImpersonationRefused,
  InvalidTransaction,
  InvalidTransactionUpdate,
  MempoolFull,
  SequenceNumberTooOld,
  type SubmitError
} from "./ChainError.js"
import { ChainVm } from "./ChainVm.js"
import { MempoolConfig } from "./mempool/MempoolConfig.js"
import { replayProtectorOf } from "../domain/ReplayProtector.js"
import { poolEntryOf } from "./mempool/poolEntryOf.js"
import { preverifySignature } from "./mempool/preverifySignature.js"
import { SubmissionRate } from "./mempool/SubmissionRate.js"
import { AdmissionThread, type AdmissionVerdict } from "./mempool/AdmissionThread.js"
import { ed25519SignerOf } from "../execution/signatures/ed25519Signer.js"
import { ed25519VerifiedCheck, knownSignatureCheck } from "../execution/verifySignature.js"
import { statusName } from "../move/vm/StatusCode.js"
import type { ValidationResult } from "./ChainVm.js"
import { blockBudget, TurnBudget } from "./TurnBudget.js"
import { type BlockInFlightTxns, type CommittedSender, type PoolEntry, TxPool } from "./mempool/TxPool.js"

/** StatusCode 3 and 4 (types/src/vm_status.rs). */
export const SEQUENCE_NUMBER_TOO_OLD = { code: 3n, name: "SEQUENCE_NUMBER_TOO_OLD" } as const
const SEQUENCE_NUMBER_TOO_NEW = 4n

export interface MempoolService {
  /**
   * Validates and pools a submitted transaction; `signedBcs` is its BCS (as received). Succeeds
   * with the pooled entry (for an identical resubmission, the one already pooled).
   */
  readonly submit: (transaction: SignedTransaction, signedBcs: Uint8Array) => Effect.Effect<PoolEntry, SubmitError>
  /** A pending transaction by its hash (lowercase hex, no 0x). */
  readonly byHash: (hashKey: string) => PoolEntry | undefined
  /** Up to `limit` ready transactions in block order, past a block in flight (see `TxPool.best`). */
  readonly best: (limit: number, maxBytes?: number, after?: BlockInFlightTxns) => ReadonlyArray<PoolEntry>
  /**
   * Waits until at least one transaction is ready (immediately if one is) past `after`, a block in
   * flight, when given (`best` would give one). With `after`, it also returns at the next
   * transaction made ready, whichever it is: the block in flight may be gone by then (committed,
   * or rewound with the ledger), and the caller looks again.
   */
  readonly awaitReady: (after?: BlockInFlightTxns) => Effect.Effect<void>
  /**
   * A client waits for this pending transaction (wait_by_hash): Instant mining stops waiting out
   * its delay. Nothing happens for a hash the pool does not hold.
   */
  readonly want: (hashKey: string) => void
  /** Whether a client waits for a transaction still in the pool (see `want`). */
  readonly wanted: () => boolean
  /**
   * Waits until `want` is called for a pooled transaction (immediately if one a block in flight,
   * `after`, did not take is wanted already).
   */
  readonly awaitWanted: (after?: BlockInFlightTxns) => Effect.Effect<void>
  /**
   * After a block: forget what it committed or discarded, promote what follows, drop the expired
   * but what `taken` names (the transactions of the next block, made over this one while it
   * committed: `TxPool.gc`).
   */
  readonly afterBlock: (update: {
    readonly senders: ReadonlyArray<CommittedSender>
    readonly committed: ReadonlyArray<string>
    readonly discarded: ReadonlyArray<string>
    readonly chainTimeSecs: bigint
    readonly taken?: ReadonlySet<string> | undefined
  }) => Effect.Effect<ReadonlyArray<PoolEntry>>
  readonly size: () => number
  /** Every pooled transaction, in arrival order (snapshots keep them). */
  readonly pending: () => ReadonlyArray<PoolEntry>
  /**
   * Empties the pool and what it knew of senders (the ledger went back: revert, reset, load);
   * returns what it held. Clients waiting for those transactions are not woken: they time out.
   */
  readonly clear: () => ReadonlyArray<PoolEntry>
  /**
   * Removes one pending transaction (the controls' drop, anvil's `anvil_dropTransaction`); later
   * ones of its sender wait for the gap to fill. Returns it, or undefined when the pool does not
   * hold it. Announcing it (`ChainEvents` "Dropped") is the caller's.
   */
  readonly drop: (hashKey: string) => PoolEntry | undefined
  /** Whether a pooled transaction would go in a block now (not parked behind a sequence-number gap). */
  readonly isReady: (hashKey: string) => boolean
  /** The next sequence number for `senderKey` given its on-chain one (see `TxPool.nextSequenceNumber`). */
  readonly nextSequenceNumber: (senderKey: string, onChain: bigint) => bigint
}

/** A worker's verdict on a submission and the state it was made on (`StateReader.version`, `.generation`). */
interface WorkerChecked {
  readonly verdict: AdmissionVerdict
  readonly version: bigint
  readonly generation: number | undefined
}

export class Mempool extends Context.Service<Mempool, MempoolService>()("movenode/chain/Mempool") {
  static readonly layer: Layer.Layer<Mempool, never, Ledger | ChainVm> = Layer.effect(
    Mempool,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const vm = yield* ChainVm
      const config = yield* MempoolConfig
      // Key-less transactions are the test controls' impersonation: refused with a clear error for
      // addresses the chain does not impersonate (without the controls, the signature check refuses them).
      const impersonation = Option.getOrUndefined(yield* Effect.serviceOption(Impersonation))
      const pool = new TxPool(config)
      const waiting = new Set<() => void>()
      const wake = () => {
        if (waiting.size === 0) return
        const all = [...waiting]
        waiting.clear()
        for (const resume of all) resume()
      }

      // Over an LMDB ledger: validation on a worker thread (mempool/AdmissionThread.ts).
      const worker = Option.getOrUndefined(yield* Effect.serviceOption(AdmissionThread))

      const rate = new SubmissionRate()

      const submit = (transaction: SignedTransaction, signedBcs: Uint8Array): Effect.Effect<PoolEntry, SubmitError> => {
        // Slow enough: validated at once, here (MempoolConfig.offThreadFromPerSecond).
        if (rate.tick(performance.now()) < config.offThreadFromPerSecond) return admitInBudget(transaction, signedBcs)
        // The common single-key Ed25519 kinds, signed (not impersonated): validated by the worker.
        if (
          worker !== undefined &&
          ed25519SignerOf(transaction) !== undefined &&
          impersonation?.verdict(transaction)._tag !== "Impersonated"
        )
          return Effect.flatMap(latestState, (state) =>
            Effect.flatMap(
              Effect.callback<AdmissionVerdict | undefined>((resume) => {
                const taken = worker.submit(signedBcs, state.version, (verdict) => resume(Effect.succeed(verdict)))
                if (!taken) resume(Effect.succeed(undefined))
              }),
              (verdict) =>
                verdict === undefined
                  ? inThread(transaction, signedBcs)
                  : admitInBudget(transaction, signedBcs, {
                      verdict,
                      version: state.version,
                      generation: state.generation
                    })
            )
          )
        return inThread(transaction, signedBcs)
      }

      const inThread = (
        transaction: SignedTransaction,
        signedBcs: Uint8Array
      ): Effect.Effect<PoolEntry, SubmitError> => {
        // The signature's curve equation first, on the thread pool (see preverifySignature).
        const preverified = preverifySignature(transaction)
        return preverified === undefined
          ? admitInBudget(transaction, signedBcs)
          : Effect.andThen(
              Effect.promise(() => preverified),
              admitInBudget(transaction, signedBcs)
            )
      }

      const latestState = Effect.mapError(
        Effect.flatMap(ledger.ledgerInfo, (info) => ledger.stateAt(info.ledgerVersion)),
        (e) => new ChainUnavailable({ message: `cannot read the latest state: ${e._tag}` })
      )

      /**
       * The validation a worker's verdict stands for, when it was made on the state `admit` reads
       * (the same version, no rewind since): a commit in between makes it one block older, which
       * the reference's own mempool validation allows too (its pool validates against the latest
       * state it has; the block decides). After a rewind it is validated again here.
       */
      const workerValidation = (checked: WorkerChecked, state: StateReader): ValidationResult | undefined => {
        if (checked.generation !== state.generation || checked.version > state.version) return undefined
        const { status } = checked.verdict
        if (status === undefined) return { _tag: "Valid" }
        const name = statusName(status)
        return name === undefined ? undefined : { _tag: "Invalid", status: { code: BigInt(status), name } }
      }

      /**
       * `admit` (synchronous: the prologue on the latest state, the pool) run within a turn budget:
       * a flood of submissions is admitted a few ms per turn, so sockets are read and connections
       * accepted in between (TurnBudget.ts). One queue, in arrival order.
       *
       * Backpressure: while the pool (with the admissions still queued) holds `backpressureAt` or
       * more and a block is being made (its slices ran within `blockActivityWindowMs`, 100 ms by
       * default: with interval or manual mining, between blocks, nothing competes and admissions run
       * at full speed), the budget is 0.5 ms of admissions per turn instead of 4 ms, so the turns go
       * to block production, which is what empties the pool. Submitters wait longer for their
       * answer instead of filling their sender's 100 places and being refused 507 (each refusal
       * having cost a whole admission). The smaller budget is that of the same queue (until
       * 09:45 UTC on 2026-11-28 it was a second queue in front of this one, which a turn whose 4 ms
       * were already spent let the whole burst through at the larger budget).
       */
      const admissions: TurnBudget = new TurnBudget(() =>
        pool.size + admissions.waiting >= config.backpressureAt && blockBudget.usedWithin(config.blockActivityWindowMs)
          ? 0.5
          : 4
      )

      const admitInBudget = (
        transaction: SignedTransaction,
        signedBcs: Uint8Array,
        checked?: WorkerChecked
      ): Effect.Effect<PoolEntry, SubmitError> =>
        // Run with the fiber's own services (its Clock: a test's TestClock), synchronously inside the budget.
        Effect.contextWith((context: Context.Context<never>) =>
          Effect.callback<PoolEntry, SubmitError>((resume) => {
            admissions.run(() => resume(Effect.runSyncExitWith(context)(admit(transaction, signedBcs, checked))))
          })
        )

      const admit = (
        transaction: SignedTransaction,
        signedBcs: Uint8Array,
        checked: WorkerChecked | undefined
      ): Effect.Effect<PoolEntry, SubmitError> =>
        Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
          Effect.flatMap(latestState, (state) => admitOn(state, transaction, signedBcs, checked, nowMs))
        )

      /**
       * `admit` once it has the time and the state: a function made once, not a body per submission
       * (docs/architecture.md, "Hot loops live in functions made once").
       */
      const admitOn = (
        state: StateReader,
        transaction: SignedTransaction,
        signedBcs: Uint8Array,
        checked: WorkerChecked | undefined,
        nowMs: number
      ): Effect.Effect<PoolEntry, SubmitError> => {
        const raw = transaction.rawTransaction
        const replay = replayProtectorOf(raw)
        let onChain = 0n
        if (replay._tag === "SequenceNumber") {
          onChain = accountSequenceNumber(state, raw.sender)
          if (replay.sequenceNumber < onChain)
            return Effect.fail(
              new InvalidTransaction({
                statusCode: SEQUENCE_NUMBER_TOO_OLD.code,
                statusName: SEQUENCE_NUMBER_TOO_OLD.name
              })
            )
        }
        if (impersonation !== undefined) {
          const verdict = impersonation.verdict(transaction)
          if (verdict._tag === "Refused") return Effect.fail(new ImpersonationRefused({ message: verdict.message }))
        }
        const byWorker = checked === undefined ? undefined : workerValidation(checked, state)
        const validation = byWorker ?? vm.validate(stateViewFromReader(state, state.version), transaction)
        if (validation._tag === "Invalid" && validation.status.code !== SEQUENCE_NUMBER_TOO_NEW)
          return Effect.fail(
            new InvalidTransaction({ statusCode: validation.status.code, statusName: validation.status.name })
          )
        // The signature check goes with the bytes, and the block's execution of the copy it decodes
        // takes it (`ExecuteOptions.signatureCheck`): the worker's verification of this transaction's
        // bytes, or the check validation made here.
        const signatureCheck =
          byWorker === undefined
            ? knownSignatureCheck(transaction)
            : checked?.verdict.signatureVerified === true
              ? ed25519VerifiedCheck(transaction)
              : undefined
        const entry = poolEntryOf(transaction, signedBcs, nowMs, signatureCheck, replay)
        const inserted = pool.insert(entry, onChain)
        switch (inserted._tag) {
          case "Accepted":
            if (inserted.ready) wake()
            return Effect.succeed(inserted.entry)
          case "InvalidSeqNumber":
            return Effect.fail(new SequenceNumberTooOld({ message: inserted.message }))
          case "InvalidUpdate":
            return Effect.fail(new InvalidTransactionUpdate({ message: inserted.message }))
          case "MempoolIsFull":
          case "TooManyTransactions":
            return Effect.fail(new MempoolFull({ message: inserted.message }))
        }
      }

      /** Hashes clients wait for; an entry leaves when its transaction leaves the pool. */
      const wantedHashes = new Set<string>()
      const wantWaiting = new Set<() => void>()
      const wanted = (after?: BlockInFlightTxns) => {
        let past = false
        for (const h of wantedHashes)
          if (pool.byHash(h) === undefined) wantedHashes.delete(h)
          else if (after?.hashKeys.has(h) !== true) past = true
        return past
      }
      const want = (hashKey: string) => {
        if (pool.byHash(hashKey) === undefined) return
        wantedHashes.add(hashKey)
        if (wantWaiting.size === 0) return
        const all = [...wantWaiting]
        wantWaiting.clear()
        for (const resume of all) resume()
      }
      /** Resumes on the next call of one of `resumers`' members (then forgotten). */
      const nextSignal = (resumers: Set<() => void>): Effect.Effect<void> =>
        Effect.callback<void>((resume) => {
          const r = () => resume(Effect.void)
          resumers.add(r)
          return Effect.sync(() => {
            resumers.delete(r)
          })
        })

      const awaitWanted = (after?: BlockInFlightTxns): Effect.Effect<void> =>
        Effect.suspend(() => (wanted(after) ? Effect.void : nextSignal(wantWaiting)))

      const awaitReady = (after?: BlockInFlightTxns): Effect.Effect<void> =>
        Effect.suspend(() =>
          (after === undefined ? pool.hasReady() : pool.best(1, Number.POSITIVE_INFINITY, after).length > 0)
            ? Effect.void
            : nextSignal(waiting)
        )

      return Mempool.of({
        submit,
        byHash: (hashKey) => pool.byHash(hashKey),
        best: (limit, maxBytes, after) => pool.best(limit, maxBytes, after),
        awaitReady,
        want,
        wanted,
        awaitWanted,
        afterBlock: ({ senders, committed, discarded, chainTimeSecs, taken }) =>
          Effect.map(Clock.currentTimeMillis, (nowMs) => {
            pool.onCommitted(senders, committed)
            for (const hashKey of discarded) pool.remove(hashKey)
            return pool.gc(chainTimeSecs, nowMs, taken)
          }),
        size: () => pool.size,
        pending: () => pool.entries(),
        clear: () => {
          wantedHashes.clear()
          return pool.clear()
        },
        drop: (hashKey) => {
          wantedHashes.delete(hashKey)
          return pool.remove(hashKey)
        },
        isReady: (hashKey) => pool.isReadyNow(hashKey),
        nextSequenceNumber: (senderKey, onChain) => pool.nextSequenceNumber(senderKey, onChain)
      })
    })
  )
}
