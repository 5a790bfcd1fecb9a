/**
 * Function values (closures, bytecode v8+) as JSON. A serialised closure is self-describing:
 * format version (u16, must be 1), module id, function name, type arguments, closure mask (u64),
 * then for each captured argument its serialised runtime layout followed by its value. The JSON is
 * `{"__fun_name__": "0x1::m::f", "__mask__": "…", "__ty_args__": [...]?, "__captured__": [...]?}`.
 *
 * Captured layouts are the reference's serde encoding of its runtime `MoveTypeLayout`; the variants
 * decoded here are the ones with a stable index (bool … u256 and vectors of them). A closure
 * capturing a struct, enum or nested function fails cleanly with a typed error.
 */
import type { BcsReader } from "../../bcs/index.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import type { TypeTag } from "../../domain/TypeTag.js"
import { typeTagToString } from "../../domain/TypeTagString.js"
import { readIdentifier, readModuleId, readTypeTag } from "../../domain/TypeTagCodec.js"
import { Layouts, type MoveTypeLayout, vectorLayout } from "../layout/MoveTypeLayout.js"
import { type JsonValue, readValueAsJson, sortedObject } from "./bcsToJson.js"
import type { ConversionLimits } from "./limits.js"

const FUNCTION_DATA_FORMAT_V1 = 1

/** Serde variant index → layout, for the runtime layouts a closure may carry. */
const SERIALIZED_PRIMITIVES: ReadonlyArray<MoveTypeLayout | undefined> = [
  Layouts.bool,
  Layouts.u8,
  Layouts.u64,
  Layouts.u128,
  Layouts.address,
  undefined, // 5 vector (handled below)
  undefined, // 6 struct: not supported here
  Layouts.signer,
  Layouts.u16,
  Layouts.u32,
  Layouts.u256
]

/** A captured value's serialised layout: vectors (index 5) around a primitive, read in a loop. */
const readSerializedLayout = (r: BcsReader, limits: ConversionLimits): MoveTypeLayout => {
  let vectors = 0
  for (;;) {
    const start = r.offset
    const index = r.uleb128()
    if (index === 5) {
      if (++vectors > limits.maxDepth) r.fail(`captured layout nested deeper than ${limits.maxDepth}`)
      continue
    }
    let layout = SERIALIZED_PRIMITIVES[index]
    if (layout === undefined) {
      r.offset = start
      return r.fail(`unsupported captured value layout ${index} in closure`)
    }
    for (let i = 0; i < vectors; i++) layout = vectorLayout(layout)
    return layout
  }
}

const popCount = (mask: bigint): number => {
  let n = 0
  for (let m = mask; m > 0n; m >>= 1n) if (m & 1n) n++
  return n
}

export const readClosureJson = (r: BcsReader, limits: ConversionLimits): JsonValue => {
  const start = r.offset
  const version = r.u16()
  if (version !== FUNCTION_DATA_FORMAT_V1) {
    r.offset = start
    r.fail(`unexpected function data version ${version}`)
  }
  const module = readModuleId(r)
  const fun = readIdentifier(r)
  const n = r.length(1)
  const tyArgs: TypeTag[] = new Array(n)
  for (let i = 0; i < n; i++) tyArgs[i] = readTypeTag(r)
  const mask = r.u64()
  const captured: JsonValue[] = []
  const count = popCount(mask)
  for (let i = 0; i < count; i++) {
    const layout = readSerializedLayout(r, limits)
    captured.push(readValueAsJson(r, layout, limits))
  }
  const entries: Array<[string, JsonValue]> = [
    ["__fun_name__", `${addressToShortString(module.address)}::${module.name}::${fun}`],
    ["__mask__", mask.toString(2)]
  ]
  if (tyArgs.length > 0) entries.push(["__ty_args__", tyArgs.map(typeTagToString)])
  if (captured.length > 0) entries.push(["__captured__", captured])
  return sortedObject(entries)
}
