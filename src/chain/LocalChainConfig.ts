/**
 * What a local chain is made of (anvil's `NodeConfig`): run-localnet's defaults (API 8080, faucet
 * 8081, readiness 8070, the indexer's GraphQL 8090, chain id 4, 60-second epochs), anvil's
 * pre-funded accounts (10, with well-known keys printed at start), instant mining, and a `test`
 * preset for test suites (every port 0, an in-memory ledger, no side servers but the faucet).
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { sha3 } from "../domain/hash.js"
import type { ForkConfig } from "../fork/ForkConfig.js"
import { MiningMode } from "./MiningMode.js"

/** Where a server listens (the same shape as the HTTP layer's `ServerAddress`). */
export interface ServerAddress {
  readonly host: string
  readonly port: number
}

export interface LocalChainConfigShape {
  /** Where the ledger lives; undefined = in memory (gone with the process). */
  readonly dataDir: string | undefined
  /** Delete `dataDir` first and start a new chain. */
  readonly fresh: boolean
  readonly api: ServerAddress
  /** undefined = no faucet server (the `Faucet` service still exists in process). */
  readonly faucet: ServerAddress | undefined
  readonly readiness: ServerAddress | undefined
  readonly graphql: ServerAddress | undefined
  readonly mining: MiningMode
  readonly chainId: number
  readonly epochIntervalSecs: number
  /** Pre-funded accounts (anvil's `--accounts`) and their balance in octas. */
  readonly accounts: number
  readonly accountBalance: bigint
  /** Seeds the root key and the accounts' keys: the same seed gives the same keys. */
  readonly seed: string
  /** Keep the last N versions (the ledger's pruning window); undefined keeps everything. */
  readonly pruneWindow: bigint | undefined
  /**
   * Flush each block to the disk before it is announced (default true), and the index's SQLite at
   * its checkpoints. False (`--no-fsync`: anvil's speed for test suites, whose chain is thrown
   * away) keeps what a killed process leaves (the kernel holds every write: a kill -9 loses
   * nothing), not what a power loss or a kernel crash does: the store may then be unreadable and
   * the chain must start again (`--fresh`). docs/local-chain.md, "Durability".
   */
  readonly fsync?: boolean | undefined
  /** A fork of another chain's state (`--fork-url`, docs/fork.md); undefined = a chain of its own. */
  readonly fork?: ForkConfig | undefined
  /**
   * The indexer (GraphQL on `graphql`): its database, embedded (SQLite in `dataDir`, or in memory)
   * or a PostgreSQL server's URL; undefined = no indexer (`graphql` then serves the processor_status
   * stub). A fork's index holds its own blocks, from the first after the pinned version.
   */
  readonly indexer?: IndexerDatabase | undefined
  /**
   * The indexer's worker thread script (over a ledger in `dataDir`); default the build's, and
   * without one (under vitest) or with false the indexer runs on the chain's thread.
   */
  readonly indexerWorker?: URL | false | undefined
  /**
   * The mempool's admission worker script (validation off the event loop, over a ledger in
   * `dataDir`; `chain/mempool/AdmissionThread.ts`); default the build's, and without one (under
   * vitest) or with false admissions validate on the chain's thread.
   */
  readonly admissionWorker?: URL | false | undefined
  /**
   * The front process (`http/front`): the API's and the readiness server's listening sockets held
   * by a small child process that accepts each connection, answers its reads of committed state
   * itself from the ledger's LMDB store (with a `dataDir`, not on a fork), and hands the connection
   * to this one at its first other request. True: the build's program; a URL: that program; false
   * or undefined: none (the library's default; the `movenode` command's is true, `--no-front`).
   */
  readonly front?: URL | boolean | undefined
  /** Accept key-less transactions from any address (test controls, anvil's `--auto-impersonate`). */
  readonly autoImpersonate?: boolean | undefined
  /** A dumped chain (`--load-state FILE`) to load at start, over the same genesis (docs/controls.md). */
  readonly loadState?: string | undefined
  /** Where to dump the chain when it stops (`--dump-state FILE`). */
  readonly dumpState?: string | undefined
}

export type IndexerDatabase = { readonly _tag: "Embedded" } | { readonly _tag: "Postgres"; readonly url: string }

const localhost = (port: number): ServerAddress => ({ host: "127.0.0.1", port })

export const defaultLocalChainConfig: LocalChainConfigShape = {
  dataDir: undefined,
  fresh: false,
  api: localhost(8080),
  faucet: localhost(8081),
  readiness: localhost(8070),
  graphql: localhost(8090),
  mining: MiningMode.instant(),
  chainId: 4,
  epochIntervalSecs: 60,
  accounts: 10,
  accountBalance: 1_000_000n * 100_000_000n,
  seed: "movenode local chain",
  pruneWindow: undefined,
  indexer: { _tag: "Embedded" }
}

/** Every port 0, in memory, instant mining, the faucet served, no readiness or GraphQL servers, no indexer. */
export const testLocalChainConfig: LocalChainConfigShape = {
  ...defaultLocalChainConfig,
  api: localhost(0),
  faucet: localhost(0),
  readiness: undefined,
  graphql: undefined,
  indexer: undefined
}

export const LocalChainConfig = Context.Reference<LocalChainConfigShape>("movenode/chain/LocalChainConfig", {
  defaultValue: () => defaultLocalChainConfig
})

export const localChainConfigLayer = (config: LocalChainConfigShape) => Layer.succeed(LocalChainConfig, config)

/** A key (32 bytes) derived from the seed and a label: deterministic, so restarts and docs agree. */
export const derivedKey = (seed: string, label: string): Uint8Array =>
  sha3(new TextEncoder().encode(`${seed}/${label}`))
