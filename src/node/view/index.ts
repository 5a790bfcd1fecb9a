/**
 * `POST /view` over the Move VM (contract item 6).
 *
 * - `ViewsVmLayer`: the `Views` service (composed by `Node.layer`); needs
 *   `Ledger` and reads `NodeConfig.viewGasBudget`.
 * - `parseViewRequest`: the JSON body (`function`, `type_arguments`, `arguments`) and the BCS
 *   `ViewFunction` body (type tags nested at most 8 deep).
 * - `runView`: the synchronous core — JSON arguments converted by the function's parameter types,
 *   the call under a gas budget, results as BCS and as JSON; `describeFailure` renders VM failures
 *   and Move aborts as the reference does.
 */
export * from "./parseViewRequest.js"
export * from "./runView.js"
export * from "./ViewsVm.js"
export * from "./ViewsWorker.js"
export * from "./executeView.js"
export * from "./ViewFilter.js"
