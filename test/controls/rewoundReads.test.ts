/**
 * After a revert, versions are reused by other transactions: every read the API answers (by
 * version, by hash, balances, resources, account, module-less views of state) must be the new
 * history's, not something a cache kept from the old one. A still chain (no idle blocks), so the
 * second transfer lands at exactly the version the first one had.
 */
import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { type RunningLocalChain, startLocalChain } from "../../src/testing/index.js"

let chain: RunningLocalChain
let aptos: Aptos

beforeAll(async () => {
  chain = await startLocalChain({ accounts: 2, mining: MiningMode.still() })
  aptos = new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.info.apiUrl }))
}, 60_000)
afterAll(() => chain.stop())

const keyOf = (i: number) => new Ed25519PrivateKey(chain.info.accounts[i]!.privateKey)

it("reads after a revert see the new history at reused versions", async () => {
  const alice = Account.fromPrivateKey({ privateKey: keyOf(0) })
  const bob = Account.fromPrivateKey({ privateKey: keyOf(1) })
  const bobStart = await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })
  const id = await chain.snapshot()
  const send = async (amount: number) => {
    const txn = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount
    })
    const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction: txn })
    return aptos.waitForTransaction({ transactionHash: pending.hash })
  }
  const first = await send(100)
  // Read everything once, so caches hold the first history.
  expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(bobStart + 100)
  const firstByVersion = await aptos.getTransactionByVersion({ ledgerVersion: Number(first.version) })
  expect(firstByVersion.hash).toBe(first.hash)
  const aliceAfterFirst = await aptos.getAccountInfo({ accountAddress: alice.accountAddress })
  await aptos.getAccountResources({ accountAddress: bob.accountAddress })

  await chain.revertTo(id)
  const second = await send(200)
  expect(second.version).toBe(first.version)
  expect(second.hash).not.toBe(first.hash)
  expect((await aptos.getTransactionByVersion({ ledgerVersion: Number(second.version) })).hash).toBe(second.hash)
  expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(bobStart + 200)
  expect((await aptos.getAccountInfo({ accountAddress: alice.accountAddress })).sequence_number).toBe(
    aliceAfterFirst.sequence_number
  )
  const byHash = await fetch(`${chain.info.apiUrl}/transactions/by_hash/${first.hash}`)
  expect(byHash.status).toBe(404)
}, 60_000)
