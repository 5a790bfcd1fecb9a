/**
 * The same GraphQL answers, byte for byte, from the embedded store (SQLite) and from a PostgreSQL
 * server indexing the same ledger: filters of every operator, relationships, ordering with nulls,
 * distinct_on, aggregates, big numbers, timestamps. Starts a throwaway PostgreSQL (Debian's
 * binaries); skips, saying why, where there are none.
 */
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { describe, expect, it } from "vitest"
import { ChainEvents } from "../../src/chain/ChainEvents.js"
import { testLocalChainConfig } from "../../src/chain/LocalChainConfig.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { Indexer, IndexerStore, makeGraphqlEngine, processorPipeline } from "../../src/indexer/index.js"
import { LocalChain } from "../../src/LocalChain.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import { postgresUnavailable, startPostgres } from "../support/throwawayPostgres.js"

/** Queries over every table group and every feature of the dialect (answers compared as text). */
export const QUERIES: ReadonlyArray<{ readonly query: string; readonly variables?: unknown }> = [
  { query: "{ ledger_infos { chain_id } }" },
  { query: "{ processor_status(order_by: {processor: asc}) { processor last_success_version } }" },
  {
    query:
      "{ user_transactions(order_by: {version: desc}, limit: 5) { version sender sequence_number gas_unit_price max_gas_amount timestamp expiration_timestamp_secs entry_function_id_str epoch block_height } }"
  },
  { query: '{ user_transactions(where: {entry_function_id_str: {_like: "%transfer%"}}) { version } }' },
  { query: '{ user_transactions(where: {entry_function_id_str: {_ilike: "%TRANSFER%"}}) { version } }' },
  { query: '{ user_transactions(where: {entry_function_id_str: {_nlike: "%mint%"}}) { version } }' },
  { query: '{ user_transactions(where: {_or: [{version: {_lt: 3}}, {sequence_number: {_gte: "1"}}]}) { version } }' },
  { query: "{ user_transactions(where: {_not: {version: {_in: [1, 2, 3]}}}, offset: 1, limit: 2) { version } }" },
  { query: "{ user_transactions(where: {sequence_number: {_is_null: false}, version: {_nin: []}}) { version } }" },
  {
    query: "{ user_transactions(distinct_on: [sender], order_by: [{sender: asc}, {version: desc}]) { sender version } }"
  },
  { query: "{ user_transactions_aggregate { aggregate { count } } }" },
  {
    query:
      "{ user_transactions_aggregate(where: {version: {_gt: 2}}) { aggregate { count(columns: [sender], distinct: true) } nodes { version } } }"
  },
  {
    query:
      "{ account_transactions(order_by: [{transaction_version: desc}, {account_address: asc}], limit: 10) { account_address transaction_version user_transaction { sender entry_function_id_str } } }"
  },
  { query: "{ account_transactions_aggregate { aggregate { count } } }" },
  {
    query:
      "{ current_fungible_asset_balances(order_by: [{amount: desc_nulls_last}, {storage_id: asc}]) { owner_address amount asset_type token_standard is_primary last_transaction_version last_transaction_timestamp metadata { symbol decimals name supply_v2 } } }"
  },
  {
    query:
      '{ current_fungible_asset_balances(where: {amount: {_gt: "0"}, metadata: {symbol: {_eq: "APT"}}}) { storage_id } }'
  },
  {
    query:
      "{ fungible_asset_metadata(order_by: {asset_type: asc}) { asset_type creator_address decimals name symbol supply_v2 maximum_v2 token_standard last_transaction_timestamp } }"
  },
  {
    query:
      "{ fungible_asset_activities(order_by: [{transaction_version: desc}, {event_index: asc}], limit: 20) { transaction_version event_index type amount owner_address is_gas_fee storage_refund_amount transaction_timestamp } }"
  },
  {
    query:
      '{ fungible_asset_activities(distinct_on: transaction_version, order_by: {transaction_version: desc}, where: {type: {_neq: "0x1::aptos_coin::GasFeeEvent"}}) { transaction_version } }'
  },
  {
    query:
      "{ current_objects(order_by: {object_address: asc}, limit: 20) { object_address owner_address allow_ungated_transfer last_guid_creation_num is_deleted } }"
  },
  {
    query:
      "{ events(order_by: [{transaction_version: desc}, {event_index: asc}], limit: 10) { type data account_address creation_number sequence_number } }"
  },
  {
    query:
      "{ current_token_ownerships_v2(where: {amount: {_gt: 0}}) { token_data_id current_token_data { token_name current_collection { collection_name } } } }"
  },
  {
    query:
      "{ current_collection_ownership_v2_view { owner_address distinct_tokens } num_active_delegator_per_pool { pool_address } delegator_distinct_pool { pool_address } }"
  },
  {
    query:
      "{ table_items(limit: 5, order_by: {transaction_version: asc}) { key decoded_key decoded_value table_handle } table_metadatas(limit: 5, order_by: {handle: asc}) { handle key_type value_type } }"
  },
  { query: "{ signatures(limit: 5, order_by: {transaction_version: desc}) { signer type public_key } }" },
  { query: "{ current_aptos_names { domain } current_aptos_names_aggregate { aggregate { count } } }" },
  {
    query:
      '{ user_transactions(where: {timestamp: {_gt: "2000-01-01T00:00:00"}}, limit: 1, order_by: {version: asc}) { version timestamp } }'
  },
  { query: "{ a: user_transactions(limit: 1) { __typename v: version } __typename }" }
]

const unavailable = postgresUnavailable()

describe.skipIf(unavailable !== undefined)(
  `same answers from SQLite and PostgreSQL${unavailable === undefined ? "" : ` (skipped: ${unavailable})`}`,
  () => {
    it("indexes one chain into both stores and answers every query alike", async () => {
      const pg = await startPostgres()
      try {
        await Effect.runPromise(
          Effect.scoped(
            Effect.gen(function* () {
              const ctx = yield* Layer.build(
                LocalChain.layer({
                  ...testLocalChainConfig,
                  accounts: 2,
                  // A still chain: an idle block between the two indexers' catch-up and the queries
                  // would move processor_status in one store and not yet in the other.
                  mining: MiningMode.still(),
                  graphql: { host: "127.0.0.1", port: 0 },
                  indexer: { _tag: "Embedded" }
                })
              )
              const chain = Context.get(ctx, LocalChain)
              const ledger = Context.get(ctx, Ledger)
              const aptos = new Aptos(
                new AptosConfig({
                  network: Network.CUSTOM,
                  fullnode: chain.apiUrl,
                  faucet: chain.faucetUrl,
                  indexer: chain.graphqlUrl
                })
              )
              const alice = Account.generate()
              const transfers = (n: number, amount: number) =>
                Effect.promise(async () => {
                  for (let i = 0; i < n; i++) {
                    const txn = await aptos.transferCoinTransaction({
                      sender: alice.accountAddress,
                      recipient: Account.generate().accountAddress,
                      amount: amount + i
                    })
                    const p = await aptos.signAndSubmitTransaction({ signer: alice, transaction: txn })
                    await aptos.waitForTransaction({ transactionHash: p.hash })
                  }
                })
              yield* Effect.promise(() =>
                aptos.fundAccount({ accountAddress: alice.accountAddress, amount: 1_000_000_000 })
              )
              yield* transfers(3, 1000)
              // A second indexer over the same ledger, into PostgreSQL, told of the chain's events
              // (blocks, snapshots, reverts) as the chain's own is.
              const pgCtx = yield* Layer.build(
                Indexer.layer({ pipeline: processorPipeline() }).pipe(
                  Layer.provideMerge(IndexerStore.layer({ _tag: "Postgres", url: pg.url })),
                  Layer.provide(
                    Layer.mergeAll(
                      Layer.succeed(Ledger, ledger),
                      Layer.succeed(ChainEvents, ctx.mapUnsafe.get(ChainEvents.key) as ChainEvents["Service"])
                    )
                  )
                )
              )
              const pgIndexer = Context.get(pgCtx, Indexer)
              const info = yield* ledger.ledgerInfo
              expect(yield* pgIndexer.waitFor(info.ledgerVersion, 30_000)).toBe(true)
              const sqliteAnswer = (q: (typeof QUERIES)[number]) =>
                Effect.promise(() =>
                  fetch(chain.graphqlUrl!, {
                    method: "POST",
                    headers: { "content-type": "application/json" },
                    body: JSON.stringify(q)
                  }).then((r) => r.text())
                )
              const pgEngine = makeGraphqlEngine(Effect.succeed(pgIndexer.store))
              const compare = Effect.gen(function* () {
                for (const q of QUERIES) {
                  const a = yield* sqliteAnswer(q)
                  const b = yield* pgEngine.answer(q)
                  expect(a, q.query).not.toContain('"errors"')
                  expect(b, q.query).toBe(a)
                  if (process.env.SHOW_ANSWERS) console.log(b.slice(0, 300))
                }
              })
              yield* compare
              // A reset (a chain's revert) empties PostgreSQL's tables (TRUNCATE) and the index is
              // built again, answering as before.
              yield* pgIndexer.reindex
              expect(yield* pgIndexer.waitFor(info.ledgerVersion, 30_000)).toBe(true)
              yield* compare
              // A snapshot, transfers, a revert and a transfer: both indexes go back by their undo
              // logs (PostgreSQL's statements as SQLite's) and answer alike.
              const snapshot = yield* chain.controls.snapshot
              yield* transfers(2, 2000)
              expect(yield* pgIndexer.waitFor((yield* ledger.ledgerInfo).ledgerVersion, 30_000)).toBe(true)
              yield* chain.controls.revert(snapshot)
              yield* transfers(1, 3000)
              expect(yield* pgIndexer.waitFor((yield* ledger.ledgerInfo).ledgerVersion, 30_000)).toBe(true)
              yield* compare
              expect((yield* pgIndexer.health).rewindsUndone).toBeGreaterThanOrEqual(1)
            })
          )
        )
      } finally {
        await pg.stop()
      }
    })
  }
)
