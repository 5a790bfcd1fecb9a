/**
 * The reference's `MoveStruct` keys, in its order (aptos-core api/doc/spec.yaml; all required): what
 * every struct of a module's ABI must carry, checked on our ABIs (test/move/abi) and on what the
 * TypeScript SDK reads back from the API (test/conformance).
 */
export const MOVE_STRUCT_KEYS = [
  "name",
  "is_native",
  "is_event",
  "is_enum",
  "abilities",
  "generic_type_params",
  "fields",
  "variants"
]
