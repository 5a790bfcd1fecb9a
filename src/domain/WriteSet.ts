import type { StateKey } from "./StateKey.js"

/** Storage deposit and creation time recorded with a state value (enum V0 / V1 in BCS). */
export type StateValueMetadata =
  | { readonly _tag: "V0"; readonly deposit: bigint; readonly creationTimeUsecs: bigint }
  | {
      readonly _tag: "V1"
      readonly slotDeposit: bigint
      readonly bytesDeposit: bigint
      readonly creationTimeUsecs: bigint
    }

/**
 * The persisted write op, six variants in BCS order: 0 Creation, 1 Modification, 2 Deletion,
 * 3 CreationWithMetadata, 4 ModificationWithMetadata, 5 DeletionWithMetadata.
 */
export type WriteOp =
  | { readonly _tag: "Creation"; readonly data: Uint8Array }
  | { readonly _tag: "Modification"; readonly data: Uint8Array }
  | { readonly _tag: "Deletion" }
  | { readonly _tag: "CreationWithMetadata"; readonly data: Uint8Array; readonly metadata: StateValueMetadata }
  | { readonly _tag: "ModificationWithMetadata"; readonly data: Uint8Array; readonly metadata: StateValueMetadata }
  | { readonly _tag: "DeletionWithMetadata"; readonly metadata: StateValueMetadata }

export interface WriteSetEntry {
  readonly key: StateKey
  /** BCS bytes of the key, as stored; also its identity for lookups. */
  readonly keyBytes: Uint8Array
  readonly op: WriteOp
}

/** WriteSet::V0: a map from state key to write op, in BCS key order. */
export interface WriteSet {
  readonly entries: ReadonlyArray<WriteSetEntry>
}

/** Whether the entry writes (or deletes) a module: an access path to code. */
export const isModuleWrite = (entry: WriteSetEntry): boolean =>
  entry.key._tag === "AccessPath" && entry.key.path._tag === "Code"

/** Whether the write set writes or deletes a module. */
export const writesModule = (writeSet: WriteSet): boolean => writeSet.entries.some(isModuleWrite)
