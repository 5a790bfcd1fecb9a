/**
 * The local chain's whole loop through the TypeScript SDK, as a user runs it: fund (the faucet, then
 * the SDK's own wait on the processor_status stub), transfer, publish a module, call it, and read
 * everything back (balances, the module, its resource, the account, the transactions by hash and by
 * version). The SDK is the oracle: it builds, signs and checks, movenode only answers.
 */
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { MiningMode } from "../src/chain/MiningMode.js"
import { LocalChain, type LocalChainInfo } from "../src/LocalChain.js"
import { counterModule, packageMetadata } from "./execution/bytecode.js"

const withChain = async <A>(f: (chain: LocalChainInfo) => Promise<A>): Promise<A> =>
  Effect.runPromise(
    Effect.scoped(
      // Instant mining with a long delay: a block is made only when a client waits for a
      // transaction (wait_by_hash cuts the delay short, as the SDK's waitForTransaction does), so
      // "reads as pending right after submission" holds however loaded the machine is. (A short
      // interval made that check a race the block sometimes won.)
      Effect.flatMap(
        LocalChain.spawn({ accounts: 1, graphql: { host: "127.0.0.1", port: 0 }, mining: MiningMode.instant(60_000) }),
        (chain) => Effect.promise(() => f(chain))
      )
    )
  )

const sdkFor = (chain: LocalChainInfo) =>
  new Aptos(
    new AptosConfig({
      network: Network.LOCAL,
      fullnode: chain.apiUrl,
      faucet: chain.faucetUrl,
      indexer: chain.graphqlUrl
    })
  )

describe("the local chain through the TypeScript SDK", () => {
  it("funds, transfers, publishes a module, calls it and reads everything back", async () => {
    await withChain(async (chain) => {
      const aptos = sdkFor(chain)
      expect((await aptos.getLedgerInfo()).chain_id).toBe(4)

      const alice = Account.generate()
      const bob = Account.generate()
      const funded = await aptos.fundAccount({ accountAddress: alice.accountAddress, amount: 1_000_000_000 })
      expect(funded.success).toBe(true)
      expect(await aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress })).toBe(1_000_000_000)

      // A transfer, read back as pending right after submission, then committed. (The SDK reserves
      // max gas 2,000,000 × the price: the prologue wants 2 APT, hence the 10 APT funding.)
      const transfer = await aptos.transferCoinTransaction({
        sender: alice.accountAddress,
        recipient: bob.accountAddress,
        amount: 1000
      })
      const submitted = await aptos.signAndSubmitTransaction({ signer: alice, transaction: transfer })
      expect(await aptos.isPendingTransaction({ transactionHash: submitted.hash })).toBe(true)
      const done = await aptos.waitForTransaction({ transactionHash: submitted.hash })
      expect(done.success).toBe(true)
      expect(await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress })).toBe(1000)
      const fee = BigInt(done.gas_used) * BigInt((done as { gas_unit_price: string }).gas_unit_price)
      expect(BigInt(await aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress }))).toBe(
        1_000_000_000n - 1000n - fee
      )

      // Publish `<alice>::counter` (its init_module stores Counter { value: 7 }), then call `bump`.
      const publish = await aptos.publishPackageTransaction({
        account: alice.accountAddress,
        metadataBytes: packageMetadata("Counter", ["counter"]),
        moduleBytecode: [counterModule(alice.accountAddress.toUint8Array())]
      })
      const published = await aptos.waitForTransaction({
        transactionHash: (await aptos.signAndSubmitTransaction({ signer: alice, transaction: publish })).hash
      })
      expect(published.success).toBe(true)
      const module = await aptos.getAccountModule({ accountAddress: alice.accountAddress, moduleName: "counter" })
      expect(module.abi?.name).toBe("counter")
      expect(module.abi?.exposed_functions.map((f) => f.name)).toContain("bump")

      const bump = await aptos.transaction.build.simple({
        sender: alice.accountAddress,
        data: { function: `${alice.accountAddress.toString()}::counter::bump`, functionArguments: [] }
      })
      const bumped = await aptos.waitForTransaction({
        transactionHash: (await aptos.signAndSubmitTransaction({ signer: alice, transaction: bump })).hash
      })
      expect(bumped.success).toBe(true)
      const counter = await aptos.getAccountResource<{ value: string }>({
        accountAddress: alice.accountAddress,
        resourceType: `${alice.accountAddress.toString()}::counter::Counter`
      })
      expect(counter.value).toBe("8")

      // Everything reads back the same way whichever way it is reached.
      const info = await aptos.getAccountInfo({ accountAddress: alice.accountAddress })
      expect(info.sequence_number).toBe("3")
      if (!("version" in bumped)) throw new Error("not committed")
      expect(await aptos.getTransactionByHash({ transactionHash: bumped.hash })).toStrictEqual(bumped)
      expect(await aptos.getTransactionByVersion({ ledgerVersion: Number(bumped.version) })).toStrictEqual(bumped)
      const block = await aptos.getBlockByVersion({ ledgerVersion: Number(bumped.version) })
      expect(
        BigInt(block.first_version) <= BigInt(bumped.version) && BigInt(bumped.version) <= BigInt(block.last_version)
      ).toBe(true)
    })
  })
})
