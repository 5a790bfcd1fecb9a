/**
 * What differs between the two stores' SQL: column types, how a value is bound and read back, LIKE.
 * Everything else the compiler and the writer emit is SQL both SQLite (≥ 3.35) and PostgreSQL
 * accept unchanged (row values, `ON CONFLICT`, window functions, `NULLS FIRST/LAST`).
 *
 * Values cross this boundary as **cells** in one canonical form per column type, whatever the store:
 * `String` string, `Int` number, `Boolean` boolean, `bigint`/`numeric` canonical decimal text,
 * `timestamp` microseconds (bigint), `jsonb` JSON text; null for NULL.
 */
import type { ScalarType } from "../schema/TableSpec.js"
import { fromSortableDecimal, sortableDecimal, timestampText } from "./values.js"

export type Cell = string | number | boolean | bigint | null

export interface Dialect {
  readonly name: "sqlite" | "postgres"
  /** The placeholder of the `index`-th parameter (1-based). */
  readonly placeholder: (index: number) => string
  readonly columnType: (type: ScalarType) => string
  /** SQL reading the column expression `expr` as `decode` takes it. */
  readonly read: (expr: string, type: ScalarType) => string
  /** SQL of a bound parameter of `type`. */
  readonly param: (placeholder: string, type: ScalarType) => string
  /** The driver value binding the cell `cell` of `type`. */
  readonly encode: (cell: Cell, type: ScalarType) => unknown
  /**
   * Whether a `bigint` column binds a JS `bigint` as it is (SQLite's 64-bit integers: `encode` of its
   * canonical decimal cell gives the same bigint back), so a writer may skip the cell in between.
   */
  readonly bindsBigint: boolean
  /** A value read with `read` as a cell. */
  readonly decode: (raw: unknown, type: ScalarType) => Cell
  /** `expr LIKE pattern` (Postgres' semantics: `\` escapes), case-insensitive when asked. */
  readonly like: (expr: string, pattern: string, caseInsensitive: boolean) => string
  /** `expr > 0` for a decimal column (views). */
  readonly positive: (expr: string, type: ScalarType) => string
}

export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`

const toBigInt = (raw: unknown): bigint =>
  typeof raw === "bigint" ? raw : typeof raw === "number" ? BigInt(raw) : BigInt(String(raw))

/**
 * SQLite (better-sqlite3 with safe integers): `bigint` and `timestamp` as INTEGER (i64, exact),
 * `numeric` as `sortableDecimal` TEXT (u128 and beyond, exact and ordered), booleans as 0/1,
 * `jsonb` as TEXT. LIKE is made case-sensitive for the connection (`PRAGMA case_sensitive_like`).
 */
export const sqliteDialect: Dialect = {
  name: "sqlite",
  placeholder: () => "?",
  columnType: (type) => (type === "String" || type === "numeric" || type === "jsonb" ? "TEXT" : "INTEGER"),
  read: (expr) => expr,
  param: (placeholder) => placeholder,
  bindsBigint: true,
  encode: (cell, type) => {
    if (cell === null) return null
    switch (type) {
      case "Boolean":
        return cell === true ? 1 : 0
      case "bigint":
      case "timestamp":
        return toBigInt(cell)
      case "numeric":
        return sortableDecimal(String(cell))
      case "Int":
        return Number(cell)
      default:
        return String(cell)
    }
  },
  decode: (raw, type) => {
    if (raw === null || raw === undefined) return null
    switch (type) {
      case "Boolean":
        return raw === 1n || raw === 1 || raw === true
      case "bigint":
        return toBigInt(raw).toString()
      case "timestamp":
        return toBigInt(raw)
      case "numeric":
        return fromSortableDecimal(String(raw))
      case "Int":
        return Number(raw)
      default:
        return String(raw)
    }
  },
  like: (expr, pattern, caseInsensitive) =>
    caseInsensitive ? `lower(${expr}) LIKE lower(${pattern}) ESCAPE '\\'` : `${expr} LIKE ${pattern} ESCAPE '\\'`,
  positive: (expr, type) => (type === "numeric" ? `${expr} > '${sortableDecimal("0")}'` : `${expr} > 0`)
}

const PG_TYPES: Record<ScalarType, string> = {
  String: "text",
  Int: "integer",
  Boolean: "boolean",
  bigint: "bigint",
  numeric: "numeric",
  timestamp: "timestamp",
  jsonb: "jsonb"
}

/**
 * PostgreSQL (@effect/sql-pg): the reference's column types; every parameter is sent as text and
 * cast, every non-text column read back as text (numeric digits exact, whatever the driver's
 * parsers), timestamps as microseconds.
 */
export const postgresDialect: Dialect = {
  name: "postgres",
  placeholder: (index) => `$${index}`,
  columnType: (type) => PG_TYPES[type],
  read: (expr, type) => {
    switch (type) {
      case "bigint":
      case "numeric":
      case "jsonb":
        return `${expr}::text`
      case "timestamp":
        return `(extract(epoch from ${expr}) * 1000000)::bigint::text`
      default:
        return expr
    }
  },
  param: (placeholder, type) => `${placeholder}::${PG_TYPES[type]}`,
  bindsBigint: false,
  encode: (cell, type) => {
    if (cell === null) return null
    switch (type) {
      case "Boolean":
        return cell === true ? "true" : "false"
      case "timestamp": {
        const text = timestampText(toBigInt(cell))
        return text.includes(".") ? text : `${text}.0`
      }
      default:
        return String(cell)
    }
  },
  decode: (raw, type) => {
    if (raw === null || raw === undefined) return null
    switch (type) {
      case "Boolean":
        return raw === true || raw === "t" || raw === "true"
      case "timestamp":
        return toBigInt(raw)
      case "Int":
        return Number(raw)
      default:
        return String(raw)
    }
  },
  like: (expr, pattern, caseInsensitive) => `${expr} ${caseInsensitive ? "ILIKE" : "LIKE"} ${pattern}`,
  positive: (expr) => `${expr} > 0`
}
