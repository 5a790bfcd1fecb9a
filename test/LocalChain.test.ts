import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { MiningMode } from "../src/chain/MiningMode.js"
import { addressFromNumber, addressToLongString } from "../src/domain/AccountAddress.js"
import { describeLocalChain, LocalChain } from "../src/LocalChain.js"
import { signedTransfer } from "./support/signedTransfer.js"

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

  it.live(
    "keeps its chain in the data directory; --fresh starts over on the kept genesis, rebuilt when the parameters change",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "movenode-localchain-"))
        const run = (overrides: Parameters<typeof LocalChain.spawn>[0]) =>
          Effect.scoped(
            Effect.gen(function* () {
              const chain = yield* LocalChain.spawn({ dataDir, mining: MiningMode.manual, ...overrides })
              const [, before] = yield* getJson(chain.apiUrl)
              yield* chain.mine
              const [, after] = yield* getJson(chain.apiUrl)
              return [
                BigInt((before as any).ledger_version),
                BigInt((after as any).ledger_version),
                describeLocalChain(chain)
              ] as const
            })
          )
        try {
          const [start] = yield* run({ accounts: 2 })
          const blob = join(dataDir, "genesis.blob")
          const built = statSync(blob).mtimeMs
          const genesis = readFileSync(blob)
          assert.include(readFileSync(join(dataDir, "genesis.key"), "utf8"), '"accounts":2')
          // A restart continues the chain.
          const [restart, , banner] = yield* run({ accounts: 2 })
          assert.isTrue(restart > start)
          assert.notInclude(banner, "--no-fsync")
          // Without flushing (--no-fsync) the same store goes on, and so does a flushing start after it.
          const [unflushed, unflushedEnd, unflushedBanner] = yield* run({ accounts: 2, fsync: false })
          assert.isTrue(unflushed > restart)
          assert.include(unflushedBanner, "(--no-fsync: blocks not flushed to the disk)")
          const [flushedAgain] = yield* run({ accounts: 2 })
          assert.strictEqual(flushedAgain, unflushedEnd)
          // --fresh: back to genesis, the kept genesis file untouched.
          const [fresh] = yield* run({ accounts: 2, fresh: true })
          assert.strictEqual(fresh, start)
          assert.strictEqual(statSync(blob).mtimeMs, built)
          // Other parameters: a new genesis.
          yield* run({ accounts: 3, fresh: true })
          assert.notDeepEqual(readFileSync(blob), genesis)
          assert.include(readFileSync(join(dataDir, "genesis.key"), "utf8"), '"accounts":3')
        } finally {
          rmSync(dataDir, { recursive: true, force: true })
        }
      })
  )

  it.live(
    "mining on its own, makes a block at start: the chain's clock is the wall clock's and an expired transaction is refused",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const started = BigInt(Date.now()) * 1000n
          const chain = yield* LocalChain.spawn({ accounts: 1 })
          let info = (yield* getJson(chain.apiUrl))[1] as { block_height: string; ledger_timestamp: string }
          for (let i = 0; i < 250 && info.block_height === "0"; i++) {
            yield* Effect.sleep(20)
            info = (yield* getJson(chain.apiUrl))[1] as typeof info
          }
          // The start block, then the faucet's delegation at boot may have made its own blocks.
          assert.isTrue(BigInt(info.block_height) >= 1n)
          assert.isTrue(BigInt(info.ledger_timestamp) >= started)
          const account = chain.accounts[0]!
          const signed = signedTransfer(account, addressFromNumber(0xb0b), 0n, {
            // A minute ago: after the genesis's clock (0), before the start block's.
            expirationTimestampSecs: BigInt(Math.floor(Date.now() / 1000) - 60)
          })
          const [status, body] = yield* getJson(`${chain.apiUrl}/transactions`, {
            method: "POST",
            headers: { "content-type": "application/x.aptos.signed_transaction+bcs" },
            body: signed
          })
          assert.deepStrictEqual(
            [status, body],
            [
              400,
              {
                message: "Invalid transaction: Type: Validation Code: TRANSACTION_EXPIRED",
                error_code: "vm_error",
                vm_error_code: 6
              }
            ]
          )
        })
      )
  )
})
