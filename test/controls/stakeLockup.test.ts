/**
 * A stake lockup released only after time travel plus an epoch change, through the TypeScript
 * SDK: impersonating the local validator's owner, unlock some stake; a withdrawal gets nothing
 * while the lockup runs, nor after an epoch change before the lockup ends; once the clock is past
 * the lockup and the next epoch starts (`stake::on_new_epoch` moves pending_inactive to inactive),
 * it is paid out.
 */
import { AccountAuthenticatorNoAccountAuthenticator, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { type RunningLocalChain, startLocalChain } from "../../src/testing/index.js"

let chain: RunningLocalChain
let aptos: Aptos

beforeAll(async () => {
  chain = await startLocalChain({ accounts: 1, mining: MiningMode.still() })
  aptos = new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.info.apiUrl }))
}, 60_000)
afterAll(() => chain.stop())

const APT = 100_000_000n

type Pool = {
  active: { value: string }
  inactive: { value: string }
  pending_inactive: { value: string }
  locked_until_secs: string
}

it("unlocked stake is withdrawable only after the lockup and an epoch change", async () => {
  const set = (await aptos.getAccountResource({ accountAddress: "0x1", resourceType: "0x1::stake::ValidatorSet" })) as {
    active_validators: Array<{ addr: string }>
  }
  const pool = set.active_validators[0]!.addr
  const owner = pool // the local genesis's validator owns its pool (OwnerCapability at the pool's address)
  await aptos.getAccountResource({ accountAddress: owner, resourceType: "0x1::stake::OwnerCapability" })
  const stake = async () =>
    (await aptos.getAccountResource({ accountAddress: pool, resourceType: "0x1::stake::StakePool" })) as Pool
  const balance = async () => BigInt(await aptos.getAccountAPTAmount({ accountAddress: owner }))

  await chain.controls.setBalance(owner, 100n * APT) // gas for the owner's transactions
  await chain.controls.impersonate(owner)
  const call = async (fn: string, args: Array<number>) => {
    const transaction = await aptos.transaction.build.simple({
      sender: owner,
      data: { function: fn as `${string}::${string}::${string}`, functionArguments: args },
      options: { expireTimestamp: await chain.expiry(600) }
    })
    const pending = await aptos.transaction.submit.simple({
      transaction,
      senderAuthenticator: new AccountAuthenticatorNoAccountAuthenticator()
    })
    const done = await aptos.waitForTransaction({ transactionHash: pending.hash })
    expect(done.success).toBe(true)
    return BigInt(done.gas_used) * BigInt((done as { gas_unit_price: string }).gas_unit_price)
  }
  const withdrawn = async () => {
    const before = await balance()
    const fee = await call("0x1::stake::withdraw", [Number(APT)])
    return (await balance()) - before + fee
  }

  await call("0x1::stake::unlock", [Number(APT)])
  expect(BigInt((await stake()).pending_inactive.value)).toBe(APT)
  expect(await withdrawn()).toBe(0n) // locked

  await chain.advanceEpoch() // an epoch change alone: the lockup still runs (rewards may add to it)
  expect(BigInt((await stake()).pending_inactive.value)).toBeGreaterThanOrEqual(APT)
  expect(await withdrawn()).toBe(0n)

  // Time travel past the lockup, then the next epoch: pending_inactive becomes inactive. (Any block
  // after a jump longer than the 60 s epoch starts the epoch: the block prologue reconfigures then.)
  const lockedUntil = BigInt((await stake()).locked_until_secs)
  await chain.controls.increaseTime(lockedUntil - BigInt(await chain.now()) + 1n)
  expect(BigInt((await stake()).inactive.value)).toBe(0n) // no block yet: nothing moved
  await chain.advanceEpoch()
  expect(BigInt((await stake()).inactive.value)).toBeGreaterThanOrEqual(APT) // with the epoch's rewards
  expect(await withdrawn()).toBe(APT)
}, 120_000)
