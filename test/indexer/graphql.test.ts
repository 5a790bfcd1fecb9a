import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { describe, expect, it } from "vitest"
import { makeGraphqlEngine } from "../../src/indexer/graphql/GraphqlEngine.js"
import { IndexerStore } from "../../src/indexer/store/IndexerStore.js"

const A = `0x${"a".repeat(64)}`
const B = `0x${"b".repeat(64)}`

const withStore = <A>(f: (store: IndexerStore["Service"]) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const ctx = yield* Layer.build(IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }))
        const store = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStore["Service"]
        return yield* f(store)
      })
    ) as Effect.Effect<A, unknown>
  )

describe("GraphQL over the SQLite store", () => {
  it("answers selects, filters, relationships and aggregates", async () => {
    const out = await withStore((store) =>
      Effect.gen(function* () {
        yield* store.commit(
          [
            {
              _tag: "Insert",
              table: "fungible_asset_metadata",
              rows: [
                {
                  asset_type: "0x1::aptos_coin::AptosCoin",
                  creator_address: `0x${"0".repeat(63)}1`,
                  decimals: 8,
                  icon_uri: null,
                  last_transaction_timestamp: "2024-01-16T21:59:54.4",
                  last_transaction_version: 0n,
                  maximum_v2: null,
                  name: "Aptos Coin",
                  project_uri: null,
                  supply_aggregator_table_handle_v1: null,
                  supply_aggregator_table_key_v1: null,
                  supply_v2: 340282366920938463463374607431768211455n,
                  symbol: "APT",
                  token_standard: "v1"
                }
              ]
            },
            {
              _tag: "Upsert",
              table: "current_fungible_asset_balances",
              guard: "last_transaction_version_v2",
              rows: [A, B].map((owner, i) => ({
                storage_id: `0x${String(i).repeat(64)}`,
                owner_address: owner,
                asset_type_v1: "0x1::aptos_coin::AptosCoin",
                asset_type_v2: `0x${"0".repeat(63)}a`,
                is_primary: true,
                is_frozen: false,
                amount_v2: 18446744073709551615n - BigInt(i),
                last_transaction_version_v2: 5n,
                last_transaction_timestamp_v2: "2024-01-16T21:59:54"
              }))
            }
          ],
          { version: 5n, hash: "0x01", timestampUsec: 1_705_442_394_000_000n, chainId: 4 },
          ["fungible_asset_processor", "default_processor"]
        )
        const engine = makeGraphqlEngine(Effect.succeed(store))
        const q = (query: string, variables?: unknown) =>
          engine.answer({ query, variables }).pipe(Effect.map(JSON.parse))
        return {
          balances: yield* engine.answer({
            query: `query q($owner: String) { current_fungible_asset_balances(where: {owner_address: {_eq: $owner}, amount: {_gt: "0"}}) { amount asset_type token_standard last_transaction_timestamp metadata { symbol decimals supply_v2 } } }`,
            variables: { owner: A }
          }),
          raw: yield* engine.answer({
            query: `{ current_fungible_asset_balances(order_by: {amount: asc}) { amount } }`
          }),
          count: yield* q(`{ current_fungible_asset_balances_aggregate { aggregate { count } } }`),
          status: yield* q(
            `{ processor_status(where: {processor: {_eq: "default_processor"}}) { processor last_success_version } }`
          ),
          unknown: yield* q(`{ current_fungible_asset_balances { nope } }`),
          parse: yield* q(`{ current_fungible_asset_balances {`)
        }
      })
    )
    // Exact digits (u64::MAX, u128::MAX) as JSON numbers, as Hasura prints numerics.
    expect(out.balances).toBe(
      `{"data":{"current_fungible_asset_balances":[{"amount":18446744073709551615,"asset_type":"0x1::aptos_coin::AptosCoin","token_standard":"v1","last_transaction_timestamp":"2024-01-16T21:59:54","metadata":{"symbol":"APT","decimals":8,"supply_v2":340282366920938463463374607431768211455}}]}}`
    )
    expect(out.raw).toBe(
      '{"data":{"current_fungible_asset_balances":[{"amount":18446744073709551614},{"amount":18446744073709551615}]}}'
    )
    expect(out.count).toEqual({ data: { current_fungible_asset_balances_aggregate: { aggregate: { count: 2 } } } })
    expect(out.status).toEqual({
      data: { processor_status: [{ processor: "default_processor", last_success_version: 5 }] }
    })
    expect(out.unknown.errors[0].message).toBe("field 'nope' not found in type: 'current_fungible_asset_balances'")
    expect(out.unknown.errors[0].extensions).toEqual({
      code: "validation-failed",
      path: "$.selectionSet.current_fungible_asset_balances.selectionSet.nope"
    })
    expect(out.parse.errors[0].extensions.code).toBe("validation-failed")
  })
})
