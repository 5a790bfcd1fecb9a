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
 * - Stages: `executeTransaction` (signature → `runPrologue` (account abstraction's Move
 *   authentication first: `authenticateAbstraction`) → `runPayload` (+ `publishModules`) →
 *   `chargeChangeSet` → `successOutput` (`runEpilogue` and the kept output; a multisig
 *   transaction's `runMultisig` ends there too), failures through `failureCleanup`), `validateTransaction`
 *   (mempool admission: signature and prologue), over `TransactionRun` (the environment read once)
 *   and `TransactionMeter` (gas in the reference's categories).
 * - Outcome: `TransactionOutput` (Keep(ExecutionStatus) | Discard(StatusName) as data),
 *   `VmStatus`, `StatusCode` (the reference's numbers: the VM's table, `move/vm/StatusCode`, passed
 *   on), `explainVmStatus` (the API's wording).
 * - State and system calls: `OverlayStateView` (a base view with uncommitted change sets on top,
 *   later wins: sessions and transactions chain before anything is committed), `squashChangeSets`
 *   (two change sets as one, the reference's write-op squash), `executeSystemCall` (one unmetered
 *   Move call, visibility bypassed, no prologue/fees/signatures: block prologue/epilogue, genesis).
 * - Signatures: `verifySignature` (the check the reference makes before the VM runs, with the
 *   signers and `optionalAuthKey`s PrologueArgs needs), the schemes in `signatures/`, the feature
 *   gates around it (`signatureFeatureGate`, `keylessValidationStatus`).
 */
export * from "./authenticateAbstraction.js"
export * from "./chargeChangeSet.js"
export * from "./checkCompatibility.js"
export * from "./checkGas.js"
export * from "./encodeByLayout.js"
export * from "./EpilogueArgs.js"
export { feeStatementOf, runEpilogue, viewWith } from "./epilogue.js"
export { checkAndRunPrologue, executeTransaction } from "./executeTransaction.js"
export * from "./failureCleanup.js"
export * from "./successOutput.js"
export * from "./explainVmStatus.js"
export * from "./functionNameIn.js"
export * from "./Features.js"
export * from "./FeeStatement.js"
export * from "./PrologueArgs.js"
export * from "./prologue.js"
export * from "./publishModules.js"
export * from "./runMultisig.js"
export * from "./runPayload.js"
export * from "./signatures/index.js"
export * from "../move/vm/StatusCode.js"
export * from "./storagePricing.js"
export * from "./TransactionGasParams.js"
export * from "./TransactionMetadata.js"
export * from "./TransactionMeter.js"
export * from "./TransactionOutput.js"
export * from "./TransactionRun.js"
export * from "./validateTransaction.js"
export * from "./verifySignature.js"
export * from "./VmStatus.js"
export * from "./vmStatusOf.js"
export * from "./slotMetadata.js"
export { executeSystemCall, type SystemCallOutcome } from "./executeSystemCall.js"
export { type OverlayLayer, OverlayStateView, overlayStateView } from "./OverlayStateView.js"
export { squashChangeSets, squashWriteOp } from "./squashChangeSets.js"
