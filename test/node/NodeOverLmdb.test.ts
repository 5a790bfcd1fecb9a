import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { LedgerLmdb } from "../../src/ledger/index.js"
import { Node } from "../../src/node/Node.js"
import { block, devnetGenesis, entry, ONE, ROOT, toCommit, userTransaction, userTransactions } from "./fixtures.js"
import { moduleKey } from "../../src/node/stateKeys.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import { readBlockGasFacts } from "../../src/node/blockMinInclusionPrice.js"

const dir = mkdtempSync(join(tmpdir(), "movenode-node-lmdb-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The same node over the LMDB ledger: the services see storage only through `Ledger`. */
const layer = Node.layer.pipe(
  Layer.provideMerge(LedgerLmdb.layer({ path: join(dir, "ledger"), genesis: devnetGenesis, sync: false }))
)

describe("Node over the LMDB ledger", () => {
  it.effect("answers balance, module, summaries and gas estimate", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const node = yield* Node
      const alice = addressFromNumber(0xa11ce)
      for (let i = 0; i < 4; i++)
        yield* ledger.commitBlock(
          block(1n, BigInt(i), [...userTransactions(3, 5000n), toCommit(userTransaction(alice, BigInt(i), 100n))])
        )
      const balance = yield* node.balance(ROOT, { _tag: "FungibleAsset", metadata: addressFromNumber(0xa) }, 0n)
      assert.strictEqual(balance.value, 18446744073709551615n)
      const module = yield* node.module(ONE, "coin", undefined)
      assert.strictEqual(JSON.parse(module.value.abiJson).name, "coin")
      const page = yield* node.transactionSummaries(alice, { limit: 2 })
      assert.deepStrictEqual(
        page.value.summaries.map((s) => s.replayProtector),
        [2n, 3n].map((n) => ({ _tag: "SequenceNumber" as const, sequenceNumber: n }))
      )
      // The newest page has no later page; a forward page from the first version does.
      assert.isUndefined(page.value.cursor)
      const first = yield* node.transactionSummaries(alice, { startVersion: 0n, limit: 2 })
      assert.strictEqual(first.value.cursor, first.value.summaries[1]!.version + 1n)
      // Blocks of 4 user transactions are not full at the default 250: the on-chain minimum.
      assert.deepStrictEqual((yield* node.estimateGasPrice).value, { low: 100n, market: 100n, aggressive: 150n })
    }).pipe(Effect.provide(layer))
  )

  it.effect("reads what the gas estimate needs of a block in place, as from the decoded transactions", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      assert.isDefined(ledger.transactionsGasFacts)
      const decodedOnly = { ...ledger, transactionsGasFacts: undefined }
      const committed = [
        // Full (250 user transactions, the cheapest at 150) without an epilogue; a limit reached; not reached.
        yield* ledger.commitBlock(block(1n, 20n, userTransactions(250, 300n, 150n))),
        yield* ledger.commitBlock(block(1n, 21n, userTransactions(3, 5000n), { epilogueLimitReached: true })),
        yield* ledger.commitBlock(block(1n, 22n, userTransactions(2, 100n), { epilogueLimitReached: false }))
      ]
      const facts = []
      for (const b of committed) {
        const inPlace = yield* readBlockGasFacts(ledger, b)
        assert.deepStrictEqual(inPlace, yield* readBlockGasFacts(decodedOnly, b))
        facts.push(inPlace)
      }
      assert.strictEqual(facts[0]!.userGasUnitPrices.length, 250)
      assert.include(facts[0]!.userGasUnitPrices, 150n)
      assert.deepStrictEqual(
        facts.map((f) => f.epilogueLimitReached),
        [undefined, true, false]
      )
      // A range above the ledger's head is refused, as a transaction read there is.
      const info = yield* ledger.ledgerInfo
      const above = yield* Effect.flip(ledger.transactionsGasFacts!(info.ledgerVersion, info.ledgerVersion + 1n))
      assert.strictEqual(above._tag, "VersionNotFound")
    }).pipe(Effect.provide(layer))
  )

  // The LMDB read paths behind the caches: the version-only state read (latest and history entries),
  // the module answer reused per stored version, summary pages dropped by every commit.
  it.effect("serves each module version its own answer and fresh summary pages after commits", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const node = yield* Node
      const bob = addressFromNumber(0xb0b)
      yield* ledger.commitBlock(block(1n, 0n, [toCommit(userTransaction(bob, 0n, 100n))]))
      const before = yield* node.module(ONE, "guid", undefined)
      assert.strictEqual((yield* node.module(ONE, "guid", undefined)).value, before.value)
      const other = (yield* node.module(ONE, "object", undefined)).value
      const upgrade = entry(
        { _tag: "AccessPath", address: ONE, path: { _tag: "Code", module: { address: ONE, name: "guid" } } },
        { _tag: "Modification", data: other.bytecode }
      )
      yield* ledger.commitBlock(block(1n, 1n, [toCommit(userTransaction(bob, 1n, 100n), [upgrade])]))
      const after = yield* node.module(ONE, "guid", undefined)
      assert.deepStrictEqual(after.value.bytecode, other.bytecode)
      assert.strictEqual(after.value.abiJson, other.abiJson)
      const old = yield* node.module(ONE, "guid", before.ledger.ledgerVersion)
      assert.deepStrictEqual(old.value.bytecode, before.value.bytecode)
      assert.strictEqual(old.value.abiJson, before.value.abiJson)
      for (const version of [before.ledger.ledgerVersion, after.ledger.ledgerVersion]) {
        const state = yield* ledger.stateAt(version)
        for (const key of [moduleKey(ONE, "guid"), moduleKey(ONE, "no_such_module")])
          assert.strictEqual(state.versionOf?.(key), state.getVersioned(key)?.version)
      }
      const first = yield* node.transactionSummaries(bob, { limit: 25 })
      assert.deepStrictEqual(
        (yield* node.transactionSummaries(bob, { limit: 25 })).value.summaries,
        first.value.summaries
      )
      yield* ledger.commitBlock(block(1n, 2n, [toCommit(userTransaction(bob, 2n, 100n))]))
      const next = yield* node.transactionSummaries(bob, { limit: 25 })
      assert.deepStrictEqual(
        next.value.summaries.map((s) => s.replayProtector),
        [0n, 1n, 2n].map((n) => ({ _tag: "SequenceNumber" as const, sequenceNumber: n }))
      )
      assert.strictEqual(first.value.summaries.length, 2)
    }).pipe(
      Effect.provide(
        Node.layer.pipe(
          Layer.provideMerge(
            LedgerLmdb.layer({ path: join(dir, "ledger-caches"), genesis: devnetGenesis, sync: false })
          )
        )
      )
    )
  )
})
