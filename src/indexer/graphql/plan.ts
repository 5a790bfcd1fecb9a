/**
 * A GraphQL request turned into query plans: parse (bounded tokens), validate against the
 * catalogue's schema, coerce the variables (bounded size), then walk the operation's selections
 * (fragments, aliases, `@skip`/`@include`) into one plan per root field, with each field's
 * arguments coerced by graphql-js into the store's cells. No SQL here (`sql.ts`), no I/O.
 */
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  specifiedRules,
  type ValidationContext,
  validate
} from "graphql"
import { LruCache } from "../../node/LruCache.js"
import type { Column, Relationship, TableSpec } from "../schema/TableSpec.js"
import { HasuraError, hasuraMessage } from "./errors.js"
import type { IndexerSchema } from "./schema.js"

/** Bounds on what one request may ask (indexer.md §3.5: Hasura's hosted depth limit is 5). */
export const LIMITS = {
  queryBytes: 64 * 1024,
  tokens: 10_000,
  depth: 10,
  rootFields: 20,
  variableNodes: 10_000,
  variableDepth: 32
} as const

export interface OrderTerm {
  readonly column: Column
  readonly direction: "asc" | "desc"
  readonly nullsFirst: boolean
}

export interface ListArgs {
  readonly where: unknown
  readonly orderBy: ReadonlyArray<OrderTerm>
  readonly limit: number | undefined
  readonly offset: number
  readonly distinctOn: ReadonlyArray<Column>
}

export type FieldPlan =
  | { readonly _tag: "Column"; readonly key: string; readonly column: Column }
  | { readonly _tag: "Typename"; readonly key: string; readonly name: string }
  | { readonly _tag: "Object"; readonly key: string; readonly rel: Relationship; readonly select: SelectionPlan }
  | {
      readonly _tag: "Array"
      readonly key: string
      readonly rel: Relationship
      readonly args: ListArgs
      readonly select: SelectionPlan
    }
  | {
      readonly _tag: "RelAggregate"
      readonly key: string
      readonly rel: Relationship
      readonly args: ListArgs
      readonly aggregate: AggregatePlan
    }

export interface SelectionPlan {
  readonly table: TableSpec
  readonly fields: ReadonlyArray<FieldPlan>
}

export type CountPlan =
  | {
      readonly _tag: "Count"
      readonly key: string
      readonly columns: ReadonlyArray<Column>
      readonly distinct: boolean
    }
  | { readonly _tag: "Typename"; readonly key: string; readonly name: string }

export type AggregateField =
  | { readonly _tag: "Typename"; readonly key: string; readonly name: string }
  | { readonly _tag: "Aggregate"; readonly key: string; readonly fields: ReadonlyArray<CountPlan> }
  | { readonly _tag: "Nodes"; readonly key: string; readonly select: SelectionPlan }

export interface AggregatePlan {
  readonly table: TableSpec
  readonly fields: ReadonlyArray<AggregateField>
}

export type RootPlan =
  | { readonly _tag: "Select"; readonly key: string; readonly args: ListArgs; readonly select: SelectionPlan }
  | { readonly _tag: "Aggregate"; readonly key: string; readonly args: ListArgs; readonly aggregate: AggregatePlan }
  | { readonly _tag: "ByPk"; readonly key: string; readonly args: ListArgs; readonly select: SelectionPlan }
  | { readonly _tag: "Typename"; readonly key: string }
  | { readonly _tag: "Introspection"; readonly key: string; readonly node: FieldNode }

export interface RequestPlan {
  readonly roots: ReadonlyArray<RootPlan>
  /** For introspection fields, executed by graphql-js. */
  readonly document: DocumentNode
  readonly operation: OperationDefinitionNode
  readonly variables: Record<string, unknown>
}

/** Selection depth of the operation (fragments expanded; cycles are refused by validation first). */
const depthRule = (context: ValidationContext) => {
  const fragments = new Map(
    context
      .getDocument()
      .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d])
  )
  const depthOf = (set: SelectionSetNode | undefined, seen: ReadonlySet<string>, level: number): number => {
    if (set === undefined || level > LIMITS.depth) return level
    let max = level
    for (const s of set.selections) {
      // Introspection (IDEs ask 13 levels deep) reads only the schema: bounded by the token limit.
      if (s.kind === Kind.FIELD && level === 1 && (s.name.value === "__schema" || s.name.value === "__type")) continue
      if (s.kind === Kind.FIELD)
        max = Math.max(max, s.selectionSet === undefined ? level : depthOf(s.selectionSet, seen, level + 1))
      else if (s.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(s.selectionSet, seen, level))
      else if (!seen.has(s.name.value)) {
        const f = fragments.get(s.name.value)
        if (f !== undefined) max = Math.max(max, depthOf(f.selectionSet, new Set([...seen, s.name.value]), level))
      }
      if (max > LIMITS.depth) return max
    }
    return max
  }
  return {
    OperationDefinition(node: OperationDefinitionNode) {
      if (depthOf(node.selectionSet, new Set(), 1) > LIMITS.depth)
        context.reportError(new GraphQLError(`the query is nested deeper than ${LIMITS.depth} levels`))
      if (node.selectionSet.selections.length > LIMITS.rootFields)
        context.reportError(new GraphQLError(`the query has more than ${LIMITS.rootFields} root fields`))
    }
  }
}

/** Refuses variables larger or deeper than `LIMITS` before graphql-js walks them (recursively). */
const checkVariables = (value: unknown): void => {
  const stack: Array<[unknown, number]> = [[value, 0]]
  let nodes = 0
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (++nodes > LIMITS.variableNodes) throw new HasuraError("the variables are too large")
    if (depth > LIMITS.variableDepth) throw new HasuraError("the variables are nested too deeply")
    if (typeof v === "object" && v !== null) for (const child of Object.values(v)) stack.push([child, depth + 1])
  }
}

const ORDER: Record<string, { direction: "asc" | "desc"; nullsFirst: boolean }> = {
  asc: { direction: "asc", nullsFirst: false },
  asc_nulls_last: { direction: "asc", nullsFirst: false },
  asc_nulls_first: { direction: "asc", nullsFirst: true },
  desc: { direction: "desc", nullsFirst: true },
  desc_nulls_first: { direction: "desc", nullsFirst: true },
  desc_nulls_last: { direction: "desc", nullsFirst: false }
}

const columnOf = (table: TableSpec, name: string): Column => {
  const c = table.columns.find((x) => x.name === name)
  if (c === undefined) throw new HasuraError(`field '${name}' not found in type: '${table.name}'`)
  return c
}

/** `order_by`/`limit`/`offset`/`distinct_on` checked as Hasura checks them. */
const listArgsOf = (table: TableSpec, args: Record<string, unknown>, path: string): ListArgs => {
  const orderBy: OrderTerm[] = []
  const rawOrder = args.order_by
  for (const item of Array.isArray(rawOrder) ? rawOrder : rawOrder == null ? [] : [rawOrder])
    for (const [name, value] of Object.entries(item as Record<string, unknown>))
      if (value != null) orderBy.push({ column: columnOf(table, name), ...ORDER[value as string]! })
  const limit = args.limit as number | null | undefined
  const offset = args.offset as number | null | undefined
  if (typeof limit === "number" && limit < 0)
    throw new HasuraError("unexpected negative value", "validation-failed", `${path}.args.limit`)
  if (typeof offset === "number" && offset < 0)
    throw new HasuraError("unexpected negative value", "validation-failed", `${path}.args.offset`)
  const distinctOn = ((args.distinct_on as string[] | null | undefined) ?? []).map((n) => columnOf(table, n))
  if (distinctOn.length > 0 && orderBy.length > 0) {
    const leading = new Set(orderBy.slice(0, distinctOn.length).map((o) => o.column.name))
    if (orderBy.length < distinctOn.length || distinctOn.some((c) => !leading.has(c.name)))
      throw new HasuraError(
        '"distinct_on" columns must match initial "order_by" columns',
        "validation-failed",
        `${path}.args`
      )
  }
  return { where: args.where ?? null, orderBy, limit: limit ?? undefined, offset: offset ?? 0, distinctOn }
}

/**
 * Hasura's JSON path of a validation error about a field: `$.selectionSet.<field>.selectionSet.<field>…`
 * through the operations' selections (response names); `$` for anything else.
 */
const errorPath = (document: DocumentNode, error: GraphQLError): string => {
  const target = error.nodes?.[0]
  if (target === undefined || target.kind !== Kind.FIELD) return "$"
  const search = (set: SelectionSetNode, path: string): string | undefined => {
    for (const s of set.selections) {
      if (s.kind === Kind.INLINE_FRAGMENT) {
        const found = search(s.selectionSet, path)
        if (found !== undefined) return found
      } else if (s.kind === Kind.FIELD) {
        const here = `${path}.selectionSet.${s.alias?.value ?? s.name.value}`
        if (s === target) return here
        if (s.selectionSet !== undefined) {
          const found = search(s.selectionSet, here)
          if (found !== undefined) return found
        }
      }
    }
    return undefined
  }
  for (const d of document.definitions)
    if (d.kind === Kind.OPERATION_DEFINITION) {
      const found = search(d.selectionSet, "$")
      if (found !== undefined) return found
    }
  return "$"
}

/**
 * Validated documents by query text: clients send the same few documents again and again (the
 * SDK's are constants), and parsing plus validation is most of a small query's cost. Bounded
 * (`LruCache`, the least recently used going first) in entries and in the summed length of their
 * texts: a parsed document, its tokens linked for the
 * error locations, takes tens of bytes for each byte of text, and 256 distinct 55 KB queries (valid:
 * ten root fields of 320 aliases each) held over a gigabyte with the count alone (measured: the node
 * at 175 MB → 1.5 GB after 600 such queries). The SDK's documents are 0.3–3 KB. A document that
 * failed is not kept (its error is thrown again).
 */
const DOCUMENT_CACHE = 256
const DOCUMENT_CACHE_CHARS = 1 << 20
const documents = new WeakMap<IndexerSchema, LruCache<string, DocumentNode>>()

/** What the document cache holds for `indexer` (its tests and diagnostics): entries and their texts' length. */
export const documentCacheUse = (indexer: IndexerSchema): { readonly entries: number; readonly chars: number } => {
  const cache = documents.get(indexer)
  return { entries: cache?.size ?? 0, chars: cache?.totalWeight ?? 0 }
}

const validDocument = (indexer: IndexerSchema, query: string): DocumentNode => {
  let cache = documents.get(indexer)
  if (cache === undefined)
    documents.set(
      indexer,
      (cache = new LruCache(DOCUMENT_CACHE, { max: DOCUMENT_CACHE_CHARS, of: (_document, text) => text.length }))
    )
  const hit = cache.get(query)
  if (hit !== undefined) return hit
  if (query.length > LIMITS.queryBytes) throw new HasuraError(`the query is longer than ${LIMITS.queryBytes} bytes`)
  let document: DocumentNode
  try {
    document = parse(query, { maxTokens: LIMITS.tokens, noLocation: false })
  } catch (e) {
    throw new HasuraError(
      e instanceof GraphQLError ? `not a valid graphql query: ${e.message}` : "not a valid graphql query",
      "validation-failed",
      "$.query"
    )
  }
  const errors = validate(indexer.schema, document, [...specifiedRules, depthRule], { maxErrors: 10 })
  if (errors.length > 0)
    throw new HasuraError(hasuraMessage(errors[0]!.message), "validation-failed", errorPath(document, errors[0]!))
  cache.set(query, document)
  return document
}

/**
 * Plans by request (operation name, document text, variables' JSON): a wallet or a page polls the
 * same query with the same variables, and planning (variable coercion, argument values, selection
 * walks) is a good part of a small query's CPU. A plan is immutable and holds no rows, so a cached
 * one answers with the index as it is when it runs. Bounded in entries (`LruCache`) and in key size.
 */
const PLAN_CACHE = 256
const PLAN_KEY_MAX = 4096
const plans = new WeakMap<IndexerSchema, LruCache<string, RequestPlan>>()

/**
 * Parses, validates and plans `query` with `variables` (HasuraError on anything wrong), or takes the
 * plan of the same request made before.
 */
export const planRequest = (
  indexer: IndexerSchema,
  query: string,
  rawVariables: unknown,
  operationName: string | undefined
): RequestPlan => {
  let cache = plans.get(indexer)
  if (cache === undefined) plans.set(indexer, (cache = new LruCache(PLAN_CACHE)))
  const key =
    query.length > PLAN_KEY_MAX
      ? undefined
      : `${operationName ?? ""}\u0000${query}\u0000${JSON.stringify(rawVariables ?? null)}`
  if (key === undefined || key.length > PLAN_KEY_MAX) return planAfresh(indexer, query, rawVariables, operationName)
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const plan = planAfresh(indexer, query, rawVariables, operationName)
  cache.set(key, plan)
  return plan
}

const planAfresh = (
  indexer: IndexerSchema,
  query: string,
  rawVariables: unknown,
  operationName: string | undefined
): RequestPlan => {
  const document = validDocument(indexer, query)
  const { schema } = indexer
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION
  )
  const operation =
    operationName === undefined
      ? operations.length === 1
        ? operations[0]
        : undefined
      : operations.find((o) => o.name?.value === operationName)
  if (operation === undefined)
    throw new HasuraError(
      operationName === undefined
        ? "exactly one operation has to be present in the document when operationName is not specified"
        : `no such operation found in the document: ${JSON.stringify(operationName).slice(0, 100)}`
    )
  if (operation.operation !== "query")
    throw new HasuraError(`no ${operation.operation === "mutation" ? "mutations" : "subscriptions"} exist`)
  const inputs = rawVariables ?? {}
  if (typeof inputs !== "object" || Array.isArray(inputs))
    throw new HasuraError("variables must be an object", "validation-failed", "$.variables")
  checkVariables(inputs)
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], inputs as Record<string, unknown>, {
    maxErrors: 5
  })
  if (coerced.errors !== undefined)
    throw new HasuraError(coerced.errors[0]!.message, "validation-failed", "$.variables")
  const variables = coerced.coerced
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d])
  )

  /** The fields of a selection set by response key, in order (fragments and directives applied). */
  const collect = (set: SelectionSetNode, out = new Map<string, FieldNode[]>(), seen = new Set<string>()) => {
    for (const s of set.selections) {
      const skip = getDirectiveValues(GraphQLSkipDirective, s, variables)
      const include = getDirectiveValues(GraphQLIncludeDirective, s, variables)
      if (skip?.if === true || include?.if === false) continue
      if (s.kind === Kind.FIELD) {
        const key = s.alias?.value ?? s.name.value
        out.set(key, [...(out.get(key) ?? []), s])
      } else if (s.kind === Kind.INLINE_FRAGMENT) collect(s.selectionSet, out, seen)
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value)
        const f = fragments.get(s.name.value)
        if (f !== undefined) collect(f.selectionSet, out, seen)
      }
    }
    return out
  }
  /** The merged sub-selections of the nodes of one response key. */
  const subFields = (nodes: ReadonlyArray<FieldNode>) => {
    const out = new Map<string, FieldNode[]>()
    for (const n of nodes) if (n.selectionSet !== undefined) collect(n.selectionSet, out)
    return out
  }
  const argsOf = (field: GraphQLField<unknown, unknown>, node: FieldNode) => {
    try {
      return getArgumentValues(field, node, variables)
    } catch (e) {
      throw new HasuraError(e instanceof Error ? e.message : String(e))
    }
  }
  const objectType = (name: string) => schema.getType(name) as GraphQLObjectType

  const selectionPlan = (table: TableSpec, nodes: ReadonlyArray<FieldNode>, path: string): SelectionPlan => {
    const type = objectType(table.name)
    const fields: FieldPlan[] = []
    for (const [key, group] of subFields(nodes)) {
      const node = group[0]!
      const name = node.name.value
      if (name === "__typename") {
        fields.push({ _tag: "Typename", key, name: table.name })
        continue
      }
      const column = table.columns.find((c) => c.name === name)
      if (column !== undefined) {
        fields.push({ _tag: "Column", key, column })
        continue
      }
      const relName = name.endsWith("_aggregate") ? name.slice(0, -"_aggregate".length) : name
      const rel =
        table.relationships.find((r) => r.name === name) ?? table.relationships.find((r) => r.name === relName)
      if (rel === undefined) throw new HasuraError(`field '${name}' not found in type: '${table.name}'`)
      const target = indexer.tables.get(rel.target)!
      const fieldPath = `${path}.selectionSet.${key}`
      if (rel.kind === "object")
        fields.push({ _tag: "Object", key, rel, select: selectionPlan(target, group, fieldPath) })
      else {
        const args = listArgsOf(target, argsOf(type.getFields()[name]!, node), fieldPath)
        if (name === rel.name)
          fields.push({ _tag: "Array", key, rel, args, select: selectionPlan(target, group, fieldPath) })
        else fields.push({ _tag: "RelAggregate", key, rel, args, aggregate: aggregatePlan(target, group, fieldPath) })
      }
    }
    return { table, fields }
  }

  const aggregatePlan = (table: TableSpec, nodes: ReadonlyArray<FieldNode>, path: string): AggregatePlan => {
    const fields: AggregateField[] = []
    const fieldsType = objectType(`${table.name}_aggregate_fields`)
    for (const [key, group] of subFields(nodes)) {
      const name = group[0]!.name.value
      if (name === "__typename") fields.push({ _tag: "Typename", key, name: `${table.name}_aggregate` })
      else if (name === "nodes")
        fields.push({ _tag: "Nodes", key, select: selectionPlan(table, group, `${path}.selectionSet.nodes`) })
      else {
        const counts: CountPlan[] = []
        for (const [countKey, countGroup] of subFields(group)) {
          const countNode = countGroup[0]!
          if (countNode.name.value === "__typename") {
            counts.push({ _tag: "Typename", key: countKey, name: `${table.name}_aggregate_fields` })
            continue
          }
          const args = argsOf(fieldsType.getFields().count!, countNode)
          counts.push({
            _tag: "Count",
            key: countKey,
            columns: ((args.columns as string[] | undefined) ?? []).map((c) => columnOf(table, c)),
            distinct: args.distinct === true
          })
        }
        fields.push({ _tag: "Aggregate", key, fields: counts })
      }
    }
    return { table, fields }
  }

  const queryRoot = schema.getQueryType()!
  const roots: RootPlan[] = []
  for (const [key, group] of collect(operation.selectionSet)) {
    const node = group[0]!
    const name = node.name.value
    if (name === "__typename") {
      roots.push({ _tag: "Typename", key })
      continue
    }
    if (name === "__schema" || name === "__type") {
      roots.push({ _tag: "Introspection", key, node })
      continue
    }
    const path = `$.selectionSet.${key}`
    const field = queryRoot.getFields()[name]!
    const args = argsOf(field, node)
    const plain = indexer.tables.get(name)
    if (plain !== undefined) {
      roots.push({
        _tag: "Select",
        key,
        args: listArgsOf(plain, args, path),
        select: selectionPlan(plain, group, path)
      })
      continue
    }
    if (name.endsWith("_aggregate")) {
      const table = indexer.tables.get(name.slice(0, -"_aggregate".length))!
      roots.push({
        _tag: "Aggregate",
        key,
        args: listArgsOf(table, args, path),
        aggregate: aggregatePlan(table, group, path)
      })
      continue
    }
    const table = indexer.tables.get(name.slice(0, -"_by_pk".length))!
    const where = Object.fromEntries(table.primaryKey.map((k) => [k, { _eq: args[k] }]))
    roots.push({
      _tag: "ByPk",
      key,
      args: { where, orderBy: [], limit: 1, offset: 0, distinctOn: [] },
      select: selectionPlan(table, group, path)
    })
  }
  return { roots, document, operation, variables }
}
