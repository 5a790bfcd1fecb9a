/**
 * NOT AN INDEXER. A GraphQL endpoint (`POST /v1/graphql`, 8090 by default, where run-localnet puts
 * its Hasura) answering exactly one query: `processor_status`, which the TypeScript SDK's
 * `fundAccount` (and `waitForIndexer`) polls until `last_success_version` reaches the funding
 * transaction's version (local-chain.md §0.1). Every processor name asked for is reported at the
 * node's ledger version: there are no processors here, so "caught up" is the only honest answer a
 * poller can act on, and it is what lets REST-only clients run against this node unchanged.
 * Any other query is answered with a GraphQL error saying that this node serves no indexer data
 * (HTTP 200 with `errors`, as Hasura answers a query it cannot validate).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { Ledger } from "../ledger/Ledger.js"
import type { ListenAddress } from "./HttpConfig.js"
import { parseJson, preflight, readSmallBody, reply, replyJson, type SideListener, serveScoped } from "./sideServer.js"

const MAX_BODY = 256 * 1024
const FIELDS = ["last_success_version", "processor", "last_updated"] as const

export const NOT_AN_INDEXER =
  "movenode serves no indexer data: this GraphQL endpoint answers only processor_status (reporting the node's ledger version). Use the node's REST API, or run an Aptos indexer."

/**
 * The root fields of a GraphQL document's first operation and, for each, the field names of its
 * selection set (one level). A small scanner (no recursion, bounded by the input's length):
 * comments and strings are skipped, arguments in parentheses ignored.
 */
export const rootFields = (
  query: string
): ReadonlyArray<{ readonly name: string; readonly selection: ReadonlyArray<string>; readonly args: string }> => {
  const out: Array<{ name: string; selection: string[]; args: string }> = []
  let depth = 0
  let parens = 0
  let current: { name: string; selection: string[]; args: string } | undefined
  let argsStart = -1
  for (let i = 0; i < query.length; i++) {
    const c = query[i]!
    if (c === "#") {
      while (i < query.length && query[i] !== "\n") i++
      continue
    }
    if (c === '"') {
      i++
      while (i < query.length && query[i] !== '"') i += query[i] === "\\" ? 2 : 1
      continue
    }
    if (c === "(") {
      if (parens === 0 && depth === 1) argsStart = i
      parens++
      continue
    }
    if (c === ")") {
      parens--
      if (parens === 0 && depth === 1 && current !== undefined && argsStart >= 0)
        current.args = query.slice(argsStart, i + 1)
      continue
    }
    if (parens > 0) continue
    if (c === "{") {
      depth++
      continue
    }
    if (c === "}") {
      depth--
      if (depth === 0) return out // only the first operation
      continue
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1
      while (j < query.length && /[A-Za-z0-9_]/.test(query[j]!)) j++
      const word = query.slice(i, j)
      // An alias ("alias: field") names the field after the colon.
      let k = j
      while (k < query.length && /\s/.test(query[k]!)) k++
      const aliased = query[k] === ":"
      if (!aliased) {
        if (depth === 1) {
          current = { name: word, selection: [], args: "" }
          out.push(current)
        } else if (depth === 2 && current !== undefined) current.selection.push(word)
      }
      i = (aliased ? k : j) - 1
    }
  }
  return out
}

/** The processor a `processor_status` query filters on (`where: {processor: {_eq: …}}`), if any. */
const processorFilter = (args: string, variables: unknown): string | undefined => {
  const inline = /processor\s*:\s*\{\s*_eq\s*:\s*"([^"]{0,200})"/.exec(args)
  if (inline !== null) return inline[1]
  const v = /where\s*:\s*\$([A-Za-z_][A-Za-z0-9_]*)/.exec(args)
  if (v === null || typeof variables !== "object" || variables === null) return undefined
  const where = (variables as Record<string, unknown>)[v[1]!]
  const processor =
    typeof where === "object" && where !== null ? (where as Record<string, unknown>).processor : undefined
  const eq =
    typeof processor === "object" && processor !== null ? (processor as Record<string, unknown>)._eq : undefined
  return typeof eq === "string" ? eq.slice(0, 200) : undefined
}

/** Hasura's `timestamp` text: UTC, microseconds, no zone. */
const timestampText = (usec: bigint): string => {
  const iso = new Date(Number(usec / 1000n)).toISOString().slice(0, 19)
  return `${iso}.${(usec % 1_000_000n).toString().padStart(6, "0")}`
}

/** The answer to a GraphQL request body (the HTTP status is always 200, as Hasura's). */
export const answerGraphql = (body: unknown, ledger: LedgerInfo): unknown => {
  const error = (message: string) => ({ errors: [{ message, extensions: { code: "validation-failed", path: "$" } }] })
  if (typeof body !== "object" || body === null || typeof (body as { query?: unknown }).query !== "string")
    return error("the request must be a JSON object with a string `query`")
  const { query, variables } = body as { query: string; variables?: unknown }
  const fields = rootFields(query.slice(0, MAX_BODY))
  if (fields.length !== 1 || fields[0]!.name !== "processor_status") return error(NOT_AN_INDEXER)
  const field = fields[0]!
  const wanted = field.selection.length === 0 ? FIELDS : field.selection
  const unknown = wanted.find((f) => !(FIELDS as ReadonlyArray<string>).includes(f))
  if (unknown !== undefined) return error(`field '${unknown.slice(0, 100)}' not found in type: 'processor_status'`)
  const processors = [processorFilter(field.args, variables) ?? "default_processor"]
  const row = (processor: string): Record<string, unknown> => {
    const all: Record<string, unknown> = {
      last_success_version: Number(ledger.ledgerVersion),
      processor,
      last_updated: timestampText(ledger.ledgerTimestampUsec)
    }
    const picked: Record<string, unknown> = {}
    for (const f of wanted) picked[f] = all[f]
    return picked
  }
  return { data: { processor_status: processors.map(row) } }
}

export const makeGraphqlListener = (ledgerInfo: Effect.Effect<LedgerInfo, unknown>): SideListener => {
  const answer = (res: ServerResponse, body: unknown) =>
    Effect.runCallback(ledgerInfo, {
      onExit: (exit) =>
        Exit.isSuccess(exit)
          ? replyJson(res, 200, answerGraphql(body, exit.value))
          : reply(res, 503, "text/plain", "ledger unavailable")
    })
  return (req: IncomingMessage, res: ServerResponse) => {
    if (preflight(req, res)) return
    const path = (req.url ?? "/").split("?")[0]
    if (path !== "/v1/graphql")
      return replyJson(res, 404, { errors: [{ message: `no such path: ${path!.slice(0, 200)}` }] })
    if (req.method !== "POST") return replyJson(res, 405, { errors: [{ message: "use POST" }] })
    readSmallBody(req, MAX_BODY).then(
      (bytes) => {
        if (bytes === undefined)
          return replyJson(res, 413, { errors: [{ message: `the request body exceeds ${MAX_BODY} bytes` }] })
        const parsed = parseJson(bytes)
        if ("error" in parsed)
          return replyJson(res, 200, { errors: [{ message: `invalid JSON: ${parsed.error.slice(0, 200)}` }] })
        answer(res, parsed.value)
      },
      () => reply(res, 500, "text/plain", "internal error")
    )
  }
}

/** The `processor_status` stub, serving the `Ledger`'s version on `listen`. */
export class GraphqlStub extends Context.Service<GraphqlStub, { readonly address: ListenAddress }>()(
  "movenode/http/GraphqlStub"
) {
  static readonly layer = (listen: ListenAddress): Layer.Layer<GraphqlStub, Error, Ledger> =>
    Layer.effect(
      GraphqlStub,
      Effect.gen(function* () {
        const ledger = yield* Ledger
        return { address: yield* serveScoped(makeGraphqlListener(ledger.ledgerInfo), listen) }
      })
    )
}
