/**
 * State edits through the TypeScript SDK, as a user writes them: a balance set (minted for a new
 * account, edited for an existing one, the supply following) and spent; a module published without
 * its account's key and called; a resource written from JSON, read back and deleted; a sequence
 * number set and used. Every edit is a transaction of its own: reads at the version before it see
 * the old value.
 */
import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { type RunningLocalChain, startLocalChain } from "../../src/testing/index.js"
import { counterModule, packageMetadata } from "../execution/bytecode.js"

let chain: RunningLocalChain
let aptos: Aptos

beforeAll(async () => {
  chain = await startLocalChain({ accounts: 1, mining: MiningMode.still() })
  aptos = new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.info.apiUrl }))
}, 60_000)
afterAll(() => chain.stop())

const APT = 100_000_000n
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`
const supply = async () =>
  BigInt(
    (
      (await aptos.view({
        payload: { function: "0x1::coin::supply", typeArguments: ["0x1::aptos_coin::AptosCoin"], functionArguments: [] }
      })) as [{ vec: [string] }]
    )[0].vec[0]
  )

describe("state edits", () => {
  it("a balance set (minted, then edited with the supply following) and spent", async () => {
    const carol = Account.generate()
    const minted = await chain.controls.setBalance(carol.accountAddress.toString(), 5n * APT)
    expect(minted.supply).toContain("minted")
    expect(BigInt(await aptos.getAccountAPTAmount({ accountAddress: carol.accountAddress }))).toBe(5n * APT)

    const supplyBefore = await supply()
    const edited = await chain.controls.setBalance(carol.accountAddress.toString(), 3n * APT)
    expect(edited.supply).toContain("moved with the primary store")
    expect(BigInt(await aptos.getAccountAPTAmount({ accountAddress: carol.accountAddress }))).toBe(3n * APT)
    expect(await supply()).toBe(supplyBefore - 2n * APT)
    // The edit is a version of its own: the balance at the version before it is the old one.
    const before = await aptos.getAccountAPTAmount({
      accountAddress: carol.accountAddress,
      minimumLedgerVersion: undefined
    })
    expect(BigInt(before)).toBe(3n * APT)
    const old = await fetch(
      `${chain.info.apiUrl}/accounts/${carol.accountAddress}/balance/0x1::aptos_coin::AptosCoin?ledger_version=${BigInt(edited.ledger_version) - 1n}`
    )
    expect(BigInt(await old.text())).toBe(5n * APT)
    const edit = await aptos.getTransactionByVersion({ ledgerVersion: Number(edited.ledger_version) })
    expect(edit.type).toBe("genesis_transaction")

    // Spent: a transfer signed by carol's own key.
    const transfer = await aptos.transferCoinTransaction({
      sender: carol.accountAddress,
      recipient: Account.generate().accountAddress,
      amount: Number(APT)
    })
    const pending = await aptos.signAndSubmitTransaction({ signer: carol, transaction: transfer })
    const done = await aptos.waitForTransaction({ transactionHash: pending.hash })
    expect(done.success).toBe(true)
    const fee = BigInt(done.gas_used) * BigInt((done as { gas_unit_price: string }).gas_unit_price)
    expect(BigInt(await aptos.getAccountAPTAmount({ accountAddress: carol.accountAddress }))).toBe(2n * APT - fee)
  }, 60_000)

  it("a module published without a signer, then called", async () => {
    const dave = Account.generate()
    await chain.controls.setBalance(dave.accountAddress.toString(), 10n * APT)
    const address = dave.accountAddress.toUint8Array()
    const published = await chain.controls.publish(
      dave.accountAddress.toString(),
      hex(packageMetadata("Counter", ["counter"])),
      [hex(counterModule(address))]
    )
    expect(published.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const module = await aptos.getAccountModule({ accountAddress: dave.accountAddress, moduleName: "counter" })
    expect(module.abi?.exposed_functions.map((f) => f.name)).toContain("bump")
    // init_module ran: Counter { value: 7 }; bump (signed by dave) makes it 8.
    const bump = await aptos.transaction.build.simple({
      sender: dave.accountAddress,
      data: { function: `${dave.accountAddress}::counter::bump`, functionArguments: [] }
    })
    const pending = await aptos.signAndSubmitTransaction({ signer: dave, transaction: bump })
    expect((await aptos.waitForTransaction({ transactionHash: pending.hash })).success).toBe(true)
    const type = `${dave.accountAddress}::counter::Counter` as `${string}::${string}::${string}`
    expect(await aptos.getAccountResource({ accountAddress: dave.accountAddress, resourceType: type })).toEqual({
      value: "8"
    })

    // A resource written from JSON, read back; the old value at the version before; then deleted.
    const written = await chain.controls.setResource(dave.accountAddress.toString(), type, { json: { value: "41" } })
    expect(await aptos.getAccountResource({ accountAddress: dave.accountAddress, resourceType: type })).toEqual({
      value: "41"
    })
    expect(
      await aptos.getAccountResource({
        accountAddress: dave.accountAddress,
        resourceType: type,
        options: { ledgerVersion: BigInt(written.ledger_version) - 1n }
      })
    ).toEqual({ value: "8" })
    await chain.controls.setResource(dave.accountAddress.toString(), type, null)
    const gone = await fetch(`${chain.info.apiUrl}/accounts/${dave.accountAddress}/resource/${type}`)
    expect(gone.status).toBe(404)
  }, 60_000)

  it("a sequence number set and used", async () => {
    const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.info.accounts[0]!.privateKey) })
    await chain.controls.setAccount(alice.accountAddress.toString(), { sequenceNumber: 100 })
    expect((await aptos.getAccountInfo({ accountAddress: alice.accountAddress })).sequence_number).toBe("100")
    const t = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: alice.accountAddress,
      amount: 1
    })
    expect(t.rawTransaction.sequence_number).toBe(100n)
    const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction: t })
    expect((await aptos.waitForTransaction({ transactionHash: pending.hash })).success).toBe(true)
    expect((await aptos.getAccountInfo({ accountAddress: alice.accountAddress })).sequence_number).toBe("101")
  }, 60_000)
})
