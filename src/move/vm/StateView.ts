import { BcsWriter } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { writeStateKey } from "../../domain/StateKeyCodec.js"
import type { StructTag } from "../../domain/TypeTag.js"

/**
 * What the VM reads of global state: synchronous, side-effect free, at one version. The VM does no
 * I/O; whoever runs it supplies this view (over the ledger's `StateReader`, or a plain map in tests).
 */
export interface StateView {
  /** Module bytes and the version that wrote them (the loader caches by both). */
  readonly module: (
    address: AccountAddress,
    name: string
  ) => { readonly bytes: Uint8Array; readonly version: bigint } | undefined
  /** BCS of a resource stored under its own key (not a group member). */
  readonly resource: (address: AccountAddress, tag: StructTag) => Uint8Array | undefined
  /** BCS of a resource group: a map from member StructTag to member bytes. */
  readonly resourceGroup: (address: AccountAddress, group: StructTag) => Uint8Array | undefined
  /** BCS of a table item's value. */
  readonly tableItem: (handle: AccountAddress, key: Uint8Array) => Uint8Array | undefined
}

/** The narrow shape of the ledger's `StateReader` this adapter needs. */
export interface KeyValueReader {
  readonly get: (keyBytes: Uint8Array) => Uint8Array | undefined
  readonly getVersioned: (keyBytes: Uint8Array) => { readonly value: Uint8Array; readonly version: bigint } | undefined
}

const keyBytes = (write: (w: BcsWriter) => void): Uint8Array => {
  const w = new BcsWriter(96)
  write(w)
  return w.toBytes()
}

/** A StateView over a key-value reader whose keys are BCS(StateKey). */
export const stateViewFromReader = (reader: KeyValueReader): StateView => ({
  module: (address, name) => {
    const v = reader.getVersioned(
      keyBytes((w) => writeStateKey(w, { _tag: "AccessPath", address, path: { _tag: "Code", module: { address, name } } }))
    )
    return v === undefined ? undefined : { bytes: v.value, version: v.version }
  },
  resource: (address, tag) =>
    reader.get(keyBytes((w) => writeStateKey(w, { _tag: "AccessPath", address, path: { _tag: "Resource", struct: tag } }))),
  resourceGroup: (address, group) =>
    reader.get(
      keyBytes((w) => writeStateKey(w, { _tag: "AccessPath", address, path: { _tag: "ResourceGroup", struct: group } }))
    ),
  tableItem: (handle, key) => reader.get(keyBytes((w) => writeStateKey(w, { _tag: "TableItem", handle, key })))
})
