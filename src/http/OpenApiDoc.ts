import { OpenApi } from "effect/http-api"
import { Api } from "./Api.js"
import type { LedgerHeaders } from "./LedgerHeaders.js"

type Json = Record<string, any>

/**
 * The OpenAPI document, generated from the Api definition, then completed with what the schemas
 * cannot say: the ledger headers (their names depend on the configured prefix), the balance body
 * being a JSON integer, and the BCS media types.
 */
export const openApiDocument = (headers: LedgerHeaders): Json => {
  const spec = structuredClone(OpenApi.fromApi(Api)) as Json
  const n = headers.names
  const ledgerHeaderNames = [
    n.chainId,
    n.ledgerVersion,
    n.oldestLedgerVersion,
    n.ledgerTimestampUsec,
    n.epoch,
    n.blockHeight,
    n.oldestBlockHeight
  ]
  const header = (description: string) => ({ description, schema: { type: "string", pattern: "^[0-9]+$" } })
  const bcsRoutes = new Set([
    "/v1/accounts/{address}/transaction_summaries",
    "/v1/accounts/{address}/module/{module_name}",
    "/v1/accounts/{address}/balance/{asset_type}",
    "/v1/estimate_gas_price",
    "/v1/view"
  ])
  for (const [path, item] of Object.entries(spec.paths as Json)) {
    for (const op of Object.values(item as Json) as Array<Json>) {
      const ok = op.responses?.["200"]
      if (ok === undefined || path === "/v1/spec.json") continue
      ok.headers ??= {}
      for (const h of ledgerHeaderNames) ok.headers[h] = header("Ledger info the answer was computed against")
      if (path === "/v1/view") ok.headers[n.gasUsed] = header("Gas used by the view function")
      if (path.endsWith("/transaction_summaries")) ok.headers[n.cursor] = header("start_version of the next page")
      if (path.endsWith("/balance/{asset_type}"))
        ok.content["application/json"].schema = { type: "integer", format: "uint64", minimum: 0 }
      if (bcsRoutes.has(path)) ok.content["application/x-bcs"] = { schema: { type: "string", format: "binary" } }
      if (path === "/v1/view" && op.requestBody?.content !== undefined)
        for (const t of ["application/x.service.view_function+bcs", "application/x.aptos.view_function+bcs"])
          op.requestBody.content[t] = { schema: { type: "string", format: "binary" } }
    }
  }
  return spec
}
