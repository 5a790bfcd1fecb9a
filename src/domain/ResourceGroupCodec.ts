/**
 * A resource group's stored value: BCS of `BTreeMap<StructTag, vector<u8>>` (ULEB count, then each
 * member's struct tag and BCS bytes, in key order): the members a group's one state key holds.
 */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import type { StructTag } from "./TypeTag.js"
import { readStructTag, writeStructTag } from "./TypeTagCodec.js"

export interface ResourceGroupMember {
  readonly struct: StructTag
  readonly bytes: Uint8Array
}

export const readResourceGroup = (r: BcsReader): ReadonlyArray<ResourceGroupMember> => {
  // Smallest member: a struct tag (32 + 1 + 1 + 1 + 1 bytes) and an empty value (1 byte).
  const n = r.length(37)
  const out = new Array<ResourceGroupMember>(n)
  for (let i = 0; i < n; i++) out[i] = { struct: readStructTag(r), bytes: r.bytesWithLength() }
  return out
}

export const writeResourceGroup = (w: BcsWriter, members: ReadonlyArray<ResourceGroupMember>): void => {
  w.uleb128(members.length)
  for (const m of members) {
    writeStructTag(w, m.struct)
    w.bytesWithLength(m.bytes)
  }
}

export const resourceGroupCodec: Codec<ReadonlyArray<ResourceGroupMember>> = Bcs.codec(
  writeResourceGroup,
  readResourceGroup
)
