/**
 * The read paths the compiler picks between, checked against answers worked out by hand over a
 * few known rows (embedded store, in memory): an object relationship to a row by its primary key
 * (a plain lookup), one to a table where several rows match (the first in key order, numbered per
 * parent), an array relationship with a limit per parent; counts straight over the table (all rows,
 * a column's non-null values, distinct values of one and of two columns) and over a limited or
 * distinct_on row source; and a repeated request answered from its cached plan after new rows
 * arrive (a plan holds no rows).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { describe, expect, it } from "vitest"
import { makeGraphqlEngine } from "../../../src/indexer/graphql/GraphqlEngine.js"
import { IndexerStore } from "../../../src/indexer/store/IndexerStore.js"

const A = `0x${"a".repeat(64)}`
const B = `0x${"b".repeat(64)}`
const C = `0x${"c".repeat(64)}`
const AT = { version: 0n, hash: "0x01", timestampUsec: 1_705_442_394_000_000n, chainId: 4 }

/** Versions 1..6: senders A, A, B, A, B, (6: no sender); account rows for A and B at every version. */
const userTransactions = [1n, 2n, 3n, 4n, 5n, 6n].map((version) => ({
  version,
  sender: version === 6n ? null : version === 3n || version === 5n ? B : A,
  entry_function_id_str: version % 2n === 0n ? "0x1::aptos_account::transfer" : "0x1::coin::transfer",
  timestamp: "2024-01-16T21:59:54",
  gas_unit_price: 100n
}))

const seed = (store: IndexerStore["Service"]) =>
  store.commit(
    [
      { _tag: "Insert", table: "user_transactions", rows: userTransactions },
      {
        _tag: "Insert",
        table: "account_transactions",
        // version 7 has no user transaction (its object relationship is null)
        rows: [1n, 2n, 3n, 4n, 5n, 6n, 7n].flatMap((v) => [
          { account_address: A, transaction_version: v },
          { account_address: B, transaction_version: v }
        ])
      },
      {
        _tag: "Insert",
        table: "fungible_asset_activities",
        rows: [
          ...[0n, 1n, 2n].map((event_index) => ({ transaction_version: 2n, event_index, owner_address: A })),
          { transaction_version: 4n, event_index: 0n, owner_address: A }
        ]
      },
      {
        _tag: "Insert",
        table: "signatures",
        // two signers of version 2 (multi-agent): the relationship yields the first in key order
        rows: [
          { transaction_version: 2n, multi_agent_index: 1n, multi_sig_index: 0n, is_sender_primary: false, signer: B },
          { transaction_version: 2n, multi_agent_index: 0n, multi_sig_index: 0n, is_sender_primary: true, signer: A },
          { transaction_version: 4n, multi_agent_index: 0n, multi_sig_index: 0n, is_sender_primary: true, signer: A }
        ]
      }
    ],
    { ...AT, version: 7n },
    ["default_processor"]
  )

const withEngine = <X>(
  f: (
    answer: (query: string, variables?: unknown) => Effect.Effect<unknown>,
    store: IndexerStore["Service"]
  ) => Effect.Effect<X, unknown>
) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const ctx = yield* Layer.build(IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }))
        const store = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStore["Service"]
        yield* seed(store)
        const engine = makeGraphqlEngine(Effect.succeed(store))
        return yield* f((query, variables) => engine.answer({ query, variables }).pipe(Effect.map(JSON.parse)), store)
      })
    ) as Effect.Effect<X, unknown>
  )

describe("GraphQL read paths", () => {
  it("object relationships: by primary key (null when missing) and to the first of several rows", async () => {
    const out = await withEngine((answer) =>
      Effect.all({
        page: answer(
          `query q($a: String) { account_transactions(where: {account_address: {_eq: $a}}, order_by: {transaction_version: desc}, limit: 3, offset: 1) { transaction_version user_transaction { sender entry_function_id_str gas_unit_price } } }`,
          { a: A }
        ),
        signatures: answer(
          "{ user_transactions(where: {version: {_in: [1, 2, 4]}}, order_by: {version: asc}) { version signature { signer multi_agent_index } } }"
        )
      })
    )
    expect(out.page).toEqual({
      data: {
        account_transactions: [
          {
            transaction_version: 6,
            user_transaction: {
              sender: null,
              entry_function_id_str: "0x1::aptos_account::transfer",
              gas_unit_price: 100
            }
          },
          {
            transaction_version: 5,
            user_transaction: { sender: B, entry_function_id_str: "0x1::coin::transfer", gas_unit_price: 100 }
          },
          {
            transaction_version: 4,
            user_transaction: { sender: A, entry_function_id_str: "0x1::aptos_account::transfer", gas_unit_price: 100 }
          }
        ]
      }
    })
    // page 1 of the same list (offset 0) starts with version 7, whose user transaction is missing
    expect(out.signatures).toEqual({
      data: {
        user_transactions: [
          { version: 1, signature: null },
          { version: 2, signature: { signer: A, multi_agent_index: 0 } },
          { version: 4, signature: { signer: A, multi_agent_index: 0 } }
        ]
      }
    })
    const first = await withEngine((answer) =>
      answer(
        `query q($a: String) { account_transactions(where: {account_address: {_eq: $a}}, order_by: {transaction_version: desc}, limit: 1) { transaction_version user_transaction { version } } }`,
        { a: B }
      )
    )
    expect(first).toEqual({ data: { account_transactions: [{ transaction_version: 7, user_transaction: null }] } })
  })

  it("array relationships keep their filter, order and limit per parent", async () => {
    const out = await withEngine((answer) =>
      answer(
        `query q($a: String) { account_transactions(where: {account_address: {_eq: $a}, transaction_version: {_gte: 2, _lte: 4}}) { transaction_version fungible_asset_activities(where: {event_index: {_lt: 2}}, order_by: {event_index: desc}, limit: 2) { event_index } all: fungible_asset_activities { event_index } } }`,
        { a: A }
      )
    )
    expect(out).toEqual({
      data: {
        account_transactions: [
          {
            transaction_version: 2,
            fungible_asset_activities: [{ event_index: 1 }, { event_index: 0 }],
            all: [{ event_index: 0 }, { event_index: 1 }, { event_index: 2 }]
          },
          { transaction_version: 3, fungible_asset_activities: [], all: [] },
          { transaction_version: 4, fungible_asset_activities: [{ event_index: 0 }], all: [{ event_index: 0 }] }
        ]
      }
    })
  })

  it("counts: all rows, non-null values, distinct values of one and two columns, limited and distinct_on sources", async () => {
    const out = await withEngine((answer) =>
      answer(`{
        all: user_transactions_aggregate { aggregate { count } }
        senders: user_transactions_aggregate { aggregate { count(columns: [sender]) } }
        distinctSenders: user_transactions_aggregate { aggregate { count(columns: [sender], distinct: true) } }
        distinctPairs: user_transactions_aggregate { aggregate { count(columns: [sender, entry_function_id_str], distinct: true) } }
        filtered: user_transactions_aggregate(where: {sender: {_eq: "${A}"}}) { aggregate { count } }
        limited: user_transactions_aggregate(order_by: {version: desc}, limit: 4, offset: 1) { aggregate { count(columns: [sender], distinct: true) } }
        perSender: user_transactions_aggregate(distinct_on: sender, order_by: {sender: asc}) { aggregate { count } }
        accounts: account_transactions_aggregate(where: {account_address: {_eq: "${A}"}}) { aggregate { count } }
      }`)
    )
    expect(out).toEqual({
      data: {
        all: { aggregate: { count: 6 } },
        senders: { aggregate: { count: 5 } },
        distinctSenders: { aggregate: { count: 2 } },
        // (A, coin), (A, aptos_account), (B, coin): version 6's null sender is not counted
        distinctPairs: { aggregate: { count: 3 } },
        filtered: { aggregate: { count: 3 } },
        // versions 5, 4, 3, 2: senders B, A, B, A
        limited: { aggregate: { count: 2 } },
        // A, B and the null sender
        perSender: { aggregate: { count: 3 } },
        accounts: { aggregate: { count: 7 } }
      }
    })
  })

  it("a repeated request (its plan cached) reads the rows as they are when it runs", async () => {
    const out = await withEngine((answer, store) =>
      Effect.gen(function* () {
        const query = `query q($a: String) { account_transactions_aggregate(where: {account_address: {_eq: $a}}) { aggregate { count } } }`
        const before = yield* answer(query, { a: C })
        yield* store.commit(
          [{ _tag: "Insert", table: "account_transactions", rows: [{ account_address: C, transaction_version: 8n }] }],
          { ...AT, version: 8n },
          ["default_processor"]
        )
        const after = yield* answer(query, { a: C })
        const other = yield* answer(query, { a: A })
        return { before, after, other }
      })
    )
    expect(out).toEqual({
      before: { data: { account_transactions_aggregate: { aggregate: { count: 0 } } } },
      after: { data: { account_transactions_aggregate: { aggregate: { count: 1 } } } },
      other: { data: { account_transactions_aggregate: { aggregate: { count: 7 } } } }
    })
  })
})
