/**
 * Runs a request's plans against the store and writes the answer's JSON text. Each root field is
 * one statement; each relationship in a selection is one more statement for all the parent rows at
 * once (their keys `IN (…)`, chunked), never one per row. Values are printed from the store's cells:
 * `bigint`/`numeric` as JSON numbers digit for digit (Hasura's default), `timestamp` as Hasura prints
 * it, `jsonb` as JSON. The rows one request may read are bounded (`MAX_ROWS`), and so are the rows
 * its answer renders (`MAX_RENDERED_ROWS`): a relationship cycle renders the same rows read once
 * again at every level.
 */
import * as Effect from "effect/Effect"
import { execute as graphqlExecute, Kind, type OperationDefinitionNode } from "graphql"
import type { Column, TableSpec } from "../schema/TableSpec.js"
import type { Cell } from "../store/Dialect.js"
import type { IndexReads } from "../store/IndexerStore.js"
import { timestampText } from "../store/values.js"
import { HasuraError } from "./errors.js"
import type { AggregatePlan, FieldPlan, ListArgs, RequestPlan, SelectionPlan } from "./plan.js"
import { type IndexerSchema, UNCAPPED } from "./schema.js"
import { type Batch, countSource, Params, rowSource, type WhereContext } from "./sql.js"

/** Hasura's select permission limit on every table but `ledger_infos`. */
export const ROW_CAP = 100
/** Rows one request may read in all (relationships of relationships multiply). */
export const MAX_ROWS = 20_000
/**
 * Rows one answer may render, each time a row appears counted: a cycle of relationships (a token's
 * ownerships → each one's token → its ownerships …) reads a few rows once but renders them under
 * every parent, so 40 owners of one token four array levels down were 2.6 million rows, 226 MB of
 * JSON and ten seconds of the thread (100 owners: 100 million; the depth limit alone does not bound
 * it). Reads alone (`MAX_ROWS`) render at most 20,000; five times that leaves room for shared
 * children.
 */
export const MAX_RENDERED_ROWS = 100_000
/** Parent keys per batched relationship statement. */
const KEYS_PER_STATEMENT = 500

type CellRow = Record<string, Cell>

const NUMBER = /^-?\d+(\.\d+)?$/

/** The JSON text of a cell of `column`. */
export const cellJson = (cell: Cell, column: Column): string => {
  if (cell === null) return "null"
  switch (column.type) {
    case "bigint":
    case "numeric":
      return NUMBER.test(String(cell)) ? String(cell) : JSON.stringify(String(cell))
    case "timestamp":
      return JSON.stringify(timestampText(BigInt(cell)))
    case "jsonb":
      return String(cell)
    case "Boolean":
      return cell === true ? "true" : "false"
    case "Int":
      return String(Number(cell))
    default:
      return JSON.stringify(String(cell))
  }
}

const capOf = (table: TableSpec, limit: number | undefined): number | undefined =>
  UNCAPPED.has(table.name) ? limit : Math.min(limit ?? ROW_CAP, ROW_CAP)

/** A map key for a tuple of cells (one column's cells are all of one type: its text is enough). */
const keyText = (cells: ReadonlyArray<Cell>) =>
  cells.length === 1 ? String(cells[0]) : JSON.stringify(cells.map((c) => (typeof c === "bigint" ? String(c) : c)))

export const executePlan = (
  schema: IndexerSchema,
  store: IndexReads | undefined,
  plan: RequestPlan
): Effect.Effect<string, HasuraError> =>
  Effect.gen(function* () {
    // Introspection alone needs no store (none is given then).
    const dialect = store?.dialect as IndexReads["dialect"]
    let rowsRead = 0
    let rowsRendered = 0
    /** Fails once the answer would render more than `MAX_RENDERED_ROWS` rows with `more` more. */
    const room = (more: number, charge: boolean) => {
      if (rowsRendered + more > MAX_RENDERED_ROWS)
        return Effect.fail(
          new HasuraError(
            `the answer has more than ${MAX_RENDERED_ROWS} rows (relationships repeat their rows under each parent); ask for fewer`,
            "validation-failed"
          )
        )
      if (charge) rowsRendered += more
      return Effect.void
    }
    /** The rows under all `parents`, once it is known that rendering them stays within the bound. */
    const childrenOf = (parents: ReadonlyArray<CellRow>, lookup: (parent: CellRow) => ReadonlyArray<CellRow>) =>
      Effect.gen(function* () {
        let n = 0
        for (const p of parents) n += lookup(p).length
        yield* room(n, false)
        return parents.flatMap((p) => lookup(p))
      })

    const query = (build: (ctx: WhereContext) => string) =>
      Effect.gen(function* () {
        const params = new Params(dialect)
        const ctx: WhereContext = { schema, params, nextAlias: 1, nodes: 0 }
        const sql = yield* Effect.try({
          try: () => build(ctx),
          catch: (e) => (e instanceof HasuraError ? e : new HasuraError(String(e), "unexpected"))
        })
        const rows = yield* store!
          .select(sql, params.values)
          .pipe(Effect.mapError((e) => new HasuraError(`database query error: ${e.message}`, "unexpected")))
        rowsRead += rows.length
        if (rowsRead > MAX_ROWS)
          return yield* Effect.fail(
            new HasuraError(`the query reads more than ${MAX_ROWS} rows; ask for fewer`, "validation-failed")
          )
        return rows
      })

    const decodeRows = (columns: ReadonlyArray<Column>, rows: ReadonlyArray<Record<string, unknown>>): CellRow[] =>
      rows.map((r) => {
        const out: CellRow = {}
        for (const c of columns) out[c.name] = dialect.decode(r[c.name], c.type)
        return out
      })

    /** The columns a selection needs: those asked for and the local sides of its relationships. */
    const neededColumns = (select: SelectionPlan, extra: ReadonlyArray<Column> = []): Column[] => {
      const names = new Set<string>(extra.map((c) => c.name))
      for (const f of select.fields) {
        if (f._tag === "Column") names.add(f.column.name)
        else if (f._tag === "Object" || f._tag === "Array" || f._tag === "RelAggregate")
          for (const [l] of f.rel.on) names.add(l)
      }
      const columns = select.table.columns.filter((c) => names.has(c.name))
      // A selection of only __typename still needs a row per match.
      return columns.length > 0 ? columns : select.table.columns.slice(0, 1)
    }

    /** Rows of `target` for each parent key (the relationship's local columns of `parents`). */
    const batched = (
      target: TableSpec,
      on: ReadonlyArray<readonly [string, string]>,
      parents: ReadonlyArray<CellRow>,
      args: ListArgs,
      limit: number | undefined,
      columns: ReadonlyArray<Column>
    ) =>
      Effect.gen(function* () {
        const remote = on.map(([, r]) => target.columns.find((c) => c.name === r)!)
        const keys = new Map<string, Cell[]>()
        for (const p of parents) {
          const k = on.map(([l]) => p[l] ?? null)
          if (k.some((c) => c === null)) continue
          keys.set(keyText(k), k)
        }
        const groups = new Map<string, CellRow[]>()
        const all = [...keys.values()]
        const wanted = [...new Map([...columns, ...remote].map((c) => [c.name, c])).values()]
        for (let i = 0; i < all.length; i += KEYS_PER_STATEMENT) {
          const batch: Batch = { columns: remote, keys: all.slice(i, i + KEYS_PER_STATEMENT) }
          const rows = decodeRows(wanted, yield* query((ctx) => rowSource(ctx, target, args, wanted, limit, batch)))
          for (const r of rows) {
            const k = keyText(remote.map((c) => r[c.name] ?? null))
            const g = groups.get(k)
            if (g === undefined) groups.set(k, [r])
            else g.push(r)
          }
        }
        return (parent: CellRow) => groups.get(keyText(on.map(([l]) => parent[l] ?? null))) ?? []
      })

    const NO_ARGS: ListArgs = { where: null, orderBy: [], limit: undefined, offset: 0, distinctOn: [] }

    /** The JSON text of each row of a selection (relationships fetched for all rows at once). */
    const renderRows = (select: SelectionPlan, rows: ReadonlyArray<CellRow>): Effect.Effect<string[], HasuraError> =>
      Effect.gen(function* () {
        yield* room(rows.length, true)
        const nested = new Map<FieldPlan, (row: CellRow) => string>()
        for (const f of select.fields) {
          if (f._tag === "Object") {
            const target = f.select.table
            const lookup = yield* batched(target, f.rel.on, rows, NO_ARGS, 1, neededColumns(f.select))
            const children = new Map<CellRow, string>()
            const childRows = rows.map((r) => lookup(r)[0])
            const present = childRows.filter((c): c is CellRow => c !== undefined)
            const texts = yield* renderRows(f.select, present)
            present.forEach((c, i) => {
              children.set(c, texts[i]!)
            })
            nested.set(f, (row) => {
              const child = lookup(row)[0]
              return child === undefined ? "null" : children.get(child)!
            })
          } else if (f._tag === "Array") {
            const target = f.select.table
            const lookup = yield* batched(
              target,
              f.rel.on,
              rows,
              f.args,
              capOf(target, f.args.limit),
              neededColumns(f.select)
            )
            const flat = yield* childrenOf(rows, lookup)
            const texts = yield* renderRows(f.select, flat)
            const byRow = new Map<CellRow, string>()
            flat.forEach((c, i) => {
              byRow.set(c, texts[i]!)
            })
            nested.set(
              f,
              (row) =>
                `[${lookup(row)
                  .map((c) => byRow.get(c)!)
                  .join(",")}]`
            )
          } else if (f._tag === "RelAggregate") {
            const target = f.aggregate.table
            const nodesField = f.aggregate.fields.find((x) => x._tag === "Nodes")
            const columns = nodesField?._tag === "Nodes" ? neededColumns(nodesField.select) : []
            const lookup = yield* batched(target, f.rel.on, rows, f.args, f.args.limit, columns)
            const nodeRows = nodesField?._tag === "Nodes" ? yield* childrenOf(rows, lookup) : []
            const nodeTexts = nodesField?._tag === "Nodes" ? yield* renderRows(nodesField.select, nodeRows) : []
            const byRow = new Map<CellRow, string>()
            nodeRows.forEach((c, i) => {
              byRow.set(c, nodeTexts[i]!)
            })
            nested.set(f, (row) => {
              const children = lookup(row)
              return aggregateText(
                f.aggregate,
                (c) => countIn(children, c),
                () => children.slice(0, ROW_CAP).map((c) => byRow.get(c)!)
              )
            })
          }
        }
        // Each field's `"key":` once per selection, not once per row.
        const prefixes = select.fields.map((f, i) => `${i === 0 ? "{" : ","}${JSON.stringify(f.key)}:`)
        return rows.map((row) => {
          let text = ""
          for (let i = 0; i < select.fields.length; i++) {
            const f = select.fields[i]!
            text +=
              prefixes[i] +
              (f._tag === "Column"
                ? cellJson(row[f.column.name] ?? null, f.column)
                : f._tag === "Typename"
                  ? JSON.stringify(f.name)
                  : nested.get(f)!(row))
          }
          return select.fields.length === 0 ? "{}" : `${text}}`
        })
      })

    /** count(columns, distinct) over rows already read. */
    const countIn = (
      rows: ReadonlyArray<CellRow>,
      c: { columns: ReadonlyArray<Column>; distinct: boolean }
    ): number => {
      const kept = rows.filter((r) => c.columns.every((col) => (r[col.name] ?? null) !== null))
      if (!c.distinct || c.columns.length === 0) return kept.length
      return new Set(kept.map((r) => keyText(c.columns.map((col) => r[col.name] ?? null)))).size
    }

    const aggregateText = (
      plan: AggregatePlan,
      count: (c: { columns: ReadonlyArray<Column>; distinct: boolean }) => number,
      nodes: () => ReadonlyArray<string>
    ): string => {
      const parts = plan.fields.map((f) => {
        if (f._tag === "Typename") return `${JSON.stringify(f.key)}:${JSON.stringify(f.name)}`
        if (f._tag === "Nodes") return `${JSON.stringify(f.key)}:[${nodes().join(",")}]`
        const counts = f.fields.map((c) =>
          c._tag === "Typename"
            ? `${JSON.stringify(c.key)}:${JSON.stringify(c.name)}`
            : `${JSON.stringify(c.key)}:${count(c)}`
        )
        return `${JSON.stringify(f.key)}:{${counts.join(",")}}`
      })
      return `{${parts.join(",")}}`
    }

    /** A root `_aggregate`: counts computed by the store, nodes read (capped). */
    const rootAggregate = (plan: AggregatePlan, args: ListArgs) =>
      Effect.gen(function* () {
        const counts = new Map<string, number>()
        for (const f of plan.fields)
          if (f._tag === "Aggregate")
            for (const c of f.fields)
              if (c._tag === "Count") {
                const rows = yield* query((ctx) => countSource(ctx, plan.table, args, c.columns, c.distinct))
                counts.set(c.key + "\u0000" + f.key, Number(rows[0]?.n ?? 0))
              }
        const nodesField = plan.fields.find((x) => x._tag === "Nodes")
        let nodeTexts: string[] = []
        if (nodesField?._tag === "Nodes") {
          const columns = neededColumns(nodesField.select)
          const rows = decodeRows(
            columns,
            yield* query((ctx) => rowSource(ctx, plan.table, args, columns, capOf(plan.table, args.limit)))
          )
          nodeTexts = yield* renderRows(nodesField.select, rows)
        }
        const parts = plan.fields.map((f) => {
          if (f._tag === "Typename") return `${JSON.stringify(f.key)}:${JSON.stringify(f.name)}`
          if (f._tag === "Nodes") return `${JSON.stringify(f.key)}:[${nodeTexts.join(",")}]`
          const inner = f.fields.map((c) =>
            c._tag === "Typename"
              ? `${JSON.stringify(c.key)}:${JSON.stringify(c.name)}`
              : `${JSON.stringify(c.key)}:${counts.get(c.key + "\u0000" + f.key) ?? 0}`
          )
          return `${JSON.stringify(f.key)}:{${inner.join(",")}}`
        })
        return `{${parts.join(",")}}`
      })

    const introspection = (key: string): string => {
      const root = plan.roots.find((r) => r.key === key)
      if (root?._tag !== "Introspection") return "null"
      const operation: OperationDefinitionNode = {
        ...plan.operation,
        selectionSet: { kind: Kind.SELECTION_SET, selections: [root.node] }
      }
      const result = graphqlExecute({
        schema: schema.schema,
        document: {
          ...plan.document,
          definitions: [...plan.document.definitions.filter((d) => d.kind !== Kind.OPERATION_DEFINITION), operation]
        },
        variableValues: plan.variables,
        rootValue: {}
      }) as { data?: Record<string, unknown>; errors?: ReadonlyArray<{ message: string }> }
      if (result.errors !== undefined && result.errors.length > 0) throw new HasuraError(result.errors[0]!.message)
      return JSON.stringify(result.data?.[key] ?? null)
    }

    const parts: string[] = []
    for (const root of plan.roots) {
      let value: string
      switch (root._tag) {
        case "Typename":
          value = JSON.stringify("query_root")
          break
        case "Introspection":
          value = yield* Effect.try({
            try: () => introspection(root.key),
            catch: (e) => (e instanceof HasuraError ? e : new HasuraError(String(e)))
          })
          break
        case "Select":
        case "ByPk": {
          const table = root.select.table
          const columns = neededColumns(root.select)
          const limit = root._tag === "ByPk" ? 1 : capOf(table, root.args.limit)
          const rows = decodeRows(columns, yield* query((ctx) => rowSource(ctx, table, root.args, columns, limit)))
          const texts = yield* renderRows(root.select, rows)
          value = root._tag === "ByPk" ? (texts[0] ?? "null") : `[${texts.join(",")}]`
          break
        }
        case "Aggregate":
          value = yield* rootAggregate(root.aggregate, root.args)
          break
      }
      parts.push(`${JSON.stringify(root.key)}:${value}`)
    }
    return `{"data":{${parts.join(",")}}}`
  })
