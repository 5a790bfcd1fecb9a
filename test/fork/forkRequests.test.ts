/**
 * What a warm fork asks its source: nothing for a transfer between accounts it has read, nothing
 * for a view, nothing for a gas estimate (the SDK asks one before every transaction it builds; a
 * fork's estimate looks at its own blocks, not the source's), one request for a recipient it has
 * never read (whether that account exists at the source). Counted at a proxy in front of the source.
 */
import { createServer, request } from "node:http"
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"

const sdkFor = (chain: LocalChainInfo) =>
  new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))

/** A proxy to `target` that counts (and names) the requests it forwards. */
const countingProxy = Effect.acquireRelease(
  Effect.promise(async () => {
    const seen: string[] = []
    let target = new URL("http://127.0.0.1:1")
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      const up = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers)
          r.pipe(res)
        }
      )
      up.on("error", () => res.destroy())
      req.pipe(up)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as { port: number }).port
    return {
      url: `http://127.0.0.1:${port}/v1`,
      to: (url: string) => {
        target = new URL(url)
      },
      seen,
      close: () => server.close()
    }
  }),
  (p) => Effect.sync(() => p.close())
)

describe("a warm fork's requests to its source", () => {
  it("none per transfer between known accounts, per view, per gas estimate; one per new recipient", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const source = yield* LocalChain.spawn({ accounts: 0, mining: MiningMode.instant(0) })
          const src = sdkFor(source)
          const alice = Account.generate()
          const bob = Account.generate()
          for (const a of [alice, bob])
            yield* Effect.promise(() =>
              src.fundAccount({
                accountAddress: a.accountAddress,
                amount: 1_000_000_000,
                options: { waitForIndexer: false }
              })
            )
          const pinned = BigInt(
            ((yield* Effect.promise(() => fetch(source.apiUrl).then((r) => r.json()))) as { ledger_version: string })
              .ledger_version
          )
          const proxy = yield* countingProxy
          proxy.to(source.apiUrl)
          const fork = yield* LocalChain.spawn({
            accounts: 0,
            mining: MiningMode.instant(0),
            fork: { url: proxy.url, version: pinned }
          })
          const aptos = sdkFor(fork)
          const transfer = (recipient: Account) =>
            Effect.promise(async () => {
              const transaction = await aptos.transferCoinTransaction({
                sender: alice.accountAddress,
                recipient: recipient.accountAddress,
                amount: 1
              })
              const sent = await aptos.signAndSubmitTransaction({ signer: alice, transaction })
              return aptos.waitForTransaction({ transactionHash: sent.hash })
            })
          const view = {
            function: "0x1::coin::balance" as const,
            typeArguments: ["0x1::aptos_coin::AptosCoin"],
            functionArguments: [bob.accountAddress]
          }
          // The first gas estimate of a new fork: the on-chain minimum (its own blocks: one, empty),
          // not a walk over the source's recent blocks.
          // (after the fork's first block: the producer reads the block holding V once, on its first block)
          yield* fork.controls.mine({ blocks: 1 })
          const started = proxy.seen.length
          const estimate = (yield* Effect.promise(() =>
            fetch(`${fork.apiUrl}/estimate_gas_price`).then((r) => r.json())
          )) as {
            gas_estimate: number
          }
          expect(estimate.gas_estimate).toBe(100)
          expect(proxy.seen.slice(started), "requests for the first gas estimate").toEqual([])
          // Warm up: one transfer to bob, one view.
          expect((yield* transfer(bob)).success).toBe(true)
          yield* Effect.promise(() => aptos.view({ payload: view }))
          const asked = () => proxy.seen.length

          let before = asked()
          for (let i = 0; i < 5; i++) expect((yield* transfer(bob)).success).toBe(true)
          for (let i = 0; i < 10; i++) yield* Effect.promise(() => aptos.view({ payload: view }))
          for (let i = 0; i < 3; i++)
            yield* Effect.promise(() => fetch(`${fork.apiUrl}/estimate_gas_price`).then((r) => r.json()))
          expect(proxy.seen.slice(before), "requests once warm").toEqual([])

          // A recipient the fork never read: one request (its state at the source), then none.
          const carol = Account.generate()
          before = asked()
          expect((yield* transfer(carol)).success).toBe(true)
          expect(asked() - before).toBe(1)
          before = asked()
          expect((yield* transfer(carol)).success).toBe(true)
          expect(asked() - before).toBe(0)
        })
      )
    )
  }, 120_000)
})
