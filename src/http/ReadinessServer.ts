/**
 * The readiness endpoint of run-localnet (crates/aptos/src/node/local_testnet/ready_server.rs),
 * 8070 by default: `GET /` checks each service over HTTP as a client would (each check at most
 * 3 s) and answers 200 `{"ready": [...], "not_ready": []}` when all answer, 503 otherwise. Checks
 * are serialised as the reference's externally tagged `HealthChecker`: `{"NodeApi": "<url>"}`
 * (`GET <url>v1` answers 200) and `{"Http": ["<url>", "<name>"]}` (`GET <url>` answers 200). The
 * SDK's e2e harness skips starting a node of its own when this answers 200. The local chain's own
 * services are checked in process (`inProcess`), not over HTTP (docs/local-chain.md).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { FrontProcess } from "./front/FrontProcess.js"
import type { ListenAddress } from "./HttpConfig.js"
import { readinessAnswer } from "./readinessAnswer.js"
import { preflight, replyJson, type SideListener, serveScoped } from "./sideServer.js"

export type HealthCheck = (
  | { readonly _tag: "NodeApi"; readonly url: string }
  | { readonly _tag: "Http"; readonly url: string; readonly name: string }
) & {
  /**
   * For a service of this very process: asked instead of an HTTP request. A request to our own
   * port is a new connection, which waits behind the load it is meant to see through (issue 22:
   * under a submission flood the readiness answer took seconds); the answer is the same fact.
   */
  readonly inProcess?: (() => Promise<boolean>) | undefined
}

const CHECK_TIMEOUT_MS = 3000

const checkOnce = async (check: HealthCheck): Promise<boolean> => {
  if (check.inProcess !== undefined) return check.inProcess().catch(() => false)
  const url = check._tag === "NodeApi" ? new URL("v1", check.url).href : check.url
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) })
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}

const asJson = (check: HealthCheck): unknown =>
  check._tag === "NodeApi" ? { NodeApi: check.url } : { Http: [check.url, check.name] }

/** The checks' results now: which services answered and which did not. */
const readinessState = async (checks: ReadonlyArray<HealthCheck>) => {
  const results = await Promise.all(checks.map(checkOnce))
  return {
    ready: checks.filter((_, i) => results[i]).map(asJson),
    notReady: checks.filter((_, i) => !results[i]).map(asJson)
  }
}

export const makeReadinessListener =
  (checks: ReadonlyArray<HealthCheck>): SideListener =>
  (req, res) => {
    if (preflight(req, res)) return
    if (req.method !== "GET" || (req.url ?? "/").split("?")[0] !== "/")
      return replyJson(res, 404, { message: "not found" })
    readinessState(checks).then(({ ready, notReady }) => {
      const answer = readinessAnswer(ready, notReady)
      replyJson(res, answer.status, answer.body)
    })
  }

/** The URL of a listening address (`http://host:port/`), as the checks and the banner print it. */
export const urlOf = (a: ListenAddress): string =>
  `http://${a.host === "0.0.0.0" || a.host === "::" ? "127.0.0.1" : a.host.includes(":") ? `[${a.host}]` : a.host}:${a.port}/`

export class ReadinessServer extends Context.Service<ReadinessServer, { readonly address: ListenAddress }>()(
  "movenode/http/ReadinessServer"
) {
  static readonly layer = (
    listen: ListenAddress,
    checks: ReadonlyArray<HealthCheck>
  ): Layer.Layer<ReadinessServer, Error> =>
    Layer.effect(
      ReadinessServer,
      Effect.gen(function* () {
        // With a front process (front/FrontProcess.ts) the readiness server is answered there, from
        // the checks' results sent to it four times a second: a prober's new connection is then
        // accepted and answered by a process that is not busy with the node's load.
        const front = yield* Effect.serviceOption(FrontProcess)
        if (Option.isSome(front))
          return { address: yield* front.value.serveReadiness(listen, () => readinessState(checks)) }
        return { address: yield* serveScoped(makeReadinessListener(checks), listen) }
      })
    )
}
