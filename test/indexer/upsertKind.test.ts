/**
 * How much of a merged upsert is written (`upsertKind.ts`): `skip` only when every column equals the
 * stored row's, `narrow` only when every indexed column does, `full` for a new row — over random
 * rows of a real table, nulls and missing cells included.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { currentFungibleAssetBalances } from "../../src/indexer/schema/fungibleAssets.js"
import { indexedColumns, narrowColumns, upsertKind } from "../../src/indexer/store/upsertKind.js"

const t = currentFungibleAssetBalances
const cell = fc.oneof(
  fc.constant(null),
  fc.constantFrom("0x1", "0x2", "a"),
  fc.bigInt({ min: 0n, max: 3n }),
  fc.boolean()
)
const row = fc.dictionary(fc.constantFrom(...t.columns.map((c) => c.name)), cell)

describe("upsertKind", () => {
  it("knows the balances table's indexed columns, and a narrow write sets none of them nor the key", () => {
    expect([...indexedColumns(t)].sort()).toEqual(["asset_type", "owner_address"])
    const narrow = narrowColumns(t)
    expect(narrow).toContain("amount")
    for (const c of [...indexedColumns(t), ...t.primaryKey]) expect(narrow).not.toContain(c)
  })

  it("skip iff every column is equal, narrow iff only unindexed columns differ, full for a new row", () => {
    fc.assert(
      fc.property(row, row, fc.boolean(), (prior, merged, isNew) => {
        const kind = upsertKind(t, isNew ? undefined : prior, merged)
        const differs = (c: string) => (prior[c] ?? null) !== (merged[c] ?? null)
        const expected = isNew
          ? "full"
          : indexedColumns(t).some(differs)
            ? "full"
            : t.columns.some((c) => differs(c.name))
              ? "narrow"
              : "skip"
        expect(kind).toBe(expected)
      })
    )
  })

  it("a row against itself is skipped", () => {
    fc.assert(
      fc.property(row, (r) => {
        expect(upsertKind(t, r, { ...r })).toBe("skip")
      })
    )
  })
})
