import * as Result from "effect/Result"
import { BinaryCursor } from "./BinaryCursor.js"
import { BinaryError, BinaryFailure, fail } from "./BinaryError.js"
import { checkModuleBounds, checkScriptBounds } from "./checkBounds.js"
import type { CommonTables, CompiledModule, CompiledScript } from "./CompiledModule.js"
import { VERSION_MAX, VERSION_MIN } from "./CompiledModule.js"
import {
  APTOS_BYTECODE_VERSION_MASK,
  IDENTIFIER_SIZE_MAX,
  MAGIC,
  TABLE_COUNT_MAX,
  TABLE_INDEX_MAX,
  TABLE_OFFSET_MAX,
  TABLE_SIZE_MAX
} from "./limits.js"
import { readCodeUnit } from "./readCode.js"
import * as E from "./readEntries.js"
import { readIdentifier } from "./readIdentifier.js"
import { TableKind } from "./TableKind.js"

export interface DeserializeOptions {
  /** Highest bytecode version accepted (default VERSION_MAX = 10); nodes gate v8+ by feature flags. */
  readonly maxVersion?: number
  /** Longest identifier accepted (default 255; the legacy limit is 65,535). */
  readonly maxIdentifierSize?: number
}

interface TableHeader {
  readonly kind: number
  readonly offset: number
  readonly size: number
}

interface Layout {
  readonly version: number
  readonly tables: ReadonlyArray<TableHeader>
  readonly contentStart: number
  /** First byte after the table contents (the module/script trailer starts here). */
  readonly contentEnd: number
}

const readLayout = (bytes: Uint8Array, maxVersion: number): Layout => {
  if (bytes.length < 8 || MAGIC.some((b, i) => bytes[i] !== b)) fail("BadMagic", "bad magic", 0)
  const word = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true)
  const version = (word & 0xff00_0000) === APTOS_BYTECODE_VERSION_MASK ? word & 0x00ff_ffff : word
  if (version < VERSION_MIN || version > maxVersion)
    fail("UnknownVersion", `bytecode version ${version} outside ${VERSION_MIN}..${maxVersion}`, 4)
  const c = new BinaryCursor(bytes, 8, bytes.length, version)
  const count = c.uleb(TABLE_COUNT_MAX, "table count")
  const tables: TableHeader[] = []
  const seen = new Set<number>()
  for (let i = 0; i < count; i++) {
    const at = c.offset
    const kind = c.u8()
    if (!TableKind.isKnown(kind)) fail("UnknownTableType", `unknown table kind 0x${kind.toString(16)}`, at)
    if (seen.has(kind)) fail("DuplicateTable", `table kind 0x${kind.toString(16)} appears twice`, at)
    seen.add(kind)
    const offset = c.uleb(TABLE_OFFSET_MAX, "table offset")
    const size = c.uleb(TABLE_SIZE_MAX, "table size")
    tables.push({ kind, offset, size })
  }
  const contentStart = c.offset
  const sorted = [...tables].sort((a, b) => a.offset - b.offset)
  let next = 0
  for (const t of sorted) {
    if (t.offset !== next) fail("BadHeaderTable", `tables do not tile: expected offset ${next}, got ${t.offset}`)
    if (t.size === 0) fail("BadHeaderTable", `empty table of kind 0x${t.kind.toString(16)}`)
    next += t.size
    if (contentStart + next > bytes.length) fail("BadHeaderTable", "table extends past the end of the input")
  }
  return { version, tables, contentStart, contentEnd: contentStart + next }
}

type MutableTables = {
  -readonly [K in keyof CompiledModule]: CompiledModule[K]
}

const emptyTables = (version: number): MutableTables => ({
  version,
  selfModuleHandleIndex: 0,
  moduleHandles: [],
  structHandles: [],
  functionHandles: [],
  functionInstantiations: [],
  signatures: [],
  identifiers: [],
  addressIdentifiers: [],
  constantPool: [],
  metadata: [],
  structDefs: [],
  structDefInstantiations: [],
  functionDefs: [],
  fieldHandles: [],
  fieldInstantiations: [],
  friendDecls: [],
  variantFieldHandles: [],
  variantFieldInstantiations: [],
  structVariantHandles: [],
  structVariantInstantiations: []
})

const readTables = (bytes: Uint8Array, layout: Layout, isScript: boolean, maxIdentifierSize: number): MutableTables => {
  const out = emptyTables(layout.version)
  for (const t of layout.tables) {
    const start = layout.contentStart + t.offset
    const c = new BinaryCursor(bytes, start, start + t.size, layout.version)
    const each = <A>(read: (c: BinaryCursor) => A): A[] => {
      const items: A[] = []
      while (!c.atEnd) {
        if (items.length > TABLE_INDEX_MAX) fail("LimitExceeded", "table has more than 65,536 entries", c.offset)
        items.push(read(c))
      }
      return items
    }
    if (isScript && !TableKind.isCommon(t.kind))
      fail("Malformed", `table kind 0x${t.kind.toString(16)} in a script`, start)
    if (TableKind.isVariant(t.kind) && layout.version < 7)
      fail("FeatureNotInVersion", "enum tables need bytecode v7", start)
    switch (t.kind) {
      case TableKind.MODULE_HANDLES:
        out.moduleHandles = each(E.readModuleHandle)
        break
      case TableKind.STRUCT_HANDLES:
        out.structHandles = each(E.readStructHandle)
        break
      case TableKind.FUNCTION_HANDLES:
        out.functionHandles = each(E.readFunctionHandle)
        break
      case TableKind.FUNCTION_INST:
        out.functionInstantiations = each(E.readInstantiation)
        break
      case TableKind.SIGNATURES:
        out.signatures = each(E.readSignature)
        break
      case TableKind.CONSTANT_POOL:
        out.constantPool = each(E.readConstant)
        break
      case TableKind.IDENTIFIERS:
        out.identifiers = each((c) => readIdentifier(c, maxIdentifierSize))
        break
      case TableKind.ADDRESS_IDENTIFIERS:
        out.addressIdentifiers = each(E.readAddress)
        break
      case TableKind.METADATA:
        out.metadata = each(E.readMetadata)
        break
      case TableKind.STRUCT_DEFS:
        out.structDefs = each(E.readStructDef)
        break
      case TableKind.STRUCT_DEF_INST:
        out.structDefInstantiations = each(E.readStructDefInst)
        break
      case TableKind.FUNCTION_DEFS:
        out.functionDefs = each(E.readFunctionDef)
        break
      case TableKind.FIELD_HANDLES:
        out.fieldHandles = each(E.readFieldHandle)
        break
      case TableKind.FIELD_INST:
        out.fieldInstantiations = each(E.readInstantiation)
        break
      case TableKind.FRIEND_DECLS:
        out.friendDecls = each(E.readModuleHandle)
        break
      case TableKind.VARIANT_FIELD_HANDLES:
        out.variantFieldHandles = each(E.readVariantFieldHandle)
        break
      case TableKind.VARIANT_FIELD_INST:
        out.variantFieldInstantiations = each(E.readInstantiation)
        break
      case TableKind.STRUCT_VARIANT_HANDLES:
        out.structVariantHandles = each(E.readStructVariantHandle)
        break
      case TableKind.STRUCT_VARIANT_INST:
        out.structVariantInstantiations = each(E.readInstantiation)
        break
    }
  }
  return out
}

const toError = (e: unknown): BinaryError => {
  if (e instanceof BinaryFailure) return new BinaryError({ kind: e.kind, message: e.message, offset: e.offset })
  // Anything else is a reader bug; still reported as a typed error rather than thrown.
  return new BinaryError({ kind: "Malformed", message: `internal reader error: ${String(e)}`, offset: -1 })
}

/**
 * Reads a compiled module, treating the bytes as hostile: header and table-directory checks, every
 * per-field maximum, canonical uleb128, version-gated features, then bounds checks on every index.
 * Bytes after the trailer are ignored, as the reference's deserializer ignores them (it reads the
 * trailer and stops; a script in the TypeScript SDK's e2e tests carries 278 such bytes). Never throws.
 */
export const deserializeModule = (
  bytes: Uint8Array,
  opts: DeserializeOptions = {}
): Result.Result<CompiledModule, BinaryError> => {
  try {
    const layout = readLayout(bytes, opts.maxVersion ?? VERSION_MAX)
    const module = readTables(bytes, layout, false, opts.maxIdentifierSize ?? IDENTIFIER_SIZE_MAX)
    const c = new BinaryCursor(bytes, layout.contentEnd, bytes.length, layout.version)
    module.selfModuleHandleIndex = c.uleb(TABLE_INDEX_MAX, "self module handle index")
    checkModuleBounds(module)
    return Result.succeed(module)
  } catch (e) {
    return Result.fail(toError(e))
  }
}

/**
 * Reads a compiled script (common tables only, then the script function's trailer); bytes after the
 * trailer are ignored, as for modules. Never throws.
 */
export const deserializeScript = (
  bytes: Uint8Array,
  opts: DeserializeOptions = {}
): Result.Result<CompiledScript, BinaryError> => {
  try {
    const layout = readLayout(bytes, opts.maxVersion ?? VERSION_MAX)
    const tables: CommonTables = readTables(bytes, layout, true, opts.maxIdentifierSize ?? IDENTIFIER_SIZE_MAX)
    const c = new BinaryCursor(bytes, layout.contentEnd, bytes.length, layout.version)
    const typeParameters = E.readAbilitySets(c)
    const parameters = c.uleb(TABLE_INDEX_MAX, "signature index")
    const accessSpecifiers = layout.version >= 8 ? E.readAccessSpecifiers(c) : undefined
    const code = readCodeUnit(c)
    const script: CompiledScript = {
      version: tables.version,
      moduleHandles: tables.moduleHandles,
      structHandles: tables.structHandles,
      functionHandles: tables.functionHandles,
      functionInstantiations: tables.functionInstantiations,
      signatures: tables.signatures,
      identifiers: tables.identifiers,
      addressIdentifiers: tables.addressIdentifiers,
      constantPool: tables.constantPool,
      metadata: tables.metadata,
      typeParameters,
      parameters,
      accessSpecifiers,
      code
    }
    checkScriptBounds(script)
    return Result.succeed(script)
  } catch (e) {
    return Result.fail(toError(e))
  }
}
