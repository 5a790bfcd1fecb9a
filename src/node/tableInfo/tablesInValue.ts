/**
 * The tables a Move value holds: every `0x1::table::Table<K, V>` inside it (directly, or inside a
 * `TableWithLength`, `SmartTable`, `BigVector`, … which all wrap one), with its handle and its
 * key and value types, found by walking the value's BCS with its layout. This is how a node learns
 * a table's types (the reference's table-info indexer annotates every written resource and table
 * value and records each `Table` struct it meets): the handle alone says nothing about them.
 *
 * Bounded like the JSON converter: nesting by the layout's depth (the resolver bounds it), vector
 * counts by the bytes left, closures skipped with the converter's own reader. A value that does not
 * decode yields a failure, never an exception.
 */
import * as Result from "effect/Result"
import { BcsError, BcsReader } from "../../bcs/index.js"
import { addressEquals, addressFromNumber } from "../../domain/AccountAddress.js"
import type { StructTag, TypeTag } from "../../domain/TypeTag.js"
import { readValueAsJson } from "../../move/json/bcsToJson.js"
import { defaultConversionLimits } from "../../move/json/limits.js"
import { INTEGER_KINDS, isIntegerKind, type MoveTypeLayout } from "../../move/layout/MoveTypeLayout.js"

/** One table found in a value: its handle (32 bytes) and its type arguments. */
export interface FoundTable {
  readonly handle: Uint8Array
  readonly key: TypeTag
  readonly value: TypeTag
}

const ONE = addressFromNumber(1)

/** `0x1::table::Table<K, V>`, the one struct that holds a handle. */
export const isTableStruct = (s: StructTag): boolean =>
  s.module === "table" && s.name === "Table" && s.typeArgs.length === 2 && addressEquals(s.address, ONE)

const holdsTable = new WeakMap<MoveTypeLayout, boolean>()

/** Whether any value of `layout` can hold a table (memoized per layout node; layouts are acyclic). */
export const layoutHoldsTable = (layout: MoveTypeLayout): boolean => {
  const known = holdsTable.get(layout)
  if (known !== undefined) return known
  let answer: boolean
  switch (layout._tag) {
    case "vector":
      answer = layoutHoldsTable(layout.element)
      break
    case "struct":
      answer = isTableStruct(layout.struct) || layout.fields.some((f) => layoutHoldsTable(f.layout))
      break
    case "enum":
      answer = layout.variants.some((v) => v.fields.some((f) => layoutHoldsTable(f.layout)))
      break
    default:
      // Primitives; a closure's captured values are not walked (their layouts travel with them).
      answer = false
  }
  holdsTable.set(layout, answer)
  return answer
}

const skipScalar = (r: BcsReader, tag: string): void => {
  if (tag === "bool") r.bool()
  else if (tag === "address" || tag === "signer") r.fixed(32)
  else if (isIntegerKind(tag)) r.fixed(INTEGER_KINDS[tag].bits / 8)
  else r.fail(`unknown layout ${tag}`)
}

/** Reads one value of `layout`, pushing the tables it holds onto `out`. Throws BcsError. */
const walk = (r: BcsReader, layout: MoveTypeLayout, out: FoundTable[]): void => {
  switch (layout._tag) {
    case "vector": {
      if (layout.element._tag === "u8") {
        r.bytesWithLength()
        return
      }
      const n = r.length(1)
      for (let i = 0; i < n; i++) walk(r, layout.element, out)
      return
    }
    case "struct": {
      if (isTableStruct(layout.struct)) {
        const [key, value] = layout.struct.typeArgs as [TypeTag, TypeTag]
        const handle = r.fixed(32)
        for (const f of layout.fields.slice(1)) walk(r, f.layout, out)
        out.push({ handle, key, value })
        return
      }
      for (const f of layout.fields) walk(r, f.layout, out)
      return
    }
    case "enum": {
      const start = r.offset
      const variant = layout.variants[r.uleb128()]
      if (variant === undefined) {
        r.offset = start
        r.fail(`invalid variant index for ${layout.struct.name}`)
      }
      for (const f of variant.fields) walk(r, f.layout, out)
      return
    }
    case "function":
      readValueAsJson(r, layout, defaultConversionLimits)
      return
    default:
      skipScalar(r, layout._tag)
  }
}

/** The tables held by the value `bytes` of `layout` (none, without reading, when the layout holds none). */
export const tablesInValue = (layout: MoveTypeLayout, bytes: Uint8Array): Result.Result<FoundTable[], string> => {
  if (!layoutHoldsTable(layout)) return Result.succeed([])
  try {
    const r = new BcsReader(bytes)
    const out: FoundTable[] = []
    walk(r, layout, out)
    r.expectEnd()
    return Result.succeed(out)
  } catch (e) {
    if (e instanceof BcsError) return Result.fail(`failed to deserialize value: ${e.message}`)
    return Result.fail(e instanceof Error ? e.message : String(e))
  }
}
