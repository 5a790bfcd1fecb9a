import type { AccountAddress } from "./AccountAddress.js"
import type { ModuleId, StructTag } from "./TypeTag.js"

/**
 * A key into global state. BCS: enum 0 AccessPath{address, path: bytes}, 1 TableItem{handle, key},
 * 2 Raw(bytes). An access path's `path` bytes are themselves BCS of `Path`: 0 Code(ModuleId),
 * 1 Resource(StructTag), 2 ResourceGroup(StructTag); the decoded form is kept beside the raw bytes.
 */
export type AccessPathKind =
  | { readonly _tag: "Code"; readonly module: ModuleId }
  | { readonly _tag: "Resource"; readonly struct: StructTag }
  | { readonly _tag: "ResourceGroup"; readonly struct: StructTag }

export type StateKey =
  | { readonly _tag: "AccessPath"; readonly address: AccountAddress; readonly path: AccessPathKind }
  | { readonly _tag: "TableItem"; readonly handle: AccountAddress; readonly key: Uint8Array }
  | { readonly _tag: "Raw"; readonly bytes: Uint8Array }
