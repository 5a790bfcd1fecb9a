/**
 * The processor contract: what one of the indexer's processors receives and what it returns.
 *
 * A processor is a **pure function** from a batch of committed transactions (`IndexerTransaction`,
 * `input/IndexerTransaction.ts`: versions, hashes, block height, epoch, timestamp, the user
 * transaction's request fields and signatures, its write set as the API's `changes` and its events,
 * Move values decoded to the API's JSON on demand, and the state just before each transaction) to
 * **table writes**: rows keyed by the table catalogue's column names (indexer.md §2, the reference's
 * names), each write saying how it lands (`Insert` for the plain tables, `Upsert` for the
 * `current_*` ones). It reads no database and performs no I/O, so the same input always gives the
 * same rows, tests need no store, and the engine writes every processor's rows of a batch plus the
 * `processor_status` rows in one database transaction.
 *
 * Rules a processor keeps:
 * - It never throws: a value it cannot read (a resource that does not decode, a field of the wrong
 *   shape) makes it skip that change or event, as the reference's processors skip what they cannot
 *   parse. (The engine still guards against a throw: it is a bug, reported, and the batch is not
 *   committed.)
 * - Rows of one write all have the same columns (the engine builds one statement per write).
 * - An `Upsert`'s rows have distinct primary keys: the processor collapses the batch's writes to one
 *   row per key itself (`collapseUpserts` in `rows.ts`, last version wins with the same merge
 *   rules), since one SQL statement cannot update a row twice.
 * - Columns the store computes are never written: `inserted_at` (the store's clock) and the
 *   generated columns of `current_fungible_asset_balances` (`amount`, `asset_type`,
 *   `token_standard`, `last_transaction_version`, `last_transaction_timestamp`).
 */
import type { IndexerTransaction } from "./input/IndexerTransaction.js"

/**
 * A column's value, by the catalogue's column type:
 * - `bigint` (Int8) and `numeric` (u64/u128 amounts, supplies): a JS `bigint` (exact; the GraphQL
 *   layer prints them as JSON numbers, as Hasura does);
 * - `int` (Int4, e.g. `decimals`): a JS `number`;
 * - `varchar`/`text`: a string (addresses long form `0x` + 64 hex, `standardAddress`);
 * - `timestamp`: a string as Postgres prints a `timestamp` without zone and Hasura returns it,
 *   `YYYY-MM-DDTHH:MM:SS[.ffffff]` (`timestampOfMicros`): exact to the microsecond, which a JS
 *   `Date` is not;
 * - `bool`: a boolean;
 * - `jsonb`: any JSON value (objects, arrays; a JS string is a JSON string);
 * - `null` for a nullable column without a value.
 */
export type ColumnValue = string | number | bigint | boolean | null | JsonColumn

/** A `jsonb` column's value. */
export type JsonColumn = ReadonlyArray<unknown> | { readonly [key: string]: unknown }

/** One row: catalogue column name → value. */
export type Row = { readonly [column: string]: ColumnValue }

/**
 * Rows appended to a plain table (`events`, `fungible_asset_activities`, `user_transactions`,
 * `account_transactions`…). Keys are unique per transaction version, so a batch is never indexed
 * twice (the engine resumes after the last committed batch); the engine may still write them with
 * `ON CONFLICT DO NOTHING`.
 */
export interface Insert {
  readonly _tag: "Insert"
  readonly table: string
  readonly rows: ReadonlyArray<Row>
}

/**
 * Rows upserted into a `current_*` table by its primary key (the catalogue's): a row not stored yet
 * is inserted with the columns given (others take their default, null); a stored one is updated —
 * only when `guard` allows it — in the `update` columns.
 *
 * In SQL: `INSERT … ON CONFLICT (pk) DO UPDATE SET c = EXCLUDED.c, …
 *   [c = COALESCE(EXCLUDED.c, t.c) for c in coalesce] [c = t.c OR EXCLUDED.c for c in or]
 *   WHERE t.<guard> IS NULL OR t.<guard> <= EXCLUDED.<guard>`.
 */
export interface Upsert {
  readonly _tag: "Upsert"
  readonly table: string
  readonly rows: ReadonlyArray<Row>
  /**
   * A version column: a stored row is updated only when its value is null or ≤ the new row's
   * (last write by version wins, and a re-indexed batch never moves a row back). Undefined: always.
   */
  readonly guard?: string | undefined
  /**
   * Columns updated on conflict; undefined = every column of the rows except the primary key.
   * (The coin half of a balance updates its own columns only: `is_primary` is set on insert.)
   */
  readonly update?: ReadonlyArray<string> | undefined
  /** Update columns that keep the stored value when the new one is null (`COALESCE(new, old)`). */
  readonly coalesce?: ReadonlyArray<string> | undefined
  /** Boolean update columns that stay true once true (`old OR new`). */
  readonly or?: ReadonlyArray<string> | undefined
}

export type TableWrite = Insert | Upsert

/**
 * The reference processors' names (`processor_status.processor`): the nine the reference localnet
 * runs (`crates/aptos-localnet/src/processors.rs`) and `account_restoration_processor`, which the
 * SDK waits on for account derivation. `processor_status` has one row for each, from the first
 * answer on (indexer.md §1.3, §7.5 pitfall 1).
 */
export const processorNames = [
  "account_restoration_processor",
  "account_transactions_processor",
  "default_processor",
  "events_processor",
  "fungible_asset_processor",
  "objects_processor",
  "stake_processor",
  "token_v2_processor",
  "transaction_metadata_processor",
  "user_transaction_processor"
] as const

export type ProcessorName = (typeof processorNames)[number]

/**
 * One processor (or one part of a reference processor: parts may share a name, e.g. the
 * `default_processor`'s `table_items` and its `ledger_infos`; `processor_status` has one row per
 * name). `tables` lists what it writes (the engine checks them against the catalogue at start).
 */
export interface Processor {
  readonly name: ProcessorName
  readonly tables: ReadonlyArray<string>
  /** The writes for a batch of committed transactions, ascending by version, whole blocks. */
  readonly process: (batch: ReadonlyArray<IndexerTransaction>) => ReadonlyArray<TableWrite>
}
