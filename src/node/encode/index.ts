/**
 * `POST /transactions/encode_submission` (contract item 1, aptos-api-behaviour §2).
 *
 * - `EncodeSubmissionRequest`: the body's Schemas, parsed and verified into a typed request.
 * - `buildSigningMessage` / `buildRawTransaction` / `encodeSubmission`: the pure core, given the
 *   chain's modules (`ModuleSource`) and chain id; usable without a server.
 * - `convertArguments`: JSON arguments by the target function's parameter types.
 * - `TransactionEncoderLive`: the `TransactionEncoder` layer over the Ledger (latest state).
 */
export * from "./buildSigningMessage.js"
export * from "./convertArguments.js"
export * from "./EncodeError.js"
export * from "./EncodeSubmissionRequest.js"
export * from "./findEntryFunction.js"
export * from "./jsonTypeName.js"
export * from "./stateModuleSource.js"
export * from "./TransactionEncoderLive.js"
