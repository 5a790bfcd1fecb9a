import { AccountAddress as SdkAddress, createObjectAddress, Deserializer } from "@aptos-labs/ts-sdk"
import { assert, describe, it } from "@effect/vitest"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { Effect, Result } from "effect"
import { Bcs } from "../../src/bcs/index.js"
import { type AccountAddress, addressEquals, addressFromNumber } from "../../src/domain/AccountAddress.js"
import { decodeGenesisTransaction } from "../../src/domain/Genesis.js"
import { primaryStoreAddress } from "../../src/domain/objectAddress.js"
import type { StructTag } from "../../src/domain/TypeTag.js"
import { structTagCodec } from "../../src/domain/TypeTagCodec.js"
import { Balances } from "../../src/node/Balances.js"
import type { AssetType } from "../../src/node/Balances.js"
import {
  APTOS_COIN,
  block,
  commitAll,
  devnetGenesis,
  mainnetGenesis,
  ONE,
  ROOT,
  servicesLayer,
  struct,
  toCommit,
  userTransaction,
  writeResource,
  writeResourceGroup
} from "./fixtures.js"
import { describeWithGenesis } from "../support/genesis.js"

const U64_MAX = 18446744073709551615n
const FA_APT = addressFromNumber(0xa)
const coin = (tag: string): AssetType => ({ _tag: "Coin", structTag: tag })
const fa = (metadata: AccountAddress): AssetType => ({ _tag: "FungibleAsset", metadata })

const OBJECT_GROUP = struct(ONE, "object", "ObjectGroup")
const FUNGIBLE_STORE = struct(ONE, "fungible_asset", "FungibleStore")
const CONCURRENT = struct(ONE, "fungible_asset", "ConcurrentFungibleBalance")
const OBJECT_CORE = struct(ONE, "object", "ObjectCore")

const eventHandle = (addr: AccountAddress, n: bigint) =>
  Bcs.encode(Bcs.struct({ counter: Bcs.u64, creation: Bcs.u64, addr: Bcs.fixedBytes(32) }), {
    counter: 0n,
    creation: n,
    addr
  })

/** `CoinStore<T> { coin: Coin<T> { value }, frozen, deposit_events, withdraw_events }`. */
const coinStoreBytes = (owner: AccountAddress, value: bigint): Uint8Array => {
  const w = [Bcs.encode(Bcs.u64, value), Uint8Array.of(0), eventHandle(owner, 2n), eventHandle(owner, 3n)]
  return Uint8Array.from(w.flatMap((b) => [...b]))
}
const coinStore = (owner: AccountAddress, coinType: StructTag, value: bigint) =>
  writeResource(
    owner,
    struct(ONE, "coin", "CoinStore", [{ _tag: "struct", struct: coinType }]),
    coinStoreBytes(owner, value)
  )

const fungibleStoreBytes = (metadata: AccountAddress, balance: bigint) =>
  Bcs.encode(Bcs.struct({ metadata: Bcs.fixedBytes(32), balance: Bcs.u64, frozen: Bcs.bool }), {
    metadata,
    balance,
    frozen: false
  })

/** The primary store object's resource group: ObjectCore, the store and, optionally, a concurrent balance. */
const primaryStore = (
  owner: AccountAddress,
  metadata: AccountAddress,
  balance: bigint | Uint8Array,
  concurrent?: bigint
) => {
  const members: Array<readonly [StructTag, Uint8Array]> = [
    [OBJECT_CORE, Uint8Array.from([...Bcs.encode(Bcs.u64, 0x4000000000000n), ...owner, 0, ...eventHandle(owner, 1n)])],
    [FUNGIBLE_STORE, typeof balance === "bigint" ? fungibleStoreBytes(metadata, balance) : balance]
  ]
  if (concurrent !== undefined)
    members.push([
      CONCURRENT,
      Bcs.encode(Bcs.struct({ value: Bcs.u64, max: Bcs.u64 }), { value: concurrent, max: U64_MAX })
    ])
  // BCS maps are sorted by the keys' bytes.
  const enc = (t: StructTag) => Bcs.encode(structTagCodec, t)
  members.sort(([a], [b]) => Buffer.compare(enc(a), enc(b)))
  return writeResourceGroup(
    primaryStoreOf(owner, metadata),
    OBJECT_GROUP,
    Bcs.encode(Bcs.map(structTagCodec, Bcs.bytes), members)
  )
}

/** Independent derivations (the SDK's named object; the primary store's hash written out here). */
const pairedMetadataBySdk = (coinType: string): AccountAddress =>
  createObjectAddress(SdkAddress.A, coinType).toUint8Array()
const primaryStoreOf = (owner: AccountAddress, metadata: AccountAddress): AccountAddress =>
  sha3_256(Uint8Array.from([...owner, ...metadata, 0xfc]))

const ALICE = addressFromNumber(0xa11ce)
const MY_COIN = struct(addressFromNumber(0xc0de), "my_coin", "MyCoin")
const MY_COIN_PAIRED = pairedMetadataBySdk("0xc0de::my_coin::MyCoin")
const MY_FA = addressFromNumber(0xfa)

/** Commits a block of one user transaction whose write set is `writes`; answers its version. */
const commitWrites = (writes: Parameters<typeof toCommit>[1], round: bigint) =>
  Effect.map(commitAll([block(1n, round, [toCommit(userTransaction(ALICE, round, 100n), writes)])]), () => undefined)

describe("Balances at devnet genesis", () => {
  it.effect("root 0xa550c18 holds u64::MAX by the AptosCoin type and by the 0xa metadata address", () =>
    Effect.gen(function* () {
      const balances = yield* Balances
      const byCoin = yield* balances.balance(ROOT, coin("0x1::aptos_coin::AptosCoin"), undefined)
      assert.strictEqual(byCoin.value, U64_MAX)
      assert.strictEqual(byCoin.ledger.chainId, 243)
      assert.strictEqual((yield* balances.balance(ROOT, fa(FA_APT), undefined)).value, U64_MAX)
      assert.strictEqual((yield* balances.balance(ROOT, coin("0x01::aptos_coin::AptosCoin"), 0n)).value, U64_MAX)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("an unknown account, an unknown coin type and an unknown asset are 0", () =>
    Effect.gen(function* () {
      const balances = yield* Balances
      const nobody = addressFromNumber(0x5eed5eed)
      assert.strictEqual((yield* balances.balance(nobody, coin("0x1::aptos_coin::AptosCoin"), undefined)).value, 0n)
      assert.strictEqual(
        (yield* balances.balance(ROOT, coin("0x1::no_such::Coin<u8, vector<address>>"), undefined)).value,
        0n
      )
      assert.strictEqual((yield* balances.balance(ROOT, fa(addressFromNumber(0xb)), undefined)).value, 0n)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("every APT primary store in the genesis write set is read back at its owner's balance", () =>
    Effect.gen(function* () {
      const balances = yield* Balances
      const genesis = decodeGenesisTransaction(devnetGenesis)
      assert.isTrue(Result.isSuccess(genesis))
      if (!Result.isSuccess(genesis) || genesis.success._tag !== "GenesisTransaction") return
      const payload = genesis.success.payload
      if (payload._tag !== "Direct") return assert.fail("direct genesis expected")
      let stores = 0
      for (const { key, op } of payload.changeSet.writeSet.entries) {
        if (key._tag !== "AccessPath" || key.path._tag !== "ResourceGroup" || !("data" in op)) continue
        const group = Bcs.decode(Bcs.map(structTagCodec, Bcs.bytes), op.data)
        if (!Result.isSuccess(group)) continue
        const member = (name: string) => group.success.find(([t]) => t.name === name)?.[1]
        const store = member("FungibleStore")
        const core = member("ObjectCore")
        if (store === undefined || core === undefined || !addressEquals(store.slice(0, 32), FA_APT)) continue
        const owner = core.slice(8, 40) // ObjectCore { guid_creation_num: u64, owner: address, … }
        const stored = Bcs.decode(Bcs.u64, store.slice(32, 40))
        assert.isTrue(addressEquals(primaryStoreAddress(owner, FA_APT), key.address))
        const answer = yield* balances.balance(owner, coin("0x1::aptos_coin::AptosCoin"), undefined)
        assert.strictEqual(answer.value, Result.getOrThrow(stored))
        stores++
      }
      assert.isAtLeast(stores, 2) // root and the validator accounts
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("a coin type that is not a struct is a 400", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip((yield* Balances).balance(ROOT, coin("0x1::aptos_coin::"), undefined))
      assert.strictEqual(error.status, 400)
      assert.strictEqual(error.code, "web_framework_error")
    }).pipe(Effect.provide(servicesLayer()))
  )
})

describeWithGenesis("mainnet", "Balances at mainnet genesis (coin stores only)", () => {
  it.effect("every CoinStore<AptosCoin> is read back by the coin type; nothing by 0xa", () =>
    Effect.gen(function* () {
      const balances = yield* Balances
      const genesis = decodeGenesisTransaction(mainnetGenesis())
      if (!Result.isSuccess(genesis) || genesis.success._tag !== "GenesisTransaction") return assert.fail("genesis")
      const payload = genesis.success.payload
      if (payload._tag !== "Direct") return assert.fail("direct genesis expected")
      let stores = 0
      for (const { key, op } of payload.changeSet.writeSet.entries) {
        if (key._tag !== "AccessPath" || key.path._tag !== "Resource" || !("data" in op)) continue
        const t = key.path.struct
        if (t.name !== "CoinStore" || t.typeArgs.length !== 1) continue
        // The SDK's deserializer as the oracle for `coin.value`, the store's first field.
        const expected = new Deserializer(op.data).deserializeU64()
        assert.strictEqual(
          (yield* balances.balance(key.address, coin("0x1::aptos_coin::AptosCoin"), 0n)).value,
          expected
        )
        assert.strictEqual((yield* balances.balance(key.address, fa(FA_APT), 0n)).value, 0n)
        stores++
      }
      assert.strictEqual(stores, 424)
    }).pipe(Effect.provide(servicesLayer({ genesis: mainnetGenesis() })))
  )
})

describe("Balances after committed writes", () => {
  it.effect("adds the CoinStore and the paired primary store, at each version", () =>
    Effect.gen(function* () {
      const balances = yield* Balances
      yield* commitWrites([coinStore(ALICE, MY_COIN, 500n)], 0n)
      const v1 = (yield* balances.balance(ALICE, fa(MY_FA), undefined)).ledger.ledgerVersion
      yield* commitWrites([primaryStore(ALICE, MY_COIN_PAIRED, 300n)], 1n)
      const v2 = (yield* balances.balance(ALICE, fa(MY_FA), undefined)).ledger.ledgerVersion
      yield* commitWrites([coinStore(ALICE, MY_COIN, 1n)], 2n)
      const myCoin = coin("0xc0de::my_coin::MyCoin")
      assert.strictEqual((yield* balances.balance(ALICE, myCoin, v1)).value, 500n)
      assert.strictEqual((yield* balances.balance(ALICE, myCoin, v2)).value, 800n)
      assert.strictEqual((yield* balances.balance(ALICE, myCoin, undefined)).value, 301n)
      assert.strictEqual((yield* balances.balance(ALICE, myCoin, 0n)).value, 0n)
      // By the paired metadata address only the store counts.
      assert.strictEqual((yield* balances.balance(ALICE, fa(MY_COIN_PAIRED), undefined)).value, 300n)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect(
    "a repeated read answers its own version, across commits and back (the last balance is kept per version)",
    () =>
      Effect.gen(function* () {
        const balances = yield* Balances
        const myCoin = coin("0xc0de::my_coin::MyCoin")
        yield* commitWrites([coinStore(ALICE, MY_COIN, 500n)], 0n)
        const first = yield* balances.balance(ALICE, myCoin, undefined)
        assert.strictEqual(first.value, 500n)
        assert.strictEqual((yield* balances.balance(ALICE, myCoin, undefined)).value, 500n)
        yield* commitWrites([coinStore(ALICE, MY_COIN, 7n)], 1n)
        const latest = yield* balances.balance(ALICE, myCoin, undefined)
        assert.strictEqual(latest.value, 7n)
        assert.isTrue(latest.ledger.ledgerVersion > first.ledger.ledgerVersion)
        const v1 = first.ledger.ledgerVersion
        assert.strictEqual((yield* balances.balance(ALICE, myCoin, v1)).value, 500n)
        assert.strictEqual((yield* balances.balance(ALICE, myCoin, v1)).value, 500n)
        assert.strictEqual((yield* balances.balance(ALICE, myCoin, undefined)).value, 7n)
        assert.strictEqual((yield* balances.balance(ALICE, myCoin, 0n)).value, 0n)
        // The same owner by another asset has its own entry.
        assert.strictEqual((yield* balances.balance(ALICE, fa(MY_COIN_PAIRED), undefined)).value, 0n)
      }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("sums past 2^64 exactly (no number rounding anywhere)", () =>
    Effect.gen(function* () {
      yield* commitWrites([coinStore(ROOT, APTOS_COIN, U64_MAX)], 0n)
      const answer = yield* (yield* Balances).balance(ROOT, coin("0x1::aptos_coin::AptosCoin"), undefined)
      assert.strictEqual(answer.value, 2n * U64_MAX)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("reads an FA-only balance by its metadata address", () =>
    Effect.gen(function* () {
      yield* commitWrites([primaryStore(ALICE, MY_FA, 9_007_199_254_740_993n)], 0n)
      const balances = yield* Balances
      assert.strictEqual((yield* balances.balance(ALICE, fa(MY_FA), undefined)).value, 9_007_199_254_740_993n)
      assert.strictEqual((yield* balances.balance(ALICE, fa(FA_APT), undefined)).value, 0n)
      assert.strictEqual((yield* balances.balance(addressFromNumber(0xb0b), fa(MY_FA), undefined)).value, 0n)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("uses the concurrent balance only when the store's own balance is 0", () =>
    Effect.gen(function* () {
      const balances = yield* Balances
      yield* commitWrites([primaryStore(ALICE, MY_FA, 0n, 77n)], 0n)
      assert.strictEqual((yield* balances.balance(ALICE, fa(MY_FA), undefined)).value, 77n)
      yield* commitWrites([primaryStore(ALICE, MY_FA, 5n, 77n)], 1n)
      assert.strictEqual((yield* balances.balance(ALICE, fa(MY_FA), undefined)).value, 5n)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("an undecodable store is a 500; an undecodable group is ignored", () =>
    Effect.gen(function* () {
      const balances = yield* Balances
      yield* commitWrites([primaryStore(ALICE, MY_FA, Uint8Array.of(1, 2, 3))], 0n)
      const error = yield* Effect.flip(balances.balance(ALICE, fa(MY_FA), undefined))
      assert.strictEqual(error.status, 500)
      assert.strictEqual(error.code, "internal_error")
      assert.isDefined(error.ledger)
      yield* commitWrites([writeResourceGroup(primaryStoreOf(ALICE, MY_FA), OBJECT_GROUP, Uint8Array.of(9, 9))], 1n)
      assert.strictEqual((yield* balances.balance(ALICE, fa(MY_FA), undefined)).value, 0n)
      yield* commitWrites(
        [
          writeResource(
            ALICE,
            struct(ONE, "coin", "CoinStore", [{ _tag: "struct", struct: MY_COIN }]),
            Uint8Array.of(1)
          )
        ],
        2n
      )
      const coinError = yield* Effect.flip(balances.balance(ALICE, coin("0xc0de::my_coin::MyCoin"), undefined))
      assert.strictEqual(coinError.status, 500)
    }).pipe(Effect.provide(servicesLayer()))
  )
})
