/**
 * Per-field maxima of the binary format (the reference's `file_format_common.rs` constants). Every
 * uleb128 the reader takes is checked against one of these before it is used.
 */
export const TABLE_COUNT_MAX = 255
export const TABLE_OFFSET_MAX = 0xffff_ffff
export const TABLE_SIZE_MAX = 0xffff_ffff
export const TABLE_INDEX_MAX = 65_535
export const SIGNATURE_SIZE_MAX = 255
export const TYPE_PARAMETER_COUNT_MAX = 255
export const TYPE_PARAMETER_INDEX_MAX = 65_536
export const FIELD_COUNT_MAX = 255
export const FIELD_OFFSET_MAX = 255
export const VARIANT_COUNT_MAX = 255
export const VARIANT_OFFSET_MAX = 255
export const ACQUIRES_COUNT_MAX = 255
export const LOCAL_INDEX_MAX = 255
export const BYTECODE_COUNT_MAX = 65_535
export const BYTECODE_INDEX_MAX = 65_535
export const CONSTANT_SIZE_MAX = 65_535
export const METADATA_KEY_SIZE_MAX = 1_023
export const METADATA_VALUE_SIZE_MAX = 65_535
export const IDENTIFIER_SIZE_MAX = 255
export const LEGACY_IDENTIFIER_SIZE_MAX = 65_535
export const ACCESS_SPECIFIER_COUNT_MAX = 64
export const ATTRIBUTE_COUNT_MAX = 16
export const SIGNATURE_TOKEN_DEPTH_MAX = 256
/** Aptos marks its bytecode flavour by OR-ing this into the version word (v7+). */
export const APTOS_BYTECODE_VERSION_MASK = 0x0a00_0000
export const MAGIC = Uint8Array.of(0xa1, 0x1c, 0xeb, 0x0b)
