/**
 * A module published after a snapshot, called (simulated, then run), reverted, then published
 * again at the same version with other code of the same length: the VMs' module caches knew the
 * first one by module id, the version that wrote it and its length; the calls after the second
 * publication (a simulation, a transaction) run the second code, through the TypeScript SDK as a
 * user writes them. The SDK itself keeps a module it fetched for 5 minutes
 * (`getAccountModule` without a ledger version): the bytecode is read with a ledger version here,
 * as docs/controls.md advises after a revert.
 */
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, expect, it } from "vitest"
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

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`

it("a module published again at the same version after a revert runs its new code", async () => {
  const dave = Account.generate()
  await chain.controls.setBalance(dave.accountAddress.toString(), 10n * 100_000_000n)
  const address = dave.accountAddress.toUint8Array()
  // As the API writes a struct tag's address (leading zeros trimmed, the reference's
  // `to_hex_literal`), so that it compares with the `type` of a change.
  const type = `${dave.accountAddress.toStringShort()}::counter::Counter` as `${string}::${string}::${string}`

  /** Publishes the counter whose `bump` adds `step`, bumps it once (init_module made it 7); the value and where it was published. */
  const publishAndBump = async (step: bigint) => {
    const published = await chain.controls.publish(
      dave.accountAddress.toString(),
      hex(packageMetadata("Counter", ["counter"])),
      [hex(counterModule(address, step))]
    )
    const bump = await aptos.transaction.build.simple({
      sender: dave.accountAddress,
      data: { function: `${dave.accountAddress}::counter::bump`, functionArguments: [] }
    })
    const [simulated] = await aptos.transaction.simulate.simple({ signerPublicKey: dave.publicKey, transaction: bump })
    const simulatedCounter = simulated!.changes.find(
      (c) => c.type === "write_resource" && (c as { data: { type: string } }).data.type === type
    ) as { data: { data: { value: string } } } | undefined
    const pending = await aptos.signAndSubmitTransaction({ signer: dave, transaction: bump })
    expect((await aptos.waitForTransaction({ transactionHash: pending.hash })).success).toBe(true)
    const counter = (await aptos.getAccountResource({ accountAddress: dave.accountAddress, resourceType: type })) as {
      value: string
    }
    return { value: counter.value, simulated: simulatedCounter?.data.data.value, version: published.ledger_version }
  }

  const id = await chain.controls.snapshot()
  const first = await publishAndBump(1n)
  expect(first).toMatchObject({ value: "8", simulated: "8" })
  await chain.controls.revert(id)
  expect((await fetch(`${chain.info.apiUrl}/accounts/${dave.accountAddress}/module/counter`)).status).toBe(404)

  const second = await publishAndBump(5n)
  // The same version and the same length: only the code's bytes tell the two apart.
  expect(second.version).toBe(first.version)
  expect(counterModule(address, 5n).length).toBe(counterModule(address, 1n).length)
  expect(second).toMatchObject({ value: "12", simulated: "12" })
  const module = await aptos.getAccountModule({
    accountAddress: dave.accountAddress,
    moduleName: "counter",
    options: { ledgerVersion: BigInt(second.version) }
  })
  expect(module.bytecode).toBe(hex(counterModule(address, 5n)))
}, 60_000)
