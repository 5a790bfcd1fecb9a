/**
 * Snapshot and revert as a test suite uses them, through the TypeScript SDK against
 * `LocalChain.spawn` and its HTTP controls: a transfer reverted is gone everywhere (by_hash 404,
 * balances, sequence numbers, the ledger version), and the same signed bytes commit again.
 */
import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { LocalChainInfo } from "../../src/LocalChain.js"
import { type RunningLocalChain, startLocalChain } from "../../src/testing/index.js"

let running: RunningLocalChain
let chain: LocalChainInfo
let aptos: Aptos
let controlsUrl: string

const post = async (path: string, body?: unknown) => {
  const r = await fetch(`${controlsUrl}${path}`, {
    method: "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  return { status: r.status, json: (await r.json()) as Record<string, unknown> }
}

beforeAll(async () => {
  running = await startLocalChain({ accounts: 2 })
  chain = running.info
  aptos = new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))
  controlsUrl = chain.apiUrl.replace(/\/v1$/, "/__movenode/v1")
}, 60_000)
afterAll(() => running.stop())

const accountOf = (i: number) =>
  Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[i]!.privateKey) })

describe("snapshot and revert", () => {
  it("a reverted transfer is gone everywhere, and the same signed bytes commit again", async () => {
    const alice = accountOf(0)
    const bob = accountOf(1)
    const snap = await post("/snapshot")
    expect(snap.status).toBe(200)
    const before = await aptos.getAccountInfo({ accountAddress: alice.accountAddress })
    const bobBefore = await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })

    const txn = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount: 1234
    })
    const signed = aptos.transaction.sign({ signer: alice, transaction: txn })
    const submitted = await aptos.transaction.submit.simple({ transaction: txn, senderAuthenticator: signed })
    const done = await aptos.waitForTransaction({ transactionHash: submitted.hash })
    expect(done.success).toBe(true)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(bobBefore + 1234)

    const reverted = await post("/revert", { id: snap.json.id })
    expect(reverted.status).toBe(200)
    expect(reverted.json.ledger_version).toBe(snap.json.ledger_version)
    // Gone: by hash, by version, balances and the sequence number are as before.
    const byHash = await fetch(`${chain.apiUrl}/transactions/by_hash/${submitted.hash}`)
    expect(byHash.status).toBe(404)
    expect(((await byHash.json()) as { error_code: string }).error_code).toBe("transaction_not_found")
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(bobBefore)
    expect((await aptos.getAccountInfo({ accountAddress: alice.accountAddress })).sequence_number).toBe(
      before.sequence_number
    )
    // The snapshot id is used up.
    const again = await post("/revert", { id: snap.json.id })
    expect(again.status).toBe(400)
    expect(again.json.error_code).toBe("invalid_input")

    // The same bytes again: same hash, committed.
    const resubmitted = await aptos.transaction.submit.simple({ transaction: txn, senderAuthenticator: signed })
    expect(resubmitted.hash).toBe(submitted.hash)
    const redone = await aptos.waitForTransaction({ transactionHash: resubmitted.hash })
    expect(redone.success).toBe(true)
    expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(bobBefore + 1234)
  }, 60_000)

  it("revert discards later snapshots; reset goes back to genesis", async () => {
    const a = await post("/snapshot")
    await post("/mine", { blocks: 2 })
    const b = await post("/snapshot")
    await post("/mine")
    await post("/revert", { id: a.json.id })
    expect((await post("/revert", { id: b.json.id })).status).toBe(400)
    const before = await post("/snapshot")
    const reset = await post("/reset")
    expect(reset.status).toBe(200)
    // Back to genesis, then the faucet's mint delegation made again (part of a chain's start): a few
    // blocks (an epoch change, the mint, the delegation), not the history before.
    expect(BigInt(reset.json.block_height as string)).toBeLessThan(BigInt(before.json.block_height as string))
    expect(BigInt(reset.json.block_height as string)).toBeLessThanOrEqual(6n)
    // Snapshots are gone with the history; the faucet works on the new chain.
    expect((await post("/revert", { id: before.json.id })).status).toBe(400)
    const funded = await aptos.fundAccount({
      accountAddress: Account.generate().accountAddress,
      amount: 1000,
      options: { waitForIndexer: false }
    })
    expect(funded.success).toBe(true)
  }, 60_000)

  it("an unknown id's error names a few of many held snapshots, not all", async () => {
    const ids: string[] = []
    for (let i = 0; i < 25; i++) ids.push(String((await post("/snapshot")).json.id))
    const refused = await post("/revert", { id: 999_999_999 })
    expect(refused.status).toBe(400)
    const message = refused.json.message as string
    expect(message.slice(message.indexOf("(held: "))).toBe(`(held: 25, the latest ${ids.slice(-10).join(", ")})`)
  }, 60_000)
})
