/**
 * `movenode follow URL`: a read replica of the node at URL (its flags, their parser, and the
 * program that runs it until SIGINT/SIGTERM or until the source fails a check). The command table
 * in src/cli.ts holds the spec; this file keeps the command's own parts out of it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import type { CommandSpec, FlagSpec, ParsedArgs } from "../commandLine.js"
import { type ListenAddress, parseListenAddress } from "../http/HttpConfig.js"
import { MovenodeServer } from "../http/MovenodeServer.js"
import { makeRequestLog } from "../http/RequestLog.js"
import { Ledger } from "../ledger/Ledger.js"
import { startApiWorkers } from "./apiWorkers.js"
import { Follower } from "./FollowerNode.js"

export interface FollowCommandOptions {
  readonly source: string
  readonly dataDir: string
  readonly listen: ListenAddress
  readonly metricsListen: ListenAddress | undefined
  readonly headerPrefix: string
  readonly sync: boolean
  /** Announce a block only once fsync'd (`--visible-after-fsync`) instead of once committed. */
  readonly visibleAfterFsync: boolean
  readonly quiet: boolean
  /** API worker processes over the follower's store (apiWorkers.ts); 0: this process serves. */
  readonly apiWorkers: number
}

const FLAGS: ReadonlyArray<FlagSpec> = [
  { name: "--data-dir", value: "DIR", description: "the follower's own store (default ./follower-data)" },
  {
    name: "--listen",
    value: "ADDR:PORT",
    description: "the API's address (default 127.0.0.1:8080; port 0 = any free port)"
  },
  { name: "--metrics-listen", value: "ADDR:PORT", description: "Prometheus metrics, lag included (default: none)" },
  { name: "--header-prefix", value: "PREFIX", description: "ledger header prefix (default X-APTOS-, as the source's)" },
  {
    name: "--no-fsync",
    description:
      "do not fsync each block (kill -9 stays safe; after a power loss the store may be lost: follow again from the source)"
  },
  {
    name: "--visible-after-fsync",
    description:
      "serve a block only once it is fsync'd, as the local chain does (default: once committed, the fsync following; a power loss may then lose the last blocks, fetched again)"
  },
  {
    name: "--api-workers",
    value: "N",
    description: "serve the API from N more processes reading the store (default 0)"
  },
  { name: "--quiet", description: "no request log" }
]

const DETAILS = `Tails URL's committed blocks over its REST API in BCS (/v1/blocks/by_version/{v}), checks each
transaction (hash, state_change_hash, event root, accumulator continuity), commits each block atomically
and serves the whole REST API from its own store. Submissions are passed to URL; wait_by_hash answers
once the transaction is applied here. GET /v1 reports the lag ("follow"), /-/healthy?duration_secs=N
answers 503 when this replica has not kept up within N s. Starts from URL's genesis in an empty data
directory, resumes where it stopped otherwise; a source whose history differs is refused (exit 1).
URL: a movenode node (the local chain, another follower) or an aptos-core fullnode (docs/scale-out.md).`

export const parseFollowArgs = (args: ParsedArgs): Result.Result<FollowCommandOptions, string> =>
  Result.gen(function* () {
    const url = args.operands[0]!
    if (!/^https?:\/\/[^\s]+$/.test(url))
      return yield* Result.fail(`URL: expected http(s)://host:port/v1, got "${url}"`)
    const source = url.replace(/\/+$/, "").endsWith("/v1") ? url.replace(/\/+$/, "") : `${url.replace(/\/+$/, "")}/v1`
    const listenOf = (name: string, s: string): Result.Result<ListenAddress, string> => {
      const a = parseListenAddress(s)
      return a === undefined
        ? Result.fail(`${name}: expected ADDR:PORT (like 127.0.0.1:8080), got "${s}"`)
        : Result.succeed(a)
    }
    const metrics = args.values.get("--metrics-listen")
    const workers = args.values.get("--api-workers") ?? "0"
    if (!/^([0-9]|[1-5][0-9]|6[0-4])$/.test(workers))
      return yield* Result.fail(`--api-workers: expected a number of processes in 0..64, got "${workers}"`)
    const headerPrefix = args.values.get("--header-prefix") ?? "X-APTOS-"
    if (!/^[A-Za-z0-9-]*$/.test(headerPrefix))
      return yield* Result.fail(`--header-prefix: only letters, digits and "-" are allowed, got "${headerPrefix}"`)
    return {
      source,
      dataDir: args.values.get("--data-dir") ?? "./follower-data",
      listen: yield* listenOf("--listen", args.values.get("--listen") ?? "127.0.0.1:8080"),
      metricsListen: metrics === undefined ? undefined : yield* listenOf("--metrics-listen", metrics),
      headerPrefix,
      sync: !args.switches.has("--no-fsync"),
      visibleAfterFsync: args.switches.has("--visible-after-fsync"),
      quiet: args.switches.has("--quiet"),
      apiWorkers: Number(workers)
    }
  })

export const followCommandSpec = <C>(toCommand: (options: FollowCommandOptions) => C): CommandSpec<C> => ({
  path: ["follow"],
  summary: "Run a read replica of another node: tail its blocks, check and store them, serve the API.",
  operands: "URL",
  operandCount: { min: 1, max: 1 },
  flags: FLAGS,
  details: DETAILS,
  parse: (args) => Result.map(parseFollowArgs(args), toCommand)
})

const stamp = (line: string) => `${new Date().toISOString()} ${line}\n`

/**
 * The program `movenode follow` runs: the replica, its start-up line, then the follower loop's
 * outcome (a failure is the command's error; an interrupt, SIGINT/SIGTERM, a clean stop).
 */
export const followProgram = (options: FollowCommandOptions) =>
  Effect.scoped(
    Effect.gen(function* () {
      const context = yield* Layer.build(
        Follower.layer({
          source: options.source,
          dataDir: options.dataDir,
          sync: options.sync,
          durability: options.visibleAfterFsync ? "flushed" : "committed",
          http: {
            // With API workers this process's own API moves to a private port: the workers serve the public one.
            listen: options.apiWorkers > 0 ? { host: "127.0.0.1", port: 0 } : options.listen,
            metricsListen: options.metricsListen,
            headerPrefix: options.headerPrefix,
            // The request log: lines batched per 25 ms, as `movenode run` and `local` (RequestLog.ts).
            log: options.quiet ? undefined : makeRequestLog().line
          },
          log: (line) => process.stderr.write(stamp(line))
        })
      )
      const follower = Context.get(context, Follower)
      const server = Context.get(context, MovenodeServer)
      const info = yield* Context.get(context, Ledger).ledgerInfo.pipe(Effect.option)
      const workers =
        options.apiWorkers === 0
          ? undefined
          : yield* startApiWorkers(options.apiWorkers, {
              dataDir: options.dataDir,
              listen: options.listen,
              writerUrl: `http://${server.address.host}:${server.address.port}/v1`,
              headerPrefix: options.headerPrefix,
              gitHash: undefined
            })
      const address = workers?.address ?? server.address
      process.stdout.write(
        `movenode follow: following ${follower.source} into ${options.dataDir} (${info._tag === "Some" ? `ledger version ${info.value.ledgerVersion}` : "empty: from the source's genesis"}); listening on http://${address.host}:${address.port}/v1${workers === undefined ? "" : ` (${options.apiWorkers} API worker processes; this process's own API, with the follow state, on http://${server.address.host}:${server.address.port}/v1)`}\n`
      )
      return yield* Fiber.join(follower.loop)
    })
  )
