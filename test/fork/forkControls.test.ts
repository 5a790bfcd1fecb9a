/**
 * The test controls (issue 21) on a fork: an account of the source spends without its key
 * (impersonation), a balance is set where no faucet key would do, and snapshot/revert rewinds the
 * fork's own blocks back to its state over the source, as far back as the fork point (a snapshot
 * taken at start, and the controls' reset) — all on state read lazily from the source; and a
 * fork's dump (its own blocks over the fork point) loads back in place and into another fork of
 * the same point, and nowhere else (a chain from genesis, a fork at another version, a fork of
 * another chain at the same version).
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
            src.fundAccount({
              accountAddress: whale.accountAddress,
              amount: 5_000_000_000,
              options: { waitForIndexer: false }
            })
          )
          const pinned = yield* Effect.promise(() => latestVersion(source.apiUrl))
          const fork = yield* LocalChain.spawn({
            accounts: 0,
            mining: MiningMode.instant(0),
            fork: { url: source.apiUrl, version: pinned }
          })
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
            aptos.transaction.submit.simple({
              transaction,
              senderAuthenticator: new AccountAuthenticatorNoAccountAuthenticator()
            })
          )
          expect((yield* Effect.promise(() => aptos.waitForTransaction({ transactionHash: sent.hash }))).success).toBe(
            true
          )
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
          // Dump and load: the fork's own blocks over its fork point (its history up to V is the source's).
          const root = (chain: LocalChainInfo) => chain.apiUrl.replace(/\/v1$/, "")
          yield* fork.controls.setBalance({ address: dave.toUint8Array(), amount: 42n })
          const dumpedAt = yield* Effect.promise(() => latestVersion(fork.apiUrl))
          const response = yield* Effect.promise(() => fetch(`${root(fork)}/__movenode/v1/state/dump`))
          expect(response.status).toBe(200)
          const dump = new Uint8Array(yield* Effect.promise(() => response.arrayBuffer()))
          const lastHash = (yield* Effect.promise(() => aptos.getTransactionByVersion({ ledgerVersion: dumpedAt })))
            .hash
          // Changed after the dump, then loaded back in place.
          yield* fork.controls.setBalance({ address: dave.toUint8Array(), amount: 9n })
          yield* fork.controls.load(dump)
          expect(yield* Effect.promise(() => latestVersion(fork.apiUrl))).toBe(dumpedAt)
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: dave }))).toBe(42)
          // Into a new fork of the same point, over HTTP: the same blocks, hashes and balances.
          const twin = yield* LocalChain.spawn({
            accounts: 0,
            mining: MiningMode.instant(0),
            fork: { url: source.apiUrl, version: pinned }
          })
          const loaded = yield* Effect.promise(() =>
            fetch(`${root(twin)}/__movenode/v1/state/load`, {
              method: "POST",
              headers: { "content-type": "application/octet-stream" },
              body: dump
            })
          )
          expect(loaded.status).toBe(200)
          const twinSdk = sdkFor(twin)
          expect(yield* Effect.promise(() => latestVersion(twin.apiUrl))).toBe(dumpedAt)
          expect((yield* Effect.promise(() => twinSdk.getTransactionByVersion({ ledgerVersion: dumpedAt }))).hash).toBe(
            lastHash
          )
          expect(yield* Effect.promise(() => twinSdk.getAccountAPTAmount({ accountAddress: dave }))).toBe(42)
          expect(yield* Effect.promise(() => twinSdk.getAccountAPTAmount({ accountAddress: carol }))).toBe(0)
          // The loaded fork goes on: a block after it.
          expect((yield* twin.controls.mine({ blocks: 1 }))[0]!.lastVersion).toBeGreaterThan(dumpedAt)
          // Refused, in the error body's shape: into the source (a chain from its genesis) and into a fork of another point.
          const into = (chain: LocalChainInfo) =>
            Effect.promise(async () => {
              const r = await fetch(`${root(chain)}/__movenode/v1/state/load`, {
                method: "POST",
                headers: { "content-type": "application/octet-stream" },
                body: dump
              })
              return { status: r.status, message: ((await r.json()) as { message: string }).message }
            })
          const intoSource = yield* into(source)
          expect(intoSource.status).toBe(400)
          expect(intoSource.message).toMatch(
            new RegExp(`made on a fork at version ${pinned}, this chain is a chain from its genesis`)
          )
          const earlier = yield* LocalChain.spawn({
            accounts: 0,
            mining: MiningMode.instant(0),
            fork: { url: source.apiUrl, version: pinned - 1n }
          })
          const intoEarlier = yield* into(earlier)
          expect(intoEarlier.status).toBe(400)
          expect(intoEarlier.message).toMatch(new RegExp(`this chain is a fork at version ${pinned - 1n}`))
          // And a fork of another chain at the same version: the same genesis, another history
          // (another account funded, its own blocks), so another transaction at the fork version.
          const other = yield* LocalChain.spawn({ accounts: 0, mining: MiningMode.instant(0) })
          yield* Effect.promise(() =>
            sdkFor(other).fundAccount({
              accountAddress: Account.generate().accountAddress,
              amount: 5_000_000_000,
              options: { waitForIndexer: false }
            })
          )
          while ((yield* Effect.promise(() => latestVersion(other.apiUrl))) < pinned)
            yield* other.controls.mine({ blocks: 1 })
          const otherFork = yield* LocalChain.spawn({
            accounts: 0,
            mining: MiningMode.instant(0),
            fork: { url: other.apiUrl, version: pinned }
          })
          const intoOther = yield* into(otherFork)
          expect(intoOther.status).toBe(400)
          expect(intoOther.message).toMatch(
            new RegExp(`a fork of another chain \\(its transaction at version ${pinned} differs\\)`)
          )
        })
      )
    )
  }, 120_000)
})
