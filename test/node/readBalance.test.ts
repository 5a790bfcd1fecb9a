import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { Bcs, BcsReader } from "../../src/bcs/index.js"
import { addressEquals, addressFromNumber } from "../../src/domain/AccountAddress.js"
import { primaryStoreAddress } from "../../src/domain/objectAddress.js"
import type { StructTag, TypeTag } from "../../src/domain/TypeTag.js"
import { structTagCodec } from "../../src/domain/TypeTagCodec.js"
import type { StateReader } from "../../src/ledger/Ledger.js"
import { BalanceDecodeError, primaryStoreBalance } from "../../src/node/readBalance.js"
import { frameworkStruct, resourceGroupKey } from "../../src/node/stateKeys.js"

const OWNER = addressFromNumber(0xa11ce)
const METADATA = addressFromNumber(0xfa)
const GROUP_KEY = resourceGroupKey(primaryStoreAddress(OWNER, METADATA), frameworkStruct("object", "ObjectGroup"))
const FUNGIBLE_STORE = frameworkStruct("fungible_asset", "FungibleStore")
const CONCURRENT = frameworkStruct("fungible_asset", "ConcurrentFungibleBalance")
const groupCodec = Bcs.map(structTagCodec, Bcs.bytes)

/** A state holding only the primary store group of (OWNER, METADATA). */
const stateWith = (group: Uint8Array): StateReader => ({
  version: 1n,
  get: (key) => (Buffer.compare(key, GROUP_KEY) === 0 ? group : undefined),
  getVersioned: (key) => (Buffer.compare(key, GROUP_KEY) === 0 ? { value: group, version: 1n } : undefined)
})

/** The oracle: decode the whole group, find the members by comparing decoded struct tags. */
const byFullDecode = (group: Uint8Array): bigint | "error" => {
  const decoded = Bcs.decode(groupCodec, group)
  if (Result.isFailure(decoded)) return 0n
  const same = (a: StructTag, b: StructTag) =>
    a.module === b.module &&
    a.name === b.name &&
    a.typeArgs.length === 0 &&
    b.typeArgs.length === 0 &&
    addressEquals(a.address, b.address)
  const member = (tag: StructTag) => decoded.success.find(([t]) => same(t, tag))?.[1]
  const store = member(FUNGIBLE_STORE)
  if (store === undefined) return 0n
  const fields = Bcs.decode(Bcs.struct({ metadata: Bcs.fixedBytes(32), balance: Bcs.u64, frozen: Bcs.bool }), store)
  if (Result.isFailure(fields)) return "error"
  if (fields.success.balance !== 0n) return fields.success.balance
  const concurrent = member(CONCURRENT)
  if (concurrent === undefined) return 0n
  return concurrent.length < 8 ? "error" : new BcsReader(concurrent).u64()
}

const answer = (group: Uint8Array): bigint | "error" => {
  const value = primaryStoreBalance(stateWith(group), OWNER, METADATA)
  return value instanceof BalanceDecodeError ? "error" : value
}

const storeBytes = (balance: bigint) =>
  Bcs.encode(Bcs.struct({ metadata: Bcs.fixedBytes(32), balance: Bcs.u64, frozen: Bcs.bool }), {
    metadata: METADATA,
    balance,
    frozen: false
  })

const typeArg: fc.Arbitrary<TypeTag> = fc.constantFrom<TypeTag>({ _tag: "u8" }, { _tag: "address" })
const memberTag: fc.Arbitrary<StructTag> = fc.oneof(
  fc.constantFrom(FUNGIBLE_STORE, CONCURRENT, frameworkStruct("object", "ObjectCore")),
  fc.record({
    address: fc.constantFrom(addressFromNumber(1), addressFromNumber(2)),
    module: fc.constantFrom("fungible_asset", "object"),
    name: fc.constantFrom("FungibleStore", "ConcurrentFungibleBalance", "Other"),
    typeArgs: fc.array(typeArg, { maxLength: 2 })
  })
)
const memberValue = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(storeBytes),
  fc
    .bigInt({ min: 0n, max: 2n ** 64n - 1n })
    .map((v) => Bcs.encode(Bcs.struct({ value: Bcs.u64, max: Bcs.u64 }), { value: v, max: v })),
  fc.uint8Array({ maxLength: 12 })
)

describe("primaryStoreBalance", () => {
  it("finds the store and the concurrent balance by tag bytes as a full decode finds them by tag", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(memberTag, memberValue), { maxLength: 5 }), (members) => {
        const group = Bcs.encode(groupCodec, members)
        expect(answer(group)).toStrictEqual(byFullDecode(group))
      })
    )
  })

  it("a valid store followed by a malformed member is an undecodable group: 0, as a full decode", () => {
    const group = Bcs.encode(groupCodec, [[FUNGIBLE_STORE, storeBytes(42n)]])
    expect(answer(group)).toBe(42n)
    const twoMembers = Uint8Array.from([2, ...group.subarray(1), 0x09, 0x09])
    expect(answer(twoMembers)).toBe(0n)
    expect(answer(Uint8Array.from([...group, 0]))).toBe(0n)
  })

  it("garbage and truncated groups never throw and agree with a full decode", () => {
    const valid = Bcs.encode(groupCodec, [
      [FUNGIBLE_STORE, storeBytes(0n)],
      [CONCURRENT, storeBytes(9n)]
    ])
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat({ max: valid.length }), (garbage, cut) => {
        expect(answer(garbage)).toStrictEqual(byFullDecode(garbage))
        const truncated = valid.subarray(0, cut)
        expect(answer(truncated)).toStrictEqual(byFullDecode(truncated))
      })
    )
  })
})
