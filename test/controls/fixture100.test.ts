/**
 * Hardhat's `loadFixture` pattern with the TypeScript SDK: a fixture (two funded accounts and a
 * transfer) built once, then 100 tests that each start from it (the same balances, sequence
 * numbers and ledger version) and change the chain (a transfer of their own) before the next one
 * reverts it. In process by default; against a running chain when MOVENODE_URL is set (e.g.
 * `ip netns exec controls npx vitest run test/controls/fixture100.test.ts` with
 * `MOVENODE_URL=http://127.0.0.1:8080/v1` and the chain started with `--idle-block-time off`:
 * the test compares ledger versions, so the chain must not make blocks on its own).
 */
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { connect, type TestChain, startLocalChain } from "../../src/testing/index.js"

const external = process.env.MOVENODE_URL
let chain: TestChain
let stop: () => Promise<void> = async () => {}
let aptos: Aptos

beforeAll(async () => {
  if (external !== undefined) chain = connect(external)
  else {
    const running = await startLocalChain({ accounts: 0, mining: MiningMode.still() })
    chain = running
    stop = running.stop
  }
  aptos = new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.apiUrl }))
}, 60_000)
afterAll(() => stop())

const alice = Account.generate()
const bob = Account.generate()

const ledgerVersion = async () =>
  ((await (await fetch(chain.apiUrl)).json()) as { ledger_version: string }).ledger_version

/** What every test must start from. */
interface Expected {
  readonly alice: number
  readonly bob: number
  readonly aliceSequence: string
  readonly version: string
}

const fixture = async (): Promise<Expected> => {
  await chain.controls.setBalance(alice.accountAddress.toString(), 10_000_000_000n)
  await chain.controls.setBalance(bob.accountAddress.toString(), 1_000_000_000n)
  const t = await aptos.transferCoinTransaction({
    sender: alice.accountAddress,
    recipient: bob.accountAddress,
    amount: 12345,
    options: { expireTimestamp: await chain.expiry(3600) }
  })
  const p = await aptos.signAndSubmitTransaction({ signer: alice, transaction: t })
  await aptos.waitForTransaction({ transactionHash: p.hash })
  return {
    alice: await aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress }),
    bob: await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress }),
    aliceSequence: (await aptos.getAccountInfo({ accountAddress: alice.accountAddress })).sequence_number,
    version: await ledgerVersion()
  }
}

let expected: Expected
beforeEach(async () => {
  expected = await chain.loadFixture(fixture)
})

describe("100 tests around one fixture", () => {
  for (let i = 0; i < 100; i++)
    it(`test ${i} starts from the fixture and changes the chain`, async () => {
      expect(await aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress })).toBe(expected.alice)
      expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(expected.bob)
      expect((await aptos.getAccountInfo({ accountAddress: alice.accountAddress })).sequence_number).toBe(
        expected.aliceSequence
      )
      expect(await ledgerVersion()).toBe(expected.version)
      const t = await aptos.transferCoinTransaction({
        sender: alice.accountAddress,
        recipient: bob.accountAddress,
        amount: 1000 + i,
        options: { expireTimestamp: await chain.expiry(3600) }
      })
      const p = await aptos.signAndSubmitTransaction({ signer: alice, transaction: t })
      expect((await aptos.waitForTransaction({ transactionHash: p.hash })).success).toBe(true)
      expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(expected.bob + 1000 + i)
    })
})
