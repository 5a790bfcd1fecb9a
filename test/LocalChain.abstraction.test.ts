/**
 * Account abstraction on the local chain through the TypeScript SDK, as its e2e suite
 * (tests/e2e/api/abstraction.test.ts) runs it: enabling and disabling an authentication function
 * (`aptos.abstraction.*`), transfers signed by `AbstractedAccount`s whose Move function (the SDK's
 * own packages) authenticates them through the mempool and a block, a wrong authenticator refused at
 * submission, and a derivable account (`DerivableAbstractedAccount` over
 * `0x7::test_derivable_account_abstraction_ed25519_hex`) sending from its derived address.
 */
import {
  AbstractedAccount,
  Account,
  Aptos,
  AptosConfig,
  DerivableAbstractedAccount,
  Ed25519Account,
  Hex,
  Network
} from "@aptos-labs/ts-sdk"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { LocalChain, type LocalChainInfo } from "../src/LocalChain.js"
import { anyAuthenticatorPackage, helloWorldPackage, type SdkPackage } from "./fixtures/sdkAccountAbstraction.js"

const FUND = 1_000_000_000

const withChain = async <A>(f: (aptos: Aptos) => Promise<A>): Promise<A> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(
        LocalChain.spawn({ accounts: 1, graphql: { host: "127.0.0.1", port: 0 } }),
        (chain: LocalChainInfo) =>
          Effect.promise(() =>
            f(
              new Aptos(
                new AptosConfig({
                  network: Network.LOCAL,
                  fullnode: chain.apiUrl,
                  faucet: chain.faucetUrl,
                  indexer: chain.graphqlUrl
                })
              )
            )
          )
      )
    )
  )

type FunctionId = `${string}::${string}::${string}`

describe("account abstraction on the local chain (the SDK's e2e scenarios)", () => {
  it("enables, uses and disables authentication functions; derivable accounts send from their derived address", async () => {
    await withChain(async (aptos) => {
      const submit = async (
        signer: Account | AbstractedAccount,
        transaction: Parameters<Aptos["signAndSubmitTransaction"]>[0]["transaction"]
      ) => {
        const pending = await aptos.signAndSubmitTransaction({ signer, transaction })
        return aptos.waitForTransaction({ transactionHash: pending.hash })
      }
      const publish = async (deployer: Account, pkg: SdkPackage) =>
        submit(
          deployer,
          await aptos.publishPackageTransaction({
            account: deployer.accountAddress,
            metadataBytes: pkg.metadata,
            moduleBytecode: [...pkg.modules]
          })
        )
      const enable = async (account: Account, authenticationFunction: FunctionId) =>
        submit(
          account,
          await aptos.abstraction.enableAccountAbstractionTransaction({
            accountAddress: account.accountAddress,
            authenticationFunction
          })
        )
      const enabled = (account: Account, authenticationFunction: FunctionId) =>
        aptos.abstraction.isAccountAbstractionEnabled({
          accountAddress: account.accountAddress,
          authenticationFunction
        })
      const transfer = async (
        signer: AbstractedAccount,
        from: Account["accountAddress"],
        to: Account,
        amount: number
      ) => submit(signer, await aptos.transferCoinTransaction({ sender: from, recipient: to.accountAddress, amount }))

      const alice = Ed25519Account.generate()
      const carol = Ed25519Account.generate()
      const deployer = Ed25519Account.generate()
      const helloDeployer = Ed25519Account.generate()
      const recipient = Ed25519Account.generate()
      for (const a of [alice, carol, deployer, helloDeployer])
        await aptos.fundAccount({ accountAddress: a.accountAddress, amount: FUND })

      // A framework authentication function: enable, read back, disable.
      const delegation: FunctionId = "0x1::permissioned_delegation::authenticate"
      expect(await enabled(alice, delegation)).toBe(false)
      expect((await enable(alice, delegation)).success).toBe(true)
      expect(await enabled(alice, delegation)).toBe(true)
      const disable = await aptos.abstraction.disableAccountAbstractionTransaction({
        accountAddress: alice.accountAddress,
        authenticationFunction: delegation
      })
      expect((await submit(alice, disable)).success).toBe(true)
      expect(await enabled(alice, delegation)).toBe(false)

      // any_authenticator: a transfer authenticated by Move code, then every function removed.
      expect((await publish(deployer, anyAuthenticatorPackage(deployer.accountAddress.toUint8Array()))).success).toBe(
        true
      )
      const anyFunction: FunctionId = `${deployer.accountAddress}::any_authenticator::authenticate`
      expect((await enable(alice, anyFunction)).success).toBe(true)
      const viaAny = new AbstractedAccount({
        signer: () => new Uint8Array(0),
        accountAddress: alice.accountAddress,
        authenticationFunction: anyFunction
      })
      expect((await transfer(viaAny, alice.accountAddress, recipient, 100)).success).toBe(true)
      expect(await aptos.getAccountAPTAmount({ accountAddress: recipient.accountAddress })).toBe(100)
      const disableAll = await aptos.abstraction.disableAccountAbstractionTransaction({
        accountAddress: alice.accountAddress
      })
      expect((await submit(alice, disableAll)).success).toBe(true)
      expect(await enabled(alice, anyFunction)).toBe(false)
      // Removed: the same abstracted signer is now refused at submission.
      await expect(transfer(viaAny, alice.accountAddress, recipient, 1)).rejects.toThrow()

      // hello_world_authenticator: the right authenticator passes, a wrong one is refused at submission.
      expect(
        (await publish(helloDeployer, helloWorldPackage(helloDeployer.accountAddress.toUint8Array()))).success
      ).toBe(true)
      const helloFunction: FunctionId = `${helloDeployer.accountAddress}::hello_world_authenticator::authenticate`
      expect((await enable(carol, helloFunction)).success).toBe(true)
      const hello = (bytes: Uint8Array) =>
        new AbstractedAccount({
          signer: () => bytes,
          accountAddress: carol.accountAddress,
          authenticationFunction: helloFunction
        })
      expect(
        (await transfer(hello(new TextEncoder().encode("hello world")), carol.accountAddress, recipient, 100)).success
      ).toBe(true)
      expect(await aptos.getAccountAPTAmount({ accountAddress: recipient.accountAddress })).toBe(200)
      await expect(transfer(hello(new Uint8Array(0)), carol.accountAddress, carol, 100)).rejects.toThrow(/ABORTED/)

      // Derivable: the address is derived from the function and the abstract public key.
      const solana = Account.generate()
      const daa = new DerivableAbstractedAccount({
        signer: (digest) => solana.sign(new TextEncoder().encode(Hex.fromHexInput(digest).toString())).toUint8Array(),
        authenticationFunction: "0x7::test_derivable_account_abstraction_ed25519_hex::authenticate",
        abstractPublicKey: solana.publicKey.toUint8Array()
      })
      await aptos.fundAccount({ accountAddress: daa.accountAddress, amount: FUND })
      const derived = await transfer(daa, daa.accountAddress, recipient, 100)
      expect(derived.success).toBe(true)
      expect(await aptos.getAccountAPTAmount({ accountAddress: recipient.accountAddress })).toBe(300)
      expect((await aptos.getAccountInfo({ accountAddress: daa.accountAddress })).sequence_number).toBe("1")
    })
  }, 60_000)
})
