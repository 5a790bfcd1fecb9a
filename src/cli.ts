/**
 * The `movenode` command: a table of commands (`COMMANDS`), each a `CommandSpec` (src/commandLine.ts)
 * with its flags, its help and its parser, and a `run` step in `execute`.
 *
 *   movenode [local] [--data-dir DIR] [--fresh] [--block-time MS] …   the local chain (the default)
 *   movenode run [--genesis FILE] [--data-dir DIR] [--listen ADDR:PORT] [--metrics-listen ADDR:PORT]
 *                [--header-prefix P] [--config FILE.json] [--prune-window N] [--quiet]
 *   movenode follow URL [--data-dir DIR] [--listen ADDR:PORT] …   a read replica (src/follow)
 *   movenode module abi FILE.mv
 *   movenode module list [--genesis FILE]
 *   movenode --help | help [COMMAND] | COMMAND --help | --version
 *
 * Adding a command: a `CommandSpec` in `COMMANDS` (path, summary, flags, parse → a `Command`
 * variant) and its case in `execute`. A spec with the path `[]` is what `movenode` with no command
 * runs: the local chain (src/localCommand.ts).
 *
 * `run` composes the LMDB ledger (genesis imported on first start, checked on later ones), the
 * node services and the HTTP server, prints one start-up line (what was imported or opened, where
 * it listens; also with --quiet), and runs until SIGINT/SIGTERM: the server stops accepting,
 * in-flight requests finish, then the node and the ledger are closed. Usage errors are one line
 * naming the command, exit code 2; failures while running exit 1.
 */
import { readFileSync, realpathSync } from "node:fs"
import { dirname } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { type CommandSpec, formatUsageError, type ParsedArgs, resolveCommand, type UsageError } from "./commandLine.js"
import { devnetGenesisPath } from "./devnetGenesis.js"
import { defaultGasEstimationConfig } from "./domain/gasEstimate.js"
import { packageRootOf, readGitHash } from "./gitHash.js"
import type { CorsPolicy } from "./http/Cors.js"
import { type HttpConfig, type ListenAddress, parseListenAddress, servingAcceptors } from "./http/HttpConfig.js"
import { MovenodeServer } from "./http/MovenodeServer.js"
import { makeRequestLog } from "./http/RequestLog.js"
import { LedgerLmdb } from "./ledger/index.js"
import { type GenesisImport, importGenesis } from "./ledger/importGenesis.js"
import { Ledger } from "./ledger/Ledger.js"
import { listGenesisModules, moduleAbiCommand } from "./move/abi/cli.js"
import { TransactionEncoderLive } from "./node/encode/TransactionEncoderLive.js"
import { Node } from "./node/Node.js"
import { defaultNodeConfig, makeNodeConfig, nodeConfigLayer, validateNodeConfig } from "./node/NodeConfig.js"
import { parseViewFilterJson } from "./node/view/ViewFilter.js"
import { ViewsWorkerLayer } from "./node/view/ViewsWorker.js"
import { type LocalOptions, localCommandSpecs, localLayer } from "./localCommand.js"
import { apiWorkerMain, isApiWorker, startApiWorkers } from "./follow/apiWorkers.js"
import { type FollowCommandOptions, followCommandSpec, followProgram } from "./follow/followCommand.js"
import { runMain } from "./runMain.js"
import { tuneV8ForServing } from "./tuneV8.js"

export interface RunOptions {
  /** The genesis blob's path; undefined: the shipped devnet genesis (`devnetGenesisPath()`). */
  readonly genesis: string | undefined
  readonly dataDir: string
  readonly listen: ListenAddress
  readonly metricsListen: ListenAddress | undefined
  readonly headerPrefix: string
  readonly pruneWindow: bigint | undefined
  readonly maxBodyBytes: number | undefined
  /** `HttpConfig.maxConnections`; undefined: its default. */
  readonly maxConnections?: number | undefined
  /** `HttpConfig.cors`; undefined: its default (any origin). */
  readonly cors?: CorsPolicy | undefined
  readonly gitHash: string | undefined
  readonly quiet: boolean
  /** The `node` section of the config file, passed to `makeNodeConfig`. */
  readonly node: Record<string, unknown>
  /** API worker processes over the same store (src/follow/apiWorkers.ts); 0: this process serves. */
  readonly apiWorkers?: number | undefined
  /**
   * The compiled view worker script; default `node/view/viewWorker.js` of this build. Not a flag:
   * for programs (and tests) that run these sources through a TypeScript loader.
   */
  readonly viewWorkerUrl?: URL | undefined
  /** Receives the start-up line once the server listens (the command prints it); undefined: none. */
  readonly announce?: ((line: string) => void) | undefined
}

export type Command =
  | { readonly _tag: "Run"; readonly options: RunOptions }
  | { readonly _tag: "ModuleAbi"; readonly file: string }
  | { readonly _tag: "ModuleList"; readonly genesis: string | undefined }
  | { readonly _tag: "Local"; readonly options: LocalOptions }
  | { readonly _tag: "Follow"; readonly options: FollowCommandOptions }

const PROGRAM = "movenode"
const DESCRIPTION = "movenode: an Aptos-compatible node (the Aptos REST API over its own ledger store and Move VM)."

// ---- run ------------------------------------------------------------------------------------------

/** The config file's keys (`--config FILE.json`); any other key is refused by name. */
const CONFIG_KEYS = [
  "genesis",
  "dataDir",
  "listen",
  "metricsListen",
  "headerPrefix",
  "pruneWindow",
  "maxBodyBytes",
  "maxConnections",
  "cors",
  "gitHash",
  "quiet",
  "node",
  "apiWorkers"
] as const
/** The `node` section's keys: every `NodeConfigShape` field (optional ones included). */
const NODE_KEYS = new Set([...Object.keys(defaultNodeConfig), "viewDeadlineMs", "viewFilter"])
const GAS_ESTIMATION_KEYS = new Set(Object.keys(defaultGasEstimationConfig))

const listenOf = (name: string, s: string): Result.Result<ListenAddress, string> => {
  const a = parseListenAddress(s)
  return a === undefined
    ? Result.fail(`${name}: expected ADDR:PORT (like 127.0.0.1:8080), got "${s}"`)
    : Result.succeed(a)
}

const str = (config: Record<string, unknown>, key: string): Result.Result<string | undefined, string> => {
  const v = config[key]
  return v === undefined || typeof v === "string" ? Result.succeed(v) : Result.fail(`config: "${key}" must be a string`)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** The first key of `o` not in `known`, as an error naming it and the keys allowed. */
const unknownKey = (o: Record<string, unknown>, known: ReadonlySet<string>, where: string): string | undefined => {
  const bad = Object.keys(o).find((k) => !known.has(k))
  return bad === undefined ? undefined : `config: unknown key "${bad}"${where} (known: ${[...known].join(", ")})`
}

const readConfigFile = (
  path: string,
  readConfig: (path: string) => string
): Result.Result<Record<string, unknown>, string> => {
  let text: string
  try {
    text = readConfig(path)
  } catch (e) {
    return Result.fail(`--config: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    return Result.fail(`--config: ${path} is not JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (!isObject(parsed)) return Result.fail(`--config: ${path} must hold a JSON object`)
  const bad =
    unknownKey(parsed, new Set(CONFIG_KEYS), "") ??
    (isObject(parsed.node) ? unknownKey(parsed.node, NODE_KEYS, ` in "node"`) : undefined) ??
    (isObject(parsed.node) && isObject(parsed.node.gasEstimation)
      ? unknownKey(parsed.node.gasEstimation, GAS_ESTIMATION_KEYS, ` in "node.gasEstimation"`)
      : undefined)
  return bad === undefined ? Result.succeed(parsed) : Result.fail(`${bad}, in ${path}`)
}

const corsOf = (v: unknown): Result.Result<CorsPolicy | undefined, string> => {
  if (v === undefined) return Result.succeed(undefined)
  if (v === true) return Result.succeed("any")
  if (v === false) return Result.succeed(false)
  if (Array.isArray(v) && v.every((o) => typeof o === "string")) return Result.succeed(v as ReadonlyArray<string>)
  return Result.fail(`config: "cors" must be true, false or a list of origins`)
}

const parseRun =
  (readConfig: (path: string) => string) =>
  (args: ParsedArgs): Result.Result<Command, string> =>
    Result.gen(function* () {
      const { values } = args
      const configPath = values.get("--config")
      const config = configPath === undefined ? {} : yield* readConfigFile(configPath, readConfig)
      const genesis = values.get("--genesis") ?? (yield* str(config, "genesis"))
      const listenText = values.get("--listen") ?? (yield* str(config, "listen")) ?? "127.0.0.1:8080"
      const metricsText = values.get("--metrics-listen") ?? (yield* str(config, "metricsListen"))
      const pruneText = values.get("--prune-window") ?? config.pruneWindow
      let pruneWindow: bigint | undefined
      if (pruneText !== undefined) {
        if (!/^[0-9]{1,20}$/.test(String(pruneText)))
          return yield* Result.fail(`--prune-window: expected a number of versions, got "${String(pruneText)}"`)
        pruneWindow = BigInt(String(pruneText))
      }
      const positiveInteger = (key: string): Result.Result<number | undefined, string> => {
        const v = config[key]
        return v === undefined || (typeof v === "number" && Number.isInteger(v) && v >= 1)
          ? Result.succeed(v as number | undefined)
          : Result.fail(`config: "${key}" must be a positive integer`)
      }
      const maxBodyBytes = yield* positiveInteger("maxBodyBytes")
      const maxConnections = yield* positiveInteger("maxConnections")
      if (config.quiet !== undefined && typeof config.quiet !== "boolean")
        return yield* Result.fail(`config: "quiet" must be a boolean`)
      const node = config.node ?? {}
      if (!isObject(node)) return yield* Result.fail(`config: "node" must be an object`)
      const headerPrefix = values.get("--header-prefix") ?? (yield* str(config, "headerPrefix")) ?? "X-SERVICE-"
      if (!/^[A-Za-z0-9-]*$/.test(headerPrefix))
        return yield* Result.fail(`--header-prefix: only letters, digits and "-" are allowed, got "${headerPrefix}"`)
      const cors = args.switches.has("--no-cors") ? false : yield* corsOf(config.cors)
      const workersText =
        values.get("--api-workers") ?? (config.apiWorkers === undefined ? undefined : String(config.apiWorkers))
      if (workersText !== undefined && !/^([0-9]|[1-5][0-9]|6[0-4])$/.test(workersText))
        return yield* Result.fail(`--api-workers: expected a number of processes in 0..64, got "${workersText}"`)
      return {
        _tag: "Run",
        options: {
          genesis,
          dataDir: values.get("--data-dir") ?? (yield* str(config, "dataDir")) ?? "./data",
          listen: yield* listenOf("--listen", listenText),
          metricsListen: metricsText === undefined ? undefined : yield* listenOf("--metrics-listen", metricsText),
          headerPrefix,
          pruneWindow,
          maxBodyBytes,
          maxConnections,
          cors,
          gitHash: yield* str(config, "gitHash"),
          quiet: args.switches.has("--quiet") || config.quiet === true,
          node,
          apiWorkers: workersText === undefined ? 0 : Number(workersText)
        }
      } as const
    })

const runSpec = (readConfig: (path: string) => string): CommandSpec<Command> => ({
  path: ["run"],
  summary: "Serve the Aptos REST API over an LMDB store holding a genesis (no block production).",
  flags: [
    { name: "--genesis", value: "FILE", description: "genesis blob to import (default: the shipped devnet genesis)" },
    { name: "--data-dir", value: "DIR", description: "the store's directory (default ./data)" },
    {
      name: "--listen",
      value: "ADDR:PORT",
      description: "the API's address (default 127.0.0.1:8080; port 0 = any free port)"
    },
    {
      name: "--metrics-listen",
      value: "ADDR:PORT",
      description: "Prometheus metrics on their own address (default: none)"
    },
    {
      name: "--header-prefix",
      value: "PREFIX",
      description: "ledger header prefix (default X-SERVICE-; X-APTOS- as the reference)"
    },
    { name: "--prune-window", value: "N", description: "keep the last N versions (default: keep all)" },
    { name: "--config", value: "FILE.json", description: "a config file (docs/configuration.md); flags override it" },
    { name: "--no-cors", description: "no CORS headers (default: any origin may call the API)" },
    {
      name: "--api-workers",
      value: "N",
      description: "serve the API from N more processes reading the same store (default 0)"
    },
    { name: "--quiet", description: "no request log (the start-up line is still printed)" }
  ],
  details: `The genesis is imported into an empty data dir and checked against the one a data dir holds.
Config file keys: ${CONFIG_KEYS.join(", ")}; "node": ${[...NODE_KEYS].join(", ")}.`,
  parse: parseRun(readConfig)
})

// ---- module -----------------------------------------------------------------------------------------

const moduleAbiSpec: CommandSpec<Command> = {
  path: ["module", "abi"],
  summary: "Print the ABI of a compiled Move module, as the API's module endpoint serves it.",
  operands: "FILE.mv",
  operandCount: { min: 1, max: 1 },
  flags: [],
  parse: (args) => Result.succeed({ _tag: "ModuleAbi", file: args.operands[0]! })
}

const moduleListSpec: CommandSpec<Command> = {
  path: ["module", "list"],
  summary: "List the modules a genesis blob writes (address::name and size in bytes).",
  flags: [{ name: "--genesis", value: "FILE", description: "the genesis blob (default: the shipped devnet genesis)" }],
  parse: (args) => Result.succeed({ _tag: "ModuleList", genesis: args.values.get("--genesis") })
}

/** The command table. `readConfig` reads `--config` files (injected by tests). */
export const commands = (
  readConfig: (path: string) => string = (p) => readFileSync(p, "utf8")
): ReadonlyArray<CommandSpec<Command>> => [
  runSpec(readConfig),
  moduleAbiSpec,
  moduleListSpec,
  ...localCommandSpecs<Command>((options) => ({ _tag: "Local", options })),
  followCommandSpec<Command>((options) => ({ _tag: "Follow", options }))
]

/** Parses the command line: a command, its help, the version, or one usage error. */
export const parseCommand = (argv: ReadonlyArray<string>, readConfig?: (path: string) => string) =>
  resolveCommand(PROGRAM, DESCRIPTION, commands(readConfig), argv)

// ---- running ----------------------------------------------------------------------------------------

const readBytes = (path: string): Uint8Array => new Uint8Array(readFileSync(path))

const packageRoot = (): string | undefined => packageRootOf(dirname(fileURLToPath(import.meta.url)), "movenode")

/** The commit of the checkout this command runs from (undefined in an npm install). */
const gitHashOfThisCheckout = (): string | undefined => {
  const root = packageRoot()
  return root === undefined ? undefined : readGitHash(root)
}

/** `movenode 0.1.0` (package.json's version). */
export const versionLine = (): string => {
  const root = packageRoot()
  let version = "unknown"
  try {
    if (root !== undefined) version = JSON.parse(readFileSync(`${root}/package.json`, "utf8")).version
  } catch {
    // an unreadable package.json: still answer
  }
  return `${PROGRAM} ${version}`
}

/** The layers of `movenode run`: LMDB ledger → node → HTTP server, and the start-up line. */
export const runLayer = (options: RunOptions) => {
  let nodeSection = options.node
  if (nodeSection.viewFilter !== undefined) {
    const filter = parseViewFilterJson(nodeSection.viewFilter)
    if (Result.isFailure(filter)) throw new Error(`config: node.${filter.failure}`)
    nodeSection = { ...nodeSection, viewFilter: filter.success }
  }
  const nodeConfig = makeNodeConfig(nodeSection as Parameters<typeof makeNodeConfig>[0])
  const problems = validateNodeConfig(nodeConfig)
  if (problems.length > 0) throw new Error(`config: ${problems.join("; ")}`)
  const apiWorkers = options.apiWorkers ?? 0
  const http: Partial<HttpConfig> = {
    // With API workers this process's own API moves to a private port: the workers serve the public one.
    listen: apiWorkers > 0 ? { host: "127.0.0.1", port: 0 } : options.listen,
    metricsListen: options.metricsListen,
    headerPrefix: options.headerPrefix,
    // The build's commit when running from a checkout (`npm start`), as the reference reports its own.
    gitHash: options.gitHash ?? gitHashOfThisCheckout(),
    // The server's own "listening on" line is left out: the start-up line says it.
    // Lines of one event-loop turn leave in one write (RequestLog.ts).
    log: options.quiet
      ? undefined
      : ((requestLog) => (line: string) => {
          if (!line.startsWith("movenode listening on ")) requestLog.line(line)
        })(makeRequestLog()),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.cors === undefined ? {} : { cors: options.cors }),
    // New connections accepted several per turn under load (extraAcceptors.ts).
    acceptors: servingAcceptors
  }
  const genesisFile = options.genesis ?? devnetGenesisPath()
  const genesis = readBytes(genesisFile)
  let imported: GenesisImport | undefined
  const ledger = Layer.effect(
    Ledger,
    Effect.gen(function* () {
      const handle = yield* LedgerLmdb.open({ path: options.dataDir, pruneWindow: options.pruneWindow })
      imported = yield* importGenesis(handle, genesis)
      return handle.service
    })
  )
  // Views run on worker threads reading the same store (NodeConfig.viewThreads, 1 by default).
  const views = ViewsWorkerLayer({
    path: options.dataDir,
    workerUrl: options.viewWorkerUrl,
    log: (line) => process.stderr.write(`movenode: ${line}\n`)
  })
  const announce = options.announce
  const gitHash = http.gitHash
  const startupLine = Layer.effectDiscard(
    Effect.gen(function* () {
      const { address: own } = yield* MovenodeServer
      const workers =
        apiWorkers === 0
          ? undefined
          : yield* startApiWorkers(apiWorkers, {
              dataDir: options.dataDir,
              listen: options.listen,
              writerUrl: `http://${own.host}:${own.port}/v1`,
              headerPrefix: options.headerPrefix,
              gitHash
            })
      if (announce === undefined) return
      const address = workers?.address ?? own
      const info = yield* (yield* Ledger).ledgerInfo
      const what =
        imported?._tag === "Imported"
          ? `imported ${options.genesis === undefined ? "the shipped devnet genesis" : `the genesis ${options.genesis}`} (chain id ${info.chainId}) into ${options.dataDir}`
          : `opened ${options.dataDir} (chain id ${info.chainId}, ledger version ${info.ledgerVersion})`
      const note = apiWorkers > 0 ? ` (${apiWorkers} API worker processes)` : ""
      announce(`movenode: ${what}; listening on http://${address.host}:${address.port}/v1${note}`)
    })
  )
  return startupLine.pipe(
    Layer.provideMerge(MovenodeServer.layer(http)),
    Layer.provide(Node.layerWith(views, TransactionEncoderLive)),
    Layer.provideMerge(ledger),
    Layer.provide(nodeConfigLayer(nodeConfig))
  )
}

const fieldsOf = (e: object): string =>
  Object.entries(e)
    .filter(([k]) => k !== "_tag")
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ")

const describeError = (e: unknown): string => {
  if (typeof e === "object" && e !== null) {
    const tag = "_tag" in e ? `${String(e._tag)}: ` : ""
    const message = "message" in e && String(e.message) !== "" ? String(e.message) : fieldsOf(e)
    return tag + message
  }
  return String(e)
}

const fail: (message: string, code?: number) => never = (message, code = 1) => {
  process.stderr.write(`${message}\n`)
  process.exit(code)
}

const readOrFail = (path: string, what: string): Uint8Array => {
  try {
    return readBytes(path)
  } catch (e) {
    return fail(`${what}: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/** Runs one parsed command (the `run` step of the table). */
const execute = (command: Command): void => {
  switch (command._tag) {
    case "ModuleAbi": {
      const bytes = readOrFail(command.file, "movenode module abi")
      const abi = moduleAbiCommand(bytes)
      if (Result.isFailure(abi))
        fail(`movenode module abi: ${command.file} is not a Move module: ${describeError(abi.failure)}`)
      process.stdout.write(abi.success + "\n")
      return
    }
    case "ModuleList": {
      const file = command.genesis ?? devnetGenesisPath()
      const rows = listGenesisModules(readOrFail(file, "movenode module list"))
      if (Result.isFailure(rows))
        fail(`movenode module list: ${file} is not a genesis blob: ${describeError(rows.failure)}`)
      process.stdout.write(rows.success.map((r) => `${r.address}::${r.name}\t${r.bytes.length}\n`).join(""))
      return
    }
    case "Local": {
      // A local chain under load promotes its pool and blocks in flight: old space bounded at three
      // times the live set, not 1.25 (tuneV8.ts: fewer full collections, ~5 % less CPU per transfer
      // than at twice, for ~70 MB more resident memory at full load).
      tuneV8ForServing({ oldGenerationGrowthPercent: 200 })
      Layer.launch(localLayer(command.options)).pipe(
        Effect.tapError((e) => Effect.sync(() => process.stderr.write(`movenode: ${describeError(e)}\n`))),
        runMain({
          disableErrorReporting: true,
          teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
        })
      )
      return
    }
    case "Follow": {
      // A follower catching up promotes its in-flight blocks: old space left to V8 (tuneV8.ts).
      tuneV8ForServing({ boundOldGeneration: false })
      followProgram(command.options).pipe(
        Effect.tapError((e) => Effect.sync(() => process.stderr.write(`movenode follow: ${describeError(e)}\n`))),
        runMain({
          disableErrorReporting: true,
          teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
        })
      )
      return
    }
    case "Run": {
      tuneV8ForServing()
      let layer: ReturnType<typeof runLayer>
      try {
        layer = runLayer({ ...command.options, announce: (line) => process.stdout.write(`${line}\n`) })
      } catch (e) {
        fail(`movenode run: ${e instanceof Error ? e.message : describeError(e)}`)
      }
      Layer.launch(layer).pipe(
        Effect.tapError((e) => Effect.sync(() => process.stderr.write(`movenode run: ${describeError(e)}\n`))),
        // SIGINT/SIGTERM interrupt the layer: a clean shutdown, so exit code 0 (not 130).
        runMain({
          disableErrorReporting: true,
          teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
        })
      )
    }
  }
}

let stdoutGuarded = false

export const main = (argv: ReadonlyArray<string>): void => {
  // A process forked by `--api-workers` runs the worker, whatever the command line says.
  if (isApiWorker()) {
    apiWorkerMain()
    return
  }
  // `movenode module list … | head` closes stdout early: that is not an error.
  if (!stdoutGuarded) {
    stdoutGuarded = true
    process.stdout.on("error", (e: NodeJS.ErrnoException) =>
      e.code === "EPIPE" ? process.exit(0) : fail(`movenode: ${e.message}`)
    )
  }
  const resolved = parseCommand(argv)
  if (Result.isFailure(resolved)) fail(formatUsageError(PROGRAM, resolved.failure as UsageError), 2)
  const r = resolved.success
  if (r._tag === "Help") process.stdout.write(`${r.text}\n`)
  else if (r._tag === "Version") process.stdout.write(`${versionLine()}\n`)
  else execute(r.command)
}

const invokedDirectly = (() => {
  const script = process.argv[1]
  if (script === undefined) return false
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href
  } catch {
    return false
  }
})()

if (invokedDirectly) main(process.argv.slice(2))
