/**
 * A movenode local chain forked from another, in one process (no network but loopback): the fork
 * reads the source's state lazily through POST /v1/experimental/state_values/raw at the pinned
 * version; its own writes stay local; the source's later transactions do not appear; a fork of the
 * fork reads both (a fork serves state_values/raw over its own lazy state); a chain id of its own.
 */
import { Account, Aptos, AptosConfig, ChainId, Network } from "@aptos-labs/ts-sdk"
import { Effect, Logger } from "effect"
import { describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"

/** The latest version, asked of GET /v1 (the SDK memoizes getLedgerInfo on a custom network). */
const latestVersion = async (apiUrl: string): Promise<bigint> =>
  BigInt(((await (await fetch(apiUrl)).json()) as { ledger_version: string }).ledger_version)

const sdkFor = (chain: LocalChainInfo) =>
  new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))

/** Error-level log messages of the chains (a fork refusing a block that read state not fetched yet is by design, not one). */
const errors: string[] = []
const errorLogs = Logger.layer([
  Logger.make(({ logLevel, message }) => {
    if (logLevel === "Error" || logLevel === "Fatal") errors.push(String(message).slice(0, 300))
  })
])

describe("a fork of a local chain", () => {
  it("reads the source's state at the pinned version, transfers on its own, ignores the source's later blocks", async () => {
    errors.length = 0
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const source = yield* LocalChain.spawn({ accounts: 1, mining: MiningMode.instant(0) })
          const src = sdkFor(source)
          const alice = Account.generate()
          const bob = Account.generate()
          yield* Effect.promise(() =>
            src.fundAccount({
              accountAddress: alice.accountAddress,
              amount: 1_000_000_000,
              options: { waitForIndexer: false }
            })
          )
          const pinned = yield* Effect.promise(() => latestVersion(source.apiUrl))
          // Later on the source: bob gets funded; the fork pinned before must not see it.
          yield* Effect.promise(() =>
            src.fundAccount({
              accountAddress: bob.accountAddress,
              amount: 5_000_000,
              options: { waitForIndexer: false }
            })
          )

          const progress: string[] = []
          const fork = yield* LocalChain.spawn({
            accounts: 1,
            mining: MiningMode.instant(0),
            fork: { url: source.apiUrl, version: pinned, progress: (l) => progress.push(l) }
          })
          const aptos = sdkFor(fork)
          const info = yield* Effect.promise(() => aptos.getLedgerInfo())
          expect(info.chain_id).toBe(4)
          expect(BigInt(info.ledger_version)).toBeGreaterThanOrEqual(pinned)
          expect(progress.join("\n")).toMatch(/prefetched \d+ configs and \d+ modules/)

          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress }))).toBe(
            1_000_000_000
          )
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress }))).toBe(0)

          const carol = Account.generate()
          const txn = yield* Effect.promise(() =>
            aptos.transferCoinTransaction({
              sender: alice.accountAddress,
              recipient: carol.accountAddress,
              amount: 1234
            })
          )
          const sent = yield* Effect.promise(() => aptos.signAndSubmitTransaction({ signer: alice, transaction: txn }))
          const done = yield* Effect.promise(() => aptos.waitForTransaction({ transactionHash: sent.hash }))
          expect(done.success).toBe(true)
          expect(BigInt(done.version)).toBeGreaterThan(pinned)
          expect(yield* Effect.promise(() => aptos.getAccountAPTAmount({ accountAddress: carol.accountAddress }))).toBe(
            1234
          )
          // The source is untouched by the fork's transfer.
          expect(yield* Effect.promise(() => src.getAccountAPTAmount({ accountAddress: carol.accountAddress }))).toBe(0)

          // A fork of the fork: its state at the fork's latest version is the source's with the
          // fork's transfer on top (the fork serves state_values/raw over its own lazy state).
          const forkAt = yield* Effect.promise(() => latestVersion(fork.apiUrl))
          const second = yield* LocalChain.spawn({
            accounts: 0,
            mining: MiningMode.instant(0),
            fork: { url: fork.apiUrl, version: forkAt }
          })
          const third = sdkFor(second)
          expect(yield* Effect.promise(() => third.getAccountAPTAmount({ accountAddress: carol.accountAddress }))).toBe(
            1234
          )
          expect(yield* Effect.promise(() => third.getAccountAPTAmount({ accountAddress: bob.accountAddress }))).toBe(0)
          expect(
            (yield* Effect.promise(() => third.getTransactionByVersion({ ledgerVersion: BigInt(done.version) }))).hash
          ).toBe(done.hash)

          // A fork with a chain id of its own: GET /v1 and the ChainId resource say it, transactions carry it.
          const renamed = yield* LocalChain.spawn({
            accounts: 1,
            mining: MiningMode.instant(0),
            fork: { url: source.apiUrl, version: pinned, chainId: 77 }
          })
          const other = sdkFor(renamed)
          expect(
            ((yield* Effect.promise(() => fetch(renamed.apiUrl).then((r) => r.json()))) as { chain_id: number })
              .chain_id
          ).toBe(77)
          const again = yield* Effect.promise(() =>
            other.transferCoinTransaction({ sender: alice.accountAddress, recipient: carol.accountAddress, amount: 5 })
          )
          // (The SDK remembers a custom network's chain id per process: 4, from the first fork.)
          ;(again.rawTransaction as { chain_id: ChainId }).chain_id = new ChainId(77)
          expect(
            yield* Effect.promise(() =>
              other.view({ payload: { function: "0x1::chain_id::get", functionArguments: [] } })
            )
          ).toEqual([77])
          const sentAgain = yield* Effect.promise(() =>
            other.signAndSubmitTransaction({ signer: alice, transaction: again })
          )
          expect(
            (yield* Effect.promise(() => other.waitForTransaction({ transactionHash: sentAgain.hash }))).success
          ).toBe(true)
        })
      ).pipe(Effect.provide(errorLogs))
    )
    // The forks' first blocks read state not fetched yet, were refused and executed again: no error.
    expect(errors).toEqual([])
  }, 120_000)
})
