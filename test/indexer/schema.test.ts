import { assertValidSchema, getIntrospectionQuery, graphqlSync } from "graphql"
import { describe, expect, it } from "vitest"
import { buildSchema } from "../../src/indexer/graphql/schema.js"
import { catalogueTables, tableNamed } from "../../src/indexer/schema/index.js"

describe("the catalogue's GraphQL schema", () => {
  const { schema } = buildSchema(catalogueTables)

  it("is a valid schema with Hasura's type names", () => {
    assertValidSchema(schema)
    for (const name of [
      "current_fungible_asset_balances",
      "current_fungible_asset_balances_bool_exp",
      "current_fungible_asset_balances_order_by",
      "current_fungible_asset_balances_select_column",
      "current_fungible_asset_balances_aggregate",
      "current_fungible_asset_balances_aggregate_fields",
      "order_by",
      "String_comparison_exp",
      "bigint_comparison_exp",
      "numeric_comparison_exp",
      "timestamp_comparison_exp",
      "Boolean_comparison_exp",
      "jsonb_comparison_exp",
      "bigint",
      "numeric",
      "timestamp",
      "jsonb"
    ])
      expect(schema.getType(name), name).toBeDefined()
  })

  it("answers the introspection query", () => {
    const result = graphqlSync({ schema, source: getIntrospectionQuery() })
    expect(result.errors).toBeUndefined()
    expect((result.data as any).__schema.queryType.name).toBe("query_root")
  })

  it("every relationship joins columns that exist on both sides", () => {
    for (const t of catalogueTables)
      for (const r of t.relationships) {
        const target = tableNamed(r.target)!
        expect(target, `${t.name}.${r.name}`).toBeDefined()
        for (const [l, rr] of r.on) {
          expect(
            t.columns.some((c) => c.name === l),
            `${t.name}.${l}`
          ).toBe(true)
          expect(
            target.columns.some((c) => c.name === rr),
            `${target.name}.${rr}`
          ).toBe(true)
        }
      }
  })

  it("every table has its key's columns; views have none", () => {
    for (const t of catalogueTables) {
      for (const k of t.primaryKey)
        expect(
          t.columns.some((c) => c.name === k),
          `${t.name}.${k}`
        ).toBe(true)
      if (t.view !== undefined) expect(t.primaryKey).toEqual([])
    }
  })
})
