/**
 * The faucet on a fork whose source's root key we do not hold (any real network): here by
 * construction, a source chain started with another seed, so its `@core_resources` account has a
 * key the fork cannot sign for. The fork's faucet then funds from an account of its own, given an
 * account and APT by the balance control (a primary fungible store created where there was none),
 * with an ordinary `0x1::aptos_account::transfer`: the SDK's `fundAccount` (which wants a user
 * transaction) and the legacy `POST /mint` work, a new account funded this way spends, and the
 * store the balance control creates is byte for byte the one the framework creates.
 */
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Bcs } from "../../src/bcs/index.js"
import { CORE_RESOURCES, ed25519AuthKey } from "../../src/chain/buildLocalGenesis.js"
import { primaryStoreGroup } from "../../src/chain/controls/balanceEdits.js"
import { derivedKey, defaultLocalChainConfig } from "../../src/chain/LocalChainConfig.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { ed25519Signer } from "../../src/chain/ed25519Signer.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { primaryStoreAddress } from "../../src/domain/objectAddress.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import { makeForkSourceClient } from "../../src/fork/ForkSourceClient.js"
import { describeLocalChain, LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"

const sdkFor = (chain: LocalChainInfo) =>
  new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))
const latestVersion = async (apiUrl: string): Promise<bigint> =>
  BigInt(((await (await fetch(apiUrl)).json()) as { ledger_version: string }).ledger_version)

const APT = addressFromNumber(0xa)
const objectGroupKey = (address: Uint8Array) =>
  Bcs.encode(stateKeyCodec, {
    _tag: "AccessPath",
    address,
    path: {
      _tag: "ResourceGroup",
      struct: { address: addressFromNumber(1), module: "object", name: "ObjectGroup", typeArgs: [] }
    }
  })

describe("the faucet on a fork whose root key we do not hold", () => {
  it("funds through the balance control: fundAccount, /mint, the funded account spends", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const source = yield* LocalChain.spawn({
            accounts: 0,
            mining: MiningMode.instant(0),
            seed: "a source whose root key the fork does not hold"
          })
          const src = sdkFor(source)
          const whale = Account.generate()
          yield* Effect.promise(() =>
            src.fundAccount({
              accountAddress: whale.accountAddress,
              amount: 5_000_000_000,
              options: { waitForIndexer: false }
            })
          )
          const pinned = yield* Effect.promise(() => latestVersion(source.apiUrl))
          // The fork's root key (default seed) is not the source's: the premise of this test.
          const sourceRoot = (yield* Effect.promise(() =>
            src.getAccountInfo({ accountAddress: `0x${Buffer.from(CORE_RESOURCES).toString("hex")}` })
          )).authentication_key
          const ourRoot = `0x${Buffer.from(ed25519AuthKey(ed25519Signer(derivedKey(defaultLocalChainConfig.seed, "root")).publicKey)).toString("hex")}`
          expect(sourceRoot).not.toBe(ourRoot)

          const fork = yield* LocalChain.spawn({
            accounts: 0,
            mining: MiningMode.instant(0),
            fork: { url: source.apiUrl, version: pinned }
          })
          const aptos = sdkFor(fork)
          expect((yield* Effect.promise(() => fetch(`${fork.faucetUrl}/`))).status).toBe(200)
          // The banner does not promise balances the source never gave the seed's accounts.
          const banner = describeLocalChain(fork)
          expect(banner).toMatch(/funded only where the source's genesis funded them/)
          expect(banner).not.toMatch(/ APT$/m)

          // The SDK's fundAccount: a user transaction, committed, the balance there.
          const alice = Account.generate()
          const funded = yield* Effect.promise(() =>
            aptos.fundAccount({
              accountAddress: alice.accountAddress,
              amount: 1_234_567_890,
              options: { waitForIndexer: false }
            })
          )
          expect(funded.success).toBe(true)
          expect(funded.type).toBe("user_transaction")
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress }))).toBe(
            1_234_567_890
          )

          // The funded account spends with its own key.
          const bob = Account.generate()
          const transaction = yield* Effect.promise(() =>
            aptos.transferCoinTransaction({
              sender: alice.accountAddress,
              recipient: bob.accountAddress,
              amount: 1_000
            })
          )
          const sent = yield* Effect.promise(() => aptos.signAndSubmitTransaction({ signer: alice, transaction }))
          expect((yield* Effect.promise(() => aptos.waitForTransaction({ transactionHash: sent.hash }))).success).toBe(
            true
          )
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress }))).toBe(
            1_000
          )

          // The legacy /mint, to an account of the source: added to what it held at V.
          const minted = yield* Effect.promise(() =>
            fetch(`${fork.faucetUrl}/mint?amount=700&address=${whale.accountAddress.toString()}`, { method: "POST" })
          )
          expect(minted.status).toBe(200)
          const [hash] = (yield* Effect.promise(() => minted.json())) as string[]
          expect((yield* Effect.promise(() => aptos.waitForTransaction({ transactionHash: hash! }))).success).toBe(true)
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: whale.accountAddress }))).toBe(
            5_000_000_700
          )
          // Fundings at once (the SDK suites fund their accounts in parallel): consecutive sequence numbers, all committed.
          const many = Array.from({ length: 8 }, () => Account.generate().accountAddress)
          const all = yield* Effect.promise(() =>
            Promise.all(
              many.map((accountAddress) =>
                aptos.fundAccount({ accountAddress, amount: 5_000, options: { waitForIndexer: false } })
              )
            )
          )
          expect(all.map((t) => t.success)).toEqual(many.map(() => true))
          for (const accountAddress of many)
            expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress }))).toBe(5_000)
          // A balance set on an account without a store goes through the same faucet.
          const carol = Account.generate().accountAddress
          yield* fork.controls.setBalance({ address: carol.toUint8Array(), amount: 4_242n })
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: carol }))).toBe(4_242)

          // The funder's primary store was made by the balance control; alice's by the framework
          // (the transfer): the control's bytes are the framework's (balance aside).
          const client = makeForkSourceClient({ url: fork.apiUrl })
          const at = yield* Effect.promise(() => latestVersion(fork.apiUrl))
          const aliceStore = yield* Effect.promise(() =>
            client.rawStateValue(objectGroupKey(primaryStoreAddress(alice.accountAddress.toUint8Array(), APT)), at)
          )
          const expected = primaryStoreGroup(alice.accountAddress.toUint8Array(), APT, false)
          const withBalance = (group: Uint8Array, balance: bigint) => {
            // FungibleStore { metadata: 32, balance: u64, frozen } is the group's last member, its bytes last.
            const out = new Uint8Array(group)
            new DataView(out.buffer).setBigUint64(out.length - 9, balance, true)
            return out
          }
          const aliceBalance = BigInt(
            yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress }))
          )
          expect(Buffer.from(aliceStore!.data).toString("hex")).toBe(
            Buffer.from(withBalance(expected, aliceBalance)).toString("hex")
          )
          const funder = ed25519AuthKey(
            ed25519Signer(derivedKey(defaultLocalChainConfig.seed, "fork-faucet")).publicKey
          )
          const funderStore = yield* Effect.promise(() =>
            client.rawStateValue(objectGroupKey(primaryStoreAddress(funder, APT)), at)
          )
          expect(funderStore).toBeDefined()
          const funderAccount = yield* Effect.promise(() =>
            aptos.getAccountInfo({ accountAddress: `0x${Buffer.from(funder).toString("hex")}` })
          )
          expect(funderAccount.authentication_key).toBe(`0x${Buffer.from(funder).toString("hex")}`)

          // None of it reached the source.
          expect(yield* Effect.promise(() => src.getAccountAPTAmount({ accountAddress: alice.accountAddress }))).toBe(0)
        })
      )
    )
  }, 120_000)
})
