/**
 * A fork's indexer, through the TypeScript SDK's indexer functions: a fork of a local chain indexes
 * its own blocks (from its first one after the pinned version; the history before it is its
 * source's), reading the state before each transaction lazily from the source as the VM does. What
 * the SDK's own tests do on a fork — fund fresh accounts, transfer, read balances, activities and
 * transactions from GraphQL, wait for the indexer — works; a revert takes the index back with the
 * chain; nothing of the source's history is in the fork's index.
 */
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain } from "../../src/LocalChain.js"

const start = async (config: Parameters<typeof LocalChain.spawn>[0]) => {
  const scope = await Effect.runPromise(Scope.make())
  const chain = await Effect.runPromise(Scope.provide(LocalChain.spawn(config), scope))
  return { chain, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

const graphql = async (url: string, query: string, variables?: unknown): Promise<any> => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables })
  })
  expect(response.status).toBe(200)
  return response.json()
}

describe("a fork's indexer", () => {
  it("indexes the fork's own blocks, for the SDK's indexer functions, and goes back with a revert", async () => {
    const source = await start({ accounts: 0, mining: MiningMode.instant(0) })
    try {
      const src = new Aptos(
        new AptosConfig({ network: Network.CUSTOM, fullnode: source.chain.apiUrl, faucet: source.chain.faucetUrl })
      )
      // History on the source: an account funded and a transfer (not the fork's to index).
      const old = Account.generate()
      await src.fundAccount({
        accountAddress: old.accountAddress,
        amount: 50_000_000,
        options: { waitForIndexer: false }
      })
      const pinned = BigInt(
        ((await (await fetch(source.chain.apiUrl)).json()) as { ledger_version: string }).ledger_version
      )
      const fork = await start({
        accounts: 0,
        mining: MiningMode.instant(0),
        fork: { url: source.chain.apiUrl, version: pinned },
        graphql: { host: "127.0.0.1", port: 0 },
        indexer: { _tag: "Embedded" }
      })
      try {
        expect(fork.chain.graphqlUrl).toBeDefined()
        expect(fork.chain.indexer).toMatch(/SQLite/)
        const aptos = new Aptos(
          new AptosConfig({
            network: Network.CUSTOM,
            fullnode: fork.chain.apiUrl,
            faucet: fork.chain.faucetUrl,
            indexer: fork.chain.graphqlUrl
          })
        )
        const alice = Account.generate()
        const bob = Account.generate()
        // fundAccount waits for the indexer (processor_status), as the SDK's tests do.
        await aptos.fundAccount({ accountAddress: alice.accountAddress, amount: 1_000_000_000 })
        const pay = async (amount: number) => {
          const txn = await aptos.transferCoinTransaction({
            sender: alice.accountAddress,
            recipient: bob.accountAddress,
            amount
          })
          const sent = await aptos.signAndSubmitTransaction({ signer: alice, transaction: txn })
          return aptos.waitForTransaction({ transactionHash: sent.hash, options: { waitForIndexer: true } })
        }
        const first = await pay(1_000)
        expect(first.success).toBe(true)
        // The SDK's indexer functions over the fork's index.
        expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(1_000)
        const coins = await aptos.getAccountCoinsData({ accountAddress: bob.accountAddress })
        expect(coins.map((c) => [c.asset_type, c.amount])).toEqual([["0x1::aptos_coin::AptosCoin", 1_000]])
        // The funding and the transfer.
        const count = await aptos.getAccountTransactionsCount({ accountAddress: alice.accountAddress })
        expect(count).toBe(2)
        const activities = await aptos.getAccountCoinsCount({ accountAddress: bob.accountAddress })
        expect(activities).toBe(1)
        // Only the fork's own versions: nothing at or below the pinned version.
        const lowest = await graphql(
          fork.chain.graphqlUrl!,
          "{ account_transactions(order_by: {transaction_version: asc}, limit: 1) { transaction_version } }"
        )
        expect(BigInt(lowest.data.account_transactions[0].transaction_version)).toBeGreaterThan(pinned)
        const before = await graphql(
          fork.chain.graphqlUrl!,
          "query q($a: String) { account_transactions(where: {account_address: {_eq: $a}}) { transaction_version } }",
          { a: old.accountAddress.toStringLong() }
        )
        expect(before.data.account_transactions).toEqual([])
        // A snapshot, a transfer, a revert: the index goes back with the fork.
        const snapshot = await Effect.runPromise(fork.chain.controls.snapshot)
        await pay(2_000)
        expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(3_000)
        await Effect.runPromise(fork.chain.controls.revert(snapshot))
        const again = await pay(500)
        expect(again.success).toBe(true)
        expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(1_500)
        expect(await aptos.getAccountTransactionsCount({ accountAddress: alice.accountAddress })).toBe(3)
      } finally {
        await fork.stop()
      }
    } finally {
      await source.stop()
    }
  })
})
