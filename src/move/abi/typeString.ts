import { addressToShortString } from "../../domain/AccountAddress.js"
import type { CommonTables } from "../binary/CompiledModule.js"
import type { SignatureToken } from "../binary/SignatureToken.js"
import type { MoveAbility } from "./MoveModuleAbi.js"

const ABILITIES: ReadonlyArray<readonly [number, MoveAbility]> = [
  [0x1, "copy"],
  [0x2, "drop"],
  [0x4, "store"],
  [0x8, "key"]
]

/** An ability set as names, in the reference's iteration order: copy, drop, store, key. */
export const abilityNames = (set: number): MoveAbility[] =>
  ABILITIES.filter(([bit]) => (set & bit) !== 0).map(([, n]) => n)

const primitiveNames: Record<string, string> = {
  Bool: "bool",
  U8: "u8",
  U16: "u16",
  U32: "u32",
  U64: "u64",
  U128: "u128",
  U256: "u256",
  I8: "i8",
  I16: "i16",
  I32: "i32",
  I64: "i64",
  I128: "i128",
  I256: "i256",
  Address: "address",
  Signer: "signer"
}

/** `0x1::module::Name` of a struct handle (short address, as the API prints it). */
export const structHandleName = (unit: CommonTables, handle: number): string => {
  const h = unit.structHandles[handle]!
  const m = unit.moduleHandles[h.module]!
  return `${addressToShortString(unit.addressIdentifiers[m.address]!)}::${unit.identifiers[m.name]}::${unit.identifiers[h.name]}`
}

/**
 * A signature token as the REST API prints a Move type: `u64`, `&mut T0`, `vector<u8>`,
 * `0x1::option::Option<u64>` (arguments joined by ", "). Function types print as the reference
 * does, `|arg,arg|result,result` without abilities; signed integers as `i8`…`i256`.
 * Depth is bounded by the reader (≤ 256), so plain recursion is safe here.
 */
export const typeString = (unit: CommonTables, tok: SignatureToken): string => {
  switch (tok._tag) {
    case "Reference":
      return `&${typeString(unit, tok.to)}`
    case "MutableReference":
      return `&mut ${typeString(unit, tok.to)}`
    case "Vector":
      return `vector<${typeString(unit, tok.element)}>`
    case "Struct":
      return structHandleName(unit, tok.handle)
    case "StructInstantiation":
      return `${structHandleName(unit, tok.handle)}<${tok.typeArgs.map((t) => typeString(unit, t)).join(", ")}>`
    case "TypeParameter":
      return `T${tok.index}`
    case "Function":
      // The reference's MoveType Display: arguments and results each joined by "," (no space),
      // abilities not printed.
      return `|${tok.args.map((t) => typeString(unit, t)).join(",")}|${tok.results.map((t) => typeString(unit, t)).join(",")}`
    default:
      return primitiveNames[tok._tag]!
  }
}
