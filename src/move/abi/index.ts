/**
 * The REST API's view of a compiled module: `moduleAbi` / `moduleAbiJson` (the `abi` object of the
 * module endpoint), Move type strings, and the CLI helpers (`moduleAbiCommand`, `listGenesisModules`).
 */
export * from "./cli.js"
export * from "./moduleAbi.js"
export * from "./scriptAbi.js"
export type * from "./MoveModuleAbi.js"
export * from "./typeString.js"
