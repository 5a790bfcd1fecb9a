/**
 * The local chain, assembled (anvil's `try_spawn`): a ledger (LMDB in a data directory, or in
 * memory) holding a local genesis (chain id 4, a root key we hold, pre-funded accounts with
 * well-known keys), the mempool and block producer over the real executor, the faucet, the node
 * services and the servers (API, faucet, readiness, GraphQL processor_status stub). Everything
 * lives in one scope and stops with it, servers first.
 *
 *   LocalChain.layer(config)   the layer (what `movenode` runs)
 *   LocalChain.spawn(config)   a scoped Effect giving the URLs, keys and a `mine` control (tests)
 *
 * It sits above `src/http` (it starts servers), beside `cli.ts`, which only maps flags onto
 * `LocalChainConfig`; `src/chain` holds the parts, which import nothing above `src/ledger`.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import { toHex } from "./bcs/index.js"
import { BlockProducer, BlockProducerConfig } from "./chain/BlockProducer.js"
import { intakeBudget } from "./chain/TurnBudget.js"
import { buildLocalGenesis, CORE_RESOURCES, ed25519AuthKey } from "./chain/buildLocalGenesis.js"
import { ChainUnavailable } from "./chain/ChainError.js"
import { ChainEvents } from "./chain/ChainEvents.js"
import { ChainVmLive } from "./chain/ChainVmLive.js"
import { ChainClockService } from "./chain/controls/ChainClock.js"
import { ChainControls, type ChainControlsService } from "./chain/controls/ChainControls.js"
import { Impersonation } from "./chain/controls/Impersonation.js"
import { ed25519PublicKey } from "./chain/ed25519Signer.js"
import { Faucet, FaucetError } from "./chain/Faucet.js"
import {
  defaultLocalChainConfig,
  derivedKey,
  type LocalChainConfigShape,
  type ServerAddress,
  testLocalChainConfig
} from "./chain/LocalChainConfig.js"
import { Mempool } from "./chain/Mempool.js"
import { ProductionGate } from "./chain/ProductionGate.js"
import { indexGate } from "./indexer/engine/indexGate.js"
import { AdmissionThread, defaultAdmissionWorkerUrl } from "./chain/mempool/AdmissionThread.js"
import { devnetGenesisPath, readDevnetGenesis } from "./devnetGenesis.js"
import { type AccountAddress, addressToLongString } from "./domain/AccountAddress.js"
import { ApiError } from "./domain/ApiError.js"
import type { ForkConfig } from "./fork/ForkConfig.js"
import type { ForkIdentity } from "./fork/ForkIdentity.js"
import { openForkLedger } from "./fork/ForkLedger.js"
import { guardLayer, missGuard } from "./fork/guardServices.js"
import { packageRootOf, readGitHash } from "./gitHash.js"
import { FaucetServer } from "./http/FaucetServer.js"
import { FrontProcess } from "./http/front/FrontProcess.js"
import { GraphqlStub } from "./http/GraphqlStub.js"
import {
  GraphqlServer,
  Indexer,
  indexerLayerFor,
  indexerSchemaExtra,
  prebuiltIndexFileOf,
  processorPipeline,
  processorsCodeKey,
  writeGenesisIndex
} from "./indexer/index.js"
import type { HttpConfig } from "./http/HttpConfig.js"
import { MovenodeServer } from "./http/MovenodeServer.js"
import { type HealthCheck, ReadinessServer, urlOf } from "./http/ReadinessServer.js"
import { LedgerLmdb, LedgerMemory } from "./ledger/index.js"
import { type BlockInfo, Ledger } from "./ledger/Ledger.js"
import { StorageError } from "./ledger/LedgerError.js"
import { TransactionEncoderLive } from "./node/encode/TransactionEncoderLive.js"
import { Node } from "./node/Node.js"
import { Submissions } from "./node/Submissions.js"
import { ViewsVmLayer } from "./node/view/ViewsVm.js"

export interface LocalAccount {
  readonly address: AccountAddress
  readonly privateKey: Uint8Array
  readonly balance: bigint
}

export interface LocalChainInfo {
  readonly chainId: number
  /** `http://host:port/v1`, and the side servers' URLs (undefined when not served). */
  readonly apiUrl: string
  readonly faucetUrl: string | undefined
  readonly readinessUrl: string | undefined
  readonly graphqlUrl: string | undefined
  /** The indexer's database (`SQLite (…)`, `PostgreSQL (…)`); undefined without an indexer. */
  readonly indexer: string | undefined
  /** The root account (0xa550c18, which delegates minting to the faucet's account at the first start) and its key. */
  readonly root: { readonly address: AccountAddress; readonly privateKey: Uint8Array }
  readonly accounts: ReadonlyArray<LocalAccount>
  readonly dataDir: string | undefined
  /** Whether blocks are flushed to the disk before they are announced (`LocalChainConfig.fsync`). */
  readonly fsync: boolean
  /**
   * Where the genesis came from: the data directory's (`kept`), this process's earlier build
   * (`cached`), the one `npm run build` made for the default parameters (`prebuilt`), or `built` now.
   */
  readonly genesisSource: GenesisSource
  /** What the chain is a fork of (`fork` in the config); undefined for a chain of its own. */
  readonly fork: ForkIdentity | undefined
  /** Makes one block now, with whatever is ready (the library's "mine"; Manual mining needs it). */
  readonly mine: Effect.Effect<BlockInfo, ChainUnavailable>
  /** The test controls (snapshot/revert, time, epochs…): the same as `/__movenode/v1/…` (docs/controls.md). */
  readonly controls: ChainControlsService
}

/** The keys of a configuration: the root key and the pre-funded accounts', all derived from its seed. */
export const localKeys = (config: LocalChainConfigShape) => {
  const rootPrivateKey = derivedKey(config.seed, "root")
  const accounts: LocalAccount[] = Array.from({ length: config.accounts }, (_, i) => {
    const privateKey = derivedKey(config.seed, `account/${i}`)
    return { address: ed25519AuthKey(ed25519PublicKey(privateKey)), privateKey, balance: config.accountBalance }
  })
  return { rootPrivateKey, accounts }
}

const genesisCache = new Map<string, Uint8Array>()

export type GenesisSource = "kept" | "cached" | "prebuilt" | "built" | "fork"

let devnetDigest: string | undefined
/** SHA-256 of the shipped devnet genesis (1.4 MB), read and hashed once per process. */
const devnetGenesisDigest = (): string =>
  (devnetDigest ??= createHash("sha256").update(readFileSync(devnetGenesisPath())).digest("hex"))

/** The genesis parameters of a configuration and the devnet genesis it starts from (its content's SHA-256). */
const genesisInputsOf = (config: LocalChainConfigShape) => ({
  seed: config.seed,
  chainId: config.chainId,
  accounts: config.accounts,
  accountBalance: `${config.accountBalance}`,
  epochIntervalSecs: config.epochIntervalSecs,
  base: devnetGenesisDigest()
})

/**
 * What a genesis kept in a data directory depends on: its inputs and the code that built it (the
 * package version and commit), so a new movenode rebuilds it.
 */
const genesisKeyOf = (config: LocalChainConfigShape): string => {
  const root = packageRootOf(dirname(fileURLToPath(import.meta.url)), "movenode")
  let version = "?"
  try {
    if (root !== undefined) version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version
  } catch {
    // unreadable: the commit and the base still tell builds apart
  }
  return JSON.stringify({
    ...genesisInputsOf(config),
    movenode: [version, root === undefined ? undefined : readGitHash(root)]
  })
}

/**
 * What a kept index depends on besides its schema (`indexerSchemaExtra`): the genesis parameters and
 * the processors' built code (`processorsCodeKey`: a build that left them as they were keeps the
 * index); without a build, the package version and commit (`genesisKeyOf`).
 */
const indexerKeyOf = (config: LocalChainConfigShape): string => {
  const root = packageRootOf(dirname(fileURLToPath(import.meta.url)), "movenode")
  const code = root === undefined ? undefined : processorsCodeKey(root)
  return code === undefined ? genesisKeyOf(config) : JSON.stringify({ ...genesisInputsOf(config), processors: code })
}

/** Builds the genesis of a configuration (`buildLocalGenesis`: 0.5–1.5 s of CPU). */
export const buildGenesisFor = (config: LocalChainConfigShape): Uint8Array => {
  const { rootPrivateKey, accounts } = localKeys(config)
  const built = buildLocalGenesis(readDevnetGenesis(), {
    chainId: config.chainId,
    rootPublicKey: ed25519PublicKey(rootPrivateKey),
    accounts: accounts.map((a) => ({ address: a.address, amount: a.balance })),
    epochIntervalSecs: config.epochIntervalSecs
  })
  if (Result.isFailure(built)) throw new Error(`cannot build the local genesis: ${built.failure}`)
  return built.success
}

/**
 * Where `npm run build` keeps the default configuration's genesis (`dist/genesis/`, one file per
 * set of inputs, named by their hash): the default parameters are a constant (the keys come from
 * the fixed seed), so the first start in a new data directory imports it instead of building it.
 * The code is not part of the name: the file is rebuilt with the rest of dist/ (an installed
 * package has no commit to compare; `test/LocalChain.prebuiltGenesis.test.ts` checks it equals a
 * build by the sources).
 */
export const prebuiltGenesisFile = (config: LocalChainConfigShape): string | undefined => {
  const root = packageRootOf(dirname(fileURLToPath(import.meta.url)), "movenode")
  if (root === undefined) return undefined
  const inputs = JSON.stringify(genesisInputsOf(config))
  return join(root, "dist", "genesis", `local-${createHash("sha256").update(inputs).digest("hex").slice(0, 32)}.blob`)
}

/**
 * Builds the genesis of `config` (the default configuration unless given) and keeps it where
 * `genesisOf` looks for a prebuilt one; returns the file. `npm run build` runs it
 * (scripts/build-local-genesis.mjs), so it is always built by the code it ships with.
 */
export const writePrebuiltLocalGenesis = (config: LocalChainConfigShape = defaultLocalChainConfig): string => {
  const file = prebuiltGenesisFile(config)
  if (file === undefined) throw new Error("movenode's package root was not found")
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, buildGenesisFor(config))
  return file
}

/**
 * Indexes the prebuilt genesis of `config` beside it (`prebuiltIndexFileOf`), so a new data
 * directory's indexer starts at version 1; `npm run build` runs it after `writePrebuiltLocalGenesis`.
 */
export const writePrebuiltLocalIndex = async (
  config: LocalChainConfigShape = defaultLocalChainConfig
): Promise<string> => {
  const genesisFile = prebuiltGenesisFile(config)
  if (genesisFile === undefined || !existsSync(genesisFile)) throw new Error("build the prebuilt genesis first")
  const file = prebuiltIndexFileOf(genesisFile)
  const pipeline = processorPipeline()
  await writeGenesisIndex(
    new Uint8Array(readFileSync(genesisFile)),
    file,
    pipeline,
    indexerSchemaExtra(indexerKeyOf(config), pipeline)
  )
  return file
}

/**
 * The genesis of a configuration, from the first of: the data directory (a ledger there keeps the
 * genesis it started from; a fresh ledger — `--fresh`, or a deleted `ledger/` — reuses the kept
 * genesis when it was built from the same parameters and code), this process's cache, the
 * prebuilt one for the default parameters (`writePrebuiltLocalGenesis`), or a build
 * (`buildLocalGenesis` from the shipped devnet genesis's framework and parameters). Kept in the
 * data directory with what it was built from (`genesis.blob`, `genesis.key`).
 */
const genesisOf = (config: LocalChainConfigShape): { bytes: Uint8Array; source: GenesisSource } => {
  const dir = config.dataDir
  const file = dir === undefined ? undefined : join(dir, "genesis.blob")
  const keyFile = dir === undefined ? undefined : join(dir, "genesis.key")
  if (file !== undefined && existsSync(file) && existsSync(join(dir!, "ledger")))
    return { bytes: new Uint8Array(readFileSync(file)), source: "kept" }
  const key = genesisKeyOf(config)
  if (file !== undefined && existsSync(file) && existsSync(keyFile!) && readFileSync(keyFile!, "utf8") === key)
    return { bytes: new Uint8Array(readFileSync(file)), source: "kept" }
  let bytes = genesisCache.get(key)
  let source: GenesisSource = "cached"
  if (bytes === undefined) {
    const prebuilt = prebuiltGenesisFile(config)
    if (prebuilt !== undefined && existsSync(prebuilt)) {
      bytes = new Uint8Array(readFileSync(prebuilt))
      source = "prebuilt"
    } else {
      bytes = buildGenesisFor(config)
      source = "built"
    }
    genesisCache.set(key, bytes)
  }
  if (file !== undefined) {
    mkdirSync(dir!, { recursive: true })
    writeFileSync(file, bytes)
    writeFileSync(keyFile!, key)
  }
  return { bytes, source }
}

/**
 * `--fresh`: forget the chain kept in the data directory (only the files this node writes there).
 * The genesis stays: the next start rebuilds it only if its parameters or the code changed.
 */
const forget = (dataDir: string) => {
  rmSync(join(dataDir, "ledger"), { recursive: true, force: true })
  rmSync(join(dataDir, "indexer"), { recursive: true, force: true })
}

const apiUrlOf = (a: ServerAddress) => `${urlOf(a)}v1`

/** What differs between a chain of its own and a fork (`src/fork`): the ledger and its identity. */
interface ChainBase {
  readonly ledger: Layer.Layer<Ledger, Error>
  readonly chainId: number
  readonly genesisSource: GenesisSource
  /** A fork: its identity, and guards putting the node, producer and faucet under retry-on-miss. */
  readonly fork: { readonly identity: ForkIdentity; readonly seenLocally: (hashHex: string) => void } | undefined
}

/** The local chain over `base`: mempool, producer, faucet, node services, servers, the info service. */
const assemble = (config: LocalChainConfigShape, http: Partial<HttpConfig>, chainBase: ChainBase) => {
  const { rootPrivateKey, accounts } = localKeys(config)
  const fork = chainBase.fork
  // The test controls' shared state: who is impersonated, and the chain's clock.
  const controlsState = Layer.mergeAll(Impersonation.layer({ auto: config.autoImpersonate }), ChainClockService.layer)
  // Over a ledger in the data directory (not a fork's), admissions validate on a worker thread.
  const admissionWorkerUrl =
    config.admissionWorker === false ? undefined : (config.admissionWorker ?? defaultAdmissionWorkerUrl())
  const admission =
    fork === undefined && config.dataDir !== undefined && admissionWorkerUrl !== undefined
      ? AdmissionThread.layer({ path: join(config.dataDir, "ledger"), workerUrl: admissionWorkerUrl })
      : Layer.empty
  const base = Layer.mergeAll(chainBase.ledger, ChainVmLive, ChainEvents.layer, ProductionGate.layer, admission).pipe(
    Layer.provideMerge(controlsState)
  )
  // The faucet delegates the root's mint capability at boot, as the reference's does, where blocks
  // come on their own and the root key is ours (not on a fork, not on a chain mined by hand).
  const delegate = fork === undefined && config.mining._tag !== "Manual" ? derivedKey(config.seed, "faucet") : undefined
  // On a fork, where the source's root account is not our root key's, the faucet funds from an
  // account of ours it provisions by state edits (Faucet.ts, provisionedFunder.ts): it needs the producer.
  const provisioned = fork === undefined ? undefined : derivedKey(config.seed, "fork-faucet")
  const parts = Layer.provideMerge(
    Faucet.layer({ rootPrivateKey, chainId: chainBase.chainId, delegate, provisioned }),
    BlockProducer.layer
  )
  const guardedParts =
    fork === undefined
      ? parts
      : Layer.mergeAll(
          // A block whose transactions need state the source cannot give is made without them.
          guardLayer(BlockProducer, (e) => new ChainUnavailable({ message: e.message }), true),
          guardLayer(Faucet, (e) => new FaucetError({ code: "AptosApiError", message: e.message, txnHashes: [] }))
        ).pipe(Layer.provide(parts))
  // The test controls read state too (balances, accounts): on a fork, under retry-on-miss as well.
  const controls =
    fork === undefined
      ? ChainControls.layer
      : guardLayer(
          ChainControls,
          (e) => new ApiError({ status: 503, code: "internal_error", message: e.message })
        ).pipe(Layer.provide(ChainControls.layer))
  const chain = Layer.provideMerge(controls, guardedParts).pipe(
    Layer.provideMerge(Layer.provideMerge(Mempool.layer, base))
  )
  // The node's services with the mempool's endpoints added (a read-only node has none).
  const withSubmissions = Layer.effect(
    Node,
    Effect.gen(function* () {
      const base = yield* Node
      return Node.of({ ...base, submissions: yield* Submissions, controls: yield* ChainControls })
    })
  ).pipe(Layer.provide(Node.layerWith(ViewsVmLayer, TransactionEncoderLive)))
  const guardedNode =
    fork === undefined
      ? withSubmissions
      : guardLayer(Node, (e) => new ApiError({ status: 503, code: "internal_error", message: e.message })).pipe(
          Layer.provide(withSubmissions)
        )
  // A fork learns which transactions went through its own pool (committed, discarded or dropped),
  // so looking their hashes up never asks the source (after a revert or reset they are just gone).
  const forkWatch =
    fork === undefined
      ? Layer.empty
      : Layer.effectDiscard(
          Effect.gen(function* () {
            const next = yield* (yield* ChainEvents).poolSubscription
            yield* Effect.forkScoped(
              Effect.forever(
                Effect.flatMap(next, (e) =>
                  Effect.sync(() => {
                    // Committed ones too: a revert or reset may take them back out of the local store.
                    if (e._tag === "BlockCommitted") {
                      for (const c of e.committed) fork.seenLocally(c.hashKey)
                      for (const d of e.discarded) fork.seenLocally(d.hashKey)
                    }
                    for (const h of e.dropped) fork.seenLocally(h)
                  })
                )
              )
            )
          })
        )
  const node = guardedNode.pipe(
    Layer.provideMerge(Layer.mergeAll(Submissions.layer, BlockProducer.loop, forkWatch)),
    Layer.provideMerge(chain)
  )
  // Request bodies are handled within a per-turn budget (TurnBudget.ts, issue 22).
  const api = MovenodeServer.layer({ headerPrefix: "X-APTOS-", bodyIntake: intakeBudget, ...http, listen: config.api })
  const faucet = config.faucet === undefined ? Layer.empty : FaucetServer.layer(config.faucet)
  // The indexer follows the chain's blocks; GraphQL serves it (or, without one, the processor_status
  // stub). A fork's index holds its own blocks only (its history before the pinned version lives on its
  // source), on the chain's thread, each batch under the fork's retry-on-miss.
  const indexerDb = config.indexer
  const prebuilt = prebuiltGenesisFile(config)
  const indexer =
    indexerDb === undefined
      ? undefined
      : indexerLayerFor(
          indexerDb,
          config.dataDir,
          indexerKeyOf(config),
          prebuilt === undefined ? undefined : prebuiltIndexFileOf(prebuilt),
          // Over the LMDB ledger the indexer runs in a worker thread that reads it (src/indexer/worker).
          {
            ledgerPath: config.dataDir === undefined ? undefined : join(config.dataDir, "ledger"),
            workerUrl: config.indexerWorker,
            fsync: config.fsync,
            fork:
              fork === undefined
                ? undefined
                : {
                    firstVersion: fork.identity.version + 1n,
                    guardBatch: missGuard((e) => new StorageError({ message: e.message }))
                  }
          }
        )
  const graphql =
    config.graphql === undefined
      ? Layer.empty
      : indexer === undefined
        ? GraphqlStub.layer(config.graphql)
        : GraphqlServer.layer(config.graphql)
  // Block production waits for the index when it falls far behind (indexer/engine/indexGate.ts).
  const gated =
    indexer === undefined
      ? Layer.empty
      : Layer.effectDiscard(
          Effect.gen(function* () {
            const unregister = (yield* ProductionGate).register(indexGate(yield* Indexer, yield* Ledger))
            yield* Effect.addFinalizer(() => Effect.sync(unregister))
          })
        )
  // The API's and readiness's listening sockets in a front process (http/front), when asked for;
  // it outlives the servers that use it (they stop their sites first).
  const front =
    config.front === undefined || config.front === false
      ? Layer.empty
      : FrontProcess.layer({
          scriptUrl: config.front === true ? undefined : config.front,
          // Reads served by the fronts from the ledger's LMDB store (a fork's state is not all in it).
          readsFrom: fork === undefined && config.dataDir !== undefined ? join(config.dataDir, "ledger") : undefined
        })
  const servers = Layer.mergeAll(faucet, graphql, gated).pipe(
    // The API listens first: a client that polls the faucet (or GraphQL) until it answers and then
    // calls the API must find it listening. Built side by side, the in-process faucet could fund an
    // account before a front process had bound the API's port (on a restart, 3 starts in 12 here).
    Layer.provideMerge(api),
    // (GraphqlServer, which needs the indexer, is only used when there is one.)
    Layer.provideMerge((indexer ?? Layer.empty) as NonNullable<typeof indexer>),
    Layer.provideMerge(node),
    Layer.provideMerge(front)
  )
  const info = Layer.effect(
    LocalChain,
    Effect.gen(function* () {
      const apiAddress = (yield* MovenodeServer).address
      const faucetAddress = config.faucet === undefined ? undefined : (yield* FaucetServer).address
      const graphqlAddress =
        config.graphql === undefined
          ? undefined
          : indexer === undefined
            ? (yield* GraphqlStub).address
            : (yield* GraphqlServer).address
      // In process (ReadinessServer.ts): the API answers `GET /v1` when its node reads the
      // ledger; the faucet, when it is listening (it is, once this layer is built).
      const nodeService = yield* Node
      const apiAnswers = () => Effect.runPromise(Effect.as(nodeService.ledgerInfo, true)).catch(() => false)
      const checks: HealthCheck[] = [{ _tag: "NodeApi", url: urlOf(apiAddress), inProcess: apiAnswers }]
      if (faucetAddress !== undefined)
        checks.push({ _tag: "Http", url: urlOf(faucetAddress), name: "Faucet", inProcess: async () => true })
      // The indexer is ready once genesis is indexed (run-localnet lists its processors and Hasura).
      if (graphqlAddress !== undefined && indexer !== undefined) {
        const indexerService = yield* Indexer
        const indexed = () => Effect.runPromise(Effect.map(indexerService.health, (h) => h.indexedVersion >= 0n))
        checks.push({ _tag: "Http", url: `${urlOf(graphqlAddress)}healthz`, name: "Indexer", inProcess: indexed })
      }
      const indexerInfo = indexer === undefined ? undefined : (yield* Indexer).store.description
      const readiness =
        config.readiness === undefined
          ? undefined
          : yield* Layer.build(ReadinessServer.layer(config.readiness, checks)).pipe(
              Effect.map((ctx) => Context.get(ctx, ReadinessServer).address)
            )
      const producer = yield* BlockProducer
      const controls = yield* ChainControls
      if (config.loadState !== undefined) {
        const file = config.loadState
        const bytes = yield* Effect.try({
          try: () => new Uint8Array(readFileSync(file)),
          catch: (e) => new Error(`--load-state ${file}: ${e instanceof Error ? e.message : String(e)}`)
        })
        yield* Effect.mapError(controls.load(bytes), (e) => new Error(`--load-state ${file}: ${e.message}`))
      }
      if (config.dumpState !== undefined) {
        const file = config.dumpState
        // When the chain stops (before the ledger closes): the whole chain, written whole or not at all.
        yield* Effect.addFinalizer(() =>
          Effect.flatMap(Effect.result(controls.dump), (r) =>
            Effect.sync(() => {
              if (r._tag === "Failure") return
              writeFileSync(`${file}.tmp`, r.success)
              renameSync(`${file}.tmp`, file)
            })
          ).pipe(Effect.ignoreCause)
        )
      }
      // A block at start when blocks come on their own. The chain's clock is its last
      // block's timestamp (0 on a new chain), and admission checks expiration against it;
      // the reference's validator makes a block every second or so, so its clock is near the
      // wall clock's from the start. With this block a transaction already expired is refused
      // at submission (TRANSACTION_EXPIRED), as there, instead of accepted and then
      // discarded; and genesis's epoch ends here, not in the first user's block.
      if (config.mining._tag !== "Manual") yield* Effect.forkScoped(Effect.ignoreCause(producer.produce))
      // The chain is handed over once the faucet's delegation at boot is in it (a few ms), so a
      // test's first snapshot already holds it and every funding is signed by the faucet's account.
      yield* (yield* Faucet).ready
      return LocalChain.of({
        chainId: chainBase.chainId,
        apiUrl: apiUrlOf(apiAddress),
        faucetUrl: faucetAddress === undefined ? undefined : urlOf(faucetAddress).replace(/\/$/, ""),
        readinessUrl: readiness === undefined ? undefined : urlOf(readiness),
        graphqlUrl: graphqlAddress === undefined ? undefined : `${urlOf(graphqlAddress)}v1/graphql`,
        indexer: indexerInfo,
        root: { address: CORE_RESOURCES, privateKey: rootPrivateKey },
        accounts,
        dataDir: config.dataDir,
        fsync: config.fsync !== false,
        genesisSource: chainBase.genesisSource,
        fork: fork?.identity,
        mine: producer.produce,
        controls
      })
    })
  )
  return Layer.provideMerge(info, servers).pipe(
    // The block limits of the caller's BlockProducerConfig (the defaults unless provided), the mining mode of `config`.
    Layer.provide(
      Layer.effect(
        BlockProducerConfig,
        Effect.map(Effect.service(BlockProducerConfig), (c) => ({ ...c, mining: config.mining }))
      )
    )
  )
}

/** When the chain's ledger counts a commit done: flushed (the default), or only written (`--no-fsync`). */
const ledgerDurability = (config: LocalChainConfigShape): "written" | undefined =>
  config.fsync === false ? "written" : undefined

/**
 * A chain on a fork (`src/fork`, docs/fork.md): the fork's ledger is opened (pinned version, remote
 * cache, prefetch) in the layer's scope, then the chain is assembled over it with its chain id.
 */
const forkedChain = (config: LocalChainConfigShape, forkConfig: ForkConfig, http: Partial<HttpConfig>) =>
  Layer.unwrap(
    Effect.map(
      Effect.mapError(
        openForkLedger(forkConfig, config.dataDir, forkConfig.progress ?? (() => {}), ledgerDurability(config)),
        (e): Error => e
      ),
      (opened) =>
        assemble(config, http, {
          ledger: Layer.succeed(Ledger, opened.handle.service),
          chainId: opened.identity.chainId,
          genesisSource: "fork",
          fork: { identity: opened.identity, seenLocally: opened.seenLocally }
        })
    )
  )

export class LocalChain extends Context.Service<LocalChain, LocalChainInfo>()("movenode/LocalChain") {
  /** The whole local chain for `overrides` on top of run-localnet's defaults. */
  static readonly layer = (
    overrides: Partial<LocalChainConfigShape> = {},
    http: Partial<HttpConfig> = {}
  ): Layer.Layer<LocalChain | MovenodeServer | Ledger, Error> =>
    Layer.unwrap(
      Effect.try({
        try: () => {
          const config = { ...defaultLocalChainConfig, ...overrides }
          if (config.dataDir !== undefined && config.fresh) forget(config.dataDir)
          if (config.fork !== undefined) return forkedChain(config, config.fork, http)
          const { bytes: genesis, source: genesisSource } = genesisOf(config)
          const ledger =
            config.dataDir === undefined
              ? LedgerMemory.layer({ genesis, pruneWindow: config.pruneWindow })
              : LedgerLmdb.layer({
                  path: join(config.dataDir, "ledger"),
                  genesis,
                  pruneWindow: config.pruneWindow,
                  durability: ledgerDurability(config)
                })
          return assemble(config, http, { ledger, chainId: config.chainId, genesisSource, fork: undefined })
        },
        catch: (e) => (e instanceof Error ? e : new Error(String(e)))
      })
    )

  /** A local chain for a test suite (`LocalChainConfig.test` under `overrides`), in the caller's scope. */
  static readonly spawn = (
    overrides: Partial<LocalChainConfigShape> = {},
    http: Partial<HttpConfig> = {}
  ): Effect.Effect<LocalChainInfo, Error, Scope.Scope> =>
    Effect.map(Layer.build(LocalChain.layer({ ...testLocalChainConfig, ...overrides }, http)), (ctx) =>
      Context.get(ctx, LocalChain)
    )
}

const genesisSourceText: Record<GenesisSource, string> = {
  kept: "the data directory's",
  cached: "built earlier in this process",
  prebuilt: "the default one npm run build made (dist/genesis)",
  built: "built now from the shipped devnet framework",
  fork: "none: a fork of its source's state"
}

/** The start-up banner: where everything listens and the pre-funded keys (anvil prints the same). */
export const describeLocalChain = (info: LocalChainInfo): string => {
  const lines = [
    `movenode local chain (chain id ${info.chainId})`,
    "",
    `  API        ${info.apiUrl}`,
    ...(info.faucetUrl === undefined ? [] : [`  Faucet     ${info.faucetUrl}`]),
    ...(info.readinessUrl === undefined ? [] : [`  Readiness  ${info.readinessUrl}`]),
    ...(info.graphqlUrl === undefined
      ? []
      : [
          `  GraphQL    ${info.graphqlUrl}  ${info.indexer === undefined ? "(processor_status only: not an indexer)" : `(indexer: ${info.indexer})`}`
        ]),
    `  Data       ${info.dataDir ?? "(in memory)"}${info.dataDir !== undefined && !info.fsync ? "  (--no-fsync: blocks not flushed to the disk)" : ""}`,
    ...(info.fork === undefined
      ? []
      : [
          `  Fork       ${info.fork.url} at version ${info.fork.version} (block ${info.fork.height}, chain id ${info.fork.chainId}); state fetched on first use and cached`
        ]),
    `  Genesis    ${genesisSourceText[info.genesisSource]}`,
    "",
    info.fork === undefined
      ? `Root account ${addressToLongString(info.root.address)} (it delegates minting to the faucet's account)`
      : // A fork: the root is ours only where the source's genesis used this seed (docs/fork.md "Faucet").
        `Root account ${addressToLongString(info.root.address)} (on a fork: the faucet mints with it where the source's root key is this one, else funds from an account of its own)`,
    `  private key 0x${toHex(info.root.privateKey)}`,
    "",
    info.fork === undefined
      ? "Pre-funded accounts (Ed25519; well-known keys: never use them on a real network)"
      : "Accounts of this seed (Ed25519; funded only where the source's genesis funded them: a movenode source with the same seed)",
    ...info.accounts.flatMap((a, i) => [
      `  (${i}) ${addressToLongString(a.address)}${info.fork === undefined ? `  ${a.balance / 100_000_000n} APT` : ""}`,
      `      private key 0x${toHex(a.privateKey)}`
    ])
  ]
  return lines.join("\n")
}
