/**
 * The GraphQL schema Hasura would generate for the catalogue (indexer.md §3.2–3.3), built with
 * graphql-js so documents are parsed, validated and introspected as by any GraphQL server; queries
 * are then executed by this folder's compiler, not by graphql-js resolvers.
 *
 * Per table or view `T`: the object type `T` (columns, relationships; an array relationship `r` also
 * gets `r_aggregate`), `T_bool_exp`, `T_order_by`, `T_select_column`, `T_aggregate`,
 * `T_aggregate_fields`, and the root fields `T`, `T_aggregate` and (tables with a key) `T_by_pk`.
 * Comparison inputs `<scalar>_comparison_exp` carry `_eq _neq _gt _gte _lt _lte _in _nin _is_null`,
 * plus `_like _nlike _ilike _nilike` for `String`. Aggregates offer `count` (the only one the SDK and
 * the Explorer ask for).
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLSchema,
  GraphQLString
} from "graphql"
import type { ScalarType, TableSpec } from "../schema/TableSpec.js"
import { bigintScalar, jsonbScalar, numericScalar, timestampScalar } from "./scalars.js"

const SCALARS = {
  String: GraphQLString,
  Int: GraphQLInt,
  Boolean: GraphQLBoolean,
  bigint: bigintScalar,
  numeric: numericScalar,
  timestamp: timestampScalar,
  jsonb: jsonbScalar
} as const

export const orderByEnum = new GraphQLEnumType({
  name: "order_by",
  description: "column ordering options",
  values: {
    asc: { value: "asc", description: "in ascending order, nulls last" },
    asc_nulls_first: { value: "asc_nulls_first" },
    asc_nulls_last: { value: "asc_nulls_last" },
    desc: { value: "desc", description: "in descending order, nulls first" },
    desc_nulls_first: { value: "desc_nulls_first" },
    desc_nulls_last: { value: "desc_nulls_last" }
  }
})

export const COMPARISON_OPERATORS = ["_eq", "_neq", "_gt", "_gte", "_lt", "_lte", "_in", "_nin", "_is_null"] as const
export const LIKE_OPERATORS = ["_like", "_nlike", "_ilike", "_nilike"] as const

const comparisonType = (scalar: ScalarType): GraphQLInputObjectType => {
  const t = SCALARS[scalar]
  const fields: GraphQLInputFieldConfigMap = {}
  for (const op of COMPARISON_OPERATORS)
    fields[op] = {
      type:
        op === "_is_null" ? GraphQLBoolean : op === "_in" || op === "_nin" ? new GraphQLList(new GraphQLNonNull(t)) : t
    }
  if (scalar === "String") for (const op of LIKE_OPERATORS) fields[op] = { type: GraphQLString }
  return new GraphQLInputObjectType({
    name: `${scalar}_comparison_exp`,
    description: `Boolean expression to compare columns of type "${scalar}". All fields are combined with logical 'AND'.`,
    fields
  })
}

export interface IndexerSchema {
  readonly schema: GraphQLSchema
  readonly tables: ReadonlyMap<string, TableSpec>
}

/** Tables whose select is not capped at 100 rows (the reference's metadata has no limit for them). */
export const UNCAPPED = new Set(["ledger_infos"])

export const buildSchema = (tables: ReadonlyArray<TableSpec>): IndexerSchema => {
  const byName = new Map(tables.map((t) => [t.name, t]))
  const comparisons = new Map<ScalarType, GraphQLInputObjectType>()
  const comparisonOf = (s: ScalarType) => {
    let c = comparisons.get(s)
    if (c === undefined) comparisons.set(s, (c = comparisonType(s)))
    return c
  }
  const objects = new Map<string, GraphQLObjectType>()
  const boolExps = new Map<string, GraphQLInputObjectType>()
  const orderBys = new Map<string, GraphQLInputObjectType>()
  const selectColumns = new Map<string, GraphQLEnumType>()
  const aggregates = new Map<string, GraphQLObjectType>()

  const targetOf = (t: TableSpec, target: string) => {
    const spec = byName.get(target)
    if (spec === undefined) throw new Error(`${t.name}: relationship to unknown table ${target}`)
    return spec
  }

  for (const t of tables) {
    selectColumns.set(
      t.name,
      new GraphQLEnumType({
        name: `${t.name}_select_column`,
        description: `select columns of table "${t.name}"`,
        values: Object.fromEntries(t.columns.map((c) => [c.name, { value: c.name, description: "column name" }]))
      })
    )
    boolExps.set(
      t.name,
      new GraphQLInputObjectType({
        name: `${t.name}_bool_exp`,
        description: `Boolean expression to filter rows from the table "${t.name}". All fields are combined with a logical 'AND'.`,
        fields: () => {
          const self = boolExps.get(t.name)!
          const fields: GraphQLInputFieldConfigMap = {
            _and: { type: new GraphQLList(new GraphQLNonNull(self)) },
            _not: { type: self },
            _or: { type: new GraphQLList(new GraphQLNonNull(self)) }
          }
          for (const c of t.columns) fields[c.name] = { type: comparisonOf(c.type) }
          for (const r of t.relationships) fields[r.name] = { type: boolExps.get(targetOf(t, r.target).name)! }
          return fields
        }
      })
    )
    orderBys.set(
      t.name,
      new GraphQLInputObjectType({
        name: `${t.name}_order_by`,
        description: `Ordering options when selecting data from "${t.name}".`,
        fields: Object.fromEntries(t.columns.map((c) => [c.name, { type: orderByEnum }]))
      })
    )
  }

  const listArgs = (name: string): GraphQLFieldConfigArgumentMap => ({
    distinct_on: {
      type: new GraphQLList(new GraphQLNonNull(selectColumns.get(name)!)),
      description: "distinct select on columns"
    },
    limit: { type: GraphQLInt, description: "limit the number of rows returned" },
    offset: { type: GraphQLInt, description: "skip the first n rows. Use only with order_by" },
    order_by: {
      type: new GraphQLList(new GraphQLNonNull(orderBys.get(name)!)),
      description: "sort the rows by one or more columns"
    },
    where: { type: boolExps.get(name)!, description: "filter the rows returned" }
  })

  for (const t of tables) {
    objects.set(
      t.name,
      new GraphQLObjectType({
        name: t.name,
        description: t.description,
        fields: () => {
          const fields: GraphQLFieldConfigMap<unknown, unknown> = {}
          for (const c of t.columns) {
            const type = SCALARS[c.type] as GraphQLOutputType
            fields[c.name] = { type: c.nullable ? type : new GraphQLNonNull(type) }
          }
          for (const r of t.relationships) {
            const target = targetOf(t, r.target).name
            if (r.kind === "object")
              fields[r.name] = { type: objects.get(target)!, description: "An object relationship" }
            else {
              fields[r.name] = {
                type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objects.get(target)!))),
                description: "An array relationship",
                args: listArgs(target)
              }
              fields[`${r.name}_aggregate`] = {
                type: new GraphQLNonNull(aggregates.get(target)!),
                description: "An aggregate relationship",
                args: listArgs(target)
              }
            }
          }
          return fields
        }
      })
    )
    const fieldsType = new GraphQLObjectType({
      name: `${t.name}_aggregate_fields`,
      description: `aggregate fields of "${t.name}"`,
      fields: {
        count: {
          type: new GraphQLNonNull(GraphQLInt),
          args: {
            columns: { type: new GraphQLList(new GraphQLNonNull(selectColumns.get(t.name)!)) },
            distinct: { type: GraphQLBoolean }
          }
        }
      }
    })
    aggregates.set(
      t.name,
      new GraphQLObjectType({
        name: `${t.name}_aggregate`,
        description: `aggregated selection of "${t.name}"`,
        fields: () => ({
          aggregate: { type: fieldsType },
          nodes: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objects.get(t.name)!))) }
        })
      })
    )
  }

  const root: GraphQLFieldConfigMap<unknown, unknown> = {}
  for (const t of tables) {
    root[t.name] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objects.get(t.name)!))),
      description: `fetch data from the table: "${t.name}"`,
      args: listArgs(t.name)
    }
    root[`${t.name}_aggregate`] = {
      type: new GraphQLNonNull(aggregates.get(t.name)!),
      description: `fetch aggregated fields from the table: "${t.name}"`,
      args: listArgs(t.name)
    }
    if (t.primaryKey.length > 0)
      root[`${t.name}_by_pk`] = {
        type: objects.get(t.name)!,
        description: `fetch data from the table: "${t.name}" using primary key columns`,
        args: Object.fromEntries(
          t.primaryKey.map((k) => {
            const c = t.columns.find((x) => x.name === k)!
            return [k, { type: new GraphQLNonNull(SCALARS[c.type] as GraphQLInputType) }]
          })
        )
      }
  }
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: "query_root", fields: root }),
    types: [...comparisons.values()]
  })
  return { schema, tables: byName }
}
