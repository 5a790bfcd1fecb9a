#!/usr/bin/env node
// The indexer's two embedded candidates on its real workload (issue 19): the store commits the
// rows a transfer produces (user_transactions, account_transactions, events, fungible-asset
// activities, two balance upserts merged with the stored rows) in blocks of `--block` transfers,
// one store transaction per block, then answers the SDK's getAccountCoinsData and an
// account-transactions page through the GraphQL engine. Prints open time, transfers/s committed,
// GraphQL queries/s and p99, and resident memory; the CPU a transfer's writes took (user, system).
//
//   node scripts/bench-indexer-store.mjs sqlite|pglite [--transfers 20000] [--block 10] [--accounts 1000] [--dir DIR]
//
// `--accounts`: how many senders, recipients and stores the transfers spread over (the balances
// table's size, and how far apart a batch's upserts land in its indexes).
//
// Needs `npm run build` (it imports dist/). PGlite is a devDependency (only this script uses it).
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import * as Effect from "effect/Effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import { makeCompiler as makePgCompiler } from "@effect/sql-pg/PgClient"
import { makeGraphqlEngine } from "../dist/indexer/graphql/GraphqlEngine.js"
import { postgresDialect, sqliteDialect } from "../dist/indexer/store/Dialect.js"
import { makeIndexerStore } from "../dist/indexer/store/IndexerStore.js"
import { makeSqliteClient } from "../dist/indexer/store/sqliteClient.js"

const args = process.argv.slice(2)
const kind = args[0]
const opt = (name, d) => {
  const i = args.indexOf(name)
  return i < 0 ? d : args[i + 1]
}
const TRANSFERS = Number(opt("--transfers", "20000"))
const BLOCK = Number(opt("--block", "10"))
const dir = opt("--dir", mkdtempSync(join(tmpdir(), `bench-indexer-${kind}-`)))

const rss = () => Math.round(process.memoryUsage().rss / 1e6)
const addr = (i) => `0x${i.toString(16).padStart(64, "0")}`
const APT = "0x1::aptos_coin::AptosCoin"
const FA = addr(10)
const ts = (v) => `2026-01-01T00:00:${String(v % 60).padStart(2, "0")}.${String(v % 1000000).padStart(6, "0")}`

/** The rows of one transfer at version v, as the processors write them. */
const transferWrites = (v, accounts) => {
  // Each account's primary store keeps its owner (as on a chain): a balance's upsert changes its amount and versions.
  const sender = addr(1000 + (v % accounts))
  const recipient = addr(1000 + ((v * 7 + 3) % accounts))
  const t = ts(v)
  return [
    { _tag: "Insert", table: "user_transactions", rows: [{ version: BigInt(v), block_height: BigInt(v), parent_signature_type: "single_sender", sender, sequence_number: BigInt(v), max_gas_amount: 2000n, expiration_timestamp_secs: t, gas_unit_price: 100n, timestamp: t, entry_function_id_str: "0x1::aptos_account::transfer", epoch: 1n, entry_function_contract_address: addr(1), entry_function_module_name: "aptos_account", entry_function_function_name: "transfer" }] },
    { _tag: "Insert", table: "account_transactions", rows: [sender, recipient, addr(0)].map((a) => ({ account_address: a, transaction_version: BigInt(v) })) },
    { _tag: "Insert", table: "events", rows: [0, 1, 2].map((i) => ({ transaction_version: BigInt(v), event_index: BigInt(i), account_address: addr(0), creation_number: 0n, sequence_number: 0n, type: ["0x1::fungible_asset::Withdraw", "0x1::fungible_asset::Deposit", "0x1::transaction_fee::FeeStatement"][i], indexed_type: "x", transaction_block_height: BigInt(v), data: { amount: "1000", store: sender } })) },
    { _tag: "Insert", table: "fungible_asset_activities", rows: [-1, 0, 1].map((i) => ({ transaction_version: BigInt(v), event_index: BigInt(i), owner_address: i === 1 ? recipient : sender, storage_id: addr(5000 + v % accounts), asset_type: i === -1 ? APT : FA, is_frozen: null, amount: 1000n, type: i === -1 ? "0x1::aptos_coin::GasFeeEvent" : i === 0 ? "0x1::fungible_asset::Withdraw" : "0x1::fungible_asset::Deposit", is_gas_fee: i === -1, gas_fee_payer_address: null, is_transaction_success: true, entry_function_id_str: "0x1::aptos_account::transfer", block_height: BigInt(v), token_standard: i === -1 ? "v1" : "v2", transaction_timestamp: t, storage_refund_amount: 0n })) },
    { _tag: "Upsert", table: "current_fungible_asset_balances", guard: "last_transaction_version_v2", update: ["owner_address", "asset_type_v2", "amount_v2", "is_frozen", "last_transaction_version_v2", "last_transaction_timestamp_v2"], coalesce: ["asset_type_v1"], rows: [[sender, v % accounts], [recipient, (v * 7 + 3) % accounts]].map(([o, n]) => ({ storage_id: addr(1_000_000_000 + n), owner_address: o, asset_type_v1: APT, asset_type_v2: FA, is_primary: true, is_frozen: false, amount_v2: 18446744073709551615n - BigInt(v), last_transaction_version_v2: BigInt(v), last_transaction_timestamp_v2: t })) }
  ]
}

const pgliteClient = (dataDir) =>
  Effect.gen(function* () {
    const { PGlite } = yield* Effect.promise(() => import("@electric-sql/pglite"))
    const db = yield* Effect.promise(() => PGlite.create(dataDir))
    yield* Effect.addFinalizer(() => Effect.promise(() => db.close()))
    const err = (cause) => new SqlError({ reason: new UnknownError({ cause, message: String(cause?.message ?? cause) }) })
    const run = (sql, params) => Effect.tryPromise({ try: () => db.query(sql, params), catch: err }).pipe(Effect.map((r) => r.rows))
    const connection = {
      execute: (sql, params) => run(sql, params),
      executeRaw: (sql, params) => run(sql, params),
      executeStream: (sql, params) => Stream.fromIterableEffect(run(sql, params)),
      executeValues: (sql, params) => Effect.map(run(sql, params), (rows) => rows.map((r) => Object.values(r))),
      executeValuesUnprepared: (sql, params) => Effect.map(run(sql, params), (rows) => rows.map((r) => Object.values(r))),
      executeUnprepared: (sql, params) => run(sql, params)
    }
    const semaphore = yield* Semaphore.make(1)
    const acquirers = SqlClient.makeSqliteAcquirers({ connection: Effect.succeed(connection), semaphore })
    return yield* SqlClient.make({ ...acquirers, compiler: makePgCompiler(), driver: "pglite", spanAttributes: [] }).pipe(Effect.provide(Reactivity.layer))
  })

const main = Effect.gen(function* () {
  const rss0 = rss()
  const t0 = performance.now()
  const client = kind === "pglite" ? yield* pgliteClient(join(dir, "pg")) : (yield* makeSqliteClient(join(dir, "index.sqlite"))).client
  const store = yield* makeIndexerStore(client, kind === "pglite" ? postgresDialect : sqliteDialect, kind)
  const openMs = performance.now() - t0
  const accounts = Number(opt("--accounts", "1000"))
  const t1 = performance.now()
  const cpu1 = process.cpuUsage()
  for (let v = 1; v <= TRANSFERS; v += BLOCK) {
    const writes = []
    for (let i = v; i < v + BLOCK && i <= TRANSFERS; i++) writes.push(...transferWrites(i, accounts))
    const last = Math.min(v + BLOCK - 1, TRANSFERS)
    yield* store.commit(writes, { version: BigInt(last), hash: "0x", timestampUsec: 0n, chainId: 4 }, ["fungible_asset_processor"])
  }
  const writeS = (performance.now() - t1) / 1000
  // The process's CPU while writing (user and system: SQLite's log writes are system time), a
  // steadier figure than the rate on a machine whose speed drifts.
  const cpu = process.cpuUsage(cpu1)
  const writeCpuUsPerTransfer = { user: Math.round(cpu.user / TRANSFERS), system: Math.round(cpu.system / TRANSFERS) }
  const rssAfterWrites = rss()
  const engine = makeGraphqlEngine(Effect.succeed(store))
  const coins = (a) => ({ query: `query getAccountCoinsData($where_condition: current_fungible_asset_balances_bool_exp!, $offset: Int, $limit: Int, $order_by: [current_fungible_asset_balances_order_by!]) { current_fungible_asset_balances(where: $where_condition, offset: $offset, limit: $limit, order_by: $order_by) { amount asset_type is_frozen is_primary last_transaction_timestamp last_transaction_version owner_address storage_id token_standard metadata { token_standard symbol supply_aggregator_table_key_v1 supply_aggregator_table_handle_v1 project_uri name last_transaction_version last_transaction_timestamp icon_uri decimals creator_address asset_type } } }`, variables: { where_condition: { owner_address: { _eq: a } } } })
  const page = (a) => ({ query: `query q($a: String) { account_transactions(where: {account_address: {_eq: $a}}, order_by: {transaction_version: desc}, limit: 25) { transaction_version user_transaction { sender entry_function_id_str timestamp } } }`, variables: { a } })
  const measure = (make, n) =>
    Effect.gen(function* () {
      const times = []
      const start = performance.now()
      for (let i = 0; i < n; i++) {
        const s = performance.now()
        const text = yield* engine.answer(make(addr(1000 + (i * 13) % accounts)))
        if (text.includes('"errors"')) throw new Error(text)
        times.push(performance.now() - s)
      }
      times.sort((a, b) => a - b)
      return { perSec: Math.round(n / ((performance.now() - start) / 1000)), p50: times[Math.floor(n * 0.5)].toFixed(2), p99: times[Math.floor(n * 0.99)].toFixed(2) }
    })
  const c = yield* measure(coins, 2000)
  const p = yield* measure(page, 2000)
  console.log(JSON.stringify({ kind, transfers: TRANSFERS, block: BLOCK, openMs: Math.round(openMs), transfersPerSec: Math.round(TRANSFERS / writeS), writeCpuUsPerTransfer, getAccountCoinsData: c, accountTransactionsPage: p, rssMB: { start: rss0, afterOpen: undefined, afterWrites: rssAfterWrites, end: rss() } }))
})

await Effect.runPromise(Effect.scoped(main))
rmSync(dir, { recursive: true, force: true })
