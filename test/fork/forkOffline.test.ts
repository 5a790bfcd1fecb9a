/**
 * A fork keeps working without its source: what it fetched is in its cache (persisted per source
 * chain id and version under the data directory), so after the source stops, the running fork, a
 * restart of it, and a fresh start of the same fork (`fresh`: its ledger forgotten, cache kept)
 * all answer from the cache; a key never fetched gives a clear error naming it (503), never a hang
 * and never a wrong "absent".
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Effect, Exit, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"

/** The latest version, asked of GET /v1 (the SDK memoizes getLedgerInfo on a custom network). */
const latestVersion = async (apiUrl: string): Promise<bigint> =>
  BigInt(((await (await fetch(apiUrl)).json()) as { ledger_version: string }).ledger_version)

const sdkFor = (chain: LocalChainInfo) =>
  new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))

const dir = mkdtempSync(join(tmpdir(), "movenode-fork-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A chain in its own scope, closed by `stop` (a source to kill, a fork to restart). */
const start = async (config: Parameters<typeof LocalChain.spawn>[0]) => {
  const scope = await Effect.runPromise(Scope.make())
  const chain = await Effect.runPromise(Scope.provide(LocalChain.spawn(config), scope))
  return { chain, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

describe("a fork without its source", () => {
  it("answers from its cache after the source stops, restarts offline, and names a key it never fetched", async () => {
    const source = await start({ accounts: 1, mining: MiningMode.instant(0) })
    const src = sdkFor(source.chain)
    const alice = Account.generate()
    await src.fundAccount({
      accountAddress: alice.accountAddress,
      amount: 1_000_000_000,
      options: { waitForIndexer: false }
    })
    const pinned = await latestVersion(source.chain.apiUrl)
    const fork = { url: source.chain.apiUrl, version: pinned, attempts: 2, timeoutMs: 2000 }

    const first = await start({ accounts: 1, mining: MiningMode.instant(0), dataDir: dir, fork })
    let aptos = sdkFor(first.chain)
    expect(await aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress })).toBe(1_000_000_000)
    const bob = Account.generate()
    const transfer = async (amount: number) => {
      const txn = await aptos.transferCoinTransaction({
        sender: alice.accountAddress,
        recipient: bob.accountAddress,
        amount
      })
      const sent = await aptos.signAndSubmitTransaction({ signer: alice, transaction: txn })
      return aptos.waitForTransaction({ transactionHash: sent.hash })
    }
    expect((await transfer(100)).success).toBe(true)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(100)

    // The source goes away: what the fork fetched keeps working, the running fork transfers again.
    await source.stop()
    expect((await transfer(200)).success).toBe(true)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(300)

    // A transfer to an account the fork never read needs its state: the block is made without it
    // (discarded, STORAGE_ERROR) instead of waiting for the source, and the chain goes on.
    const stranded = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: Account.generate().accountAddress,
      amount: 1
    })
    const strandedHash = (await aptos.signAndSubmitTransaction({ signer: alice, transaction: stranded })).hash
    // Pending, then gone (discarded, never committed): GET by_hash goes from 200 to 404.
    let status = 200
    for (let i = 0; i < 100 && status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      status = (await fetch(`${first.chain.apiUrl}/transactions/by_hash/${strandedHash}`)).status
    }
    expect(status).toBe(404)
    expect((await transfer(1)).success).toBe(true)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(301)

    // A key never fetched: a clear error naming it, quickly (2 attempts, no hang).
    const stranger = Account.generate().accountAddress
    const t0 = Date.now()
    const r = await fetch(`${first.chain.apiUrl}/accounts/${stranger.toString()}/resource/0x1::account::Account`)
    expect(r.status).toBe(503)
    const body = (await r.json()) as { message: string; error_code: string }
    expect(body.error_code).toBe("internal_error")
    expect(body.message).toMatch(
      /could not answer resource 0x1::account::Account of 0x[0-9a-f]+ \(state key 0x[0-9a-f]+\) at version \d+ after 2 attempts/
    )
    expect(Date.now() - t0).toBeLessThan(15_000)
    await first.stop()

    // A restart of the same fork, offline: its own blocks and the cached state are there.
    const second = await start({ accounts: 1, mining: MiningMode.instant(0), dataDir: dir, fork })
    aptos = sdkFor(second.chain)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(301)
    expect((await transfer(300)).success).toBe(true)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(601)

    // The controls' reset, offline: back to the fork point (the source's state at V from the cache,
    // nothing of the fork's own above V), then the fork goes on from V+1.
    const bobsTransfer = await transfer(1)
    const reset = await fetch(`${second.chain.apiUrl.replace(/\/v1$/, "")}/__movenode/v1/reset`, { method: "POST" })
    expect(reset.status).toBe(200)
    expect(await latestVersion(second.chain.apiUrl)).toBe(pinned)
    expect(await aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress })).toBe(1_000_000_000)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(0)
    expect((await fetch(`${second.chain.apiUrl}/transactions/by_hash/${bobsTransfer.hash}`)).status).toBe(404)
    expect((await fetch(`${second.chain.apiUrl}/transactions/by_version/${pinned + 1n}`)).status).toBe(404)
    const afterReset = await transfer(7)
    expect(afterReset.success).toBe(true)
    expect(BigInt(afterReset.version)).toBeGreaterThan(pinned)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(7)
    await second.stop()

    // A fresh start (the fork's ledger forgotten, its cache kept): the source's state at V again.
    const third = await start({ accounts: 1, mining: MiningMode.instant(0), dataDir: dir, fresh: true, fork })
    aptos = sdkFor(third.chain)
    expect(await aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress })).toBe(1_000_000_000)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(0)
    expect((await transfer(5)).success).toBe(true)
    await third.stop()

    // A new data directory over the same cache (`cacheDir`, as --fork-cache shares one), offline: the
    // pinned version's identity is kept beside the cache, so the start asks nothing either.
    const otherDir = mkdtempSync(join(tmpdir(), "movenode-fork-"))
    try {
      const fourth = await start({
        accounts: 1,
        mining: MiningMode.instant(0),
        dataDir: otherDir,
        fork: { ...fork, cacheDir: join(dir, "fork-cache") }
      })
      aptos = sdkFor(fourth.chain)
      expect(await latestVersion(fourth.chain.apiUrl)).toBeGreaterThanOrEqual(pinned)
      expect(await aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress })).toBe(1_000_000_000)
      expect((await transfer(9)).success).toBe(true)
      expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(9)
      await fourth.stop()
    } finally {
      rmSync(otherDir, { recursive: true, force: true })
    }
  }, 180_000)
})
