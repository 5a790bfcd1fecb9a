/**
 * `makeRowBinder`: a table's generated row binder gives exactly the parameters of the general path
 * (`cellOf` then `Dialect.encode`, column by column, in the table's order) for every catalogue
 * table, both dialects, any slice of any rows — values of the right kinds, of the wrong kinds
 * (then the same `WriteError`, naming the same column), missing keys and garbage alike.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { catalogueTables } from "../../src/indexer/schema/index.js"
import type { TableSpec } from "../../src/indexer/schema/TableSpec.js"
import { type Dialect, postgresDialect, sqliteDialect } from "../../src/indexer/store/Dialect.js"
import { makeRowBinder } from "../../src/indexer/store/rowBinder.js"
import { cellOf } from "../../src/indexer/store/writes.js"

const tables = catalogueTables.filter((t) => t.view === undefined && t.primaryKey.length > 0)

/** The definition: each cell through `cellOf` and the dialect's `encode`, in column order. */
const reference = (
  t: TableSpec,
  dialect: Dialect,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  i: number,
  size: number
): unknown[] => {
  const out: unknown[] = []
  for (let r = i; r < i + size; r++)
    for (const c of t.columns)
      out.push(dialect.encode(cellOf(rows[r]![c.name] as never, c.type, `${t.name}.${c.name}`), c.type))
  return out
}

const outcome = (f: () => unknown[]): { ok: unknown[] } | { error: string; name: string } => {
  try {
    return { ok: f() }
  } catch (e) {
    return { error: String((e as Error).message), name: (e as Error).constructor.name }
  }
}

/** A value for a cell: mostly what a processor writes, sometimes the wrong kind or nothing. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 4, arbitrary: fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom("0", "12", "-3", "1.5", "2024-01-02T03:04:05.123456", "x") },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }
)

/** Rows of `t`: each column present with a value, or absent. */
const rowsOf = (t: TableSpec) =>
  fc.array(
    fc.record(Object.fromEntries(t.columns.map((c) => [c.name, anyValue])), { requiredKeys: [] }) as fc.Arbitrary<
      Record<string, unknown>
    >,
    { minLength: 1, maxLength: 5 }
  )

/** Rows of `t` a processor would write: every column of its kind (strings for text, bigints for integers). */
const wellTypedRowsOf = (t: TableSpec) =>
  fc.array(
    fc.record(
      Object.fromEntries(
        t.columns.map((c) => [
          c.name,
          c.type === "String"
            ? fc.option(fc.string({ maxLength: 12 }))
            : c.type === "bigint"
              ? fc.option(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }))
              : c.type === "Boolean"
                ? fc.option(fc.boolean())
                : c.type === "Int"
                  ? fc.option(fc.integer())
                  : c.type === "numeric"
                    ? fc.option(fc.bigInt({ min: 0n, max: 1n << 128n }))
                    : c.type === "timestamp"
                      ? fc.option(fc.bigInt({ min: 0n, max: 1n << 52n }))
                      : fc.option(fc.jsonValue({ maxDepth: 2 }))
        ])
      )
    ) as fc.Arbitrary<Record<string, unknown>>,
    { minLength: 1, maxLength: 5 }
  )

const slice = (n: number) =>
  fc.nat({ max: n - 1 }).chain((i) => fc.tuple(fc.constant(i), fc.integer({ min: 1, max: n - i })))

describe("makeRowBinder", () => {
  for (const dialect of [sqliteDialect, postgresDialect]) {
    it(`${dialect.name}: the general path's parameters for well-typed rows of every table`, () => {
      for (const t of tables) {
        const bind = makeRowBinder(t, dialect)
        fc.assert(
          fc.property(
            wellTypedRowsOf(t).chain((rows) => fc.tuple(fc.constant(rows), slice(rows.length))),
            ([rows, [i, size]]) => {
              const params: unknown[] = new Array(size * t.columns.length)
              bind(rows, i, size, params)
              expect(params).toEqual(reference(t, dialect, rows, i, size))
            }
          ),
          { numRuns: 40 }
        )
      }
    })

    it(`${dialect.name}: the same parameters or the same error for any values, missing and garbage included`, () => {
      for (const t of tables) {
        const bind = makeRowBinder(t, dialect)
        fc.assert(
          fc.property(
            rowsOf(t).chain((rows) => fc.tuple(fc.constant(rows), slice(rows.length))),
            ([rows, [i, size]]) => {
              const got = outcome(() => {
                const params: unknown[] = new Array(size * t.columns.length)
                bind(rows, i, size, params)
                return params
              })
              expect(got).toEqual(outcome(() => reference(t, dialect, rows, i, size)))
            }
          ),
          { numRuns: 40 }
        )
      }
    })
  }

  it("reads a column named like code as a plain key", () => {
    const t: TableSpec = {
      ...tables[0]!,
      name: "odd",
      columns: [
        { name: 'a"]; throw 1; //', type: "String", nullable: true },
        { name: "constructor", type: "bigint", nullable: true }
      ] as TableSpec["columns"]
    }
    const params: unknown[] = new Array(2)
    makeRowBinder(t, sqliteDialect)([{ 'a"]; throw 1; //': "x", constructor: 5n }], 0, 1, params)
    expect(params).toEqual(["x", 5n])
  })
})
