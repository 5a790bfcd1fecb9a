import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { Modules } from "../../src/node/Modules.js"
import { block, commitAll, entry, ONE, servicesLayer, toCommit, userTransaction } from "./fixtures.js"

const writeModule = (name: string, bytes: Uint8Array) =>
  entry(
    { _tag: "AccessPath", address: ONE, path: { _tag: "Code", module: { address: ONE, name } } },
    { _tag: "Modification", data: bytes }
  )

const commitModule = (name: string, bytes: Uint8Array, round: bigint) =>
  commitAll([block(1n, round, [toCommit(userTransaction(ONE, round, 100n), [writeModule(name, bytes)])])])

interface Abi {
  readonly address: string
  readonly name: string
  readonly exposed_functions: ReadonlyArray<{
    readonly name: string
    readonly is_view: boolean
    readonly is_entry: boolean
  }>
  readonly structs: ReadonlyArray<{ readonly name: string }>
}

describe("Modules", () => {
  it.effect("answers a genesis module's bytes and ABI", () =>
    Effect.gen(function* () {
      const { ledger, value } = yield* (yield* Modules).module(ONE, "coin", undefined)
      assert.strictEqual(ledger.ledgerVersion, 0n)
      assert.deepStrictEqual([...value.bytecode.slice(0, 4)], [0xa1, 0x1c, 0xeb, 0x0b])
      const abi = JSON.parse(value.abiJson) as Abi
      assert.strictEqual(abi.address, "0x1")
      assert.strictEqual(abi.name, "coin")
      const balance = abi.exposed_functions.find((f) => f.name === "balance")
      assert.isDefined(balance)
      assert.isTrue(balance!.is_view)
      assert.isTrue(abi.structs.some((s) => s.name === "CoinStore"))
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("an absent module, even of an unknown account, is 404 module_not_found with the ledger", () =>
    Effect.gen(function* () {
      const modules = yield* Modules
      for (const [address, name] of [
        [ONE, "no_such_module"],
        [addressFromNumber(0xdead), "coin"]
      ] as const) {
        const error = yield* Effect.flip(modules.module(address, name, undefined))
        assert.strictEqual(error.status, 404)
        assert.strictEqual(error.code, "module_not_found")
        assert.isDefined(error.ledger)
        assert.include(error.message, `Module name(${name})`)
        assert.include(error.message, "Ledger version(0)")
      }
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("a module name that is not an identifier is a 400", () =>
    Effect.gen(function* () {
      for (const name of ["", "0x1::coin", "a-b", "coin<u8>"]) {
        const error = yield* Effect.flip((yield* Modules).module(ONE, name, undefined))
        assert.strictEqual(error.status, 400)
      }
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("computes the ABI once per stored module version and serves each version its own", () =>
    Effect.gen(function* () {
      const modules = yield* Modules
      const atGenesis = yield* modules.module(ONE, "guid", undefined)
      assert.strictEqual(yield* modules.cachedAbis, 1)
      // Blocks that do not touch the module: later versions read the same stored module, a cache hit.
      yield* commitAll([block(1n, 0n, []), block(1n, 1n, [])])
      const later = yield* modules.module(ONE, "guid", undefined)
      assert.isTrue(later.ledger.ledgerVersion > 0n)
      assert.strictEqual(later.value.abiJson, atGenesis.value.abiJson)
      assert.strictEqual(yield* modules.cachedAbis, 1)
      // An upgrade (here: the bytes of 0x1::object under the name guid) is a new stored version.
      const other = (yield* modules.module(ONE, "object", undefined)).value
      assert.strictEqual(yield* modules.cachedAbis, 2)
      yield* commitModule("guid", other.bytecode, 2n)
      const upgraded = yield* modules.module(ONE, "guid", undefined)
      assert.deepStrictEqual(upgraded.value.bytecode, other.bytecode)
      assert.strictEqual(upgraded.value.abiJson, other.abiJson)
      assert.strictEqual(yield* modules.cachedAbis, 3)
      // The earlier version still answers the earlier module.
      const before = yield* modules.module(ONE, "guid", later.ledger.ledgerVersion)
      assert.strictEqual(before.value.abiJson, atGenesis.value.abiJson)
      assert.strictEqual(yield* modules.cachedAbis, 3)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("a repeated read answers its own version, across commits and back (found and not found alike)", () =>
    Effect.gen(function* () {
      const modules = yield* Modules
      const guid = (yield* modules.module(ONE, "guid", undefined)).value
      // Absent at genesis, twice (the second from the kept answer).
      for (let i = 0; i < 2; i++) {
        const error = yield* Effect.flip(modules.module(ONE, "late", undefined))
        assert.strictEqual(error.code, "module_not_found")
      }
      yield* commitModule("late", guid.bytecode, 0n)
      const found = yield* modules.module(ONE, "late", undefined)
      assert.deepStrictEqual(found.value.bytecode, guid.bytecode)
      assert.strictEqual((yield* modules.module(ONE, "late", undefined)).value, found.value)
      // Back at genesis it is absent again, then present again at the head.
      const atGenesis = yield* Effect.flip(modules.module(ONE, "late", 0n))
      assert.strictEqual(atGenesis.code, "module_not_found")
      assert.include(atGenesis.message, "Ledger version(0)")
      assert.deepStrictEqual((yield* modules.module(ONE, "late", undefined)).value.bytecode, guid.bytecode)
      assert.strictEqual((yield* Effect.flip(modules.module(ONE, "late", 0n))).code, "module_not_found")
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("answers abi null for stored bytes that are not a module", () =>
    Effect.gen(function* () {
      yield* commitModule("broken", Uint8Array.of(0xa1, 0x1c, 0xeb, 0x0b, 0xff), 0n)
      const { value } = yield* (yield* Modules).module(ONE, "broken", undefined)
      assert.strictEqual(value.abiJson, "null")
      assert.deepStrictEqual([...value.bytecode], [0xa1, 0x1c, 0xeb, 0x0b, 0xff])
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("serves every genesis module with a parsable ABI naming it", () =>
    Effect.gen(function* () {
      const modules = yield* Modules
      let count = 0
      for (const name of [
        "account",
        "aptos_account",
        "coin",
        "fungible_asset",
        "object",
        "primary_fungible_store",
        "gas_schedule"
      ]) {
        const { value } = yield* modules.module(ONE, name, 0n)
        const abi = JSON.parse(value.abiJson) as Abi
        assert.strictEqual(abi.name, name)
        count++
      }
      assert.strictEqual(count, 7)
    }).pipe(Effect.provide(servicesLayer()))
  )
})
