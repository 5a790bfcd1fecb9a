/**
 * Submission and waiting: `POST /v1/transactions` (BCS or JSON), `POST /v1/transactions/batch`,
 * the pending half of `GET /v1/transactions/by_hash/{hash}` and the long poll of
 * `wait_by_hash` (local-chain.md §2.1, §2.3; the reference's api/src/transactions.rs).
 *
 * Order of checks as the reference's: the ledger info is read first (every answer, errors too,
 * carries its headers); the body is decoded (BCS with a depth limit, or the JSON request converted
 * with the on-chain ABI as encode_submission does) and its payload's format checked (400
 * `invalid_input`); then the mempool decides (`apiErrorFromChain`).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { Bcs, type BcsError, toHex } from "../bcs/index.js"
import { ChainEvents } from "../chain/ChainEvents.js"
import { Mempool } from "../chain/Mempool.js"
import { pooledTransaction } from "../chain/mempool/pooledTransaction.js"
import type { PoolEntry } from "../chain/mempool/TxPool.js"
import { ApiError, ApiErrors } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { signedTransactionCodec } from "../domain/PayloadCodec.js"
import type { SignedTransaction } from "../domain/Transaction.js"
import { Ledger } from "../ledger/Ledger.js"
import { apiErrorFromChain } from "./apiErrorFromChain.js"
import { makeSnapshotModules, moduleCache, stateModuleSource } from "./encode/stateModuleSource.js"
import { readLedgerInfo } from "./LedgerVersion.js"
import type { WithLedger } from "./WithLedger.js"
import { NodeConfig } from "./NodeConfig.js"
import { pendingTransactionJson } from "./render/transactionJson.js"
import { checkSubmittedPayload } from "./submit/checkSubmittedPayload.js"
import { signedTransactionFromJson } from "./submit/signedTransactionFromJson.js"

/** A transaction of a batch the mempool refused, by its position (`TransactionsBatchSingleSubmissionFailure`). */
export interface BatchFailure {
  readonly transactionIndex: number
  readonly error: ApiError
}

export interface SubmissionsConfigShape {
  /** `api.max_submit_transaction_batch_size` (the reference's default). */
  readonly maxBatchSize: number
  /** `wait_by_hash_timeout_ms`: how long a wait_by_hash request waits for a pending transaction. */
  readonly waitTimeoutMs: number
  /** `wait_by_hash_max_active_connections`: waiters at once; past it a request answers at once. */
  readonly maxWaiters: number
}

export const defaultSubmissionsConfig: SubmissionsConfigShape = {
  maxBatchSize: 10,
  waitTimeoutMs: 1000,
  maxWaiters: 100
}

export const SubmissionsConfig = Context.Reference<SubmissionsConfigShape>("movenode/node/SubmissionsConfig", {
  defaultValue: () => defaultSubmissionsConfig
})

/** A pending transaction: its pool entry, and the transaction decoded (what answers about it render). */
export interface Submitted {
  readonly entry: PoolEntry
  readonly transaction: SignedTransaction
}

export interface SubmissionsService {
  /** `POST /v1/transactions` with `application/x.aptos.signed_transaction+bcs`: the pooled transaction. */
  readonly submitBcs: (body: Uint8Array) => Effect.Effect<WithLedger<Submitted>, ApiError>
  /** `POST /v1/transactions` with a JSON `SubmitTransactionRequest` (already parsed JSON). */
  readonly submitJson: (body: unknown) => Effect.Effect<WithLedger<Submitted>, ApiError>
  /** `POST /v1/transactions/batch` (BCS `Vec<SignedTransaction>`): the failures, by index. */
  readonly submitBatchBcs: (body: Uint8Array) => Effect.Effect<WithLedger<ReadonlyArray<BatchFailure>>, ApiError>
  /** `POST /v1/transactions/batch` with a JSON array of requests. */
  readonly submitBatchJson: (body: unknown) => Effect.Effect<WithLedger<ReadonlyArray<BatchFailure>>, ApiError>
  /** The pending transaction with this hash (32 bytes), if the mempool holds it (as its bytes). */
  readonly pending: (hash: Uint8Array) => PoolEntry | undefined
  /**
   * Waits until the transaction leaves the mempool (committed, discarded, dropped) or
   * `waitTimeoutMs` passes; at once when it is not pending or `maxWaiters` are already waiting.
   */
  readonly awaitSettled: (hash: Uint8Array) => Effect.Effect<void>
  /**
   * A pending transaction's JSON (`pending_transaction`), its payload rendered with the latest
   * state's ABIs: `transaction` when the caller has it decoded (a submission), else decoded from the
   * entry's bytes.
   */
  readonly pendingJson: (
    entry: PoolEntry,
    ledger: LedgerInfo,
    transaction?: SignedTransaction
  ) => Effect.Effect<string, ApiError>
  /** The latest ledger info (for answers about pending transactions). */
  readonly ledgerInfo: Effect.Effect<LedgerInfo, ApiError>
}

const decodeSigned = (bytes: Uint8Array) => Bcs.decode(signedTransactionCodec, bytes)

/**
 * A decoding failure as the reference's BCS deserializer words the common cases (clients match on
 * them): input that ends early is "unexpected end of input", input left over "Remaining input".
 */
const bcsMessage = (e: BcsError): string =>
  /^needed \d+ bytes/.test(e.reason)
    ? "unexpected end of input"
    : /trailing bytes$/.test(e.reason)
      ? "Remaining input"
      : e.message

const undecodable = (e: BcsError, info: LedgerInfo) =>
  ApiErrors.badRequest(`Failed to deserialize input into SignedTransaction: ${bcsMessage(e)}`, info)

const decodeBatch = (bytes: Uint8Array) => Bcs.decode(Bcs.vector(signedTransactionCodec), bytes)

export class Submissions extends Context.Service<Submissions, SubmissionsService>()("movenode/node/Submissions") {
  static readonly layer: Layer.Layer<Submissions, never, Ledger | Mempool | ChainEvents> = Layer.effect(
    Submissions,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const mempool = yield* Mempool
      const events = yield* ChainEvents
      const config = yield* SubmissionsConfig
      const nodeConfig = yield* NodeConfig
      const modules = moduleCache(nodeConfig.moduleAbiCacheSize)
      const snapshot = makeSnapshotModules()
      const ledgerInfo = readLedgerInfo(ledger)

      /** Hash (hex) → resumers of the wait_by_hash requests waiting on it. */
      const waiters = new Map<string, Set<() => void>>()
      let waiting = 0
      const settle = (hashKey: string) => {
        const set = waiters.get(hashKey)
        if (set === undefined) return
        waiters.delete(hashKey)
        for (const resume of set) resume()
      }
      yield* Effect.forkScoped(
        Effect.scoped(
          Effect.gen(function* () {
            const take = yield* events.poolSubscription
            for (;;) {
              const e = yield* take
              if (waiters.size === 0) continue
              if (e._tag !== "BlockCommitted") {
                for (const h of e.dropped) settle(h)
                continue
              }
              for (const c of e.committed) settle(c.hashKey)
              for (const d of e.discarded) settle(d.hashKey)
              for (const h of e.dropped) settle(h)
            }
          })
        )
      )

      const pool = (info: LedgerInfo, signed: SignedTransaction, bcs: Uint8Array) =>
        Effect.mapBoth(mempool.submit(signed, bcs), {
          onFailure: (e) => apiErrorFromChain(e, info),
          onSuccess: (entry) => ({ ledger: info, value: { entry, transaction: signed } })
        })

      /** A decoded BCS transaction: its payload's format checked, then pooled. */
      const submitDecoded = (info: LedgerInfo, signed: SignedTransaction, bcs: Uint8Array) => {
        const problem = checkSubmittedPayload(signed.rawTransaction.payload)
        return problem === undefined ? pool(info, signed, bcs) : Effect.fail(ApiErrors.badRequest(problem, info))
      }

      /** The JSON request converted into a signed transaction (with the chain's modules and chain id). */
      const signedFromJson = (info: LedgerInfo, body: unknown): Effect.Effect<SignedTransaction, ApiError> =>
        Effect.flatMap(
          Effect.mapError(ledger.stateAt(info.ledgerVersion), (e) =>
            ApiErrors.internal(`Failed to read state: ${e._tag}`, info)
          ),
          (state) =>
            Effect.fromResult(signedTransactionFromJson(body, stateModuleSource(state, modules, snapshot), info))
        )

      const submitBcs = (body: Uint8Array) =>
        Effect.flatMap(ledgerInfo, (info) => {
          const decoded = decodeSigned(body)
          if (Result.isFailure(decoded)) return Effect.fail(undecodable(decoded.failure, info))
          return submitDecoded(info, decoded.success, body)
        })

      const submitJson = (body: unknown) =>
        Effect.flatMap(ledgerInfo, (info) =>
          Effect.flatMap(signedFromJson(info, body), (signed) =>
            pool(info, signed, Bcs.encode(signedTransactionCodec, signed))
          )
        )

      /** Every transaction goes to the mempool in order; a refusal is recorded by index, not fatal. */
      const submitAll = (
        info: LedgerInfo,
        txns: ReadonlyArray<{ readonly signed: SignedTransaction; readonly bcs: Uint8Array }>
      ) =>
        Effect.map(
          Effect.forEach(txns, ({ signed, bcs }, transactionIndex) =>
            Effect.match(pool(info, signed, bcs), {
              onFailure: (error): BatchFailure | undefined => ({ transactionIndex, error }),
              onSuccess: () => undefined
            })
          ),
          (results) => ({ ledger: info, value: results.filter((r): r is BatchFailure => r !== undefined) })
        )

      const tooMany = (n: number, info: LedgerInfo) =>
        ApiErrors.badRequest(`Submitted too many transactions: ${n}, while limit is ${config.maxBatchSize}`, info)

      const submitBatchBcs = (body: Uint8Array) =>
        Effect.flatMap(ledgerInfo, (info) => {
          const decoded = decodeBatch(body)
          if (Result.isFailure(decoded)) return Effect.fail(undecodable(decoded.failure, info))
          if (decoded.success.length > config.maxBatchSize) return Effect.fail(tooMany(decoded.success.length, info))
          for (const t of decoded.success) {
            const problem = checkSubmittedPayload(t.rawTransaction.payload)
            if (problem !== undefined) return Effect.fail(ApiErrors.badRequest(problem, info))
          }
          return submitAll(
            info,
            decoded.success.map((signed) => ({ signed, bcs: Bcs.encode(signedTransactionCodec, signed) }))
          )
        })

      const submitBatchJson = (body: unknown) =>
        Effect.flatMap(ledgerInfo, (info) => {
          if (!Array.isArray(body))
            return Effect.fail(
              ApiErrors.webFramework(400, "parse request payload error: expected an array of transactions")
            )
          if (body.length > config.maxBatchSize) return Effect.fail(tooMany(body.length, info))
          return Effect.flatMap(
            Effect.forEach(body, (item, i) =>
              Effect.mapError(signedFromJson(info, item), (e) =>
                e.code === "invalid_input"
                  ? new ApiError({ ...e, message: `${e.message} (at position ${i})`, ledger: info })
                  : e
              )
            ),
            (signed) =>
              submitAll(
                info,
                signed.map((s) => ({ signed: s, bcs: Bcs.encode(signedTransactionCodec, s) }))
              )
          )
        })

      const pending = (hash: Uint8Array) => (hash.length === 32 ? mempool.byHash(toHex(hash)) : undefined)

      const awaitSettled = (hash: Uint8Array): Effect.Effect<void> =>
        Effect.suspend(() => {
          const hashKey = toHex(hash)
          if (mempool.byHash(hashKey) === undefined) return Effect.void
          if (waiting >= config.maxWaiters) {
            mempool.want(hashKey)
            return Effect.void
          }
          return Effect.callback<void>((resume) => {
            waiting++
            let finished = false
            // Runs once, whichever comes first: the block event, the timeout, an interruption.
            const finish = () => {
              if (finished) return
              finished = true
              clearTimeout(timer)
              waiting--
              const s = waiters.get(hashKey)
              s?.delete(done)
              if (s?.size === 0) waiters.delete(hashKey)
            }
            const done = () => {
              finish()
              resume(Effect.void)
            }
            let set = waiters.get(hashKey)
            if (set === undefined) waiters.set(hashKey, (set = new Set()))
            set.add(done)
            const timer = setTimeout(done, config.waitTimeoutMs)
            // Someone waits for it: an Instant miner makes its block now rather than after its delay
            // (told only now that the waiter is registered, so the block's event cannot miss it).
            mempool.want(hashKey)
            return Effect.sync(finish)
          })
        })

      const pendingJson = (
        entry: PoolEntry,
        info: LedgerInfo,
        transaction: SignedTransaction = pooledTransaction(entry)
      ): Effect.Effect<string, ApiError> =>
        Effect.flatMap(
          Effect.mapError(ledger.stateAt(info.ledgerVersion), (e) =>
            ApiErrors.internal(`Failed to read state: ${e._tag}`, info)
          ),
          (state) => {
            const json = pendingTransactionJson(stateModuleSource(state, modules, snapshot), transaction, entry.hash)
            return Result.isSuccess(json)
              ? Effect.succeed(JSON.stringify(json.success))
              : Effect.fail(
                  ApiErrors.internal(
                    `Failed to build PendingTransaction from mempool response, even though it said the request was accepted: ${json.failure.message}`,
                    info
                  )
                )
          }
        )

      return Submissions.of({
        submitBcs,
        submitJson,
        submitBatchBcs,
        submitBatchJson,
        pending,
        awaitSettled,
        pendingJson,
        ledgerInfo
      })
    })
  )
}
