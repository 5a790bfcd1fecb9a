import type { CorsPolicy } from "./Cors.js"
import type { ReplicaHooks } from "./ReplicaHooks.js"

/** Where a server listens. */
export interface ListenAddress {
  readonly host: string
  readonly port: number
}

/**
 * A per-turn budget requests' bodies are handled within (the local chain's is `intakeBudget`,
 * src/chain/TurnBudget.ts): `run` starts a task now while the turn has budget left and queues it
 * for a later turn otherwise, in order.
 */
export interface BodyIntake {
  readonly run: (task: () => void) => void
  /** Tasks queued for later turns. */
  readonly waiting: number
}

/** Everything the HTTP layer can be told. Every field has a default (`defaultHttpConfig`). */
export interface HttpConfig {
  readonly listen: ListenAddress
  /** Prometheus metrics on their own port; undefined = no metrics server. */
  readonly metricsListen: ListenAddress | undefined
  /** Prefix of the ledger headers: `X-SERVICE-` by default, `X-APTOS-` for drop-in use. */
  readonly headerPrefix: string
  /** POST bodies above this many bytes are refused with 413 (never buffered past it). */
  readonly maxBodyBytes: number
  /** Reported as `git_hash` by `GET /v1`. */
  readonly gitHash: string | undefined
  /** One line per request (method, path, status, duration); undefined = quiet. */
  readonly log: ((line: string) => void) | undefined
  /** How long graceful shutdown waits for in-flight requests before closing their sockets. */
  readonly shutdownGraceMs: number
  /** A request (headers and body) must arrive within this time. */
  readonly requestTimeoutMs: number
  /**
   * How long an idle kept-alive connection stays open (announced as `Keep-Alive: timeout=N`).
   * Long, as the reference's (hyper keeps idle connections open): with Node's 5 s a client whose
   * pooled socket was idle about that long could send its next request as the server closed it,
   * and got ECONNRESET (more often under load, when either side's timers run late).
   */
  readonly keepAliveTimeoutMs: number
  /**
   * Most connections open at once: one past it is answered 503 with the JSON error body and
   * closed (counted in the metrics as route `refused`).
   */
  readonly maxConnections: number
  /** Which browser origins may call the API (CORS): any (default), a list, or none (`false`). */
  readonly cors: CorsPolicy
  /** A read replica's behaviour (`movenode follow`); undefined on every other node. */
  readonly replica?: ReplicaHooks | undefined
  /**
   * The most a request may wait for a ledger version it asks for (`X-Movenode-Wait-Ms`, see
   * `versionGate.ts`); 0 turns waiting off.
   */
  readonly maxVersionWaitMs: number
  /**
   * Duplicates of the API's listening socket, so that one event-loop turn accepts up to this many
   * more new connections than libuv's one (`extraAcceptors.ts`); 0: none. The commands that serve
   * (`movenode run`, the local chain) use `servingAcceptors`; the library default is 0 (each
   * duplicate costs a short-lived helper process at start).
   */
  readonly acceptors: number
  /**
   * Where a request with a body is handled from once its body is read (decoding it and the
   * handler's synchronous start; for a submission, dispatching its signature check): within a
   * per-turn budget, so a turn that reads hundreds of requests at once (a flood's clients sending
   * together) handles a few ms of them and leaves the rest to the next turns, accepting and
   * answering in between; past `maxConnections` waiting (only pipelining gets there), a request is
   * answered 503 at once instead of being held. Undefined: at once (reads without a body never
   * wait for it).
   */
  readonly bodyIntake?: BodyIntake | undefined
}

/**
 * The duplicates the serving commands ask for: 33 accepts a turn, so even the 512 connections of a
 * flood that starts at once are accepted within ~16 turns, and a probe after them within one.
 * Each turn with a new connection costs ~one failed accept() per duplicate (a few µs each).
 */
export const servingAcceptors = 32

export const defaultHttpConfig: HttpConfig = {
  listen: { host: "127.0.0.1", port: 8080 },
  metricsListen: undefined,
  headerPrefix: "X-SERVICE-",
  maxBodyBytes: 8 * 1024 * 1024,
  gitHash: undefined,
  log: undefined,
  shutdownGraceMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 4096,
  cors: "any",
  maxVersionWaitMs: 5000,
  acceptors: 0
}

export const makeHttpConfig = (overrides: Partial<HttpConfig> = {}): HttpConfig => ({
  ...defaultHttpConfig,
  ...overrides
})

/** Parses `ADDR:PORT` (`127.0.0.1:8080`, `[::1]:8080`, `:8080`); undefined when malformed. */
export const parseListenAddress = (s: string): ListenAddress | undefined => {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(s)
  if (m === null) return undefined
  const port = Number(m[3])
  if (port > 65535) return undefined
  const host = m[1] ?? m[2] ?? ""
  return { host: host === "" ? "0.0.0.0" : host, port }
}
