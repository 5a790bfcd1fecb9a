import { toHex0x } from "../../../bcs/index.js"
import { addressToLongString, addressToShortString } from "../../../domain/AccountAddress.js"
import { K, substitute, type Type, typeName } from "../Type.js"
import type { StructValue, Value } from "../Value.js"
import { deref, makeString, utf8 } from "./helpers.js"
import { type NativeContext, type NativeFunction, nativeAbort } from "./NativeContext.js"

/** `0x1::string_utils` abort codes. */
const EARGS_MISMATCH = 1n
const EINVALID_FORMAT = 2n

interface FormatOptions {
  readonly typeTag: boolean
  readonly canonicalize: boolean
  readonly singleLine: boolean
  readonly intTypes: boolean
}

const INT_NAMES: Record<number, string> = {
  1: "u8",
  2: "u16",
  3: "u32",
  4: "u64",
  5: "u128",
  6: "u256",
  7: "i8",
  8: "i16",
  9: "i32",
  10: "i64",
  11: "i128",
  12: "i256"
}

/** Move values as `string_utils::to_string` prints them (a close rendering of the reference's). */
const format = (t: Type, v: Value, o: FormatOptions, depth: number): string => {
  if (depth > 64) return "..."
  switch (t.k) {
    case K.Bool:
      return String(v)
    case K.Address:
      return "@" + (o.canonicalize ? addressToLongString(v as Uint8Array) : addressToShortString(v as Uint8Array))
    case K.Signer: {
      const a = (v as StructValue).fields[0] as Uint8Array
      return `signer(@${o.canonicalize ? addressToLongString(a) : addressToShortString(a)})`
    }
    case K.Vector: {
      const arr = v as Value[]
      if (t.elem.k === K.U8) return toHex0x(Uint8Array.from(arr as number[]))
      return "[" + arr.map((x) => format(t.elem, x, o, depth + 1)).join(", ") + "]"
    }
    case K.Struct: {
      const d = t.def
      const s = v as StructValue
      if (d.address[31] === 1 && d.module === "string" && d.name === "String") {
        try {
          return JSON.stringify(utf8.decode(Uint8Array.from(s.fields[0] as number[])))
        } catch {
          return "<invalid utf-8>"
        }
      }
      const fields = d.variants !== undefined ? d.variants[s.tag]!.fields : (d.fields ?? [])
      const parts = fields.map((f, i) => `${f.name}: ${format(substitute(f.type, t.args), s.fields[i], o, depth + 1)}`)
      const head = (o.typeTag ? typeName(t) : d.name) + (d.variants !== undefined ? `::${d.variants[s.tag]!.name}` : "")
      return parts.length === 0 ? head : `${head} { ${parts.join(", ")} }`
    }
    case K.Function:
      return "<function>"
    default: {
      const name = INT_NAMES[t.k]
      return String(v) + (o.intTypes && name !== undefined ? name : "")
    }
  }
}

/** Walks a `Cons<Head, Tail>` / `NIL` list: its element types and values. */
const listItems = (t: Type, v: Value): Array<[Type, Value]> => {
  const out: Array<[Type, Value]> = []
  let ty = t
  let val = v
  while (ty.k === K.Struct && ty.def.name === "Cons" && ty.args.length === 2) {
    const s = val as StructValue
    out.push([ty.args[0]!, s.fields[0]])
    val = s.fields[1]
    ty = ty.args[1]!
  }
  return out
}

const formatList = (ctx: NativeContext, fmt: string, items: Array<[Type, Value]>): string => {
  const o: FormatOptions = { typeTag: false, canonicalize: false, singleLine: true, intTypes: false }
  let out = ""
  let next = 0
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]
    if (c === "{") {
      if (fmt[i + 1] === "{") {
        out += "{"
        i++
      } else if (fmt[i + 1] === "}") {
        const item = items[next++]
        if (item === undefined) return nativeAbort(ctx, EARGS_MISMATCH)
        out += format(item[0], item[1], o, 0)
        i++
      } else return nativeAbort(ctx, EINVALID_FORMAT)
    } else if (c === "}") {
      if (fmt[i + 1] !== "}") return nativeAbort(ctx, EINVALID_FORMAT)
      out += "}"
      i++
    } else out += c
  }
  if (next !== items.length) return nativeAbort(ctx, EARGS_MISMATCH)
  return out
}

export const stringUtilsNatives: Record<string, NativeFunction> = {
  native_format: (_c, [t], [v, typeTag, canonicalize, singleLine, intTypes]) => [
    makeString(
      format(
        t!,
        deref(v),
        {
          typeTag: typeTag as boolean,
          canonicalize: canonicalize as boolean,
          singleLine: singleLine as boolean,
          intTypes: intTypes as boolean
        },
        0
      )
    )
  ],
  native_format_list: (ctx, [t], [fmt, v]) => {
    let text: string
    try {
      text = utf8.decode(Uint8Array.from(deref(fmt) as number[]))
    } catch {
      return nativeAbort(ctx, EINVALID_FORMAT)
    }
    return [makeString(formatList(ctx, text, listItems(t!, deref(v))))]
  }
}
