import fc from "fast-check"
import { addressFromNumber, addressToShortString } from "../../../src/domain/AccountAddress.js"
import type { StructTag } from "../../../src/domain/TypeTag.js"
import { Layouts, type MoveTypeLayout, type PrimitiveKind } from "../../../src/move/layout/MoveTypeLayout.js"
import type { JsonValue } from "../../../src/move/json/bcsToJson.js"

const ONE = addressFromNumber(1)
const tag = (module: string, name: string, typeArgs: StructTag["typeArgs"] = []): StructTag => ({
  address: ONE,
  module,
  name,
  typeArgs
})

const ident = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/)

const primitive: fc.Arbitrary<MoveTypeLayout> = fc
  .constantFrom<PrimitiveKind>(
    "bool",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "u256",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "i256",
    "address"
  )
  .map((k) => Layouts[k])

const stringLayout: MoveTypeLayout = {
  _tag: "struct",
  struct: tag("string", "String"),
  fields: [{ name: "bytes", layout: { _tag: "vector", element: Layouts.u8 } }]
}

const objectLayout: MoveTypeLayout = {
  _tag: "struct",
  struct: tag("object", "Object", [{ _tag: "struct", struct: tag("m", "T") }]),
  fields: [{ name: "inner", layout: Layouts.address }]
}

const optionStruct = (e: MoveTypeLayout): MoveTypeLayout => ({
  _tag: "struct",
  struct: tag("option", "Option", [{ _tag: "u8" }]),
  fields: [{ name: "vec", layout: { _tag: "vector", element: e } }]
})

const optionEnum = (e: MoveTypeLayout): MoveTypeLayout => ({
  _tag: "enum",
  struct: tag("option", "Option", [{ _tag: "u8" }]),
  variants: [
    { name: "None", fields: [] },
    { name: "Some", fields: [{ name: "e", layout: e }] }
  ]
})

/** Move structs have at least one field (the compiler adds `dummy_field` to empty ones); variants may have none. */
const uniqueFields = (inner: fc.Arbitrary<MoveTypeLayout>, minLength = 0) =>
  fc
    .uniqueArray(fc.tuple(ident, inner), { minLength, maxLength: 4, selector: ([n]) => n })
    .map((fs) => fs.map(([name, layout]) => ({ name, layout })))

/** Random layouts, including the special structs, bounded in depth. */
export const layoutArb: fc.Arbitrary<MoveTypeLayout> = fc.letrec<{ layout: MoveTypeLayout }>((tie) => ({
  layout: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    primitive,
    fc.constant(stringLayout),
    fc.constant(objectLayout),
    tie("layout").map((e) => ({ _tag: "vector", element: e }) as MoveTypeLayout),
    tie("layout").map(optionStruct),
    tie("layout").map(optionEnum),
    fc
      .tuple(ident, uniqueFields(tie("layout"), 1))
      .map(([name, fields]) => ({ _tag: "struct", struct: tag("m", `S${name}`), fields }) as MoveTypeLayout),
    fc
      .uniqueArray(fc.tuple(ident, uniqueFields(tie("layout"))), { minLength: 1, maxLength: 3, selector: ([n]) => n })
      .map(
        (vs) =>
          ({
            _tag: "enum",
            struct: tag("m", "E"),
            variants: vs.map(([n, fields]) => ({ name: `V${n}`, fields }))
          }) as MoveTypeLayout
      )
  )
})).layout

const intRange = (bits: number, signed: boolean): fc.Arbitrary<bigint> =>
  signed
    ? fc.bigInt({ min: -(1n << BigInt(bits - 1)), max: (1n << BigInt(bits - 1)) - 1n })
    : fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n })

const hex = fc.uint8Array({ maxLength: 40 }).map((b) => "0x" + Buffer.from(b).toString("hex"))
const address = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => addressToShortString(b))

/** A value of `layout` in the API's output form (what bcsToJson prints). */
export const outputValueArb = (layout: MoveTypeLayout): fc.Arbitrary<JsonValue> => {
  switch (layout._tag) {
    case "bool":
      return fc.boolean()
    case "u8":
    case "u16":
    case "u32":
    case "i8":
    case "i16":
    case "i32": {
      const bits = Number(layout._tag.slice(1))
      return intRange(bits, layout._tag.startsWith("i")).map(Number)
    }
    case "u64":
    case "u128":
    case "u256":
    case "i64":
    case "i128":
    case "i256": {
      const bits = Number(layout._tag.slice(1))
      return intRange(bits, layout._tag.startsWith("i")).map(String)
    }
    case "address":
    case "signer":
      return address
    case "function":
      return fc.constant(null)
    case "vector":
      if (layout.element._tag === "u8") return hex
      return fc.array(outputValueArb(layout.element), { maxLength: 3 })
    case "struct":
    case "enum": {
      const { module, name } = layout.struct
      if (module === "string" && name === "String") return fc.string({ unit: "grapheme", maxLength: 10 })
      if (module === "object" && name === "Object") return address.map((inner) => ({ inner }))
      if (module === "option") {
        const e =
          layout._tag === "struct"
            ? (layout.fields[0]!.layout as { element: MoveTypeLayout }).element
            : layout.variants[1]!.fields[0]!.layout
        if (e._tag === "u8") return fc.constantFrom("0x", "0x00", "0xff").map((vec) => ({ vec }))
        return fc.option(outputValueArb(e), { nil: undefined }).map((x) => ({ vec: x === undefined ? [] : [x] }))
      }
      const fieldsArb = (fields: ReadonlyArray<{ name: string; layout: MoveTypeLayout }>) =>
        fc.tuple(...fields.map((f) => outputValueArb(f.layout))).map((vs) => {
          const entries = fields.map((f, i) => [f.name, vs[i]!] as [string, JsonValue])
          return entries
        })
      if (layout._tag === "struct") return fieldsArb(layout.fields).map((es) => sorted(es))
      return fc
        .integer({ min: 0, max: layout.variants.length - 1 })
        .chain((i) =>
          fieldsArb(layout.variants[i]!.fields).map((es) => sorted([["__variant__", layout.variants[i]!.name], ...es]))
        )
    }
  }
}

const sorted = (es: Array<[string, JsonValue]>): JsonValue => {
  es.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return Object.fromEntries(es)
}

/** The input form the API accepts for an output-form value (Object as address, enums externally tagged). */
export const toInputForm = (layout: MoveTypeLayout, v: JsonValue): unknown => {
  switch (layout._tag) {
    case "vector":
      return layout.element._tag === "u8" ? v : (v as JsonValue[]).map((x) => toInputForm(layout.element, x))
    case "struct":
    case "enum": {
      const { module, name } = layout.struct
      if (module === "string" && name === "String") return v
      if (module === "object" && name === "Object") return (v as { inner: string }).inner
      const o = v as Record<string, JsonValue>
      if (module === "option") {
        const e =
          layout._tag === "struct"
            ? (layout.fields[0]!.layout as { element: MoveTypeLayout }).element
            : layout.variants[1]!.fields[0]!.layout
        return { vec: e._tag === "u8" ? o.vec : (o.vec as JsonValue[]).map((x) => toInputForm(e, x)) }
      }
      if (layout._tag === "struct")
        return Object.fromEntries(layout.fields.map((f) => [f.name, toInputForm(f.layout, o[f.name]!)]))
      const variant = layout.variants.find((x) => x.name === o.__variant__)!
      return {
        [variant.name]: Object.fromEntries(variant.fields.map((f) => [f.name, toInputForm(f.layout, o[f.name]!)]))
      }
    }
    default:
      return v
  }
}
