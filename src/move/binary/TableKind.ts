/** Table kind bytes of the table directory (§1.3); 0x09 is unused. */
export const TableKind = {
  MODULE_HANDLES: 0x01,
  STRUCT_HANDLES: 0x02,
  FUNCTION_HANDLES: 0x03,
  FUNCTION_INST: 0x04,
  SIGNATURES: 0x05,
  CONSTANT_POOL: 0x06,
  IDENTIFIERS: 0x07,
  ADDRESS_IDENTIFIERS: 0x08,
  STRUCT_DEFS: 0x0a,
  STRUCT_DEF_INST: 0x0b,
  FUNCTION_DEFS: 0x0c,
  FIELD_HANDLES: 0x0d,
  FIELD_INST: 0x0e,
  FRIEND_DECLS: 0x0f,
  METADATA: 0x10,
  VARIANT_FIELD_HANDLES: 0x11,
  VARIANT_FIELD_INST: 0x12,
  STRUCT_VARIANT_HANDLES: 0x13,
  STRUCT_VARIANT_INST: 0x14,
  isKnown: (k: number): boolean => k >= 0x01 && k <= 0x14 && k !== 0x09,
  /** Tables a script may carry. */
  isCommon: (k: number): boolean => (k >= 0x01 && k <= 0x08) || k === 0x10,
  /** The four enum tables (v7+). */
  isVariant: (k: number): boolean => k >= 0x11 && k <= 0x14
} as const
