/**
 * Plans to SQL: `where` (`_bool_exp`) to a predicate, list arguments to a row source. Every value is
 * a bound parameter (`Params`); the only names in the text are the catalogue's tables and columns,
 * quoted. The same text runs on SQLite and PostgreSQL (`Dialect` covers the differences).
 *
 * Row sources:
 *   plain      SELECT … FROM T t0 WHERE … ORDER BY … LIMIT … OFFSET …
 *   distinct   ROW_NUMBER() OVER (PARTITION BY <distinct_on> ORDER BY …) = 1 (Postgres' DISTINCT ON)
 *   batched    for relationships of many parent rows in one statement: the target's rows whose join
 *              columns are IN the parents' keys, numbered per parent (limit/offset per parent);
 *              when the join columns hold the target's primary key (an object relationship to a
 *              row by its key, the common case) each parent has at most one row: a plain lookup,
 *              no numbering and no ORDER BY (a window function costs a sort in both stores).
 *   count      `count(*)` straight over the filtered table when the rows are not limited (no
 *              ORDER BY: it changes no count).
 * Rows without an `order_by` come in primary-key order (both stores answer alike).
 */
import type { Column, ScalarType, TableSpec } from "../schema/TableSpec.js"
import { type Cell, type Dialect, quoteIdent } from "../store/Dialect.js"
import { HasuraError } from "./errors.js"
import type { ListArgs, OrderTerm } from "./plan.js"
import type { IndexerSchema } from "./schema.js"

/** Bounds on one request's SQL (beyond the document's own). */
export const SQL_LIMITS = { whereNodes: 1_000, whereDepth: 32, params: 20_000, inList: 1_000 } as const

export class Params {
  readonly values: unknown[] = []
  constructor(readonly dialect: Dialect) {}
  add(cell: Cell, type: ScalarType): string {
    if (this.values.length >= SQL_LIMITS.params) throw new HasuraError("the query has too many values")
    this.values.push(this.dialect.encode(cell, type))
    return this.dialect.param(this.dialect.placeholder(this.values.length), type)
  }
  /** A number bound as an integer (limits, offsets). */
  int(n: number): string {
    return this.add(String(n), "bigint")
  }
}

const col = (alias: string, name: string) => `${alias}.${quoteIdent(name)}`

const BINARY: Record<string, string> = { _eq: "=", _neq: "<>", _gt: ">", _gte: ">=", _lt: "<", _lte: "<=" }

export interface WhereContext {
  readonly schema: IndexerSchema
  readonly params: Params
  nextAlias: number
  nodes: number
}

const comparison = (ctx: WhereContext, column: Column, expr: string, ops: Record<string, unknown>): string[] => {
  const { params, schema: _ } = ctx
  const dialect = params.dialect
  const out: string[] = []
  for (const [op, value] of Object.entries(ops)) {
    // Hasura ignores a comparison with a null operand (the expression is true).
    if (value === null || value === undefined) continue
    if (++ctx.nodes > SQL_LIMITS.whereNodes) throw new HasuraError("the where expression is too large")
    const binary = BINARY[op]
    if (binary !== undefined) out.push(`${expr} ${binary} ${params.add(value as Cell, column.type)}`)
    else if (op === "_in" || op === "_nin") {
      const list = value as ReadonlyArray<Cell>
      if (list.length > SQL_LIMITS.inList) throw new HasuraError(`${op} takes at most ${SQL_LIMITS.inList} values`)
      if (list.length === 0) out.push(op === "_in" ? "1 = 0" : "1 = 1")
      else
        out.push(
          `${expr} ${op === "_in" ? "IN" : "NOT IN"} (${list.map((v) => (v === null ? "NULL" : params.add(v, column.type))).join(", ")})`
        )
    } else if (op === "_is_null") out.push(`${expr} IS ${value === true ? "" : "NOT "}NULL`)
    else if (op === "_like" || op === "_ilike" || op === "_nlike" || op === "_nilike") {
      const like = dialect.like(expr, params.add(value as Cell, "String"), op === "_ilike" || op === "_nilike")
      out.push(op.startsWith("_n") ? `NOT (${like})` : like)
    } else throw new HasuraError(`field '${op}' not found in type: '${column.type}_comparison_exp'`)
  }
  return out
}

/** The predicate of a `<table>_bool_exp` value over the rows of `alias`. */
export const compileWhere = (ctx: WhereContext, table: TableSpec, alias: string, exp: unknown, depth = 0): string => {
  if (exp === null || exp === undefined) return "1 = 1"
  if (++ctx.nodes > SQL_LIMITS.whereNodes) throw new HasuraError("the where expression is too large")
  if (depth > SQL_LIMITS.whereDepth)
    throw new HasuraError(`the where expression is nested deeper than ${SQL_LIMITS.whereDepth} levels`)
  const parts: string[] = []
  for (const [key, value] of Object.entries(exp as Record<string, unknown>)) {
    if (value === undefined) continue
    if (key === "_and" || key === "_or") {
      if (value === null) continue
      const items = (value as ReadonlyArray<unknown>).map((e) => compileWhere(ctx, table, alias, e, depth + 1))
      parts.push(
        items.length === 0 ? (key === "_and" ? "1 = 1" : "1 = 0") : `(${items.join(key === "_and" ? " AND " : " OR ")})`
      )
      continue
    }
    if (key === "_not") {
      if (value !== null) parts.push(`NOT (${compileWhere(ctx, table, alias, value, depth + 1)})`)
      continue
    }
    const column = table.columns.find((c) => c.name === key)
    if (column !== undefined) {
      if (value !== null)
        parts.push(...comparison(ctx, column, col(alias, column.name), value as Record<string, unknown>))
      continue
    }
    const rel = table.relationships.find((r) => r.name === key)
    if (rel === undefined) throw new HasuraError(`field '${key}' not found in type: '${table.name}_bool_exp'`)
    if (value === null) continue
    const target = ctx.schema.tables.get(rel.target)!
    const inner = `t${ctx.nextAlias++}`
    const join = rel.on.map(([l, r]) => `${col(inner, r)} = ${col(alias, l)}`).join(" AND ")
    parts.push(
      `EXISTS (SELECT 1 FROM ${quoteIdent(target.name)} ${inner} WHERE ${join} AND ${compileWhere(ctx, target, inner, value, depth + 1)})`
    )
  }
  return parts.length === 0 ? "1 = 1" : parts.join(" AND ")
}

const orderSql = (alias: string, terms: ReadonlyArray<OrderTerm>): string =>
  terms
    .map((t) => `${col(alias, t.column.name)} ${t.direction.toUpperCase()} NULLS ${t.nullsFirst ? "FIRST" : "LAST"}`)
    .join(", ")

/** The caller's order, then the primary key (ascending) for a stable order in both stores. */
export const fullOrder = (table: TableSpec, args: ListArgs): ReadonlyArray<OrderTerm> => {
  const named = new Set(args.orderBy.map((o) => o.column.name))
  const key = table.primaryKey
    .filter((k) => !named.has(k))
    .map((k) => ({ column: table.columns.find((c) => c.name === k)!, direction: "asc" as const, nullsFirst: false }))
  return [...args.orderBy, ...key]
}

export interface Batch {
  /** The target's join columns. */
  readonly columns: ReadonlyArray<Column>
  /** The parents' key tuples (distinct, non-null). */
  readonly keys: ReadonlyArray<ReadonlyArray<Cell>>
}

/**
 * A row source of `table` reading `columns` (as `Dialect.read` gives them), filtered, ordered and
 * limited by `args` (`limit` already capped by the caller; undefined = no limit), optionally batched
 * over parent keys (then limit/offset apply per parent).
 */
export const rowSource = (
  ctx: WhereContext,
  table: TableSpec,
  args: ListArgs,
  columns: ReadonlyArray<Column>,
  limit: number | undefined,
  batch?: Batch
): string => {
  const { params } = ctx
  const dialect = params.dialect
  const alias = "t0"
  ctx.nextAlias = Math.max(ctx.nextAlias, 1)
  const conditions = [compileWhere(ctx, table, alias, args.where)]
  if (batch !== undefined) {
    const lhs =
      batch.columns.length === 1
        ? col(alias, batch.columns[0]!.name)
        : `(${batch.columns.map((c) => col(alias, c.name)).join(", ")})`
    const tuples = batch.keys.map((k) => {
      const cells = k.map((cell, i) => params.add(cell, batch.columns[i]!.type))
      return cells.length === 1 ? cells[0] : `(${cells.join(", ")})`
    })
    conditions.push(
      batch.columns.length === 1 ? `${lhs} IN (${tuples.join(", ")})` : `${lhs} IN (VALUES ${tuples.join(", ")})`
    )
  }
  const where = conditions.join(" AND ")
  const selectList = columns
    .map((c) => `${dialect.read(col(alias, c.name), c.type)} AS ${quoteIdent(c.name)}`)
    .join(", ")
  if (batch !== undefined && args.distinctOn.length === 0 && args.offset === 0 && (limit === undefined || limit >= 1)) {
    const joined = new Set(batch.columns.map((c) => c.name))
    if (table.primaryKey.length > 0 && table.primaryKey.every((k) => joined.has(k)))
      return `SELECT ${selectList} FROM ${quoteIdent(table.name)} ${alias} WHERE ${where}`
  }
  const order = fullOrder(table, args)
  const orderText = order.length === 0 ? "" : ` ORDER BY ${orderSql(alias, order)}`
  const overOrder = order.length === 0 ? "" : ` ORDER BY ${orderSql(alias, order)}`
  const partition = (extra: ReadonlyArray<Column>) =>
    [...(batch?.columns ?? []), ...extra].map((c) => col(alias, c.name)).join(", ")

  // Innermost: the filtered table (with DISTINCT ON emulated when asked).
  let source = `${quoteIdent(table.name)} ${alias}`
  let filtered: string
  if (args.distinctOn.length > 0) {
    source = `(SELECT ${alias}.*, ROW_NUMBER() OVER (PARTITION BY ${partition(args.distinctOn)}${overOrder}) AS "__d" FROM ${source} WHERE ${where}) ${alias}`
    filtered = `${alias}."__d" = 1`
  } else filtered = where

  if (batch === undefined) {
    const limitText = limit === undefined ? "" : ` LIMIT ${params.int(limit)}`
    const offsetText =
      args.offset > 0 ? `${limit === undefined ? " LIMIT -1" : ""} OFFSET ${params.int(args.offset)}` : ""
    // Postgres has no LIMIT -1: "LIMIT ALL".
    const fixedOffset = dialect.name === "postgres" ? offsetText.replace(" LIMIT -1", " LIMIT ALL") : offsetText
    return `SELECT ${selectList} FROM ${source} WHERE ${filtered}${orderText}${limitText}${fixedOffset}`
  }
  const numbered = `(SELECT ${alias}.*, ROW_NUMBER() OVER (PARTITION BY ${partition([])}${overOrder}) AS "__r" FROM ${source} WHERE ${filtered}) ${alias}`
  const bounds = [
    ...(args.offset > 0 ? [`${alias}."__r" > ${params.int(args.offset)}`] : []),
    ...(limit === undefined ? [] : [`${alias}."__r" <= ${params.int(args.offset + limit)}`])
  ]
  return `SELECT ${selectList} FROM ${numbered}${bounds.length === 0 ? "" : ` WHERE ${bounds.join(" AND ")}`} ORDER BY ${partition([])}${order.length === 0 ? "" : `, ${orderSql(alias, order)}`}`
}

/**
 * `SELECT count(…) AS n` of `table`'s rows matching `args` (its limit, offset and distinct_on
 * included), counting rows where every one of `columns` is not null, distinct ones when asked.
 */
export const countSource = (
  ctx: WhereContext,
  table: TableSpec,
  args: ListArgs,
  columns: ReadonlyArray<Column>,
  distinct: boolean
): string => {
  const unlimited = args.limit === undefined && args.offset === 0 && args.distinctOn.length === 0
  if (unlimited && (!distinct || columns.length <= 1)) {
    ctx.nextAlias = Math.max(ctx.nextAlias, 1)
    const where = compileWhere(ctx, table, "t0", args.where)
    const counted =
      columns.length === 0 ? "count(*)" : `count(${distinct ? "DISTINCT " : ""}${col("t0", columns[0]!.name)})`
    const notNull = columns.slice(1).map((c) => ` AND ${col("t0", c.name)} IS NOT NULL`)
    return `SELECT ${counted} AS n FROM ${quoteIdent(table.name)} t0 WHERE ${where}${notNull.join("")}`
  }
  const inner = rowSource(ctx, table, args, columns.length === 0 ? table.columns.slice(0, 1) : columns, args.limit)
  const notNull = columns.map((x) => `b.${quoteIdent(x.name)} IS NOT NULL`).join(" AND ")
  const body =
    distinct && columns.length > 0
      ? `SELECT DISTINCT ${columns.map((x) => `a.${quoteIdent(x.name)}`).join(", ")} FROM (${inner}) a`
      : inner
  return `SELECT count(*) AS n FROM (${body}) b${columns.length > 0 ? ` WHERE ${notNull}` : ""}`
}
