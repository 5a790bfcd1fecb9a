/**
 * The test controls (issue 21) on a fork: an account of the source spends without its key
 * (impersonation), a balance is set where no faucet key would do, and snapshot/revert rewinds the
 * fork's own blocks back to its state over the source, as far back as the fork point (a snapshot
 * taken at start, and the controls' reset) — all on state read lazily from the source.
 */
import { Account, AccountAuthenticatorNoAccountAuthenticator, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"

const sdkFor = (chain: LocalChainInfo) =>
  new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))
const latestVersion = async (apiUrl: string): Promise<bigint> =>
  BigInt(((await (await fetch(apiUrl)).json()) as { ledger_version: string }).ledger_version)

describe("the test controls on a fork", () => {
  it("impersonate a source account, set a balance, snapshot and revert", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const source = yield* LocalChain.spawn({ accounts: 0, mining: MiningMode.instant(0) })
          const src = sdkFor(source)
          const whale = Account.generate()
          yield* Effect.promise(() =>
            src.fundAccount({ accountAddress: whale.accountAddress, amount: 5_000_000_000, options: { waitForIndexer: false } })
          )
          const pinned = yield* Effect.promise(() => latestVersion(source.apiUrl))
          const fork = yield* LocalChain.spawn({ accounts: 0, mining: MiningMode.instant(0), fork: { url: source.apiUrl, version: pinned } })
          const aptos = sdkFor(fork)
          const carol = Account.generate().accountAddress
          // A snapshot before the fork's first block: the fork point itself.
          const atForkPoint = yield* fork.controls.snapshot

          // The whale spends on the fork without its key.
          yield* fork.controls.impersonate(whale.accountAddress.toUint8Array())
          const transaction = yield* Effect.promise(() =>
            aptos.transferCoinTransaction({ sender: whale.accountAddress, recipient: carol, amount: 1_000 })
          )
          const sent = yield* Effect.promise(() =>
            aptos.transaction.submit.simple({ transaction, senderAuthenticator: new AccountAuthenticatorNoAccountAuthenticator() })
          )
          expect((yield* Effect.promise(() => aptos.waitForTransaction({ transactionHash: sent.hash }))).success).toBe(true)
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: carol }))).toBe(1_000)

          // A snapshot, a balance set on the fork, then back.
          const id = yield* fork.controls.snapshot
          const dave = Account.generate().accountAddress
          yield* fork.controls.setBalance({ address: dave.toUint8Array(), amount: 777n })
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: dave }))).toBe(777)
          yield* fork.controls.revert(id)
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: dave }))).toBe(0)
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: carol }))).toBe(1_000)
          // The source saw none of it.
          expect(yield* Effect.promise(() => src.getAccountAPTAmount({ accountAddress: carol }))).toBe(0)

          // Back to the fork point: nothing of the fork's own above V, the whale's balance the source's at V.
          yield* fork.controls.revert(atForkPoint)
          expect(yield* Effect.promise(() => latestVersion(fork.apiUrl))).toBe(pinned)
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: carol }))).toBe(0)
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: whale.accountAddress }))).toBe(
            5_000_000_000
          )
          // And the controls' reset from a later block: the same place (over HTTP, as a client calls it).
          yield* fork.controls.setBalance({ address: dave.toUint8Array(), amount: 5n })
          const reset = yield* Effect.promise(() =>
            fetch(`${fork.apiUrl.replace(/\/v1$/, "")}/__movenode/v1/reset`, { method: "POST" })
          )
          expect(reset.status).toBe(200)
          expect(yield* Effect.promise(() => latestVersion(fork.apiUrl))).toBe(pinned)
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: dave }))).toBe(0)
          // Dump and load: refused with a clear error (a dump would copy the source's history, read from it).
          const dumped = yield* Effect.promise(() => fetch(`${fork.apiUrl.replace(/\/v1$/, "")}/__movenode/v1/state/dump`))
          expect(dumped.status).toBe(400)
          expect(((yield* Effect.promise(() => dumped.json())) as { message: string }).message).toMatch(/not supported on a fork/)
        })
      )
    )
  }, 120_000)
})
