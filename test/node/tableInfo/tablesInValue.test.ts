/**
 * tablesInValue: the tables inside random values of random layouts (structs, enums, vectors,
 * options of `0x1::table::Table<K, V>` among scalars) are found with their handles in value order
 * and their type arguments; garbage bytes and truncated values fail as a Result, never a throw.
 */
import fc from "fast-check"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import { Layouts, type MoveTypeLayout } from "../../../src/move/layout/MoveTypeLayout.js"
import { isTableStruct, layoutHoldsTable, tablesInValue } from "../../../src/node/tableInfo/tablesInValue.js"
import { structTag, typeTag } from "../../domain/arbitraries.js"

const tableLayout = (key: TypeTag, value: TypeTag): MoveTypeLayout => ({
  _tag: "struct",
  struct: { address: addressFromNumber(1), module: "table", name: "Table", typeArgs: [key, value] },
  fields: [{ name: "handle", layout: Layouts.address }]
})

/** A value of a layout: its BCS bytes and the tables in it, in order. */
interface Sample {
  readonly bytes: Uint8Array
  readonly tables: ReadonlyArray<{ handle: Uint8Array; key: TypeTag; value: TypeTag }>
}

const scalars: ReadonlyArray<[MoveTypeLayout, fc.Arbitrary<(w: BcsWriter) => void>]> = [
  [Layouts.u64, fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((n) => (w: BcsWriter) => void w.u64(n))],
  [Layouts.bool, fc.boolean().map((b) => (w: BcsWriter) => void w.bool(b))],
  [Layouts.address, fc.uint8Array({ minLength: 32, maxLength: 32 }).map((a) => (w: BcsWriter) => void w.fixed(a))],
  [
    { _tag: "vector", element: Layouts.u8 },
    fc.uint8Array({ maxLength: 8 }).map((b) => (w: BcsWriter) => void w.bytesWithLength(b))
  ]
]

/** Layouts as trees, each with a generator of its values (written by a writer, tables listed). */
type Gen = { layout: MoveTypeLayout; value: fc.Arbitrary<{ write: (w: BcsWriter) => void; tables: Sample["tables"] }> }

const genAt = (depth: number): fc.Arbitrary<Gen> => {
  const leaf: fc.Arbitrary<Gen> = fc.oneof(
    fc.constantFrom(...scalars).map(([layout, v]) => ({ layout, value: v.map((write) => ({ write, tables: [] })) })),
    fc.tuple(typeTag(2), typeTag(2)).map(([key, value]) => ({
      layout: tableLayout(key, value),
      value: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((handle) => ({
        write: (w: BcsWriter) => void w.fixed(handle),
        tables: [{ handle, key, value }]
      }))
    }))
  )
  if (depth <= 0) return leaf
  const inner = genAt(depth - 1)
  const struct: fc.Arbitrary<Gen> = fc
    .tuple(structTag(1), fc.array(inner, { minLength: 1, maxLength: 3 }))
    .map(([tag, fields]) => ({
      layout: { _tag: "struct", struct: tag, fields: fields.map((f, i) => ({ name: `f${i}`, layout: f.layout })) },
      value: fc.tuple(...fields.map((f) => f.value)).map((vs) => ({
        write: (w: BcsWriter) => {
          for (const v of vs) v.write(w)
        },
        tables: vs.flatMap((v) => v.tables)
      }))
    }))
  const vector: fc.Arbitrary<Gen> = inner
    .filter((g) => g.layout._tag !== "u8")
    .map((g) => ({
      layout: { _tag: "vector", element: g.layout },
      value: fc.array(g.value, { maxLength: 3 }).map((vs) => ({
        write: (w: BcsWriter) => {
          w.uleb128(vs.length)
          for (const v of vs) v.write(w)
        },
        tables: vs.flatMap((v) => v.tables)
      }))
    }))
  const enumeration: fc.Arbitrary<Gen> = fc
    .tuple(structTag(1), fc.array(inner, { minLength: 1, maxLength: 3 }))
    .map(([tag, variants]) => ({
      layout: {
        _tag: "enum",
        struct: tag,
        variants: variants.map((v, i) => ({ name: `V${i}`, fields: [{ name: "x", layout: v.layout }] }))
      },
      value: fc.integer({ min: 0, max: variants.length - 1 }).chain((i) =>
        variants[i]!.value.map((v) => ({
          write: (w: BcsWriter) => {
            w.uleb128(i)
            v.write(w)
          },
          tables: v.tables
        }))
      )
    }))
  return fc.oneof(leaf, struct, vector, enumeration)
}

const sample = genAt(3).chain((g) =>
  g.value.map((v) => {
    const w = new BcsWriter(64)
    v.write(w)
    return { layout: g.layout, bytes: w.toBytes(), tables: v.tables }
  })
)

describe("tablesInValue", () => {
  it("finds every table of a valid value, in order, with its types", () => {
    fc.assert(
      fc.property(sample, ({ layout, bytes, tables }) => {
        const found = tablesInValue(layout, bytes)
        if (layoutHoldsTable(layout)) expect(Result.getOrThrow(found)).toEqual(tables)
        else {
          expect(tables).toEqual([])
          expect(Result.getOrThrow(found)).toEqual([])
        }
      }),
      { numRuns: 500 }
    )
  })

  it("a truncated or extended value holding tables fails as a Result", () => {
    fc.assert(
      fc.property(sample, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }), ({ layout, bytes }, cut, extra) => {
        fc.pre(layoutHoldsTable(layout))
        const short = bytes.subarray(0, cut % bytes.length)
        expect(Result.isFailure(tablesInValue(layout, short))).toBe(true)
        expect(Result.isFailure(tablesInValue(layout, Uint8Array.from([...bytes, ...extra])))).toBe(true)
      })
    )
  })

  it("garbage bytes never throw; what is found has 32-byte handles", () => {
    fc.assert(
      fc.property(sample, fc.uint8Array({ maxLength: 200 }), ({ layout }, garbage) => {
        const found = tablesInValue(layout, garbage)
        if (Result.isSuccess(found)) for (const t of found.success) expect(t.handle.length).toBe(32)
      }),
      { numRuns: 500 }
    )
  })

  it("only 0x1::table::Table<K, V> holds a handle", () => {
    fc.assert(
      fc.property(structTag(2), (s) => {
        const expected =
          Buffer.from(s.address).equals(Buffer.from(addressFromNumber(1))) &&
          s.module === "table" &&
          s.name === "Table" &&
          s.typeArgs.length === 2
        expect(isTableStruct(s)).toBe(expected)
      })
    )
  })
})
