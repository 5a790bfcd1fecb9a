/**
 * The HTTP layer: the Aptos-compatible REST API of movenode, depending only on the `Node` service.
 *
 * - `Api` (with its groups) is the one definition of what is served; the OpenAPI document
 *   (`openApiDocument`, served at `/v1/spec.json`), the typed client (`MovenodeClient`) and the
 *   server's route table (`apiRoutes`) all come from it.
 * - The groups (`groups/`, shared query fields in `queryFields.ts`): `GeneralGroup` (ledger info, health,
 *   spec), `AccountsGroup` (transaction summaries, module, balance), `AccountStateGroup` (account,
 *   resources, modules, account transactions, events), `TransactionsGroup` (encode_submission,
 *   gas estimate), `TransactionReadsGroup`, `BlocksGroup`, `TablesGroup`, `ViewGroup`,
 *   `SimulationGroup` (`POST /v1/transactions/simulate`) and `SubmissionsGroup` (`POST
 *   /v1/transactions` and batch, by_hash, wait_by_hash); their JSON shapes in `json/`.
 * - `MovenodeServer.layer(config)` (alias `serverLayer`) serves it on `node:http` over `Node`:
 *   ledger headers, Accept negotiation (JSON/BCS), POST framing (411/413/415/400), the error body,
 *   request logs, Prometheus metrics on a separate port, graceful shutdown when its scope closes;
 *   with `acceptors` > 0 (the serving commands) duplicates of its listening socket accept several
 *   new connections per event-loop turn instead of libuv's one (`extraAcceptors.ts`, issue 22).
 *   Requests are dispatched by a lean listener (`makeRequestListener`) rather than through
 *   `HttpApiBuilder`: measured side by side (wrk, loopback, quiet rounds), `HttpApiBuilder` served
 *   the gas estimate at ~70 % of a bare `node:http` server even without the ledger headers, this
 *   listener at ~88 % with them; `node scripts/bench-http.mjs --httpapi` measures both. The handlers still validate POST
 *   bodies with the Api's request schemas, and the route table is read from the Api.
 * - Hostile input (docs/limits.md): every JSON body is scanned against work limits before
 *   `JSON.parse` (`parseJsonBody`, `JsonScan.ts`); error messages are capped (`errorBodyJson`);
 *   refused sockets are destroyed once answered, connections are capped (`maxConnections`), and
 *   every refusal has the JSON error body and a metrics count (`clientErrorHandler.ts`).
 * - `MovenodeClient.layer(baseUrl)` (alias `clientLayer`): the typed client (derived from the Api;
 *   optional query objects may be left out; a non-2xx answer fails with `MovenodeApiError`).
 * - The local chain's side servers (`sideServer.ts`): the faucet (`FaucetServer.ts`, the reference
 *   faucet's API), readiness (`ReadinessServer.ts`) and the GraphQL `processor_status` stub
 *   (`GraphqlStub.ts`); CORS (`Cors.ts`) for the API server.
 */
export { wantsBcs } from "./Accept.js"
export { Api } from "./Api.js"
export { ErrorBody } from "./ErrorBody.js"
export * from "./json/index.js"
export { AccountStateGroup } from "./groups/AccountStateGroup.js"
export { AccountsGroup } from "./groups/AccountsGroup.js"
export { BlocksGroup } from "./groups/BlocksGroup.js"
export { GeneralGroup } from "./groups/GeneralGroup.js"
export { SimulationGroup } from "./groups/SimulationGroup.js"
export { SubmissionsGroup } from "./groups/SubmissionsGroup.js"
export { TablesGroup } from "./groups/TablesGroup.js"
export { TransactionReadsGroup } from "./groups/TransactionReadsGroup.js"
export { TransactionsGroup } from "./groups/TransactionsGroup.js"
export { ViewGroup } from "./groups/ViewGroup.js"
export {
  defaultHttpConfig,
  type HttpConfig,
  type ListenAddress,
  makeHttpConfig,
  parseListenAddress
} from "./HttpConfig.js"
export { type LedgerHeaders, makeLedgerHeaders } from "./LedgerHeaders.js"
export { ledgerInfoToJson, LedgerInfoJson } from "./LedgerInfoJson.js"
export { type HttpMetrics, makeHttpMetrics } from "./Metrics.js"
export {
  clientLayer,
  MovenodeApiError,
  MovenodeClient,
  type MovenodeClientShape,
  type MovenodeMethod,
  type MovenodeRequest,
  makeMovenodeClient
} from "./MovenodeClient.js"
export { MovenodeServer, type MovenodeServerInfo, serverLayer } from "./MovenodeServer.js"
export { openApiDocument } from "./OpenApiDoc.js"
export { makeRequestListener, type RequestListener } from "./RequestListener.js"
export { makeRequestLog, type RequestLog, type RequestLogOptions } from "./RequestLog.js"
export { apiRoutes, makeRouter, type Route, type RouteId } from "./Routes.js"
