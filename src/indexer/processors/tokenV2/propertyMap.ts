/**
 * A token object's `0x4::property_map::PropertyMap` as the indexer stores it in `token_properties`
 * / `collection_properties`: a JSON object of key → the value as text, decoded from each
 * property's BCS bytes by its type code (0 bool, 1 u8, 2 u16, 3 u32, 4 u64, 5 u128, 6 u256,
 * 7 address, 8 byte vector, 9 string: `property_map.move`'s constants). A value whose bytes do not
 * decode as its type keeps its hex text, as the reference's converter falls back to the raw value.
 */
import { BcsReader } from "../../../bcs/index.js"
import { addressToShortString } from "../../../domain/AccountAddress.js"
import type { JsonValue } from "../input/IndexerTransaction.js"
import { field, text } from "./moveJson.js"

const utf8 = new TextDecoder("utf-8", { fatal: true })

const fromHex = (hex: string): Uint8Array | undefined => {
  const body = hex.startsWith("0x") ? hex.slice(2) : hex
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) return undefined
  return Uint8Array.from(Buffer.from(body, "hex"))
}

/** One property's value as text, or undefined when its bytes are not a value of its type. */
export const propertyValueText = (type: number, bytes: Uint8Array): string | undefined => {
  try {
    const r = new BcsReader(bytes)
    let out: string
    switch (type) {
      case 0:
        out = r.bool() ? "true" : "false"
        break
      case 1:
        out = String(r.u8())
        break
      case 2:
        out = String(r.u16())
        break
      case 3:
        out = String(r.u32())
        break
      case 4:
        out = r.u64().toString()
        break
      case 5:
        out = r.u128().toString()
        break
      case 6:
        out = r.u256().toString()
        break
      case 7:
        out = addressToShortString(r.fixed(32))
        break
      case 8:
        out = `0x${Buffer.from(r.bytesWithLength()).toString("hex")}`
        break
      case 9:
        out = utf8.decode(r.bytesWithLength())
        break
      default:
        return undefined
    }
    r.expectEnd()
    return out
  } catch {
    return undefined
  }
}

/**
 * The `token_properties` JSON of a PropertyMap resource's API JSON (`{inner: {data: [{key, value:
 * {type, value}}]}}`); undefined when the resource is not of that shape.
 */
export const propertyMapJson = (resource: JsonValue | undefined): { [key: string]: string } | undefined => {
  const entries = field(field(resource, "inner"), "data")
  if (!Array.isArray(entries)) return undefined
  // Keys are the token creator's: entries, not assignments, so "__proto__" is a key like any other.
  const out: Array<[string, string]> = []
  for (const e of entries) {
    const key = text(field(e, "key"))
    const value = field(e, "value")
    const type = field(value, "type")
    const hex = text(field(value, "value"))
    if (key === undefined || typeof type !== "number" || hex === undefined) return undefined
    const bytes = fromHex(hex)
    out.push([key, (bytes === undefined ? undefined : propertyValueText(type, bytes)) ?? hex])
  }
  return Object.fromEntries(out)
}
