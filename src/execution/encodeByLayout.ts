/**
 * BCS of a Move value given as plain data, walked by the type's layout as the framework module
 * declares it (so a field the framework adds, removes or reorders is noticed, never silently
 * mis-encoded). Used for the arguments the VM builds itself (`PrologueArgs`, `EpilogueArgs`).
 *
 * Values: bool → boolean; u8/u16/u32 → number; wider integers → bigint; address/signer → 32
 * bytes; `vector<u8>` → Uint8Array; other vectors → arrays; structs → objects keyed by field
 * name; enums → `{ variant, fields }`; `Option<T>` (either framework form) → undefined or the value.
 * The layouts are the framework's own and shallow; the values are the executor's, not a client's.
 */
import type { BcsWriter } from "../bcs/index.js"
import { type FieldLayout, type MoveTypeLayout, optionElement } from "../move/layout/MoveTypeLayout.js"

export interface EnumValue {
  readonly variant: string
  readonly fields: Readonly<Record<string, unknown>>
}

/** The framework's type and the value the executor built disagree (a framework the executor does not know). */
export class LayoutMismatch extends Error {
  override readonly name = "LayoutMismatch"
}

const mismatch = (path: string, what: string): never => {
  throw new LayoutMismatch(`${path}: ${what}`)
}

const writeFields = (w: BcsWriter, fields: ReadonlyArray<FieldLayout>, value: unknown, path: string): void => {
  if (typeof value !== "object" || value === null) mismatch(path, "expected an object")
  const obj = value as Record<string, unknown>
  const known = Object.keys(obj)
  if (known.length !== fields.length)
    mismatch(path, `the framework declares ${fields.map((f) => f.name).join(", ")}; given ${known.join(", ")}`)
  for (const f of fields) {
    if (!Object.hasOwn(obj, f.name)) mismatch(path, `no value for the framework's field ${f.name}`)
    write(w, f.layout, obj[f.name], `${path}.${f.name}`)
  }
}

const write = (w: BcsWriter, layout: MoveTypeLayout, value: unknown, path: string): void => {
  switch (layout._tag) {
    case "bool":
      if (typeof value !== "boolean") mismatch(path, "expected a bool")
      w.bool(value as boolean)
      return
    case "u8":
    case "u16":
    case "u32": {
      if (typeof value !== "number") mismatch(path, `expected a ${layout._tag}`)
      const n = value as number
      if (layout._tag === "u8") w.u8(n)
      else if (layout._tag === "u16") w.u16(n)
      else w.u32(n)
      return
    }
    case "u64":
    case "u128":
    case "u256": {
      if (typeof value !== "bigint") mismatch(path, `expected a ${layout._tag}`)
      const n = value as bigint
      if (layout._tag === "u64") w.u64(n)
      else if (layout._tag === "u128") w.u128(n)
      else w.u256(n)
      return
    }
    case "address":
    case "signer":
      if (!(value instanceof Uint8Array) || value.length !== 32) mismatch(path, "expected an address")
      w.fixed(value as Uint8Array)
      return
    case "vector": {
      if (layout.element._tag === "u8") {
        if (!(value instanceof Uint8Array)) mismatch(path, "expected bytes")
        w.bytesWithLength(value as Uint8Array)
        return
      }
      if (!Array.isArray(value)) mismatch(path, "expected an array")
      const items = value as unknown[]
      w.uleb128(items.length)
      for (let i = 0; i < items.length; i++) write(w, layout.element, items[i], `${path}[${i}]`)
      return
    }
    case "struct":
    case "enum": {
      const element = optionElement(layout)
      if (element !== undefined) {
        // Option, in either framework form, is BCS vector<T> of length 0 or 1.
        if (value === undefined) w.uleb128(0)
        else {
          w.uleb128(1)
          write(w, element, value, `${path}.some`)
        }
        return
      }
      if (layout._tag === "struct") {
        writeFields(w, layout.fields, value, path)
        return
      }
      const e = value as EnumValue
      if (typeof e !== "object" || e === null || typeof e.variant !== "string") mismatch(path, "expected a variant")
      const index = layout.variants.findIndex((v) => v.name === e.variant)
      if (index < 0)
        mismatch(
          path,
          `the framework's enum has variants ${layout.variants.map((v) => v.name).join(", ")}, not ${e.variant}`
        )
      w.uleb128(index)
      writeFields(w, layout.variants[index]!.fields, e.fields, `${path}::${e.variant}`)
      return
    }
    default:
      mismatch(path, `unsupported layout ${layout._tag}`)
  }
}

/** Writes `value` as BCS of `layout` into `w`; throws `LayoutMismatch` when they disagree. */
export const encodeByLayout = (w: BcsWriter, layout: MoveTypeLayout, value: unknown, path = "value"): void =>
  write(w, layout, value, path)

/**
 * `encodeByLayout` of `job.value` into `w`, as bytes: for `withScratchWriter(encodeToBytesWith, job)`
 * on a path taken per transaction (a function made once rather than a closure per call), for
 * arguments one run decodes: in a slab (see below).
 */
export const encodeToBytesWith = (
  w: BcsWriter,
  job: { readonly layout: MoveTypeLayout; readonly value: unknown; readonly path: string }
): Uint8Array => {
  encodeByLayout(w, job.layout, job.value, job.path)
  // The prologue's and epilogue's arguments: decoded by the one run they are for, then dropped
  // (bcs/slabBytes.ts).
  return w.toSlabBytes()
}
