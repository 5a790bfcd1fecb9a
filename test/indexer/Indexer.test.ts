/**
 * The indexer in a local chain: it follows the chain from genesis, the SDK's fundAccount (which
 * waits on processor_status) returns with the funding transaction indexed, a GraphQL query sees a
 * committed transaction at once (read-after-write), and the index resumes after a restart or is
 * rebuilt when the ledger it indexed is gone — on the chain's thread and in the indexer's worker
 * thread (a ledger in a data directory, the build's worker script: `npm run build` first).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network, ProcessorType } from "@aptos-labs/ts-sdk"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"

/** The built worker script (the land script and CI build before testing). */
const workerUrl = new URL("../../dist/bin/indexerWorker.js", import.meta.url)

const withChain = <A>(overrides: Parameters<typeof LocalChain.spawn>[0], f: (chain: LocalChainInfo) => Promise<A>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(
        LocalChain.spawn({
          accounts: 1,
          graphql: { host: "127.0.0.1", port: 0 },
          indexer: { _tag: "Embedded" },
          ...overrides
        }),
        (chain) => Effect.promise(() => f(chain))
      )
    )
  )

const graphql = async (chain: LocalChainInfo, query: string, variables?: unknown): Promise<any> => {
  const response = await fetch(chain.graphqlUrl!, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables })
  })
  expect(response.status).toBe(200)
  return response.json()
}

const sdk = (chain: LocalChainInfo) =>
  new Aptos(
    new AptosConfig({
      network: Network.CUSTOM,
      fullnode: chain.apiUrl,
      faucet: chain.faucetUrl,
      indexer: chain.graphqlUrl
    })
  )

const placements = [
  { name: "on the chain's thread", indexerWorker: false as const },
  { name: "in its worker thread", indexerWorker: workerUrl }
]

describe.each(placements)("the Indexer in a local chain, $name", ({ indexerWorker }) => {
  it("the worker script is built", () => {
    if (indexerWorker !== false) expect(existsSync(indexerWorker), "run npm run build first").toBe(true)
  })

  it("indexes genesis and every block; read-after-write for the SDK and for queries", async () => {
    // The worker reads a ledger in a data directory; on the chain's thread, one in memory.
    const dataDir = indexerWorker === false ? undefined : mkdtempSync(join(tmpdir(), "movenode-indexer-"))
    try {
      await withChain({ dataDir, indexerWorker }, async (chain) => {
        const aptos = sdk(chain)
        const account = Account.generate()
        const funded = await aptos.fundAccount({ accountAddress: account.accountAddress, amount: 1_000_000_000 })
        const version = Number(funded.version)
        // fundAccount waited for fungible_asset_processor: its status already reaches the funding version.
        const status = await aptos.getProcessorStatus(ProcessorType.FUNGIBLE_ASSET_PROCESSOR)
        expect(Number(status.last_success_version)).toBeGreaterThanOrEqual(version)
        expect(await aptos.getIndexerLastSuccessVersion()).toBeGreaterThanOrEqual(BigInt(version))
        // A user transaction committed just now is visible to the very next query.
        const recipient = Account.generate()
        const txn = await aptos.transferCoinTransaction({
          sender: account.accountAddress,
          recipient: recipient.accountAddress,
          amount: 1
        })
        const pending = await aptos.signAndSubmitTransaction({ signer: account, transaction: txn })
        const done = await aptos.waitForTransaction({ transactionHash: pending.hash })
        const answer = await graphql(
          chain,
          `query q($v: bigint) { user_transactions(where: {version: {_eq: $v}}) { version sender entry_function_id_str } }`,
          { v: Number(done.version) }
        )
        expect(answer).toEqual({
          data: {
            user_transactions: [
              {
                version: Number(done.version),
                sender: account.accountAddress.toStringLong(),
                entry_function_id_str: "0x1::aptos_account::transfer_coins"
              }
            ]
          }
        })
        const top = await aptos.getChainTopUserTransactions({ limit: 1 })
        expect(top).toEqual([{ version: Number(done.version) }])
        const infos = await graphql(chain, "{ ledger_infos { chain_id } }")
        expect(infos).toEqual({ data: { ledger_infos: [{ chain_id: 4 }] } })
      })
    } finally {
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it("a revert of the chain (the controls' snapshot/revert) is a revert of the index", async () => {
    const dataDir = indexerWorker === false ? undefined : mkdtempSync(join(tmpdir(), "movenode-indexer-"))
    try {
      await withChain({ dataDir, indexerWorker, accounts: 2 }, async (chain) => {
        const controls = chain.apiUrl.replace(/\/v1$/, "/__movenode/v1")
        const post = async (path: string, body?: unknown) =>
          (await (
            await fetch(`${controls}${path}`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body ?? {})
            })
          ).json()) as Record<string, unknown>
        const aptos = sdk(chain)
        const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
        const transfer = async () => {
          const txn = await aptos.transferCoinTransaction({
            sender: alice.accountAddress,
            recipient: Account.generate().accountAddress,
            amount: 1
          })
          const p = await aptos.signAndSubmitTransaction({ signer: alice, transaction: txn })
          return Number((await aptos.waitForTransaction({ transactionHash: p.hash })).version)
        }
        const senderRows = async () =>
          (
            await graphql(
              chain,
              `query q($a: String) { user_transactions(where: {sender: {_eq: $a}}, order_by: {version: asc}) { version } }`,
              { a: alice.accountAddress.toStringLong() }
            )
          ).data.user_transactions.map((r: { version: number }) => r.version)
        const kept = await transfer()
        const snap = await post("/snapshot")
        const gone = await transfer()
        expect(await senderRows()).toEqual([kept, gone])
        await post("/revert", { id: snap.id })
        // The next query waits for the index to be rebuilt up to the reverted chain: the
        // reverted transfer is gone from it, never answered from the rows of before.
        expect(await senderRows()).toEqual([kept])
        const again = await transfer()
        expect(await senderRows()).toEqual([kept, again])
      })
    } finally {
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it("resumes after a restart and rebuilds when the ledger it indexed is gone", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "movenode-indexer-"))
    try {
      const count = (chain: LocalChainInfo) =>
        graphql(chain, "{ user_transactions_aggregate { aggregate { count } } }").then(
          (a) => a.data.user_transactions_aggregate.aggregate.count as number
        )
      /** The ledger's user transactions (the faucet's own set-up transactions included). */
      const ledgerCount = async (chain: LocalChainInfo) => {
        const page = (await (await fetch(`${chain.apiUrl}/transactions?start=0&limit=1000`)).json()) as Array<{
          type: string
        }>
        return page.filter((t) => t.type === "user_transaction").length
      }
      const first = await withChain({ dataDir, indexerWorker }, async (chain) => {
        const aptos = sdk(chain)
        await aptos.fundAccount({ accountAddress: Account.generate().accountAddress, amount: 5 })
        await aptos.fundAccount({ accountAddress: Account.generate().accountAddress, amount: 5 })
        return { indexed: await count(chain), ledger: await ledgerCount(chain) }
      })
      expect(first.indexed).toBe(first.ledger)
      expect(first.indexed).toBeGreaterThanOrEqual(2)
      // Same data directory: the index resumes (the rows kept once, the new one added).
      const second = await withChain({ dataDir, indexerWorker }, async (chain) => {
        await sdk(chain).fundAccount({ accountAddress: Account.generate().accountAddress, amount: 5 })
        return { indexed: await count(chain), ledger: await ledgerCount(chain) }
      })
      expect(second.indexed).toBe(second.ledger)
      expect(second.indexed).toBe(first.indexed + 1)
      // --fresh: a new ledger, so a new index (only what the new chain holds).
      const fresh = await withChain({ dataDir, fresh: true, indexerWorker }, async (chain) => {
        // After a funding, the faucet's set-up transactions are all committed: the counts are stable.
        await sdk(chain).fundAccount({ accountAddress: Account.generate().accountAddress, amount: 5 })
        return { indexed: await count(chain), ledger: await ledgerCount(chain) }
      })
      expect(fresh.indexed).toBe(fresh.ledger)
      expect(fresh.indexed).toBeLessThan(second.indexed)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe("an idle index on disk", () => {
  it("empties its SQLite write-ahead log once the indexer is quiet (the log does not grow with idle blocks)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "movenode-indexer-"))
    try {
      await withChain({ dataDir, indexerWorker: workerUrl }, async (chain) => {
        await sdk(chain).fundAccount({ accountAddress: Account.generate().accountAddress, amount: 5 })
        const wal = join(dataDir, "indexer", "index.sqlite-wal")
        // Every commit appends its pages to the log; a quiet moment after it (no block for a few
        // hundred milliseconds; an idle chain makes one a second) folds them in and cuts the log.
        const sizes: number[] = []
        for (let i = 0; i < 100 && !sizes.includes(0); i++) {
          await new Promise((r) => setTimeout(r, 50))
          if (existsSync(wal)) sizes.push(statSync(wal).size)
        }
        expect(sizes.length).toBeGreaterThan(0)
        expect(sizes).toContain(0)
      })
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
