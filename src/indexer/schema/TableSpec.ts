/**
 * The table catalogue's vocabulary: what one indexer table (or view) is — its columns with the
 * Hasura scalar each is exposed as, its primary key, its relationships — from which the store's DDL,
 * the GraphQL schema and the query compiler are all derived. One file per table group beside this
 * one declares the tables; `catalogue.ts` lists them all.
 */
import type { Cell, Dialect } from "../store/Dialect.js"

/** Hasura's scalar names (the GraphQL type of a column; variables are typed with them). */
export type ScalarType = "String" | "Int" | "Boolean" | "bigint" | "numeric" | "timestamp" | "jsonb"

export interface Column {
  readonly name: string
  readonly type: ScalarType
  readonly nullable: boolean
}

/**
 * A relationship as Hasura's metadata declares it (`manual_configuration`): an `object`
 * relationship yields the first matching row of `target` (or null), an `array` one all of them
 * (with their own where/order_by/limit/offset). `on` pairs a column of this table with one of the
 * target's.
 */
export interface Relationship {
  readonly name: string
  readonly kind: "object" | "array"
  readonly target: string
  readonly on: ReadonlyArray<readonly [local: string, remote: string]>
}

export interface TableSpec {
  readonly name: string
  readonly description: string
  readonly columns: ReadonlyArray<Column>
  /** Empty for views. Writes (insert/upsert) are keyed by it. */
  readonly primaryKey: ReadonlyArray<string>
  /** Secondary indexes for the filters the SDK and the Explorer send. */
  readonly indexes: ReadonlyArray<ReadonlyArray<string>>
  readonly relationships: ReadonlyArray<Relationship>
  /** A view: the SELECT defining it (columns named as `columns`), in the store's dialect. */
  readonly view: ((dialect: Dialect) => string) | undefined
  /**
   * Columns the store computes from the others (the reference's generated columns), set on the row
   * in place before it is written. Processors never write them.
   */
  readonly derive: ((row: Record<string, Cell>) => void) | undefined
}

/** `"numeric?"` is a nullable numeric column. */
export type ColumnShorthand = ScalarType | `${ScalarType}?`

/** A table from a column list in declaration order (`{ amount: "numeric", owner_address: "String?" }`). */
export const table = (
  name: string,
  description: string,
  columns: Readonly<Record<string, ColumnShorthand>>,
  options: {
    readonly primaryKey?: ReadonlyArray<string>
    readonly indexes?: ReadonlyArray<ReadonlyArray<string>>
    readonly relationships?: ReadonlyArray<Relationship>
    readonly view?: (dialect: Dialect) => string
    readonly derive?: (row: Record<string, Cell>) => void
  } = {}
): TableSpec => ({
  name,
  description,
  columns: Object.entries(columns).map(([column, t]) => ({
    name: column,
    type: (t.endsWith("?") ? t.slice(0, -1) : t) as ScalarType,
    nullable: t.endsWith("?")
  })),
  primaryKey: options.primaryKey ?? [],
  indexes: options.indexes ?? [],
  relationships: options.relationships ?? [],
  view: options.view,
  derive: options.derive
})

export const objectRel = (name: string, target: string, ...on: Array<readonly [string, string]>): Relationship => ({
  name,
  kind: "object",
  target,
  on
})

export const arrayRel = (name: string, target: string, ...on: Array<readonly [string, string]>): Relationship => ({
  name,
  kind: "array",
  target,
  on
})
