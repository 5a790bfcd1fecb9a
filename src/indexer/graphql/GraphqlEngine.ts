/**
 * The GraphQL engine: a request body in, the answer's JSON text out (always HTTP 200, as Hasura),
 * with `errors` in Hasura's shape for anything wrong — including a store failure or a bug, never an
 * exception to the caller. The schema is built once from the catalogue.
 */
import * as Effect from "effect/Effect"
import { catalogueTables } from "../schema/index.js"
import type { TableSpec } from "../schema/TableSpec.js"
import type { IndexReads } from "../store/IndexerStore.js"
import { errorBody, HasuraError } from "./errors.js"
import { executePlan } from "./execute.js"
import { planRequest } from "./plan.js"
import { buildSchema, type IndexerSchema } from "./schema.js"

export interface GraphqlEngine {
  readonly schema: IndexerSchema
  readonly answer: (body: unknown) => Effect.Effect<string>
}

const errorText = (e: HasuraError) => JSON.stringify(errorBody([e]))

/**
 * `store` is asked for only by requests that read tables (not by introspection), so it is where a
 * caller makes such requests wait for the index to catch up (read-after-write).
 */
export const makeGraphqlEngine = (
  store: Effect.Effect<IndexReads, HasuraError>,
  tables: ReadonlyArray<TableSpec> = catalogueTables
): GraphqlEngine => {
  const schema = buildSchema(tables)
  const answer = (body: unknown): Effect.Effect<string> =>
    Effect.gen(function* () {
      if (typeof body !== "object" || body === null || Array.isArray(body))
        return yield* Effect.fail(new HasuraError("the request must be a JSON object", "parse-failed"))
      const { query, variables, operationName } = body as Record<string, unknown>
      if (typeof query !== "string")
        return yield* Effect.fail(new HasuraError("the key 'query' was not present", "parse-failed", "$"))
      if (operationName !== undefined && operationName !== null && typeof operationName !== "string")
        return yield* Effect.fail(new HasuraError("operationName must be a string", "parse-failed", "$.operationName"))
      const plan = yield* Effect.try({
        try: () =>
          planRequest(schema, query, variables ?? null, (operationName as string | null | undefined) ?? undefined),
        catch: (e) => (e instanceof HasuraError ? e : new HasuraError(e instanceof Error ? e.message : String(e)))
      })
      const needsStore = plan.roots.some((r) => r._tag === "Select" || r._tag === "Aggregate" || r._tag === "ByPk")
      const s = needsStore ? yield* store : undefined
      return yield* executePlan(schema, s, plan)
    }).pipe(
      Effect.catchCause((cause) =>
        Effect.succeed(
          errorText(
            (() => {
              const failure = cause.reasons.find((r) => r._tag === "Fail")
              if (failure !== undefined && failure._tag === "Fail" && failure.error instanceof HasuraError)
                return failure.error
              const die = cause.reasons.find((r) => r._tag === "Die")
              const detail =
                die !== undefined && die._tag === "Die"
                  ? String((die.defect as Error)?.message ?? die.defect)
                  : "interrupted"
              return new HasuraError(`internal error: ${detail.slice(0, 200)}`, "unexpected")
            })()
          )
        )
      )
    )
  return { schema, answer }
}
