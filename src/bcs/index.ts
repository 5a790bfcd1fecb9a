/**
 * BCS (Binary Canonical Serialization), the wire format of every Aptos type.
 *
 * - `BcsReader` / `BcsWriter`: the low-level cursor and buffer, with length and depth limits;
 *   `ByteCursor` (not re-exported): the fixed-width reads `BcsReader` and the Move binary reader share.
 * - `Codec`: composable encoders/decoders (vector, option, struct, map, lazy) and the `encode` /
 *   `decode` entry points; `decode` returns a Result and never throws.
 * - `hex`: hex at the edges; `equalBytes`: whether two byte arrays hold the same bytes.
 * - Not re-exported, imported where used: `slabBytes` (a block's outputs carved from shared slabs,
 *   with the rules for what may live there; `BcsWriter.toSlabBytes` copies into one) and `u64LeAt`
 *   (a u64 read from a short array without asking for its buffer).
 */
export * from "./BcsError.js"
export * from "./BcsReader.js"
export * from "./BcsWriter.js"
export type { Codec } from "./Codec.js"
export * as Bcs from "./Codec.js"
export * from "./equalBytes.js"
export * from "./hex.js"
export * from "./limits.js"
