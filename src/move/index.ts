/**
 * The Move layer: the binary format, type layouts, Move values as JSON, and the VM.
 *
 * - `binary/`: the compiled-module model (`CompiledModule`, `CompiledScript`, `SignatureToken`,
 *   `Instruction`, `Opcode`), the hostile-input reader (`deserializeModule`, `deserializeScript`,
 *   returning a Result with a typed `BinaryError`) and the byte-exact writer (`serializeModule`,
 *   `serializeScript`).
 * - `metadata/`: Aptos metadata sections (`decodeModuleMetadata`, `isViewFunction`,
 *   `isEventStruct`, `errorDescription`).
 * - `abi/`: the REST API's module ABI (`moduleAbi`, `moduleAbiJson`), Move type strings and the CLI
 *   helpers (`moduleAbiCommand`, `listGenesisModules`).
 * - `vm/` (exported as `Vm`): the Move VM (`MoveVm`, sessions producing change sets, natives, gas).
 * - `layout/` and `json/` (imported by path, not re-exported here): Move type layouts
 *   (`resolveLayout`) and Move values as the API's JSON both ways (`jsonToBcs`, `bcsToJson`).
 *
 * Pure code: no I/O, no Effect runtime needed.
 */
export * from "./abi/index.js"
export * from "./binary/index.js"
export * from "./metadata/index.js"
export * as Vm from "./vm/index.js"
