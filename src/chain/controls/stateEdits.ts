/**
 * State edits as write sets (anvil's `anvil_setStorageAt` / `setCode` / `setNonce`, the simulation
 * sessions' `set_resource`): each edit names a state key and its new value (or a deletion); the
 * write set keeps the slot's storage metadata (deposits, creation time) where the slot had some,
 * so an edited slot refunds and charges later as before. Pure over a `StateReader` of the latest
 * state; `ChainControls` commits the result as a transaction of its own.
 *
 * Resources are placed as the VM places them: a resource-group member (its module's metadata
 * names the group) is read, changed and written back inside its group's value; anything else is
 * its own key. (The same rule as the API's reads, node/accountState.ts, which this layer cannot
 * import.)
 */
import * as Result from "effect/Result"
import { Bcs, BcsReader } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { type ResourceGroupMember, resourceGroupCodec } from "../../domain/ResourceGroupCodec.js"
import type { StateKey } from "../../domain/StateKey.js"
import { stateKeyCodec } from "../../domain/StateKeyCodec.js"
import type { StructTag } from "../../domain/TypeTag.js"
import { structTagCodec } from "../../domain/TypeTagCodec.js"
import { parseStructTag } from "../../domain/TypeTagString.js"
import type { WriteOp, WriteSet, WriteSetEntry } from "../../domain/WriteSet.js"
import type { StateReader } from "../../ledger/Ledger.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { vmModuleMetadata } from "../../move/vm/moduleMetadata.js"

/** One key's new value; `value` undefined deletes it. */
export interface KeyEdit {
  readonly key: StateKey
  readonly value: Uint8Array | undefined
}

export const keyBytesOf = (key: StateKey): Uint8Array => Bcs.encode(stateKeyCodec, key)

/** The write op turning what `state` holds at `keyBytes` into `value`, keeping the slot's metadata. */
const opOf = (state: StateReader, keyBytes: Uint8Array, value: Uint8Array | undefined): WriteOp | undefined => {
  const exists = state.get(keyBytes) !== undefined
  const metadata = exists ? state.metadata?.(keyBytes) : undefined
  if (value === undefined) {
    if (!exists) return undefined // nothing to delete
    return metadata === undefined ? { _tag: "Deletion" } : { _tag: "DeletionWithMetadata", metadata }
  }
  if (!exists) return { _tag: "Creation", data: value }
  return metadata === undefined
    ? { _tag: "Modification", data: value }
    : { _tag: "ModificationWithMetadata", data: value, metadata }
}

/** The write set of `edits` over `state` (last edit of a key wins; keys in byte order, as BCS wants). */
export const writeSetOf = (state: StateReader, edits: ReadonlyArray<KeyEdit>): WriteSet => {
  const byKey = new Map<string, { keyBytes: Uint8Array; edit: KeyEdit }>()
  for (const edit of edits) {
    const keyBytes = keyBytesOf(edit.key)
    byKey.set(Buffer.from(keyBytes).toString("hex"), { keyBytes, edit })
  }
  const entries: WriteSetEntry[] = []
  for (const { keyBytes, edit } of byKey.values()) {
    const op = opOf(state, keyBytes, edit.value)
    if (op !== undefined) entries.push({ key: edit.key, keyBytes, op })
  }
  entries.sort((a, b) => Buffer.compare(a.keyBytes, b.keyBytes))
  return { entries }
}

/** Where a resource lives: its own key, or as a member of a group (its module's metadata says). */
export const resourcePlace = (
  modules: ModuleSource,
  address: AccountAddress,
  struct: StructTag
): { readonly key: StateKey; readonly group: StructTag | undefined } | string => {
  const module = modules(struct.address, struct.module)
  if (module === undefined) return `no module ${struct.module} at the type's address: its layout is unknown`
  const groupName = vmModuleMetadata(module).groupMembers.get(struct.name)
  if (groupName === undefined)
    return { key: { _tag: "AccessPath", address, path: { _tag: "Resource", struct } }, group: undefined }
  const group = parseStructTag(groupName)
  if (Result.isFailure(group)) return `the module names an unreadable resource group ${groupName}`
  return {
    key: { _tag: "AccessPath", address, path: { _tag: "ResourceGroup", struct: group.success } },
    group: group.success
  }
}

const tagBytes = (s: StructTag) => Bcs.encode(structTagCodec, s)

/**
 * A group's members with `member` set to `value` (undefined removes it), in the order the
 * reference's `BTreeMap<StructTag, _>` keeps (by the tag's BCS here: equal tags sort together, and
 * the framework's groups hold tags of one address and module, where the orders agree). Undefined
 * when the group value does not decode.
 */
export const withMember = (
  groupBytes: Uint8Array | undefined,
  member: StructTag,
  value: Uint8Array | undefined
): Uint8Array | undefined | "undecodable" => {
  let members: ReadonlyArray<ResourceGroupMember> = []
  if (groupBytes !== undefined) {
    const decoded = Bcs.decode(resourceGroupCodec, groupBytes)
    if (Result.isFailure(decoded)) return "undecodable"
    members = decoded.success
  }
  const key = tagBytes(member)
  const kept = members.filter((m) => Buffer.compare(tagBytes(m.struct), key) !== 0)
  const next = value === undefined ? kept : [...kept, { struct: member, bytes: value }]
  if (next.length === 0) return undefined
  const sorted = [...next].sort((a, b) => Buffer.compare(tagBytes(a.struct), tagBytes(b.struct)))
  return Bcs.encode(resourceGroupCodec, sorted)
}

/** `0x1::account::Account`'s first fields: `authentication_key: vector<u8>` (32 bytes), `sequence_number: u64`. */
export const editAccount = (
  bytes: Uint8Array,
  changes: { readonly sequenceNumber?: bigint | undefined; readonly authenticationKey?: Uint8Array | undefined }
): Uint8Array | string => {
  const r = new BcsReader(bytes)
  let keyLength: number
  try {
    keyLength = r.uleb128()
  } catch {
    return "the Account resource does not decode"
  }
  const keyStart = r.offset
  if (keyLength !== 32 || bytes.length < keyStart + 32 + 8) return "the Account resource does not decode"
  const out = new Uint8Array(bytes)
  if (changes.authenticationKey !== undefined) out.set(changes.authenticationKey, keyStart)
  if (changes.sequenceNumber !== undefined)
    new DataView(out.buffer, out.byteOffset + keyStart + 32, 8).setBigUint64(0, changes.sequenceNumber, true)
  return out
}
