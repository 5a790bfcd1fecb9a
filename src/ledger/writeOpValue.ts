import type { WriteOp } from "../domain/WriteSet.js"

/** The state value a write op leaves behind; undefined for deletions (the key is absent from then on). */
export const writeOpValue = (op: WriteOp): Uint8Array | undefined =>
  op._tag === "Deletion" || op._tag === "DeletionWithMetadata" ? undefined : op.data
