/**
 * The token processor's decoders fed valid and hostile input: property values by type code
 * against their BCS encodings, property maps of any JSON, and the whole processor over
 * transactions whose resources and events carry arbitrary JSON (it must skip, never throw).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../../../src/bcs/index.js"
import type {
  IndexerChange,
  IndexerEvent,
  IndexerTransaction,
  JsonValue
} from "../../../../src/indexer/processors/input/IndexerTransaction.js"
import { propertyMapJson, propertyValueText } from "../../../../src/indexer/processors/tokenV2/propertyMap.js"
import { v1PropertyMapJson } from "../../../../src/indexer/processors/tokenV2/tokenV1.js"
import { tokenV2Writes } from "../../../../src/indexer/processors/tokenV2/tokenV2Processor.js"
import { addressFromNumber } from "../../../../src/domain/AccountAddress.js"

const u = (bits: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n })

/** A property's type code, its BCS bytes and the text the indexer stores. */
type Property = [number, Uint8Array, string]
const p = (type: number, bytes: Uint8Array, text: string): Property => [type, bytes, text]
const property: fc.Arbitrary<Property> = fc.oneof(
  fc.boolean().map((b) => p(0, Uint8Array.of(b ? 1 : 0), String(b))),
  u(8).map((n) => p(1, new BcsWriter(1).u8(Number(n)).toBytes(), n.toString())),
  u(16).map((n) => p(2, new BcsWriter(2).u16(Number(n)).toBytes(), n.toString())),
  u(32).map((n) => p(3, new BcsWriter(4).u32(Number(n)).toBytes(), n.toString())),
  u(64).map((n) => p(4, new BcsWriter(8).u64(n).toBytes(), n.toString())),
  u(128).map((n) => p(5, new BcsWriter(16).u128(n).toBytes(), n.toString())),
  u(256).map((n) => p(6, new BcsWriter(32).u256(n).toBytes(), n.toString())),
  fc
    .uint8Array({ maxLength: 20 })
    .map((b) => p(8, new BcsWriter(24).bytesWithLength(b).toBytes(), `0x${Buffer.from(b).toString("hex")}`)),
  fc.string().map((s) => p(9, new BcsWriter(8).string(s).toBytes(), s))
)

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`

describe("property maps", () => {
  it("each type code decodes its BCS value to the stored text; trailing bytes are refused", () => {
    fc.assert(
      fc.property(property, ([type, bytes, expected]) => {
        expect(propertyValueText(type, bytes)).toBe(expected)
        expect(propertyValueText(type, Uint8Array.from([...bytes, 0]))).toBeUndefined()
      })
    )
  })

  it("a map's JSON: key → text, undecodable values kept as their hex, keys as given (even __proto__)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.oneof(fc.string(), fc.constant("__proto__")), property, fc.boolean()), {
          selector: (e) => e[0]
        }),
        (entries) => {
          const data = entries.map(([key, [type, bytes], corrupt]) => ({
            key,
            value: { type, value: hex(corrupt ? Uint8Array.from([...bytes, 7]) : bytes) }
          }))
          const json = propertyMapJson({ inner: { data } })!
          expect(Object.keys(json).sort()).toEqual(entries.map((e) => e[0]).sort())
          for (const [key, [, bytes, text], corrupt] of entries)
            expect(Object.getOwnPropertyDescriptor(json, key)?.value).toBe(
              corrupt ? hex(Uint8Array.from([...bytes, 7])) : text
            )
          expect(Object.getPrototypeOf(json)).toBe(Object.prototype)
        }
      )
    )
  })

  it("v1 maps (type names instead of codes) decode the same values", () => {
    const NAMES = ["bool", "u8", "u16", "u32", "u64", "u128", "u256", "address", "vector<u8>", "0x1::string::String"]
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), property), { maxLength: 5 }), (entries) => {
        const unique = [...new Map(entries).entries()]
        const data = unique.map(([key, [type, bytes]]) => ({ key, value: { type: NAMES[type]!, value: hex(bytes) } }))
        const json = v1PropertyMapJson({ map: { data } })!
        for (const [key, [, , text]] of unique) expect(Object.getOwnPropertyDescriptor(json, key)?.value).toBe(text)
      })
    )
  })

  it("any JSON: an object of strings or undefined, never a throw", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), fc.uint8Array({ maxLength: 40 }), (v, type, bytes) => {
        const out = propertyMapJson(v as JsonValue)
        if (out !== undefined) for (const x of Object.values(out)) expect(typeof x).toBe("string")
        const v1 = v1PropertyMapJson(v as JsonValue)
        if (v1 !== null) for (const x of Object.values(v1)) expect(typeof x).toBe("string")
        const t = propertyValueText(type, bytes)
        if (t !== undefined) expect(typeof t).toBe("string")
      })
    )
  })
})

const TYPES = [
  "0x1::object::ObjectCore",
  "0x1::object::Untransferable",
  "0x4::token::Token",
  "0x4::token::TokenIdentifiers",
  "0x4::property_map::PropertyMap",
  "0x4::collection::Collection",
  "0x4::collection::FixedSupply",
  "0x4::collection::UnlimitedSupply",
  "0x4::collection::ConcurrentSupply",
  "0x4::aptos_token::AptosCollection"
]
const EVENTS = [
  "0x4::collection::Mint",
  "0x4::collection::MintEvent",
  "0x4::collection::Burn",
  "0x4::collection::BurnEvent",
  "0x1::object::Transfer",
  "0x1::object::TransferEvent",
  "0x4::token::Mutation",
  "0x4::token::MutationEvent"
]
const addresses = fc.constantFrom("0x" + "0".repeat(63) + "a", "0x" + "0".repeat(63) + "b", "0x1", "not an address")
/** JSON that sometimes has the fields the processor reads, with values of any shape. */
const json: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<JsonValue>,
  fc.record({
    owner: fc.oneof(addresses, fc.jsonValue()),
    allow_ungated_transfer: fc.oneof(fc.boolean(), fc.jsonValue()),
    collection: fc.oneof(fc.record({ inner: addresses }), addresses),
    creator: addresses,
    name: fc.oneof(fc.string(), fc.record({ value: fc.string() })),
    description: fc.string(),
    uri: fc.string(),
    token: addresses,
    object: addresses,
    from: addresses,
    to: addresses,
    previous_owner: fc.oneof(addresses, fc.constant("")),
    current_supply: fc.oneof(
      fc.constant("3"),
      fc.record({ value: fc.constant("2"), max_value: fc.constant("18446744073709551615") }),
      fc.jsonValue()
    )
  }) as unknown as fc.Arbitrary<JsonValue>
)

const transaction = fc
  .record({
    changes: fc.array(
      fc.record({
        address: addresses,
        type: fc.constantFrom(...TYPES),
        data: json,
        kind: fc.constantFrom("write_resource", "delete_resource")
      }),
      { maxLength: 8 }
    ),
    events: fc.array(fc.record({ type: fc.constantFrom(...EVENTS), data: json, account: addresses }), { maxLength: 6 })
  })
  .map(({ changes, events }, i = 0): IndexerTransaction => {
    const struct = { address: addressFromNumber(1), module: "m", name: "S", typeArgs: [] }
    return {
      version: BigInt(i + 1),
      hash: "0x" + "0".repeat(64),
      kind: "user",
      blockHeight: 1n,
      epoch: 1n,
      timestampMicros: 1_700_000_000_000_000n,
      success: true,
      vmStatus: "Executed successfully",
      gasUsed: 1n,
      user: undefined,
      changes: changes.map(
        (c, index): IndexerChange =>
          c.kind === "write_resource"
            ? {
                type: "write_resource",
                index,
                stateKeyHash: "0x",
                address: c.address,
                struct,
                typeStr: c.type,
                group: undefined,
                data: () => c.data
              }
            : {
                type: "delete_resource",
                index,
                stateKeyHash: "0x",
                address: c.address,
                struct,
                typeStr: c.type,
                isGroup: true
              }
      ),
      events: events.map(
        (e, index) =>
          ({
            index,
            accountAddress: e.account,
            creationNumber: 0n,
            sequenceNumber: 0n,
            isModuleEvent: true,
            type: e.type,
            data: () => e.data
          }) as unknown as IndexerEvent
      ),
      before: { resource: () => undefined },
      committed: undefined as never
    }
  })

describe("token_v2_processor on hostile transactions", () => {
  it("never throws; every row it writes has a token or collection id and the table's version guard", () => {
    fc.assert(
      fc.property(fc.array(transaction, { maxLength: 4 }), (batch) => {
        const writes = tokenV2Writes(batch)
        for (const w of writes)
          for (const row of w.rows) {
            if (w.table === "current_collections_v2") expect(typeof row.collection_id).toBe("string")
            else expect(typeof row.token_data_id).toBe("string")
          }
      }),
      { numRuns: 300 }
    )
  })
})
