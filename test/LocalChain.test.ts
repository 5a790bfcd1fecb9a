import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { describeLocalChain, LocalChain } from "../src/LocalChain.js"
import { addressToLongString } from "../src/domain/AccountAddress.js"

const getJson = (url: string, init?: RequestInit) =>
  Effect.promise(() => fetch(url, init).then(async (r) => [r.status, await r.json()] as const))

describe("LocalChain", () => {
  it.live("spawns a chain (chain id 4) whose faucet funds accounts that read back through the API", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const chain = yield* LocalChain.spawn({ accounts: 2 })
        const [status, info] = yield* getJson(chain.apiUrl)
        assert.strictEqual(status, 200)
        assert.strictEqual((info as { chain_id: number }).chain_id, 4)
        const who = "0x" + "ab".repeat(32)
        const [fundStatus, funded] = yield* getJson(`${chain.faucetUrl}/fund`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ address: who, amount: 5_000 })
        })
        assert.strictEqual(fundStatus, 200)
        assert.strictEqual((funded as { txn_hashes: string[] }).txn_hashes.length, 1)
        // Instant mining: committed within a few milliseconds; poll the balance endpoint.
        let balance = 0
        for (let i = 0; i < 100 && balance === 0; i++) {
          yield* Effect.sleep(20)
          const [, b] = yield* getJson(`${chain.apiUrl}/accounts/${who}/balance/0x1::aptos_coin::AptosCoin`)
          balance = b as number
        }
        assert.strictEqual(balance, 5_000)
        const [, first] = yield* getJson(
          `${chain.apiUrl}/accounts/${addressToLongString(chain.accounts[0]!.address)}/balance/0x1::aptos_coin::AptosCoin`
        )
        assert.strictEqual(BigInt(first as number), chain.accounts[0]!.balance)
        assert.match(describeLocalChain(chain), /chain id 4/)
      })
    )
  )
})
