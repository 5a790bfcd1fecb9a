import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } from "@aptos-labs/ts-sdk"
import { Effect } from "effect"
import { LocalChain } from "movenode"

// A local chain in this process, for a test suite: in memory, on free ports, a block as soon as a
// transaction arrives. It stops when the scope closes.
const program = Effect.gen(function* () {
  const chain = yield* LocalChain.spawn({ accounts: 2 })
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))

  // Fund a new account from the faucet (there is no indexer to wait for), then pay it from a
  // pre-funded one.
  const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0].privateKey) })
  const bob = Account.generate()
  const transfer = yield* Effect.promise(async () => {
    await aptos.fundAccount({
      accountAddress: bob.accountAddress,
      amount: 100_000_000,
      options: { waitForIndexer: false }
    })
    const transaction = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount: 1_000
    })
    const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction })
    return aptos.waitForTransaction({ transactionHash: pending.hash })
  })
  const balance = yield* Effect.promise(() =>
    aptos.getBalance({ accountAddress: bob.accountAddress, asset: "0x1::aptos_coin::AptosCoin" })
  )

  return {
    chainId: chain.chainId, // 4: the SDK's Network.LOCAL
    success: transfer.success, // true
    vmStatus: transfer.vm_status, // "Executed successfully"
    balance // 100001000: the faucet's 1 APT and alice's 1,000 octas
  }
})

export const result = await Effect.runPromise(Effect.scoped(program))
console.log(result)
