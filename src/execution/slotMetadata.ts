/**
 * State-value metadata for writes the storage fee did not price (the reference's
 * `WriteOpConverter`): a new slot gets a placeholder (no deposit, created now) when
 * STORAGE_SLOT_METADATA (19) is on; a changed or deleted slot keeps the metadata state records for
 * it. Writes that already carry metadata (priced by `chargeChangeSet`) are left as they are.
 */
import type { ChangeSet } from "../domain/Transaction.js"
import type { WriteOp, WriteSetEntry } from "../domain/WriteSet.js"
import type { TransactionRun } from "./TransactionRun.js"

const withMetadata = (run: TransactionRun, e: WriteSetEntry): WriteSetEntry => {
  const op = e.op
  let next: WriteOp | undefined
  switch (op._tag) {
    case "Creation":
      if (run.features.isEnabled("STORAGE_SLOT_METADATA"))
        next = {
          _tag: "CreationWithMetadata",
          data: op.data,
          metadata: { _tag: "V0", deposit: 0n, creationTimeUsecs: run.nowUsecs }
        }
      break
    case "Modification": {
      const m = run.metadataOf(e.keyBytes)
      if (m !== undefined) next = { _tag: "ModificationWithMetadata", data: op.data, metadata: m }
      break
    }
    case "Deletion": {
      const m = run.metadataOf(e.keyBytes)
      if (m !== undefined) next = { _tag: "DeletionWithMetadata", metadata: m }
      break
    }
  }
  return next === undefined ? e : { key: e.key, keyBytes: e.keyBytes, op: next }
}

export const withSlotMetadata = (run: TransactionRun, cs: ChangeSet): ChangeSet => ({
  writeSet: { entries: cs.writeSet.entries.map((e) => withMetadata(run, e)) },
  events: cs.events
})
