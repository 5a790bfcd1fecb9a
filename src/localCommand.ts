/**
 * `movenode local` (and `movenode` with no command): the local chain. Flags map onto
 * `LocalChainConfig` (`parseLocalArgs`, pure and tested); running prints the banner (URLs,
 * pre-funded keys) once everything listens and runs until SIGINT/SIGTERM.
 */
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { defaultLocalChainConfig, type LocalChainConfigShape } from "./chain/LocalChainConfig.js"
import { MiningMode } from "./chain/MiningMode.js"
import type { CommandSpec, FlagSpec, ParsedArgs } from "./commandLine.js"
import { packageRootOf, readGitHash } from "./gitHash.js"
import { type ListenAddress, parseListenAddress, servingAcceptors } from "./http/HttpConfig.js"
import type { ForkConfig } from "./fork/ForkConfig.js"
import { parseHeader } from "./fork/ForkSourceClient.js"
import { makeRequestLog } from "./http/RequestLog.js"
import { describeLocalChain, LocalChain } from "./LocalChain.js"
import { startApiWorkers } from "./follow/apiWorkers.js"

export interface LocalOptions {
  readonly config: LocalChainConfigShape
  readonly quiet: boolean
  /** API worker processes over the chain's store (src/follow/apiWorkers.ts); 0: the chain's process serves. */
  readonly apiWorkers?: number | undefined
}

const FLAGS: ReadonlyArray<FlagSpec> = [
  { name: "--data-dir", value: "DIR", description: "where the chain is kept (default .movenode/local-chain)" },
  { name: "--fresh", description: "forget the chain kept in the data directory and start a new one" },
  {
    name: "--block-time",
    value: "MS",
    description: "one block every MS milliseconds (default: as soon as transactions arrive)"
  },
  {
    name: "--idle-block-time",
    value: "MS|off",
    description: "an empty block after MS idle milliseconds, so the clock follows the wall clock (default 1000)"
  },
  { name: "--listen", value: "ADDR:PORT", description: "the API (default 127.0.0.1:8080; port 0 = any free port)" },
  { name: "--faucet-listen", value: "ADDR:PORT|off", description: "the faucet (default 127.0.0.1:8081)" },
  { name: "--ready-listen", value: "ADDR:PORT|off", description: "the readiness endpoint (default 127.0.0.1:8070)" },
  {
    name: "--graphql-listen",
    value: "ADDR:PORT|off",
    description: "the indexer's GraphQL API (default 127.0.0.1:8090)"
  },
  {
    name: "--indexer-db",
    value: "URL",
    description:
      "keep the index in a PostgreSQL server (postgres://user@host:port/db); default: SQLite in the data directory"
  },
  { name: "--no-indexer", description: "no indexer: GraphQL answers processor_status only (at the ledger's version)" },
  { name: "--accounts", value: "N", description: "pre-funded accounts (default 10)" },
  { name: "--epoch-secs", value: "N", description: "epoch length in seconds (default 60)" },
  { name: "--prune-window", value: "N", description: "keep the last N versions (default: keep all)" },
  {
    name: "--no-fsync",
    description:
      "do not flush blocks to the disk (faster test suites; kill -9 stays safe, after a power loss the chain may have to start --fresh)"
  },
  {
    name: "--no-front",
    description:
      "no front process: the chain's own process accepts the API's and readiness's connections and answers every request (by default a small process of their own accepts them and answers reads, so that they never wait behind block production)"
  },
  { name: "--front", description: "a front process (the default; kept for scripts that pass it)" },
  {
    name: "--api-workers",
    value: "N",
    description: "serve the API from N more processes reading the chain's store (default 0)"
  },
  { name: "--load-state", value: "FILE", description: "load a dumped chain at start (same genesis settings)" },
  { name: "--dump-state", value: "FILE", description: "dump the chain to FILE when it stops" },
  {
    name: "--auto-impersonate",
    description: "accept key-less transactions from any address (test controls; docs/controls.md)"
  },
  { name: "--quiet", description: "no request log" },
  {
    name: "--fork-url",
    value: "URL",
    description: "fork another chain: its state at a pinned version, fetched lazily (any Aptos REST API; docs/fork.md)"
  },
  { name: "--fork-version", value: "V", description: "the version to fork at (default: the source's latest at start)" },
  {
    name: "--fork-header",
    value: "'NAME: VALUE'",
    description: "a header sent with every request to the fork source (an API key)"
  },
  { name: "--fork-cache", value: "DIR", description: "where fork caches are kept (default <data-dir>/fork-cache)" },
  { name: "--fork-chain-id", value: "N", description: "the fork's chain id (default: the source's)" }
]

const DETAILS = `A local Aptos chain: chain id 4 (the SDK's Network.LOCAL), its own genesis built from the
shipped framework, a mempool, blocks made as soon as the submitting response is sent, a faucet
(POST /fund, /mint) signing with the root key, the readiness endpoint the TypeScript SDK's test
harness looks for, and the indexer's GraphQL API (Hasura's dialect, as run-localnet
--with-indexer-api serves it; docs/indexer.md). The pre-funded accounts' keys are printed at start.`

const integer = (name: string, s: string, min: number, max: number): Result.Result<number, string> =>
  /^[0-9]{1,10}$/.test(s) && Number(s) >= min && Number(s) <= max
    ? Result.succeed(Number(s))
    : Result.fail(`${name}: expected an integer in ${min}..${max}, got "${s}"`)

const listen = (
  name: string,
  s: string | undefined,
  fallback: ListenAddress | undefined
): Result.Result<ListenAddress | undefined, string> => {
  if (s === undefined) return Result.succeed(fallback)
  if (s === "off") return Result.succeed(undefined)
  const a = parseListenAddress(s)
  return a === undefined
    ? Result.fail(`${name}: expected ADDR:PORT (like 127.0.0.1:8080) or off, got "${s}"`)
    : Result.succeed(a)
}

/** `--fork-url`, `--fork-version`, `--fork-header`, `--fork-cache` (the last three need the first). */
const parseForkFlags = (values: ReadonlyMap<string, string>): Result.Result<ForkConfig | undefined, string> => {
  const url = values.get("--fork-url")
  const version = values.get("--fork-version")
  const header = values.get("--fork-header")
  const cacheDir = values.get("--fork-cache")
  const chainId = values.get("--fork-chain-id")
  if (url === undefined) {
    const stray = [
      ["--fork-version", version],
      ["--fork-header", header],
      ["--fork-cache", cacheDir],
      ["--fork-chain-id", chainId]
    ].find(([, v]) => v !== undefined)
    return stray === undefined ? Result.succeed(undefined) : Result.fail(`${stray[0]} needs --fork-url`)
  }
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {
    parsed = undefined
  }
  if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
    return Result.fail(`--fork-url: expected an http(s) URL of an Aptos REST API, got "${url}"`)
  if (version !== undefined && !/^[0-9]{1,20}$/.test(version))
    return Result.fail(`--fork-version: expected a version number, got "${version}"`)
  const pair = header === undefined ? undefined : parseHeader(header)
  if (header !== undefined && pair === undefined)
    return Result.fail(`--fork-header: expected 'Name: value', got "${header}"`)
  if (chainId !== undefined && !(/^[0-9]{1,3}$/.test(chainId) && Number(chainId) >= 1 && Number(chainId) <= 255))
    return Result.fail(`--fork-chain-id: expected a chain id in 1..255, got "${chainId}"`)
  return Result.succeed({
    url,
    version: version === undefined ? undefined : BigInt(version),
    headers: pair === undefined ? undefined : { [pair[0]]: pair[1] },
    cacheDir,
    chainId: chainId === undefined ? undefined : Number(chainId)
  })
}

/** The local chain's options from its parsed flags. */
export const parseLocalArgs = (args: ParsedArgs): Result.Result<LocalOptions, string> =>
  Result.gen(function* () {
    const values = args.values
    const d = defaultLocalChainConfig
    const blockTime = values.get("--block-time")
    const idle = values.get("--idle-block-time")
    const idleBlockMs =
      idle === undefined ? 1000 : idle === "off" ? undefined : yield* integer("--idle-block-time", idle, 1, 3_600_000)
    const prune = values.get("--prune-window")
    if (prune !== undefined && !/^[0-9]{1,20}$/.test(prune))
      return yield* Result.fail(`--prune-window: expected a number of versions, got "${prune}"`)
    const api = yield* listen("--listen", values.get("--listen"), d.api)
    if (api === undefined) return yield* Result.fail("--listen: the API cannot be off")
    const workers = values.get("--api-workers")
    const accounts = values.get("--accounts")
    const epoch = values.get("--epoch-secs")
    const fork = yield* parseForkFlags(values)
    const indexerDb = values.get("--indexer-db")
    if (indexerDb !== undefined && !/^postgres(ql)?:\/\//.test(indexerDb))
      return yield* Result.fail(`--indexer-db: expected a postgres:// URL, got "${indexerDb.slice(0, 100)}"`)
    if (indexerDb !== undefined && args.switches.has("--no-indexer"))
      return yield* Result.fail("--indexer-db and --no-indexer contradict each other")
    return {
      quiet: args.switches.has("--quiet"),
      apiWorkers: workers === undefined ? 0 : yield* integer("--api-workers", workers, 0, 64),
      config: {
        ...d,
        dataDir: values.get("--data-dir") ?? ".movenode/local-chain",
        fresh: args.switches.has("--fresh"),
        api,
        faucet: yield* listen("--faucet-listen", values.get("--faucet-listen"), d.faucet),
        readiness: yield* listen("--ready-listen", values.get("--ready-listen"), d.readiness),
        graphql: yield* listen("--graphql-listen", values.get("--graphql-listen"), d.graphql),
        mining:
          blockTime === undefined
            ? MiningMode.instant(undefined, idleBlockMs)
            : MiningMode.interval(yield* integer("--block-time", blockTime, 1, 3_600_000)),
        accounts: accounts === undefined ? d.accounts : yield* integer("--accounts", accounts, 0, 1000),
        epochIntervalSecs:
          epoch === undefined ? d.epochIntervalSecs : yield* integer("--epoch-secs", epoch, 1, 1_000_000_000),
        pruneWindow: prune === undefined ? undefined : BigInt(prune),
        ...(args.switches.has("--no-fsync") ? { fsync: false } : {}),
        // With API workers the chain's own API listens on a private port: nothing to put in front of it.
        front: !args.switches.has("--no-front") && (workers === undefined || Number(workers) === 0),
        fork,
        indexer: args.switches.has("--no-indexer")
          ? undefined
          : indexerDb === undefined
            ? d.indexer
            : { _tag: "Postgres", url: indexerDb },
        autoImpersonate: args.switches.has("--auto-impersonate"),
        loadState: values.get("--load-state"),
        dumpState: values.get("--dump-state")
      }
    }
  })

/**
 * The local chain's command specs: `movenode local` and `movenode` with no command (the same
 * options), for the command table in cli.ts.
 */
export const localCommandSpecs = <C>(toCommand: (options: LocalOptions) => C): ReadonlyArray<CommandSpec<C>> => {
  const spec = (path: ReadonlyArray<string>): CommandSpec<C> => ({
    path,
    summary: "Run a local chain: API, faucet, readiness and the indexer's GraphQL API, blocks on demand (the default).",
    flags: FLAGS,
    details: DETAILS,
    parse: (args) => Result.map(parseLocalArgs(args), toCommand)
  })
  return [spec([]), spec(["local"])]
}

const gitHashOfThisCheckout = (): string | undefined => {
  const root = packageRootOf(dirname(fileURLToPath(import.meta.url)), "movenode")
  return root === undefined ? undefined : readGitHash(root)
}

/** A fork's start prints its progress (the prefetch) as it goes. */
const withForkProgress = (config: LocalChainConfigShape): LocalChainConfigShape =>
  config.fork === undefined
    ? config
    : { ...config, fork: { ...config.fork, progress: (line) => process.stdout.write(`${line}\n`) } }

/** The layer `movenode local` launches: the chain, its banner printed once it listens. */
export const localLayer = (options: LocalOptions) => {
  const workers = options.apiWorkers ?? 0
  if (workers > 0 && options.config.dataDir === undefined)
    throw new Error("--api-workers needs the chain in a data directory")
  return Layer.effectDiscard(
    Effect.gen(function* () {
      const chain = yield* LocalChain
      // With API workers the chain's own API is on a private port; the workers serve the public one.
      const served =
        workers === 0
          ? chain
          : yield* Effect.map(
              startApiWorkers(workers, {
                dataDir: join(options.config.dataDir!, "ledger"),
                listen: options.config.api,
                writerUrl: chain.apiUrl,
                headerPrefix: "X-APTOS-",
                gitHash: gitHashOfThisCheckout()
              }),
              ({ address }) => ({ ...chain, apiUrl: `http://${address.host}:${address.port}/v1` })
            )
      process.stdout.write(`${describeLocalChain(served)}\n\n`)
    })
  ).pipe(
    Layer.provideMerge(
      LocalChain.layer(
        withForkProgress(workers === 0 ? options.config : { ...options.config, api: { host: "127.0.0.1", port: 0 } }),
        {
          // The build's commit in the ledger info when running from a checkout, as `movenode run`.
          gitHash: gitHashOfThisCheckout(),
          // Lines of one event-loop turn leave in one write (RequestLog.ts).
          log: options.quiet ? undefined : makeRequestLog().line,
          // New connections accepted several per turn under load (extraAcceptors.ts).
          acceptors: servingAcceptors
        }
      )
    )
  )
}
