/**
 * The node services: the answers to the API's questions, computed over the `Ledger`, the Move VM
 * (views, simulation, the encoder's ABIs) and, on a local chain, the mempool. The HTTP layer
 * depends on `Node` only.
 *
 * - `NodeService` (`NodeService.ts`): the interface the HTTP layer asks; each answer type lives with
 *   the service that produces it (`AssetType` in Balances, `ModuleAnswer` in Modules, `ViewAnswer`
 *   in Views, `SummaryPage` in Summaries). `Node` (`Node.ts`) is its tag and `Node.layer`, which
 *   composes the services below over a `Ledger`; `makeNode` does the delegation. The services
 *   never import `Node.ts`, so the composition root is imported by nothing it composes.
 * - One service per concern, each with its own `Context.Service` and layer:
 *   `Balances` (coin store + paired primary fungible store, exact bigints), `GasEstimator`
 *   (on-chain minimum price, recent full blocks of the current epoch, per-epoch / per-block /
 *   500 ms caches), `Summaries` (an account's transaction summaries, paged with a cursor),
 *   `Modules` (module bytes and the ABI JSON, cached per stored module version), `Views` (the VM
 *   over the ledger, `view/`), `TransactionEncoder` (encode_submission, `encode/`) and
 *   `Simulations` (the executor in simulation mode, `Simulations.ts`).
 * - Submissions (`Submissions.ts`, `submit/`: BCS or JSON bodies converted and checked, then the
 *   mempool decides, `apiErrorFromChain`): present on a local chain, absent on a read-only node.
 * - `NodeConfig`: page size, gas estimation, view gas budget, ABI cache size, with the reference's
 *   defaults; a `Context.Reference`, so nothing has to provide it.
 * - The reads (issue 15, `Reads.ts` composes them): `Accounts` (account info, the stateless
 *   default), `Resources` (one resource, pages of resources and modules), `Transactions` (by
 *   version, by hash, lists, by account), `Blocks`, `Events` (by key, by handle), `Tables`, over the
 *   shared `Renderer` (modules for layouts; each transaction's JSON rendered once; the tables' key
 *   and value types, `tableInfo/`, so table items are decoded as a real node does). The renderer
 *   itself (`render/`) is pure: transactions of every kind, payloads, signatures, changes, events.
 * - `LedgerVersion`: the `ledger_version` rules (absent = latest, above = 404, below the window =
 *   410) shared by module, balance and view; `apiErrorFromLedger` maps ledger failures once.
 */
export * from "./Accounts.js"
export * from "./accountState.js"
export * from "./apiErrorFromLedger.js"
export * from "./Balances.js"
export * from "./Blocks.js"
export * from "./Events.js"
export * from "./blockMinInclusionPrice.js"
export * from "./GasEstimator.js"
export * from "./LedgerVersion.js"
export * from "./LruCache.js"
export * from "./makeNode.js"
export * from "./minGasUnitPrice.js"
export * from "./moduleAbiJsonOf.js"
export * from "./Modules.js"
export * from "./StateValues.js"
export * from "./Node.js"
export * from "./NodeConfig.js"
export * from "./NodeService.js"
export * from "./readBalance.js"
export * from "./readErrors.js"
export * from "./Reads.js"
export * from "./Renderer.js"
export * from "./Resources.js"
export * from "./stateKeys.js"
export * from "./Summaries.js"
export * from "./Tables.js"
export * from "./TransactionEncoder.js"
export * from "./Transactions.js"
export * from "./Views.js"
export * from "./encode/index.js"
export * from "./view/index.js"
export * from "./render/index.js"
export * from "./tableInfo/index.js"
export * from "./WithLedger.js"
