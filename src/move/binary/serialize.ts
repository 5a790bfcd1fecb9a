import { BcsWriter } from "../../bcs/index.js"
import type { CommonTables, CompiledModule, CompiledScript, FieldDefinition, ModuleHandle } from "./CompiledModule.js"
import { APTOS_BYTECODE_VERSION_MASK, MAGIC } from "./limits.js"
import { TableKind } from "./TableKind.js"
import { writeAccessSpecifiers, writeAttribute, writeCodeUnit, writeSignatureToken } from "./writeEntries.js"

type Table = readonly [kind: number, write: (w: BcsWriter) => void, count: number]

const table = <A>(kind: number, items: ReadonlyArray<A>, item: (w: BcsWriter, a: A) => void): Table => [
  kind,
  (w) => {
    for (const a of items) item(w, a)
  },
  items.length
]

const moduleHandle = (w: BcsWriter, h: ModuleHandle): void => {
  w.uleb128(h.address).uleb128(h.name)
}

const fields = (w: BcsWriter, fs: ReadonlyArray<FieldDefinition>): void => {
  w.uleb128(fs.length)
  for (const f of fs) {
    w.uleb128(f.name)
    writeSignatureToken(w, f.type)
  }
}

const inst = (w: BcsWriter, i: { readonly handle: number; readonly typeParameters: number }): void => {
  w.uleb128(i.handle).uleb128(i.typeParameters)
}

/** The common tables, in the order the reference serializer writes them. */
const commonTables = (t: CommonTables): Table[] => {
  const v = t.version
  return [
    table(TableKind.MODULE_HANDLES, t.moduleHandles, moduleHandle),
    table(TableKind.STRUCT_HANDLES, t.structHandles, (w, h) => {
      w.uleb128(h.module).uleb128(h.name).uleb128(h.abilities).uleb128(h.typeParameters.length)
      for (const p of h.typeParameters) w.uleb128(p.constraints).uleb128(p.isPhantom ? 1 : 0)
    }),
    table(TableKind.FUNCTION_HANDLES, t.functionHandles, (w, h) => {
      w.uleb128(h.module).uleb128(h.name).uleb128(h.parameters).uleb128(h.returns)
      w.uleb128(h.typeParameters.length)
      for (const a of h.typeParameters) w.uleb128(a)
      if (v >= 7) writeAccessSpecifiers(w, h.accessSpecifiers)
      if (v >= 8) {
        w.uleb128(h.attributes.length)
        for (const a of h.attributes) writeAttribute(w, a)
      }
    }),
    table(TableKind.FUNCTION_INST, t.functionInstantiations, inst),
    table(TableKind.SIGNATURES, t.signatures, (w, sig) => {
      w.uleb128(sig.length)
      for (const tok of sig) writeSignatureToken(w, tok)
    }),
    table(TableKind.IDENTIFIERS, t.identifiers, (w, s) => w.string(s)),
    table(TableKind.ADDRESS_IDENTIFIERS, t.addressIdentifiers, (w, a) => w.fixed(a)),
    table(TableKind.CONSTANT_POOL, t.constantPool, (w, c) => {
      writeSignatureToken(w, c.type)
      w.bytesWithLength(c.data)
    }),
    table(TableKind.METADATA, t.metadata, (w, m) => w.bytesWithLength(m.key).bytesWithLength(m.value))
  ]
}

const moduleTables = (m: CompiledModule): Table[] => [
  table(TableKind.STRUCT_DEFS, m.structDefs, (w, d) => {
    w.uleb128(d.structHandle)
    const fi = d.fieldInformation
    if (fi._tag === "Native") w.u8(1)
    else if (fi._tag === "Declared") fields(w.u8(2), fi.fields)
    else {
      w.u8(3).uleb128(fi.variants.length)
      for (const v of fi.variants) fields(w.uleb128(v.name), v.fields)
    }
  }),
  table(TableKind.STRUCT_DEF_INST, m.structDefInstantiations, (w, i) => w.uleb128(i.def).uleb128(i.typeParameters)),
  table(TableKind.FUNCTION_DEFS, m.functionDefs, (w, d) => {
    const flags = (d.code === undefined ? 0x2 : 0) | (d.isEntry ? 0x4 : 0)
    w.uleb128(d.function).u8(d.visibility).u8(flags).uleb128(d.acquiresGlobalResources.length)
    for (const a of d.acquiresGlobalResources) w.uleb128(a)
    if (d.code !== undefined) writeCodeUnit(w, d.code)
  }),
  table(TableKind.FIELD_HANDLES, m.fieldHandles, (w, h) => w.uleb128(h.owner).uleb128(h.field)),
  table(TableKind.FIELD_INST, m.fieldInstantiations, inst),
  table(TableKind.FRIEND_DECLS, m.friendDecls, moduleHandle),
  table(TableKind.VARIANT_FIELD_HANDLES, m.variantFieldHandles, (w, h) => {
    w.uleb128(h.struct).uleb128(h.field).uleb128(h.variants.length)
    for (const v of h.variants) w.uleb128(v)
  }),
  table(TableKind.VARIANT_FIELD_INST, m.variantFieldInstantiations, inst),
  table(TableKind.STRUCT_VARIANT_HANDLES, m.structVariantHandles, (w, h) => w.uleb128(h.struct).uleb128(h.variant)),
  table(TableKind.STRUCT_VARIANT_INST, m.structVariantInstantiations, inst)
]

/** Magic, version word, table directory and contents (empty tables are left out), then the trailer. */
const assemble = (version: number, tables: ReadonlyArray<Table>, trailer: (w: BcsWriter) => void): Uint8Array => {
  const bodies: Array<[number, Uint8Array]> = []
  for (const [kind, write, count] of tables) {
    if (count === 0) continue
    const w = new BcsWriter(1024)
    write(w)
    bodies.push([kind, w.toBytes()])
  }
  const out = new BcsWriter(4096)
  out.fixed(MAGIC)
  out.u32(version >= 7 ? (APTOS_BYTECODE_VERSION_MASK | version) >>> 0 : version)
  out.uleb128(bodies.length)
  let offset = 0
  for (const [kind, body] of bodies) {
    out.u8(kind).uleb128(offset).uleb128(body.length)
    offset += body.length
  }
  for (const [, body] of bodies) out.fixed(body)
  trailer(out)
  return out.toBytes()
}

/**
 * Writes a module in the reference serializer's layout, so a module read from chain re-serializes
 * to the identical bytes (v7+ get the Aptos version mask, as every Aptos-published module has).
 */
export const serializeModule = (m: CompiledModule): Uint8Array =>
  assemble(m.version, [...commonTables(m), ...moduleTables(m)], (w) => {
    w.uleb128(m.selfModuleHandleIndex)
  })

export const serializeScript = (s: CompiledScript): Uint8Array =>
  assemble(s.version, commonTables(s), (w) => {
    w.uleb128(s.typeParameters.length)
    for (const a of s.typeParameters) w.uleb128(a)
    w.uleb128(s.parameters)
    if (s.version >= 8) writeAccessSpecifiers(w, s.accessSpecifiers)
    writeCodeUnit(w, s.code)
  })
