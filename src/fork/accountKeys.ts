/**
 * An account's state keys at the source (its modules, resources and resource groups), for listings
 * (`GET /accounts/A/resources`, `/modules`): the raw endpoint answers one key at a time and cannot
 * list, so the source's listings are read (BCS: module names, and resources with groups flattened
 * into their members) and turned back into state keys. A member's group is named in its module's
 * metadata (`resource_group_member`), read through the fork's own state (cached like any module).
 */
import { Result } from "effect"
import { Bcs, BcsReader } from "../bcs/index.js"
import type { AccountAddress } from "../domain/AccountAddress.js"
import { addressToLongString } from "../domain/AccountAddress.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import type { StructTag } from "../domain/TypeTag.js"
import { readStructTag } from "../domain/TypeTagCodec.js"
import { parseStructTag } from "../domain/TypeTagString.js"
import { deserializeModule } from "../move/binary/deserialize.js"
import { vmModuleMetadata } from "../move/vm/moduleMetadata.js"
import { type ForkSourceClient, ForkSourceError } from "./ForkSourceClient.js"

export const moduleKey = (address: AccountAddress, name: string): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address, path: { _tag: "Code", module: { address, name } } })
const resourceKey = (address: AccountAddress, struct: StructTag): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address, path: { _tag: "Resource", struct } })
const groupKey = (address: AccountAddress, struct: StructTag): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address, path: { _tag: "ResourceGroup", struct } })

/**
 * The source's state keys of `address` at `version`. `moduleBytes` reads a module through the
 * fork (fetching it when needed), to find which group a member belongs to.
 */
export const fetchAccountKeys = async (
  client: ForkSourceClient,
  address: AccountAddress,
  version: bigint,
  moduleBytes: (address: AccountAddress, name: string) => Promise<Uint8Array | undefined>
): Promise<ReadonlyArray<Uint8Array>> => {
  const keys = new Map<string, Uint8Array>()
  const add = (k: Uint8Array) => keys.set(Buffer.from(k).toString("hex"), k)
  for (const m of await client.modules(address, version)) add(m.keyBytes)
  const at = addressToLongString(address)
  let start: string | undefined
  for (let page = 0; page < 100; page++) {
    const path = `/accounts/${at}/resources?ledger_version=${version}&limit=9999${start === undefined ? "" : `&start=${encodeURIComponent(start)}`}`
    const { bytes, cursor } = await client.getBcsPage(path)
    if (bytes === undefined) break
    const structs: StructTag[] = []
    try {
      const r = new BcsReader(bytes)
      const n = r.uleb128()
      for (let i = 0; i < n; i++) {
        structs.push(readStructTag(r))
        r.bytesWithLength()
      }
      r.expectEnd()
    } catch (e) {
      throw new ForkSourceError(
        `the fork source answered GET ${path} with bytes that are not a resource map: ${String(e)}`
      )
    }
    for (const s of structs) {
      const bytes = await moduleBytes(s.address, s.module)
      const compiled = bytes === undefined ? undefined : deserializeModule(bytes)
      const groupName =
        compiled === undefined || Result.isFailure(compiled)
          ? undefined
          : vmModuleMetadata(compiled.success).groupMembers.get(s.name)
      const group = groupName === undefined ? undefined : parseStructTag(groupName)
      add(group !== undefined && Result.isSuccess(group) ? groupKey(address, group.success) : resourceKey(address, s))
    }
    if (cursor === undefined) break
    start = cursor
  }
  return [...keys.values()].sort((a, b) => Buffer.compare(a, b))
}
