/**
 * The `movenode` command.
 *
 *   movenode run [--genesis FILE] [--data-dir DIR] [--listen ADDR:PORT] [--metrics-listen ADDR:PORT]
 *                [--header-prefix P] [--config FILE.json] [--prune-window N] [--quiet]
 *   movenode module abi FILE.mv
 *   movenode module list --genesis FILE
 *
 * `run` composes the LMDB ledger (genesis imported on first start, checked on later ones), the
 * node services and the HTTP server, and runs until SIGINT/SIGTERM: the server stops accepting,
 * in-flight requests finish, then the node and the ledger are closed. Arguments are parsed by
 * hand (`parseCommand`, pure and tested) so every mistake gets a one-line message and exit code 2.
 */
import { readFileSync, realpathSync } from "node:fs"
import { dirname } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { type HttpConfig, type ListenAddress, parseListenAddress } from "./http/HttpConfig.js"
import { MovenodeServer } from "./http/MovenodeServer.js"
import { LedgerLmdb } from "./ledger/index.js"
import { listGenesisModules, moduleAbiCommand } from "./move/abi/cli.js"
import { TransactionEncoderLive } from "./node/encode/TransactionEncoderLive.js"
import { Node } from "./node/Node.js"
import { makeNodeConfig, nodeConfigLayer, validateNodeConfig } from "./node/NodeConfig.js"
import { parseViewFilterJson } from "./node/view/ViewFilter.js"
import { ViewsWorkerLayer } from "./node/view/ViewsWorker.js"
import { devnetGenesisPath } from "./devnetGenesis.js"
import { packageRootOf, readGitHash } from "./gitHash.js"
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
  readonly gitHash: string | undefined
  readonly quiet: boolean
  /** The `node` section of the config file, passed to `makeNodeConfig`. */
  readonly node: Record<string, unknown>
  /**
   * The compiled view worker script; default `node/view/viewWorker.js` of this build. Not a flag:
   * for programs (and tests) that run these sources through a TypeScript loader.
   */
  readonly viewWorkerUrl?: URL | undefined
}

export type Command =
  | { readonly _tag: "Run"; readonly options: RunOptions }
  | { readonly _tag: "ModuleAbi"; readonly file: string }
  | { readonly _tag: "ModuleList"; readonly genesis: string }
  | { readonly _tag: "Help" }

export const USAGE = `usage:
  movenode run [--genesis FILE] [--data-dir DIR] [--listen ADDR:PORT] [--metrics-listen ADDR:PORT]
               [--header-prefix PREFIX] [--config FILE.json] [--prune-window N] [--quiet]
  movenode module abi FILE.mv
  movenode module list --genesis FILE

defaults: --genesis the shipped devnet genesis (genesis/devnet.blob), --data-dir ./data, --listen 127.0.0.1:8080, --header-prefix X-SERVICE-, no metrics port.
The config file is JSON: {"genesis", "dataDir", "listen", "metricsListen", "headerPrefix",
"pruneWindow", "maxBodyBytes", "maxConnections", "gitHash", "quiet", "node": {"maxPageSize", "viewGasBudget", "viewThreads", "viewFilter", …}};
flags override it.`

const RUN_FLAGS = new Set([
  "--genesis",
  "--data-dir",
  "--listen",
  "--metrics-listen",
  "--header-prefix",
  "--config",
  "--prune-window"
])

/** `--name value` and `--name=value` pairs; `--quiet` is the one switch. */
const flagsOf = (
  args: ReadonlyArray<string>,
  known: ReadonlySet<string>
): Result.Result<{ values: Map<string, string>; quiet: boolean }, string> => {
  const values = new Map<string, string>()
  let quiet = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--quiet" && known.has("--quiet")) {
      quiet = true
      continue
    }
    const eq = arg.indexOf("=")
    const name = eq > 0 ? arg.slice(0, eq) : arg
    if (!known.has(name)) return Result.fail(`unknown argument: ${arg}`)
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i]
    if (value === undefined || (eq < 0 && value.startsWith("--"))) return Result.fail(`${name} needs a value`)
    if (values.has(name)) return Result.fail(`${name} given twice`)
    values.set(name, value)
  }
  return Result.succeed({ values, quiet })
}

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

/** Parses the command line; `readConfig` reads the `--config` file (injected for tests). */
export const parseCommand = (
  argv: ReadonlyArray<string>,
  readConfig: (path: string) => string = (p) => readFileSync(p, "utf8")
): Result.Result<Command, string> =>
  Result.gen(function* () {
    const [command, ...rest] = argv
    if (command === undefined || command === "help" || command === "--help" || command === "-h")
      return { _tag: "Help" } as const
    if (command === "module") {
      const [sub, ...args] = rest
      if (sub === "abi") {
        if (args.length !== 1 || args[0]!.startsWith("--"))
          return yield* Result.fail("usage: movenode module abi FILE.mv")
        return { _tag: "ModuleAbi", file: args[0]! } as const
      }
      if (sub === "list") {
        const { values } = yield* flagsOf(args, new Set(["--genesis"]))
        const genesis = values.get("--genesis")
        if (genesis === undefined) return yield* Result.fail("movenode module list: --genesis FILE is required")
        return { _tag: "ModuleList", genesis } as const
      }
      return yield* Result.fail(`unknown subcommand: module ${sub ?? ""}`.trim())
    }
    if (command !== "run") return yield* Result.fail(`unknown command: ${command}`)
    const { values, quiet } = yield* flagsOf(rest, new Set([...RUN_FLAGS, "--quiet"]))
    let config: Record<string, unknown> = {}
    const configPath = values.get("--config")
    if (configPath !== undefined) {
      let text: string
      try {
        text = readConfig(configPath)
      } catch (e) {
        return yield* Result.fail(`--config: cannot read ${configPath}: ${e instanceof Error ? e.message : String(e)}`)
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch (e) {
        return yield* Result.fail(`--config: ${configPath} is not JSON: ${e instanceof Error ? e.message : String(e)}`)
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        return yield* Result.fail(`--config: ${configPath} must hold a JSON object`)
      config = parsed as Record<string, unknown>
    }
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
    const maxBody = config.maxBodyBytes
    if (maxBody !== undefined && (typeof maxBody !== "number" || !Number.isInteger(maxBody) || maxBody < 1))
      return yield* Result.fail(`config: "maxBodyBytes" must be a positive integer`)
    const maxConnections = config.maxConnections
    if (
      maxConnections !== undefined &&
      (typeof maxConnections !== "number" || !Number.isInteger(maxConnections) || maxConnections < 1)
    )
      return yield* Result.fail(`config: "maxConnections" must be a positive integer`)
    if (config.quiet !== undefined && typeof config.quiet !== "boolean")
      return yield* Result.fail(`config: "quiet" must be a boolean`)
    const node = config.node ?? {}
    if (typeof node !== "object" || node === null || Array.isArray(node))
      return yield* Result.fail(`config: "node" must be an object`)
    const headerPrefix = values.get("--header-prefix") ?? (yield* str(config, "headerPrefix")) ?? "X-SERVICE-"
    if (!/^[A-Za-z0-9-]*$/.test(headerPrefix))
      return yield* Result.fail(`--header-prefix: only letters, digits and "-" are allowed, got "${headerPrefix}"`)
    return {
      _tag: "Run",
      options: {
        genesis,
        dataDir: values.get("--data-dir") ?? (yield* str(config, "dataDir")) ?? "./data",
        listen: yield* listenOf("--listen", listenText),
        metricsListen: metricsText === undefined ? undefined : yield* listenOf("--metrics-listen", metricsText),
        headerPrefix,
        pruneWindow,
        maxBodyBytes: maxBody as number | undefined,
        maxConnections: maxConnections as number | undefined,
        gitHash: yield* str(config, "gitHash"),
        quiet: quiet || config.quiet === true,
        node: node as Record<string, unknown>
      }
    } as const
  })

const readBytes = (path: string): Uint8Array => new Uint8Array(readFileSync(path))

/** The commit of the checkout this command runs from (undefined in an npm install). */
const gitHashOfThisCheckout = (): string | undefined => {
  const root = packageRootOf(dirname(fileURLToPath(import.meta.url)), "movenode")
  return root === undefined ? undefined : readGitHash(root)
}

/** The layers of `movenode run`: LMDB ledger → node → HTTP server. */
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
  const http: Partial<HttpConfig> = {
    listen: options.listen,
    metricsListen: options.metricsListen,
    headerPrefix: options.headerPrefix,
    // The build's commit when running from a checkout (`npm start`), as the reference reports its own.
    gitHash: options.gitHash ?? gitHashOfThisCheckout(),
    log: options.quiet ? undefined : (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections })
  }
  const ledger = LedgerLmdb.layer({
    path: options.dataDir,
    genesis: readBytes(options.genesis ?? devnetGenesisPath()),
    pruneWindow: options.pruneWindow
  })
  // Views run on worker threads reading the same store (NodeConfig.viewThreads, 1 by default).
  const views = ViewsWorkerLayer({
    path: options.dataDir,
    workerUrl: options.viewWorkerUrl,
    log: (line) => process.stderr.write(`movenode: ${line}\n`)
  })
  return MovenodeServer.layer(http).pipe(
    Layer.provide(Node.layerWith(views, TransactionEncoderLive)),
    Layer.provide(ledger),
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
  process.stderr.write(`movenode: ${message}\n`)
  process.exit(code)
}

let stdoutGuarded = false

export const main = (argv: ReadonlyArray<string>): void => {
  // `movenode module list … | head` closes stdout early: that is not an error.
  if (!stdoutGuarded) {
    stdoutGuarded = true
    process.stdout.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" ? process.exit(0) : fail(e.message)))
  }
  const parsed = parseCommand(argv)
  if (Result.isFailure(parsed)) fail(`${parsed.failure}\n\n${USAGE}`, 2)
  const command = parsed.success
  switch (command._tag) {
    case "Help":
      process.stdout.write(USAGE + "\n")
      return
    case "ModuleAbi": {
      let bytes: Uint8Array
      try {
        bytes = readBytes(command.file)
      } catch (e) {
        fail(`cannot read ${command.file}: ${describeError(e)}`)
      }
      const abi = moduleAbiCommand(bytes)
      if (Result.isFailure(abi)) fail(`${command.file} is not a Move module: ${describeError(abi.failure)}`)
      process.stdout.write(abi.success + "\n")
      return
    }
    case "ModuleList": {
      let bytes: Uint8Array
      try {
        bytes = readBytes(command.genesis)
      } catch (e) {
        fail(`cannot read ${command.genesis}: ${describeError(e)}`)
      }
      const rows = listGenesisModules(bytes)
      if (Result.isFailure(rows)) fail(`${command.genesis} is not a genesis blob: ${describeError(rows.failure)}`)
      process.stdout.write(rows.success.map((r) => `${r.address}::${r.name}\t${r.bytes.length}\n`).join(""))
      return
    }
    case "Run": {
      tuneV8ForServing()
      let layer: ReturnType<typeof runLayer>
      try {
        layer = runLayer(command.options)
      } catch (e) {
        fail(describeError(e))
      }
      Layer.launch(layer).pipe(
        Effect.tapError((e) => Effect.sync(() => process.stderr.write(`movenode: ${describeError(e)}\n`))),
        // SIGINT/SIGTERM interrupt the layer: a clean shutdown, so exit code 0 (not 130).
        runMain({
          disableErrorReporting: true,
          teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
        })
      )
    }
  }
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
