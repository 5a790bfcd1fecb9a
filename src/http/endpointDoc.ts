import { OpenApi } from "effect/http-api"

/**
 * An endpoint's entry in the OpenAPI document: the reference's `operationId` (snake_case, as
 * `get_account_balance`; generated clients name their methods after it), a one-line summary and a
 * description. Endpoints without one get defaults derived from their name (OpenApiDoc.ts).
 *
 *   HttpApiEndpoint.get("balance", "/v1/accounts/:address/balance/:asset_type", {...})
 *     .annotateMerge(endpointDoc("get_account_balance", "Get account balance", "…"))
 */
export const endpointDoc = (operationId: string, summary: string, description: string) =>
  OpenApi.annotations({ identifier: operationId, summary, description })
