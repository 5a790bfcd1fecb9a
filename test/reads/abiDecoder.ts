/**
 * A second, independent Move value decoder for the read endpoints' tests: it walks BCS bytes with the
 * TypeScript SDK's `Deserializer`, driven by module ABIs (the JSON the module endpoint serves, whose
 * conformance the module tests check against the SDK) and type strings, and builds the JSON the
 * reference's API shows (aptos-api-behaviour.md §1.10). It shares no code with `src/move/json`.
 */
import { AccountAddress, Deserializer } from "@aptos-labs/ts-sdk"

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

interface AbiField {
  readonly name: string
  readonly type: string
}
interface AbiStruct {
  readonly name: string
  readonly is_enum: boolean
  readonly fields: ReadonlyArray<AbiField>
  readonly variants: ReadonlyArray<{ readonly name: string; readonly fields: ReadonlyArray<AbiField> }>
}
export interface AbiModule {
  readonly structs: ReadonlyArray<AbiStruct>
}

/** A parsed type string: a name (primitive or `addr::module::Name`) and its type arguments. */
interface TypeNode {
  readonly name: string
  readonly args: ReadonlyArray<TypeNode>
}

export const parseType = (text: string): TypeNode => {
  let i = 0
  const s = text.replace(/\s+/g, "")
  const node = (): TypeNode => {
    let name = ""
    while (i < s.length && s[i] !== "<" && s[i] !== ">" && s[i] !== ",") name += s[i++]
    const args: TypeNode[] = []
    if (s[i] === "<") {
      i++
      args.push(node())
      while (s[i] === ",") {
        i++
        args.push(node())
      }
      if (s[i++] !== ">") throw new Error(`bad type ${text}`)
    }
    return { name, args }
  }
  const out = node()
  if (i !== s.length) throw new Error(`bad type ${text}`)
  return out
}

const normalizeAddress = (a: string): string => AccountAddress.from(a).toStringShort()

export class UnsupportedType extends Error {}

/**
 * Decodes one value of `type` from `d`. `abiOf(address, module)` gives a module's ABI (sync: the
 * caller fetches ABIs first; it throws MissingAbi for one it lacks, so the caller can fetch it).
 */
export const decodeValue = (
  type: TypeNode,
  d: Deserializer,
  abiOf: (address: string, module: string) => AbiModule
): Json => {
  switch (type.name) {
    case "bool":
      return d.deserializeBool()
    case "u8":
      return d.deserializeU8()
    case "u16":
      return d.deserializeU16()
    case "u32":
      return d.deserializeU32()
    case "u64":
      return d.deserializeU64().toString()
    case "u128":
      return d.deserializeU128().toString()
    case "u256":
      return d.deserializeU256().toString()
    case "i8":
      return d.deserializeI8()
    case "i16":
      return d.deserializeI16()
    case "i32":
      return d.deserializeI32()
    case "i64":
      return d.deserializeI64().toString()
    case "i128":
      return d.deserializeI128().toString()
    case "i256":
      return d.deserializeI256().toString()
    case "address":
    case "signer":
      return AccountAddress.deserialize(d).toStringShort()
    case "vector": {
      const element = type.args[0]!
      if (element.name === "u8") return `0x${Buffer.from(d.deserializeBytes()).toString("hex")}`
      const n = d.deserializeUleb128AsU32()
      const out: Json[] = []
      for (let k = 0; k < n; k++) out.push(decodeValue(element, d, abiOf))
      return out
    }
  }
  if (type.name.startsWith("|")) throw new UnsupportedType(`function type ${type.name}`)
  const [address, module, name] = type.name.split("::") as [string, string, string]
  if (name === undefined) throw new UnsupportedType(`type ${type.name}`)
  const addr = normalizeAddress(address)
  if (addr === "0x1" && module === "string" && name === "String") {
    const bytes = d.deserializeBytes()
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
    } catch {
      return `Unparsable utf-8 0x${Buffer.from(bytes).toString("hex")}`
    }
  }
  const def = abiOf(addr, module).structs.find((s) => s.name === name)
  if (def === undefined) throw new Error(`no struct ${type.name}`)
  const substitute = (t: TypeNode): TypeNode => {
    const m = /^T(\d+)$/.exec(t.name)
    if (m !== null) return type.args[Number(m[1])]!
    return { name: t.name, args: t.args.map(substitute) }
  }
  const fields = (fs: ReadonlyArray<AbiField>, extra: Array<[string, Json]>): Json => {
    const entries = extra
    for (const f of fs) entries.push([f.name, decodeValue(substitute(parseType(f.type)), d, abiOf)])
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    return Object.fromEntries(entries)
  }
  if (!def.is_enum) return fields(def.fields, [])
  const variant = def.variants[d.deserializeUleb128AsU32()]
  if (variant === undefined) throw new Error(`bad variant of ${type.name}`)
  return fields(variant.fields, [["__variant__", variant.name]])
}

/** The whole of `bytes` as one value of `typeText`. */
export const decodeAll = (
  typeText: string,
  bytes: Uint8Array,
  abiOf: (address: string, module: string) => AbiModule
): Json => {
  const d = new Deserializer(bytes)
  const v = decodeValue(parseType(typeText), d, abiOf)
  if (d.remaining() !== 0) throw new Error(`${d.remaining()} bytes left decoding ${typeText}`)
  return v
}
