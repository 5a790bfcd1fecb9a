/**
 * The faucet's HTTP API, compatible with the reference's (`aptos-faucet-core`,
 * crates/aptos-faucet/core/src/endpoints): on its own port (8081 by default).
 *
 * - `GET /` → 200 `tap:ok` (503 when the funder account cannot be read).
 * - `POST /fund` JSON `{amount?, address?, auth_key?, pub_key?}` → `{"txn_hashes": ["<64 hex>"]}`;
 *   errors `{message, error_code, rejection_reasons: [], txn_hashes}` with the code's status.
 * - `POST /is_eligible` (same body) → empty 200 or the same errors.
 * - `POST /mint?amount=&address=|auth_key=|pub_key=&return_txns=` (legacy) → JSON array of hashes,
 *   or with `return_txns=true` the hex of BCS `Vec<SignedTransaction>` as text; errors as plain text.
 *
 * The receiver is `auth_key` if given, else `address`, else the account of an Ed25519 `pub_key`
 * (sha3-256(key ‖ 0x00)); hex with or without 0x. Amounts are u64, as a JSON number or a decimal
 * string. Not served: the OpenAPI document (`/spec`), rate limits and checkers (the reference's
 * local faucet has none either).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { Bcs, fromHex, toHex } from "../bcs/index.js"
import { Faucet, FaucetError, FaucetErrorCodes, type FaucetService } from "../chain/Faucet.js"
import { type AccountAddress, parseAddress } from "../domain/AccountAddress.js"
import { sha3 } from "../domain/hash.js"
import { signedTransactionCodec } from "../domain/PayloadCodec.js"
import type { ListenAddress } from "./HttpConfig.js"
import { parseJson, preflight, readSmallBody, reply, replyJson, type SideListener, serveScoped } from "./sideServer.js"

const U64_MAX = (1n << 64n) - 1n
const MAX_BODY = 64 * 1024

interface FundRequest {
  readonly amount?: unknown
  readonly address?: unknown
  readonly auth_key?: unknown
  readonly pub_key?: unknown
}

const invalid = (message: string) => new FaucetError({ code: "InvalidRequest", message, txnHashes: [] })

/** A u64 given as a JSON number (a safe integer) or a decimal string; undefined when absent. */
const parseAmount = (v: unknown): Result.Result<bigint | undefined, FaucetError> => {
  if (v === undefined || v === null) return Result.succeed(undefined)
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return Result.succeed(BigInt(v))
  if (typeof v === "string" && /^[0-9]{1,20}$/.test(v) && BigInt(v) <= U64_MAX) return Result.succeed(BigInt(v))
  return Result.fail(invalid(`amount must be a u64, got ${JSON.stringify(v).slice(0, 100)}`))
}

/** The receiver as the reference derives it: auth_key, else address, else an Ed25519 public key. */
const receiverOf = (r: FundRequest): AccountAddress | undefined => {
  const hexAddress = (v: unknown) => {
    if (typeof v !== "string") return undefined
    const a = parseAddress(v)
    return Result.isSuccess(a) ? a.success : undefined
  }
  if (r.auth_key !== undefined && r.auth_key !== null) return hexAddress(r.auth_key)
  if (r.address !== undefined && r.address !== null) return hexAddress(r.address)
  if (typeof r.pub_key === "string") {
    const key = fromHex(r.pub_key.startsWith("0x") ? r.pub_key.slice(2) : r.pub_key)
    if (key === undefined || key.length !== 32) return undefined
    const material = new Uint8Array(33)
    material.set(key)
    return sha3(material)
  }
  return undefined
}

/** The request checked: receiver and amount, or the reference's InvalidRequest. */
export const parseFundRequest = (
  body: unknown
): Result.Result<{ readonly receiver: AccountAddress; readonly amount: bigint | undefined }, FaucetError> => {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return Result.fail(invalid("the request body must be a JSON object"))
  const request = body as FundRequest
  const amount = parseAmount(request.amount)
  if (Result.isFailure(amount)) return Result.fail(amount.failure)
  const receiver = receiverOf(request)
  if (receiver === undefined)
    return Result.fail(invalid("Account address, auth key, or pub key must be provided and valid"))
  return Result.succeed({ receiver, amount: amount.success })
}

const errorBody = (e: FaucetError) => ({
  message: e.message,
  error_code: e.code,
  rejection_reasons: [],
  txn_hashes: e.txnHashes
})

const replyError = (res: ServerResponse, e: FaucetError) => replyJson(res, FaucetErrorCodes[e.code], errorBody(e))

const webFramework = (res: ServerResponse, status: number, message: string) =>
  replyJson(res, status, { message, error_code: "WebFrameworkError", rejection_reasons: [], txn_hashes: [] })

const run = <A>(
  effect: Effect.Effect<A, FaucetError>,
  res: ServerResponse,
  onSuccess: (a: A) => void,
  onError = replyError
) =>
  Effect.runCallback(effect, {
    onExit: (exit) => {
      if (Exit.isSuccess(exit)) return onSuccess(exit.value)
      const error = Cause.findError(exit.cause)
      if (Result.isSuccess(error)) return onError(res, error.success)
      reply(res, 500, "text/plain", "internal error")
    }
  })

/** The faucet's request listener (exported for tests; `FaucetServer.layer` serves it). */
export const makeFaucetListener = (faucet: FaucetService): SideListener => {
  const readJson = (req: IncomingMessage, res: ServerResponse, then: (body: unknown) => void) => {
    readSmallBody(req, MAX_BODY).then(
      (bytes) => {
        if (bytes === undefined) return webFramework(res, 413, `the request body exceeds ${MAX_BODY} bytes`)
        const parsed = parseJson(bytes)
        if ("error" in parsed) return webFramework(res, 400, `parse request payload error: ${parsed.error}`)
        then(parsed.value)
      },
      () => reply(res, 500, "text/plain", "internal error")
    )
  }

  const fund = (req: IncomingMessage, res: ServerResponse, checkOnly: boolean) =>
    readJson(req, res, (body) => {
      const request = parseFundRequest(body)
      if (Result.isFailure(request)) return replyError(res, request.failure)
      if (checkOnly) return reply(res, 200, "text/plain", "")
      run(faucet.fund(request.success.receiver, request.success.amount), res, (txns) =>
        replyJson(res, 200, { txn_hashes: txns.map((t) => toHex(t.hash)) })
      )
    })

  const mint = (res: ServerResponse, query: URLSearchParams) => {
    const request = parseFundRequest({
      amount: query.get("amount") ?? undefined,
      address: query.get("address") ?? undefined,
      auth_key: query.get("auth_key") ?? undefined,
      pub_key: query.get("pub_key") ?? undefined
    })
    const plainError = (r: ServerResponse, e: FaucetError) =>
      reply(r, FaucetErrorCodes[e.code], "text/plain", e.message)
    if (Result.isFailure(request)) return plainError(res, request.failure)
    run(
      faucet.fund(request.success.receiver, request.success.amount),
      res,
      (txns) =>
        query.get("return_txns") === "true"
          ? reply(
              res,
              200,
              "text/plain",
              toHex(
                Bcs.encode(
                  Bcs.vector(signedTransactionCodec),
                  txns.map((t) => t.transaction)
                )
              )
            )
          : replyJson(
              res,
              200,
              txns.map((t) => toHex(t.hash))
            ),
      plainError
    )
  }

  return (req, res) => {
    if (preflight(req, res)) return
    const url = new URL(req.url ?? "/", "http://faucet")
    const path = url.pathname
    if (req.method === "GET" && path === "/")
      return run(faucet.healthy, res, (ok) =>
        reply(res, ok ? 200 : 503, "text/plain", ok ? "tap:ok" : "funder account unavailable")
      )
    if (req.method === "POST" && path === "/fund") return fund(req, res, false)
    if (req.method === "POST" && path === "/is_eligible") return fund(req, res, true)
    if (req.method === "POST" && path === "/mint") return mint(res, url.searchParams)
    if (path === "/" || path === "/fund" || path === "/is_eligible" || path === "/mint")
      return webFramework(res, 405, "Method Not Allowed")
    webFramework(res, 404, `Not Found: ${path.slice(0, 200)}`)
  }
}

/** The faucet server: serves `Faucet` on `listen` while its scope lives. */
export class FaucetServer extends Context.Service<FaucetServer, { readonly address: ListenAddress }>()(
  "movenode/http/FaucetServer"
) {
  static readonly layer = (listen: ListenAddress): Layer.Layer<FaucetServer, Error, Faucet> =>
    Layer.effect(
      FaucetServer,
      Effect.gen(function* () {
        const faucet = yield* Faucet
        const address = yield* serveScoped(makeFaucetListener(faucet), listen)
        return { address }
      })
    )
}
