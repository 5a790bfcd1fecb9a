/**
 * `charge_change_set` (aptos-vm `aptos_vm.rs`) with `ChangeSetConfigs::check_change_set` before it:
 * the user session's change set (the prologue's writes included) must stay within the write and
 * event limits (else STORAGE_WRITE_LIMIT_REACHED), then is charged IO gas (transaction bytes,
 * events, writes) and the storage fee, and comes back with the state-value metadata the reference
 * records and the refund due for deleted slots.
 */
import type { ChangeSet } from "../domain/Transaction.js"
import type { StateKey } from "../domain/StateKey.js"
import type { WriteSetEntry } from "../domain/WriteSet.js"
import type { StateView } from "../move/vm/StateView.js"
import { VmError } from "../move/vm/VmError.js"
import { asStatusName } from "../move/vm/StatusCode.js"
import { type PricedWrite, priceChangeSet } from "./storagePricing.js"
import type { TransactionMeter } from "./TransactionMeter.js"
import type { TransactionRun } from "./TransactionRun.js"
import { type VmStatus, vmError } from "./VmStatus.js"

/** The value a key holds in `view` (its size prices a modification). */
export const valueAt = (view: StateView, key: StateKey): Uint8Array | undefined => {
  switch (key._tag) {
    case "AccessPath":
      switch (key.path._tag) {
        case "Resource":
          return view.resource(key.address, key.path.struct)
        case "ResourceGroup":
          return view.resourceGroup(key.address, key.path.struct)
        case "Code":
          return view.module(key.path.module.address, key.path.module.name)?.bytes
      }
      return undefined
    case "TableItem":
      return view.tableItem(key.handle, key.key)
    case "Raw":
      return undefined
  }
}

const kindOf = (e: WriteSetEntry): PricedWrite["kind"] => {
  switch (e.op._tag) {
    case "Creation":
    case "CreationWithMetadata":
      return "Creation"
    case "Modification":
    case "ModificationWithMetadata":
      return "Modification"
    default:
      return "Deletion"
  }
}

/** `check_change_set`: the limits of the gas schedule's `txn.max_*` entries. */
export const checkChangeSetLimits = (run: TransactionRun, cs: ChangeSet): string | undefined => {
  const p = run.params
  if (BigInt(cs.writeSet.entries.length) > p.maxWriteOpsPerTransaction)
    return `${cs.writeSet.entries.length} write ops, more than ${p.maxWriteOpsPerTransaction}`
  let writes = 0n
  for (const e of cs.writeSet.entries) {
    if (!("data" in e.op)) continue
    const size = BigInt(e.keyBytes.length + e.op.data.length)
    if (size > p.maxBytesPerWriteOp) return `a write op of ${size} bytes, more than ${p.maxBytesPerWriteOp}`
    writes += size
  }
  if (writes > p.maxBytesAllWriteOpsPerTransaction)
    return `${writes} bytes of writes, more than ${p.maxBytesAllWriteOpsPerTransaction}`
  let events = 0n
  for (const e of cs.events) {
    const size = BigInt(e.data.length)
    if (size > p.maxBytesPerEvent) return `an event of ${size} bytes, more than ${p.maxBytesPerEvent}`
    events += size
  }
  if (events > p.maxBytesAllEventsPerTransaction)
    return `${events} bytes of events, more than ${p.maxBytesAllEventsPerTransaction}`
  return undefined
}

export type ChargedChangeSet =
  | {
      readonly _tag: "Ok"
      /** The write set with metadata attached (the events unchanged). */
      readonly changeSet: ChangeSet
      /** Octas refunded for deleted slots. */
      readonly storageRefund: bigint
    }
  | {
      readonly _tag: "Failed"
      readonly vmStatus: VmStatus
      /** The priced change set all the same (the failure path keeps none of it but the metadata rules). */
      readonly changeSet: ChangeSet
    }

/**
 * Prices `cs` (relative to `run.view`) and charges the meter: IO, then the storage fee in one
 * sum. Fails with STORAGE_WRITE_LIMIT_REACHED past a limit, or the meter's OUT_OF_GAS /
 * IO_LIMIT_REACHED / STORAGE_LIMIT_REACHED.
 */
export const chargeChangeSet = (run: TransactionRun, meter: TransactionMeter, cs: ChangeSet): ChargedChangeSet => {
  const limit = checkChangeSetLimits(run, cs)
  if (limit !== undefined)
    return { _tag: "Failed", vmStatus: vmError("STORAGE_WRITE_LIMIT_REACHED", limit), changeSet: cs }
  const writes: PricedWrite[] = cs.writeSet.entries.map((e) => {
    const kind = kindOf(e)
    return {
      key: e.key,
      keyBytes: e.keyBytes,
      kind,
      data: "data" in e.op ? e.op.data : undefined,
      prevSize:
        kind === "Creation"
          ? 0
          : ((run.view.valueAt !== undefined ? run.view.valueAt(e.keyBytes) : valueAt(run.view, e.key))?.length ?? 0),
      prevMetadata: kind === "Creation" ? undefined : run.metadataOf(e.keyBytes)
    }
  })
  const price = priceChangeSet(
    {
      params: run.params,
      transactionSize: run.md.transactionSize,
      gasUnitPrice: run.md.gasUnitPrice,
      nowUsecs: run.nowUsecs,
      refundableBytes: run.features.isEnabled("REFUNDABLE_BYTES"),
      deletionRefund: run.features.storageDeletionRefund
    },
    writes,
    cs.events
  )
  const changeSet = { writeSet: { entries: price.entries }, events: cs.events }
  try {
    meter.chargeIo(price.ioGas)
    meter.chargeStorageFee(price.storageFee)
  } catch (e) {
    if (e instanceof VmError) return { _tag: "Failed", vmStatus: vmError(asStatusName(e.status), e.detail), changeSet }
    throw e
  }
  return { _tag: "Ok", changeSet, storageRefund: price.storageRefund }
}
