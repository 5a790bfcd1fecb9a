import type { SignatureToken } from "../../move/binary/SignatureToken.js"

/**
 * The reference's `MoveType::json_type_name` of a parameter type: what JSON the API expects for it,
 * as shown in argument errors (`integer<u8>`, `string<u64>`, `string<address>`, `boolean`,
 * `string<hex>` for vector<u8>, `array<…>`, `string<move_struct_tag_id>` for structs and generics).
 */
export const jsonTypeName = (t: SignatureToken): string => {
  switch (t._tag) {
    case "U8":
    case "U16":
    case "U32":
    case "I8":
    case "I16":
    case "I32":
      return `integer<${t._tag.toLowerCase()}>`
    case "U64":
    case "U128":
    case "U256":
    case "I64":
    case "I128":
    case "I256":
      return `string<${t._tag.toLowerCase()}>`
    case "Bool":
      return "boolean"
    case "Address":
    case "Signer":
      return "string<address>"
    case "Vector":
      return t.element._tag === "U8" ? "string<hex>" : `array<${jsonTypeName(t.element)}>`
    case "Reference":
    case "MutableReference":
      return jsonTypeName(t.to)
    case "Struct":
    case "StructInstantiation":
    case "TypeParameter":
      return "string<move_struct_tag_id>"
    case "Function":
      return "string<function>"
  }
}

/** Whether a parameter is a signer (`signer`, `&signer`, `&mut signer`): dropped before matching arguments. */
export const isSignerParam = (t: SignatureToken): boolean =>
  t._tag === "Signer" || ((t._tag === "Reference" || t._tag === "MutableReference") && t.to._tag === "Signer")
