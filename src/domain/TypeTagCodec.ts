/**
 * BCS codecs for TypeTag, StructTag, ModuleId and FunctionTag, hand-written on the reader and
 * writer because type tags are on every hot path (transactions, events, state keys).
 *
 * Nesting: the reference refuses to deserialize type tags nested more than 8 boxes deep
 * (`MAX_TYPE_TAG_NESTING`, counting every vector, struct and function level), so decoding carries
 * its own depth and fails past that limit; nothing recurses deeper than the limit.
 *
 * Variant indices follow aptos-core (function = 11, i8…i256 = 12…17); the TypeScript SDK 7.3 numbers
 * the signed types 11…16, so signed type tags are not interchangeable with it.
 */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import { ADDRESS_LENGTH } from "./AccountAddress.js"
import { isValidIdentifier } from "./Identifier.js"
import type { FunctionParamTag, ModuleId, StructTag, TypeTag } from "./TypeTag.js"

/** The reference's `MAX_TYPE_TAG_NESTING`. */
export const MAX_TYPE_TAG_NESTING = 8

const PRIMITIVE_BY_INDEX: ReadonlyArray<TypeTag | undefined> = [
  { _tag: "bool" },
  { _tag: "u8" },
  { _tag: "u64" },
  { _tag: "u128" },
  { _tag: "address" },
  { _tag: "signer" },
  undefined,
  undefined,
  { _tag: "u16" },
  { _tag: "u32" },
  { _tag: "u256" },
  undefined,
  { _tag: "i8" },
  { _tag: "i16" },
  { _tag: "i32" },
  { _tag: "i64" },
  { _tag: "i128" },
  { _tag: "i256" }
]

/** Each variant's BCS index, which is also its declaration order (what the reference's derived `Ord` compares first). */
export const INDEX_BY_TAG: Readonly<Record<TypeTag["_tag"], number>> = {
  bool: 0,
  u8: 1,
  u64: 2,
  u128: 3,
  address: 4,
  signer: 5,
  vector: 6,
  struct: 7,
  u16: 8,
  u32: 9,
  u256: 10,
  function: 11,
  i8: 12,
  i16: 13,
  i32: 14,
  i64: 15,
  i128: 16,
  i256: 17
}

/** Reads a BCS identifier (a string that must be a valid Move identifier). */
export const readIdentifier = (r: BcsReader): string => {
  const start = r.offset
  const s = r.string()
  if (!isValidIdentifier(s)) {
    r.offset = start
    r.fail(`invalid identifier`)
  }
  return s
}

const writeFunctionParam = (w: BcsWriter, p: FunctionParamTag): void => {
  w.u8(p.kind === "reference" ? 0 : p.kind === "mutableReference" ? 1 : 2)
  writeTypeTag(w, p.tag)
}

export const writeTypeTag = (w: BcsWriter, t: TypeTag): void => {
  const index = INDEX_BY_TAG[t._tag]
  w.u8(index)
  switch (t._tag) {
    case "vector":
      writeTypeTag(w, t.element)
      return
    case "struct":
      writeStructTag(w, t.struct)
      return
    case "function":
      w.uleb128(t.args.length)
      for (const a of t.args) writeFunctionParam(w, a)
      w.uleb128(t.results.length)
      for (const a of t.results) writeFunctionParam(w, a)
      w.u8(t.abilities)
      return
  }
}

export const writeStructTag = (w: BcsWriter, s: StructTag): void => {
  w.fixed(s.address)
  w.string(s.module)
  w.string(s.name)
  w.uleb128(s.typeArgs.length)
  for (const t of s.typeArgs) writeTypeTag(w, t)
}

const readFunctionParams = (r: BcsReader, depth: number): FunctionParamTag[] => {
  const n = r.length(2)
  const out: FunctionParamTag[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const k = r.u8()
    if (k > 2) {
      r.offset--
      r.fail(`invalid function parameter kind ${k}`)
    }
    out[i] = { kind: k === 0 ? "reference" : k === 1 ? "mutableReference" : "value", tag: readTypeTagAt(r, depth) }
  }
  return out
}

/** `depth` is the number of boxes (vector/struct/function levels) already entered. */
export const readTypeTagAt = (r: BcsReader, depth: number): TypeTag => {
  const start = r.offset
  const index = r.uleb128()
  const prim = PRIMITIVE_BY_INDEX[index]
  if (prim !== undefined) return prim
  if (index !== 6 && index !== 7 && index !== 11) {
    r.offset = start
    r.fail(`invalid TypeTag variant ${index}`)
  }
  if (depth >= MAX_TYPE_TAG_NESTING) {
    r.offset = start
    r.fail(`type tag nesting exceeds ${MAX_TYPE_TAG_NESTING}`)
  }
  if (index === 6) return { _tag: "vector", element: readTypeTagAt(r, depth + 1) }
  if (index === 7) return { _tag: "struct", struct: readStructTagAt(r, depth + 1) }
  const args = readFunctionParams(r, depth + 1)
  const results = readFunctionParams(r, depth + 1)
  const abilities = r.u8()
  if (abilities > 0x0f) {
    r.offset--
    r.fail(`invalid ability set ${abilities}`)
  }
  return { _tag: "function", args, results, abilities }
}

export const readStructTagAt = (r: BcsReader, depth: number): StructTag => {
  const address = r.fixed(ADDRESS_LENGTH)
  const module = readIdentifier(r)
  const name = readIdentifier(r)
  const n = r.length(1)
  const typeArgs: TypeTag[] = new Array(n)
  for (let i = 0; i < n; i++) typeArgs[i] = readTypeTagAt(r, depth)
  return { address, module, name, typeArgs }
}

export const readTypeTag = (r: BcsReader): TypeTag => readTypeTagAt(r, 0)
export const readStructTag = (r: BcsReader): StructTag => readStructTagAt(r, 0)

export const writeModuleId = (w: BcsWriter, m: ModuleId): void => {
  w.fixed(m.address)
  w.string(m.name)
}

export const readModuleId = (r: BcsReader): ModuleId => ({ address: r.fixed(ADDRESS_LENGTH), name: readIdentifier(r) })

export const typeTagCodec: Codec<TypeTag> = Bcs.codec(writeTypeTag, readTypeTag)
export const structTagCodec: Codec<StructTag> = Bcs.codec(writeStructTag, readStructTag)
export const moduleIdCodec: Codec<ModuleId> = Bcs.codec(writeModuleId, readModuleId)
export const typeTagsCodec: Codec<ReadonlyArray<TypeTag>> = Bcs.vector(typeTagCodec)
