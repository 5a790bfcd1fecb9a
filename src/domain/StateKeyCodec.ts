/**
 * BCS codecs for StateKey and the access path's `Path`. The access path's `path` field is a byte
 * vector whose content is itself BCS of `Path`; we decode it eagerly (the decoded form is what every
 * reader wants) and re-encode it on write, so keys round-trip byte for byte.
 */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import { ADDRESS_LENGTH } from "./AccountAddress.js"
import type { AccessPathKind, StateKey } from "./StateKey.js"
import { readModuleId, readStructTag, writeModuleId, writeStructTag } from "./TypeTagCodec.js"
import { BcsReader as Reader, BcsWriter as Writer } from "../bcs/index.js"

export const writeAccessPathKind = (w: BcsWriter, p: AccessPathKind): void => {
  switch (p._tag) {
    case "Code":
      w.u8(0)
      writeModuleId(w, p.module)
      return
    case "Resource":
      w.u8(1)
      writeStructTag(w, p.struct)
      return
    case "ResourceGroup":
      w.u8(2)
      writeStructTag(w, p.struct)
      return
  }
}

export const readAccessPathKind = (r: BcsReader): AccessPathKind => {
  const start = r.offset
  const tag = r.uleb128()
  switch (tag) {
    case 0:
      return { _tag: "Code", module: readModuleId(r) }
    case 1:
      return { _tag: "Resource", struct: readStructTag(r) }
    case 2:
      return { _tag: "ResourceGroup", struct: readStructTag(r) }
    default:
      r.offset = start
      return r.fail(`invalid access path variant ${tag}`)
  }
}

/** The BCS bytes of an access path's `Path` (what the `path` byte vector holds). */
export const accessPathBytes = (p: AccessPathKind): Uint8Array => {
  const w = new Writer(64)
  writeAccessPathKind(w, p)
  return w.toBytes()
}

export const writeStateKey = (w: BcsWriter, k: StateKey): void => {
  switch (k._tag) {
    case "AccessPath":
      w.u8(0)
      w.fixed(k.address)
      w.bytesWithLength(accessPathBytes(k.path))
      return
    case "TableItem":
      w.u8(1)
      w.fixed(k.handle)
      w.bytesWithLength(k.key)
      return
    case "Raw":
      w.u8(2)
      w.bytesWithLength(k.bytes)
      return
  }
}

export const readStateKey = (r: BcsReader): StateKey => {
  const start = r.offset
  const tag = r.uleb128()
  switch (tag) {
    case 0: {
      const address = r.fixed(ADDRESS_LENGTH)
      const pathStart = r.offset
      const raw = r.bytesWithLength()
      // The inner bytes must be exactly one Path; errors are reported at the outer offset.
      const inner = new Reader(raw, r.limits)
      let path: AccessPathKind
      try {
        path = readAccessPathKind(inner)
        inner.expectEnd()
      } catch (e) {
        r.offset = pathStart
        return r.fail(`invalid access path: ${e instanceof Error ? e.message : String(e)}`)
      }
      return { _tag: "AccessPath", address, path }
    }
    case 1:
      return { _tag: "TableItem", handle: r.fixed(ADDRESS_LENGTH), key: r.bytesWithLength() }
    case 2:
      return { _tag: "Raw", bytes: r.bytesWithLength() }
    default:
      r.offset = start
      return r.fail(`invalid StateKey variant ${tag}`)
  }
}

export const stateKeyCodec: Codec<StateKey> = Bcs.codec(writeStateKey, readStateKey)
export const accessPathKindCodec: Codec<AccessPathKind> = Bcs.codec(writeAccessPathKind, readAccessPathKind)
