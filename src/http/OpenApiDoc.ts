import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Api } from "./Api.js"
import { U64String } from "./IntegerSchemas.js"
import type { LedgerHeaders } from "./LedgerHeaders.js"

type Json = Record<string, any>

/**
 * The OpenAPI document served at `/v1/spec.json`: generated from the Api definition, then shaped
 * as the reference's (aptos-core `api/doc/spec.yaml`) by transformations that apply to every
 * endpoint, so endpoints added to the Api come out the same way:
 *
 * - `servers: [{url: "/v1"}]` and paths relative to it (`/accounts/{address}/…`, `/` for ledger info);
 * - integers: Effect writes a `Schema.Number` as `number | "Infinity" | "-Infinity" | "NaN"` and an
 *   `Int` with ±2^53 bounds; every JSON number of this API is an integer, so both become
 *   `{type: integer}` with the `format` the schema names (IntegerSchemas.ts: uint8 … uint64);
 * - arrays without an item schema get `items: {}` (a view returns values of any type);
 * - well-known parameters get the reference's description and type (`ledger_version` is a `U64`,
 *   `limit` a uint16);
 * - `operationId` (the reference's, from `endpointDoc`, else the endpoint's name in snake_case),
 *   a summary and a description on every operation;
 * - the ledger headers on every 200 (required, typed uint8/uint64 as the reference types them)
 *   and on every error response (optional: an error produced before the ledger was read has none),
 *   `GAS-USED` on `/view` and `/transactions/simulate`, `CURSOR` on paginated lists; the error body is the reference's
 *   `AptosError` component;
 * - the BCS media types (`application/x-bcs` answers; the view function's BCS request bodies).
 */
export const openApiDocument = (headers: LedgerHeaders): Json => {
  const spec = structuredClone(OpenApi.fromApi(Api)) as Json
  normalizeSchemas(spec)
  renameComponent(spec, "ErrorBodyEncoded", "AptosError")
  spec.components.schemas.U64 ??= OpenApi.fromApi(U64Api).components.schemas.U64

  const n = headers.names
  const u64 = { type: "integer", format: "uint64" }
  const ledgerHeaders: Array<[string, string, Json]> = [
    [n.chainId, "Chain ID of the current chain", { type: "integer", format: "uint8" }],
    [n.ledgerVersion, "Current ledger version of the chain", u64],
    [n.oldestLedgerVersion, "Oldest non-pruned ledger version of the chain", u64],
    [n.ledgerTimestampUsec, "Current timestamp of the chain", u64],
    [n.epoch, "Current epoch of the chain", u64],
    [n.blockHeight, "Current block height of the chain", u64],
    [n.oldestBlockHeight, "Oldest non-pruned block height of the chain", u64]
  ]
  const bcs = { schema: { type: "array", items: { type: "integer", format: "uint8" } } }
  const bcsAnswers = new Set([
    "/accounts/{address}/transaction_summaries",
    "/accounts/{address}/module/{module_name}",
    "/accounts/{address}/balance/{asset_type}",
    "/estimate_gas_price",
    "/view",
    "/accounts/{address}",
    "/accounts/{address}/resources",
    "/accounts/{address}/resource/{resource_type}",
    "/accounts/{address}/modules",
    "/accounts/{address}/transactions",
    "/accounts/{address}/events/{creation_number}",
    "/accounts/{address}/events/{event_handle}/{field_name}",
    "/transactions",
    "/transactions/by_version/{txn_version}",
    "/blocks/by_height/{block_height}",
    "/blocks/by_version/{version}",
    "/tables/{table_handle}/item",
    "/tables/{table_handle}/raw_item",
    "/transactions/simulate"
  ])

  const paths: Json = {}
  for (const [fullPath, item] of Object.entries(spec.paths as Json)) {
    const path = fullPath === "/v1" ? "/" : fullPath.replace(/^\/v1(?=\/)/, "")
    paths[path] = item
    for (const op of Object.values(item as Json) as Array<Json>) {
      describeOperation(op)
      for (const p of (op.parameters ?? []) as Array<Json>) describeParameter(p)
      for (const [status, response] of Object.entries(op.responses ?? {}) as Array<[string, Json]>) {
        const ok = status.startsWith("2")
        if (path === "/spec.json") continue
        response.headers ??= {}
        for (const [name, description, schema] of ledgerHeaders)
          response.headers[name] = { description, ...(ok ? { required: true } : {}), schema }
        if (!ok) continue
        if (path === "/view" || path === "/transactions/simulate")
          response.headers[n.gasUsed] = { description: "The cost of the call in terms of gas", schema: u64 }
        if (path.endsWith("/transaction_summaries"))
          response.headers[n.cursor] = {
            description: "Where the next page starts: pass it as `start_version` to get the next page",
            schema: { type: "string" }
          }
        if (path.endsWith("/resources") || path.endsWith("/modules"))
          response.headers[n.cursor] = {
            description:
              "Cursor to be used for endpoints that support cursor-based pagination. Pass this to the `start` field of the endpoint on the next call to get the next page of results.",
            schema: { type: "string" }
          }
        if (path.endsWith("/balance/{asset_type}")) response.content["application/json"].schema = u64
        if (bcsAnswers.has(path)) response.content["application/x-bcs"] = bcs
      }
      if (path === "/view" && op.requestBody?.content !== undefined)
        for (const t of ["application/x.service.view_function+bcs", "application/x.aptos.view_function+bcs"])
          op.requestBody.content[t] = bcs
    }
  }
  spec.paths = paths
  spec.servers = [{ url: "/v1" }]
  spec.info.license = { name: "Apache 2.0", url: "https://www.apache.org/licenses/LICENSE-2.0.html" }
  return spec
}

const SAFE = Number.MAX_SAFE_INTEGER

const isNonFiniteEnum = (s: Json): boolean => s?.type === "string" && Array.isArray(s.enum) && s.enum.includes("NaN")

/** `anyOf: [number, "Infinity" | "-Infinity" | "NaN", …rest]` → `integer` (or `anyOf: [integer, …rest]`). */
const integerOfNumberUnion = (s: Json): void => {
  const i = s.anyOf.findIndex((a: Json) => a?.type === "number" && Object.keys(a).length === 1)
  const j = s.anyOf.findIndex(isNonFiniteEnum)
  if (i < 0 || j < 0) return
  s.anyOf[i] = { type: "integer" }
  s.anyOf.splice(j, 1)
  if (s.anyOf.length === 1) {
    const [only] = s.anyOf
    delete s.anyOf
    Object.assign(s, only)
  }
}

/** The schema rewrites above, applied to every schema object of the document (iteratively). */
const normalizeSchemas = (spec: Json): void => {
  const stack: Array<unknown> = [spec]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== "object" || node === null) continue
    if (Array.isArray(node)) {
      for (const v of node) stack.push(v)
      continue
    }
    const s = node as Json
    if (Array.isArray(s.anyOf)) integerOfNumberUnion(s)
    if (s.type === "integer") {
      if (Array.isArray(s.allOf)) {
        for (const part of s.allOf as Array<Json>) Object.assign(s, part)
        delete s.allOf
      }
      if (s.minimum === -SAFE) delete s.minimum
      if (s.maximum === SAFE) delete s.maximum
    }
    if (s.type === "array" && s.items === undefined && s.prefixItems === undefined) s.items = {}
    for (const v of Object.values(s)) stack.push(v)
  }
}

const renameComponent = (spec: Json, from: string, to: string): void => {
  const schemas = spec.components?.schemas as Json | undefined
  if (schemas?.[from] === undefined) return
  schemas[to] = schemas[from]
  delete schemas[from]
  const fromRef = `#/components/schemas/${from}`
  const stack: Array<unknown> = [spec]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== "object" || node === null) continue
    const o = node as Json
    if (o.$ref === fromRef) o.$ref = `#/components/schemas/${to}`
    for (const v of Object.values(o)) stack.push(v)
  }
}

/** `balance` → `balance`, `estimateGasPrice` → `estimate_gas_price`. */
const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/**
 * Effect names an operation `group.endpoint` unless `endpointDoc` gave it the reference's id; an
 * endpoint without one gets its name in snake_case, and a summary (and description) from it.
 */
const describeOperation = (op: Json): void => {
  const id = String(op.operationId ?? "")
  const name = id.includes(".") ? id.slice(id.lastIndexOf(".") + 1) : id
  if (id.includes(".")) op.operationId = snakeCase(name)
  if (op.summary === undefined) {
    const words = snakeCase(name).replace(/_/g, " ").trim()
    op.summary = words.charAt(0).toUpperCase() + words.slice(1)
  }
  if (op.description === undefined) op.description = op.summary
}

const U64_REF = { $ref: "#/components/schemas/U64" }

/** Only to have the `U64` component (parameters refer to it) when no schema of the Api uses it. */
const U64Api = HttpApi.make("u64").add(
  HttpApiGroup.make("u64").add(HttpApiEndpoint.get("u64", "/", { success: U64String }))
)

/** The reference's description and type of parameters every endpoint names the same way. */
const knownParameters: Record<string, { readonly description: string; readonly schema?: Json }> = {
  address: { description: "Address of account with or without a `0x` prefix" },
  ledger_version: {
    description: "Ledger version to get state of account\n\nIf not provided, it will be the latest version",
    schema: U64_REF
  },
  module_name: { description: "Name of module to retrieve e.g. `coin`" },
  asset_type: {
    description: "A coin type (`0x1::aptos_coin::AptosCoin`) or the address of a fungible asset's metadata object"
  },
  start_version: {
    description:
      "Transaction version to start list of transactions\n\nIf not provided, defaults to showing the latest transactions",
    schema: U64_REF
  },
  end_version: {
    description:
      "Transaction version to end list of transactions\n\nIf not provided, defaults to showing the latest transactions",
    schema: U64_REF
  },
  limit: {
    description: "Max number of transactions to retrieve.\n\nIf not provided, defaults to default page size",
    schema: { type: "integer", format: "uint16" }
  },
  start: {
    description:
      "Where the page starts: a ledger version (`/transactions`), a sequence number (an account's transactions, events) or the cursor of a previous page (resources, modules)\n\nIf not provided, defaults to the latest page (the first page for resources and modules)"
  },
  txn_version: { description: "Version of transaction to retrieve", schema: U64_REF },
  block_height: { description: "Block height to lookup. Starts at 0", schema: U64_REF },
  version: { description: "Ledger version to lookup block information for.", schema: U64_REF },
  creation_number: {
    description: "Creation number corresponding to the event stream originating from the given account.",
    schema: U64_REF
  },
  with_transactions: {
    description:
      "If set to true, include all transactions in the block\n\nIf not provided, no transactions will be retrieved",
    schema: { type: "boolean" }
  },
  resource_type: { description: "Name of struct to retrieve e.g. `0x1::account::Account`" },
  event_handle: { description: "Name of struct to lookup event handle e.g. `0x1::account::Account`" },
  field_name: { description: "Name of field to lookup event handle e.g. `withdraw_events`" },
  table_handle: { description: "Table handle hex encoded 32-byte string" },
  accept: { description: "The media type of the answer: this endpoint serves BCS only (any other is 403)" },
  estimate_max_gas_amount: {
    description:
      "If set to true, the max gas value in the transaction will be ignored and the maximum possible gas will be used",
    schema: { type: "boolean" }
  },
  estimate_gas_unit_price: {
    description:
      "If set to true, the gas unit price in the transaction will be ignored and the estimated value will be used",
    schema: { type: "boolean" }
  },
  estimate_prioritized_gas_unit_price: {
    description: "If set to true, the transaction will use a higher price than the original estimate.",
    schema: { type: "boolean" }
  }
}

const describeParameter = (p: Json): void => {
  const known = knownParameters[String(p.name)]
  if (known === undefined) return
  p.description ??= known.description
  if (known.schema !== undefined) p.schema = known.schema
}
