import { Account, AccountAuthenticatorNoAccountAuthenticator, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { startLocalChain } from "movenode"

// A local chain for a test suite, with the controls tests use: a fixture every test starts from,
// time travel, a balance set, an account acted as without its key.
const chain = await startLocalChain()
const aptos = new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.info.apiUrl }))
const carol = Account.generate().accountAddress

// The fixture: built once, then every `loadFixture` call returns the chain to it (snapshot/revert).
const fixture = async () => {
  await chain.controls.setBalance(carol.toString(), 5_000_000_000n) // 50 APT
  return carol
}
await chain.loadFixture(fixture)

// A test: a day later, carol (impersonated: no key) pays 1 APT. Expiries count from the chain's clock.
await chain.increaseTime(86_400)
await chain.controls.impersonate(carol.toString())
const transaction = await aptos.transferCoinTransaction({
  sender: carol,
  recipient: Account.generate().accountAddress,
  amount: 100_000_000,
  options: { expireTimestamp: await chain.expiry(60) }
})
const pending = await aptos.transaction.submit.simple({
  transaction,
  senderAuthenticator: new AccountAuthenticatorNoAccountAuthenticator()
})
const paid = await aptos.waitForTransaction({ transactionHash: pending.hash })

// The next test starts from the fixture again: carol's 50 APT, the clock as it was.
await chain.loadFixture(fixture)
const balance = await aptos.getAccountAPTAmount({ accountAddress: carol })
await chain.stop()

export const result = { paid: paid.success, balanceAfterRevert: balance }
console.log(result) // { paid: true, balanceAfterRevert: 5000000000 }
