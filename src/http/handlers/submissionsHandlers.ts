import * as Effect from "effect/Effect"
import { fromHex } from "../../bcs/index.js"
import { ApiError, ApiErrors } from "../../domain/ApiError.js"
import type { LedgerInfo } from "../../domain/LedgerInfo.js"
import type { BatchFailure, SubmissionsService } from "../../node/Submissions.js"
import { pendingTransactionDataBcs, transactionDataBcs } from "../../node/render/transactionBcs.js"
import { parseJsonBody } from "../Body.js"
import { BCS_TYPE, errorBodyJson, JSON_TYPE, type Reply } from "../Reply.js"
import type { HandlerEnv, RequestInput, RouteSpec } from "./HandlerTypes.js"

/** The BCS body type of a signed transaction (and of a batch: a vector of them). */
export const SIGNED_TRANSACTION_BCS = "application/x.aptos.signed_transaction+bcs"

const disabled = new ApiError({
  status: 403,
  code: "api_disabled",
  message:
    "This node serves a genesis read-only (movenode run): it accepts no transactions. Run the local chain (movenode) to submit."
})

const withStatus = (status: number, contentType: string, body: string | Uint8Array, ledger: LedgerInfo): Reply => ({
  status,
  contentType,
  body,
  ledger
})

/** A transaction hash path segment: 64 hex digits, with or without 0x. */
const parseHash = (raw: string): Uint8Array | ApiError => {
  const s = raw.startsWith("0x") || raw.startsWith("0X") ? raw.slice(2) : raw
  const bytes = s.length === 64 ? fromHex(s) : undefined
  // The reference's (poem's) wording, which clients match on.
  return (
    bytes ??
    ApiErrors.webFramework(
      400,
      'failed to parse path `txn_hash`: failed to parse "string(HashValue)": unable to parse HashValue'
    )
  )
}

const batchJson = (failures: ReadonlyArray<BatchFailure>): string =>
  `{"transaction_failures":[${failures
    .map((f) => `{"error":${errorBodyJson(f.error)},"transaction_index":${f.transactionIndex}}`)
    .join(",")}]}`

/** `POST /v1/transactions`, `POST /v1/transactions/batch`, `GET /v1/transactions/{by_hash,wait_by_hash}/{hash}`. */
export const submissionsHandlers = (env: HandlerEnv) => {
  const submissions: SubmissionsService | undefined = env.node.submissions
  const committed = env.node.reads.transactions
  const replica = env.config.replica

  /** A replica passes a submission to its source as received and answers what the source answered. */
  const forward = (path: string, input: RequestInput) =>
    replica!.forward({
      path,
      contentType: input.mediaType ?? JSON_TYPE,
      accept: input.bcs ? BCS_TYPE : JSON_TYPE,
      body: input.body ?? new Uint8Array()
    })

  const json = (input: RequestInput): Effect.Effect<unknown, ApiError> => {
    const parsed = parseJsonBody(input.body ?? new Uint8Array())
    return "ok" in parsed ? Effect.succeed(parsed.value) : Effect.fail(parsed)
  }

  const submit: RouteSpec = {
    bodyTypes: [JSON_TYPE, SIGNED_TRANSACTION_BCS],
    handler: (input) => {
      if (submissions === undefined)
        return replica === undefined ? Effect.fail(disabled) : forward("/v1/transactions", input)
      const pooled =
        input.mediaType === SIGNED_TRANSACTION_BCS
          ? submissions.submitBcs(input.body ?? new Uint8Array())
          : Effect.flatMap(json(input), submissions.submitJson)
      return Effect.flatMap(pooled, ({ ledger, value }) =>
        // With BCS the reference answers an empty body: the hash is the client's to compute.
        input.bcs
          ? Effect.succeed(withStatus(202, BCS_TYPE, new Uint8Array(0), ledger))
          : Effect.map(submissions.pendingJson(value.entry, ledger, value.transaction), (text) =>
              withStatus(202, JSON_TYPE, text, ledger)
            )
      )
    }
  }

  const submitBatch: RouteSpec = {
    bodyTypes: [JSON_TYPE, SIGNED_TRANSACTION_BCS],
    handler: (input) => {
      if (submissions === undefined)
        return replica === undefined ? Effect.fail(disabled) : forward("/v1/transactions/batch", input)
      const done =
        input.mediaType === SIGNED_TRANSACTION_BCS
          ? submissions.submitBatchBcs(input.body ?? new Uint8Array())
          : Effect.flatMap(json(input), submissions.submitBatchJson)
      return Effect.map(done, ({ ledger, value }) =>
        withStatus(value.length === 0 ? 202 : 206, JSON_TYPE, batchJson(value), ledger)
      )
    }
  }

  /** Pending first (the mempool), then committed (the ledger), as the reference's by_hash. */
  const lookup = (hash: Uint8Array, bcs: boolean): Effect.Effect<Reply, ApiError> => {
    const pending = submissions?.pending(hash)
    if (pending !== undefined && submissions !== undefined)
      return Effect.flatMap(submissions.ledgerInfo, (ledger) =>
        bcs
          ? Effect.succeed(withStatus(200, BCS_TYPE, pendingTransactionDataBcs(pending.signedBcs), ledger))
          : Effect.map(submissions.pendingJson(pending, ledger), (text) => withStatus(200, JSON_TYPE, text, ledger))
      )
    return Effect.map(committed.byHash(hash), ({ ledger, value }) =>
      bcs
        ? withStatus(200, BCS_TYPE, transactionDataBcs(value.transaction), ledger)
        : withStatus(200, JSON_TYPE, value.json, ledger)
    )
  }

  const byHash: RouteSpec = {
    handler: (input) => {
      const hash = parseHash(input.params.txn_hash!)
      return hash instanceof Uint8Array ? lookup(hash, input.bcs) : Effect.fail(hash)
    }
  }

  /**
   * A replica's wait: until the transaction is committed here (it was submitted through the source,
   * so the follower applies it with the source's block) or `ms` pass; the lookup then answers.
   */
  const appliedHere = (hash: Uint8Array, ms: number): Effect.Effect<void> =>
    Effect.gen(function* () {
      const deadline = Date.now() + ms
      while (Date.now() < deadline) {
        const found = yield* Effect.exit(committed.byHash(hash))
        if (found._tag === "Success") return
        yield* Effect.sleep(5)
      }
    })

  const waitByHash: RouteSpec = {
    handler: (input) => {
      const hash = parseHash(input.params.txn_hash!)
      if (!(hash instanceof Uint8Array)) return Effect.fail(hash)
      const wait =
        submissions !== undefined
          ? submissions.awaitSettled(hash)
          : replica !== undefined
            ? appliedHere(hash, replica.waitByHashMs)
            : Effect.void
      // The lookup after the wait (not built before it: it reads the mempool when it runs).
      return Effect.andThen(wait, () => lookup(hash, input.bcs))
    }
  }

  return {
    "submissions.submit": submit,
    "submissions.submitBatch": submitBatch,
    "submissions.byHash": byHash,
    "submissions.waitByHash": waitByHash
  } as const
}
