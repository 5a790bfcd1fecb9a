/**
 * The Move binary format: the model (`CompiledModule`, `CompiledScript`, `SignatureToken`,
 * `Instruction`, `Opcode`), the hostile-input reader (`deserializeModule` / `deserializeScript`,
 * Result with a typed `BinaryError`) and the byte-exact writer (`serializeModule` /
 * `serializeScript`). `opcodeInfo` gives each opcode's operand kind and first version.
 */
export { BinaryError, type BinaryErrorKind } from "./BinaryError.js"
export * from "./CompiledModule.js"
export { type DeserializeOptions, deserializeModule, deserializeScript } from "./deserialize.js"
export * from "./Instruction.js"
export * as BinaryLimits from "./limits.js"
export { type OpcodeInfo, type OperandKind, opcodeInfo } from "./opcodeInfo.js"
export { OPCODE_MAX } from "./Opcode.js"
export { serializeModule, serializeScript } from "./serialize.js"
export * from "./SignatureToken.js"
export { TableKind } from "./TableKind.js"
