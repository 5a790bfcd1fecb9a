/**
 * The pure transaction executor (no I/O; state through the VM's `StateView`), shaped as revm's
 * handler: `executeTransaction` is a short list of named stages, one file per stage headed by the
 * reference function it matches.
 *
 * - Pricing: `TransactionGasParams` (the schedule's `txn.*` entries, decoded once per schedule),
 *   `checkGas` (size, max gas and price bounds before the prologue), `storagePricing` (IO gas and
 *   storage fees of a change set, deposits recorded in the slot metadata), `FeeStatement`.
 * - Framework calls: `PrologueArgs` / `EpilogueArgs`, written by the framework's own enum
 *   declarations (`encodeByLayout`, `frameworkLayout`); `Features` (on-chain flags).
 * - Outcome: `TransactionOutput` (Keep(ExecutionStatus) | Discard(StatusName) as data),
 *   `VmStatus`, `StatusCode` (the reference's numbers), `explainVmStatus` (the API's wording).
 */
export * from "./checkGas.js"
export * from "./encodeByLayout.js"
export * from "./EpilogueArgs.js"
export * from "./explainVmStatus.js"
export * from "./Features.js"
export * from "./FeeStatement.js"
export * from "./PrologueArgs.js"
export * from "./StatusCode.js"
export * from "./storagePricing.js"
export * from "./TransactionGasParams.js"
export * from "./TransactionOutput.js"
export * from "./VmStatus.js"
