/**
 * A fork's ledger: `forkBackend` (local store over the source's state at V) under the ledger
 * service, with history at or below V from the source (`ForkHistory`) and a commit that refuses a
 * block executed on incomplete state (`StateMisses`). `openForkLedger` pins the version, opens the
 * remote cache for (source chain id, V), prefetches the on-chain configs and the framework's
 * modules, and returns everything the chain needs.
 *
 * Offline: the fork's identity (source URL, chain id, V) is kept in the data directory
 * (`fork.json`) and the pinned block in the cache, so a restart with the same data directory (or
 * one after `--fresh`, which keeps both) asks the source nothing until a key is not in the cache.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { addressFromNumber } from "../domain/AccountAddress.js"
import { closeStore } from "../ledger/closeStore.js"
import { compressOnWriteThread } from "../ledger/compressOnWriteThread.js"
import type { LedgerBackend, LedgerHead } from "../ledger/LedgerBackend.js"
import { StorageError } from "../ledger/LedgerError.js"
import { type LmdbBackendOptions, openLmdbBackend } from "../ledger/LmdbBackend.js"
import { makeLedgerService, type LedgerHandle } from "../ledger/makeLedgerService.js"
import { makeMemoryBackend } from "../ledger/MemoryBackend.js"
import { ConfigKeys, decodeConfiguration } from "../chain/onChainConfig.js"
import type { ForkConfig } from "./ForkConfig.js"
import { COMMIT_HISTORY_KEY, commitHistorySlotsAbsentAtSource, commitHistorySlotsAhead } from "./commitHistoryAhead.js"
import { forkBackend } from "./forkBackend.js"
import { makeForkHistory } from "./ForkHistory.js"
import { type ForkSourceClient, ForkSourceError, makeForkSourceClient } from "./ForkSourceClient.js"
import { makeForkStateSource, type ForkStateSource } from "./ForkStateSource.js"
import {
  ABSENT,
  memoryRemoteStateCache,
  persistentRemoteStateCache,
  type RemoteStateCache
} from "./RemoteStateCache.js"
import { baseAccumulator, type ForkIdentity, identityOf, identityText } from "./ForkIdentity.js"
import { forkLedgerService } from "./ForkLedgerService.js"
import { forkRewind } from "./forkRewind.js"
import { PREFETCHED_CONFIGS } from "./prefetchedConfigs.js"

export interface OpenedFork {
  readonly handle: LedgerHandle
  readonly identity: ForkIdentity
  readonly state: ForkStateSource
  /** undefined when the fork started offline from its cache. */
  readonly client: ForkSourceClient | undefined
  /** How the start went (for the banner). */
  readonly startedOffline: boolean
  /**
   * Tells the fork a transaction went through its own mempool (hash, hex without 0x), so it is not
   * one of the source's history: a lookup of its hash never asks the source (offline: 404, not an error).
   */
  readonly seenLocally: (hashHex: string) => void
}

const PREFETCH_DONE = "prefetched"
/** The identity of the fork that filled a cache directory, beside its LMDB files. */
const IDENTITY_FILE = "fork.json"

/** The identity kept in `root/<chain id>-<version>/` by a fork of `url` at `version`, if any. */
const cachedIdentity = (root: string, url: string, version: bigint): ForkIdentity | undefined => {
  if (!existsSync(root)) return undefined
  for (const name of readdirSync(root)) {
    if (!name.endsWith(`-${version}`)) continue
    const file = join(root, name, IDENTITY_FILE)
    if (!existsSync(file)) continue
    const identity = identityOf(readFileSync(file, "utf8"))
    if (identity !== undefined && identity.url === url && identity.version === version) return identity
  }
  return undefined
}
const SLOTS_DERIVED = "commit-history-absent-slots"

const fail = (message: string) => new ForkSourceError(message)

/**
 * Opens a fork's ledger (scoped: the local store and the cache close with the scope). `dataDir`
 * undefined = the local store in memory; `progress` receives the start's progress lines.
 */
export const openForkLedger = (
  config: ForkConfig,
  dataDir: string | undefined,
  progress: (line: string) => void,
  /** When a local block's commit counts as done (default flushed; the local chain's `--no-fsync`: written). */
  durability?: LmdbBackendOptions["durability"]
): Effect.Effect<OpenedFork, ForkSourceError | StorageError, Scope.Scope> =>
  Effect.gen(function* () {
    const client = makeForkSourceClient({
      url: config.url,
      headers: config.headers,
      attempts: config.attempts,
      timeoutMs: config.timeoutMs
    })
    const identityFile = dataDir === undefined ? undefined : join(dataDir, "fork.json")
    const kept =
      identityFile !== undefined && existsSync(identityFile)
        ? identityOf(readFileSync(identityFile, "utf8"))
        : undefined
    const reuse =
      kept !== undefined &&
      kept.url === client.base &&
      (config.version === undefined || config.version === kept.version)
    if (kept === undefined && dataDir !== undefined && existsSync(join(dataDir, "ledger")))
      return yield* Effect.fail(
        fail(
          `the data directory ${dataDir} holds a chain of its own, not a fork; start with --fresh (or another --data-dir) to fork ${client.base}`
        )
      )
    if (kept !== undefined && !reuse && dataDir !== undefined && existsSync(join(dataDir, "ledger")))
      return yield* Effect.fail(
        fail(
          `the data directory ${dataDir} holds a fork of ${kept.url} at version ${kept.version}; start with --fresh (or another --data-dir) to fork ${client.base}${config.version === undefined ? "" : ` at ${config.version}`}`
        )
      )

    const cacheRoot = config.cacheDir ?? (dataDir === undefined ? undefined : join(dataDir, "fork-cache"))
    // A pinned version whose cache an earlier fork of the same source left (a shared `--fork-cache`
    // with a new data directory): its identity is there too, so the start asks the source nothing.
    const cached =
      reuse || config.version === undefined || cacheRoot === undefined
        ? undefined
        : cachedIdentity(cacheRoot, client.base, config.version)
    // The identity: the kept one (no network), else asked of the source.
    const identity: ForkIdentity = reuse
      ? kept!
      : cached !== undefined
        ? cached
        : yield* Effect.tryPromise({
            try: async () => {
              const info = await client.ledgerInfo()
              const version = config.version ?? info.ledgerVersion
              if (version > info.ledgerVersion)
                throw fail(`--fork-version ${version} is above the source's latest version ${info.ledgerVersion}`)
              if (version < info.oldestLedgerVersion)
                throw fail(
                  `--fork-version ${version} is below the source's oldest version ${info.oldestLedgerVersion} (pruned there: fork from an archive node)`
                )
              // The block holding V and the epoch at V, asked together (one round trip, not two).
              const [block, epochBytes] = await Promise.all([
                client.blockByVersion(version),
                client.rawStateValue(ConfigKeys.configuration, version)
              ])
              const epoch = decodeConfiguration(epochBytes?.data)?.epoch
              if (epoch === undefined)
                throw fail(`the fork source has no readable 0x1::reconfiguration::Configuration at ${version}`)
              return {
                url: client.base,
                chainId: info.chainId,
                version,
                height: block.height,
                epoch,
                timestampUsec: block.timestampUsec,
                oldestVersion: info.oldestLedgerVersion,
                oldestHeight: info.oldestBlockHeight
              }
            },
            catch: (e) => (e instanceof ForkSourceError ? e : fail(String(e)))
          })
    if (identityFile !== undefined) {
      mkdirSync(dataDir!, { recursive: true })
      writeFileSync(identityFile, identityText(identity))
    }

    const cacheDir = cacheRoot === undefined ? undefined : join(cacheRoot, `${identity.chainId}-${identity.version}`)
    const cache: RemoteStateCache = yield* Effect.acquireRelease(
      Effect.try({
        try: () => (cacheRoot === undefined ? memoryRemoteStateCache() : persistentRemoteStateCache(cacheDir!)),
        catch: (e) => new StorageError({ message: `cannot open the fork cache: ${String(e)}` })
      }),
      (c) =>
        Effect.promise(() =>
          c.flushed().then(
            () => c.close(),
            () => c.close()
          )
        )
    )
    if (cacheDir !== undefined) writeFileSync(join(cacheDir, IDENTITY_FILE), identityText(identity))
    // Started from kept facts: the source is still asked for what the cache lacks, when it answers.
    const state = makeForkStateSource(client, cache, identity.version)

    if (cache.meta.get(PREFETCH_DONE) === undefined) {
      const started = Date.now()
      progress(
        `fork: prefetching on-chain configs and the framework (0x1, 0x3, 0x4) from ${client.base} at version ${identity.version}`
      )
      // The configs (8 at a time) and the three module listings side by side: the start waits for
      // the slowest, not for their sum.
      const [, ...listed] = yield* Effect.all(
        [state.fetch(PREFETCHED_CONFIGS), ...[1, 3, 4].map((a) => state.fetchModules(addressFromNumber(a)))],
        { concurrency: "unbounded" }
      )
      const modules = (listed as ReadonlyArray<number>).reduce((a, b) => a + b, 0)
      progress(
        `fork: prefetched ${PREFETCHED_CONFIGS.length} configs and ${modules} modules in ${Date.now() - started} ms (${client.requests()} requests)`
      )
      cache.meta.put(PREFETCH_DONE, "1")
    }

    // A chain id of the fork's own: the base's ChainId resource says it (forkBackend's overrides).
    const chainId = config.chainId ?? identity.chainId
    const overrides = new Map<string, Uint8Array>()
    if (chainId !== identity.chainId)
      overrides.set(Buffer.from(ConfigKeys.chainId).toString("latin1"), Uint8Array.of(chainId))
    const base: LedgerHead = {
      chainId,
      latestVersion: identity.version,
      latestHeight: identity.height,
      epoch: identity.epoch,
      timestampUsec: identity.timestampUsec,
      oldestVersion: identity.version,
      oldestHeight: identity.height,
      genesisHash: new Uint8Array(32),
      accumulator: baseAccumulator(identity)
    }
    // As LedgerLmdb.open: the write thread compresses the blocks' records (compressOnWriteThread.ts).
    if (dataDir !== undefined) yield* Effect.promise(compressOnWriteThread)
    const localStore: LedgerBackend = yield* Effect.try({
      try: () =>
        dataDir === undefined ? makeMemoryBackend() : openLmdbBackend({ path: join(dataDir, "ledger"), durability }),
      catch: (e) => new StorageError({ message: `cannot open the fork's ledger: ${String(e)}` })
    })
    const backend = forkBackend(localStore, state, base, overrides)
    const inner = makeLedgerService(backend, { chainId })
    // The CommitHistory ring slots the next blocks will read (commitHistoryAhead.ts): a window now,
    // topped up after each block.
    const commitHistoryAt = () => {
      try {
        const head = backend.head()!
        return backend.stateGet(COMMIT_HISTORY_KEY, head.latestVersion)?.value
      } catch {
        return undefined
      }
    }
    if (cache.meta.get(SLOTS_DERIVED) === undefined) {
      const atSource = cache.get(COMMIT_HISTORY_KEY)
      for (const k of commitHistorySlotsAbsentAtSource(
        atSource === undefined || atSource === ABSENT ? undefined : atSource.data
      ))
        if (cache.get(k) === undefined) cache.put(k, ABSENT)
      cache.meta.put(SLOTS_DERIVED, "1")
    }
    // The next blocks' slots: the first two before the chain starts, the rest in the background (a
    // block that gets there first fetches its slot itself, retry-on-miss; one request per key).
    const ahead = commitHistorySlotsAhead(commitHistoryAt(), 64)
    yield* Effect.ignore(state.fetch(ahead.slice(0, 2)))
    state.fetchInBackground(ahead.slice(2))
    const afterCommit = () => state.fetchInBackground(commitHistorySlotsAhead(commitHistoryAt(), 32))
    yield* Effect.addFinalizer(() => closeStore(inner))
    const history = makeForkHistory(client, cache, { version: identity.version, height: identity.height })
    // State below V, for reads at an older ledger_version and for rendering history: the source
    // at that version, through a cache of its own in memory (a few versions kept).
    const older = new Map<bigint, ForkStateSource>()
    const sourceAt = (version: bigint): ForkStateSource => {
      let s = older.get(version)
      if (s === undefined) {
        if (older.size >= 16) older.delete(older.keys().next().value!)
        s = makeForkStateSource(client, memoryRemoteStateCache(), version)
        older.set(version, s)
      }
      return s
    }
    // Hashes of transactions that went through this fork's mempool (bounded; oldest forgotten first).
    const local = new Set<string>()
    const seenLocally = (hashHex: string) => {
      if (local.size >= 100_000) local.delete(local.values().next().value!)
      local.add(hashHex.toLowerCase())
    }
    const service = forkLedgerService(inner.service, history, identity, afterCommit, sourceAt, (h) => local.has(h))
    const handle: LedgerHandle = {
      ...inner,
      // Back to the fork point (the controls' reset): forkRewind.ts.
      service: { ...service, rewind: service.rewind && forkRewind(service.rewind, base, backend) }
    }
    return {
      handle,
      identity: { ...identity, chainId },
      state,
      client,
      startedOffline: reuse || cached !== undefined,
      seenLocally
    }
  })
