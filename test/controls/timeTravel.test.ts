/**
 * Time controls through the TypeScript SDK: the expiration trap (a default-built transaction is
 * refused once the chain's clock is a day ahead; an expiry from the chain's clock, or a large
 * `defaultTxnExpirySecFromNow`, is accepted), views reading `timestamp::now_seconds` see the jump,
 * `advanceEpoch` starts exactly one epoch, revert restores the clock, and a restarted chain keeps
 * its lead over the wall clock instead of stalling.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { ControlsError, type RunningLocalChain, startLocalChain } from "../../src/testing/index.js"

const DAY = 86_400

let chain: RunningLocalChain
beforeAll(async () => {
  chain = await startLocalChain({ accounts: 2, mining: MiningMode.still() })
}, 60_000)
afterAll(() => chain.stop())

const sdk = (extra: Partial<ConstructorParameters<typeof AptosConfig>[0]> = {}) =>
  new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.info.apiUrl, ...extra }))
const account = (i: number) =>
  Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.info.accounts[i]!.privateKey) })
/** GET /v1's epoch, read directly: the SDK memoizes `getLedgerInfo` for a while. */
const ledgerEpoch = async () => BigInt(((await (await fetch(chain.info.apiUrl)).json()) as { epoch: string }).epoch)
const nowSeconds = async (aptos: Aptos) =>
  Number((await aptos.view({ payload: { function: "0x1::timestamp::now_seconds", functionArguments: [] } }))[0])

describe("time travel", () => {
  it("the expiration trap and the client settings that avoid it", async () => {
    const aptos = sdk()
    const [alice, bob] = [account(0), account(1)]
    const before = await nowSeconds(aptos)
    await chain.controls.increaseTime(DAY, { mine: true })
    expect(await nowSeconds(aptos)).toBeGreaterThanOrEqual(before + DAY)

    // Default-built: expiry = wall clock + 20 s, a day behind the chain: refused at submission.
    const stale = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount: 1
    })
    const refused = await aptos.signAndSubmitTransaction({ signer: alice, transaction: stale }).then(
      () => undefined,
      (e: { data?: { vm_error_code?: number; message?: string } }) => e.data
    )
    expect(refused?.message).toContain("TRANSACTION_EXPIRED")

    // Built from the chain's clock: accepted.
    const fresh = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount: 1,
      options: { expireTimestamp: await chain.expiry(60) }
    })
    const ok = await aptos.signAndSubmitTransaction({ signer: alice, transaction: fresh })
    expect((await aptos.waitForTransaction({ transactionHash: ok.hash })).success).toBe(true)

    // Or a default expiry far enough out for every jump the suite makes.
    const patient = sdk({ transactionGenerationConfig: { defaultTxnExpirySecFromNow: 10 * 365 * DAY } })
    const later = await patient.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount: 1
    })
    const ok2 = await patient.signAndSubmitTransaction({ signer: alice, transaction: later })
    expect((await patient.waitForTransaction({ transactionHash: ok2.hash })).success).toBe(true)
  }, 60_000)

  it("advanceEpoch starts exactly one epoch; revert restores the clock; time never goes back", async () => {
    const t0 = await chain.controls.time()
    const id = await chain.snapshot()
    const epoch = await ledgerEpoch()
    await chain.advanceEpoch()
    await chain.mine() // the ledger info's epoch is the latest block's: the next block is in the new epoch
    expect(await ledgerEpoch()).toBe(epoch + 1n)
    await chain.controls.increaseTime(7 * DAY, { mine: true })
    await chain.revertTo(id)
    const t1 = await chain.controls.time()
    expect(t1.chain_timestamp_usecs).toBe(t0.chain_timestamp_usecs)
    expect(t1.offset_usecs).toBe(t0.offset_usecs)
    expect(await ledgerEpoch()).toBe(epoch)
    // A timestamp at or before the chain's is refused; blocks stay strictly increasing.
    const refused = await chain.controls.setNextBlockTimestamp(t1.chain_timestamp_usecs).catch((e: ControlsError) => e)
    expect(refused).toBeInstanceOf(ControlsError)
    expect((refused as ControlsError).errorCode).toBe("invalid_input")
    await chain.controls.setTime(1_000_000) // 1970: the clock holds, blocks still move forward
    const mined = await chain.controls.mine(3)
    expect(BigInt(mined.ledger_timestamp)).toBeGreaterThan(BigInt(t1.chain_timestamp_usecs))
  }, 60_000)
})

describe("a restarted chain", () => {
  it("keeps its lead over the wall clock", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "movenode-controls-time-"))
    try {
      const first = await startLocalChain({ accounts: 1, dataDir, mining: MiningMode.still() })
      await first.controls.increaseTime(30 * DAY, { mine: true })
      const ahead = BigInt((await first.controls.time()).chain_timestamp_usecs)
      await first.stop()
      const second = await startLocalChain({ accounts: 1, dataDir, mining: MiningMode.still() })
      try {
        const mined = await second.controls.mine(1)
        const ts = BigInt(mined.ledger_timestamp)
        // Continues from the lead (not last + 1 µs, waiting for the wall clock to catch up a month).
        expect(ts).toBeGreaterThan(ahead)
        expect(ts - ahead).toBeLessThan(60_000_000n)
        expect(BigInt((await second.controls.time()).offset_usecs)).toBeGreaterThan(BigInt(29 * DAY) * 1_000_000n)
      } finally {
        await second.stop()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
