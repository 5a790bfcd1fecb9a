/**
 * The faucet's delegation at boot, as the reference's faucet does it: on a new chain the root mints
 * to the faucet's own account and delegates its mint capability, the account claims it, and funding
 * is then signed by that account. A restarted chain funds as the delegate without doing it again.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, assert, describe, it } from "vitest"
import { MiningMode } from "../src/chain/MiningMode.js"
import { LocalChain } from "../src/LocalChain.js"
import { fundCommitted } from "./support/fundCommitted.js"

const get = (url: string) => Effect.promise(() => fetch(url).then((r) => r.json() as Promise<any>))
const post = (url: string, body: unknown) =>
  Effect.promise(() =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(
      (r) => r.json() as Promise<any>
    )
  )

/** Funds `address` and returns the funding transaction once committed. */
const fundAndWait = (chain: { apiUrl: string; faucetUrl?: string | undefined }, address: string) =>
  Effect.map(fundCommitted(chain, address, 1_000), (committed) => committed[0])

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe("the faucet's mint delegation at boot", () => {
  it("funds as its own account once the root delegated the mint capability to it, and only once", () =>
    Effect.runPromise(
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "movenode-faucet-"))
        dirs.push(dataDir)
        const config = { accounts: 1, dataDir, mining: MiningMode.instant(), graphql: undefined }

        const first = yield* Effect.scoped(
          Effect.gen(function* () {
            const chain = yield* LocalChain.spawn(config)
            const funded = yield* fundAndWait(chain, "0xb0b")
            assert.strictEqual(funded.success, true)
            const funder = funded.sender as string
            assert.notStrictEqual(funder, "0xa550c18")
            // The delegate holds the claimed capability, and the root sent exactly the mint to it and
            // the delegation (sequence numbers 0 and 1), the delegate the claim (0) and this funding (1).
            const store = yield* get(`${chain.apiUrl}/accounts/${funder}/resource/0x1::aptos_coin::MintCapStore`)
            assert.isDefined(store.data)
            const root = yield* get(`${chain.apiUrl}/accounts/0xa550c18/transactions`)
            assert.deepStrictEqual(
              root.map((t: any) => t.payload.function),
              ["0x1::aptos_coin::mint", "0x1::aptos_coin::delegate_mint_capability"]
            )
            const own = yield* get(`${chain.apiUrl}/accounts/${funder}/transactions`)
            assert.deepStrictEqual(
              own.map((t: any) => t.payload.function),
              ["0x1::aptos_coin::claim_mint_capability", "0x1::aptos_coin::mint"]
            )
            assert.isTrue(own.every((t: any) => t.success))
            return funder
          })
        )

        yield* Effect.scoped(
          Effect.gen(function* () {
            const chain = yield* LocalChain.spawn(config)
            const funded = yield* fundAndWait(chain, "0xca11")
            assert.strictEqual(funded.sender, first)
            // No second delegation: the root's history is as it was.
            const root = yield* get(`${chain.apiUrl}/accounts/0xa550c18/transactions`)
            assert.strictEqual(root.length, 2)
          })
        )
      })
    ))

  it("is in the chain when spawn returns", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const chain = yield* LocalChain.spawn({ accounts: 1, mining: MiningMode.instant(), graphql: undefined })
          const root = yield* get(`${chain.apiUrl}/accounts/0xa550c18/transactions`)
          assert.strictEqual(root.length, 2)
          const funded = yield* fundAndWait(chain, "0xb0b")
          assert.notStrictEqual(funded.sender, "0xa550c18")
        })
      )
    ))

  it("leaves funding to the root on a chain mined by hand", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const chain = yield* LocalChain.spawn({ accounts: 1, mining: MiningMode.manual, graphql: undefined })
          const { txn_hashes } = yield* post(`${chain.faucetUrl}/fund`, { address: "0xb0b", amount: 1_000 })
          yield* chain.mine
          const funded = yield* get(`${chain.apiUrl}/transactions/by_hash/0x${txn_hashes[0]}`)
          assert.strictEqual(funded.sender, "0xa550c18")
        })
      )
    ))
})
