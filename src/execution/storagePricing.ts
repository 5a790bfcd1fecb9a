/**
 * What a change set costs beyond execution, as the reference prices it (aptos-vm-types
 * `io_pricing.rs` V4 and `space_pricing.rs` V2, gas feature version ≥ 12/13):
 *
 * - IO gas (internal units): `storage_io_per_transaction_byte_write × txn size`, per event
 *   `storage_io_per_event_byte_write × event size`, per write
 *   `storage_io_per_state_slot_write + storage_io_per_state_byte_write × (key size + value size)`
 *   (a deletion counts value size 0).
 * - Storage fee (octas), with the deposits recorded in the slot's metadata:
 *   creation charges `storage_fee_per_state_slot` (slot deposit) plus
 *   `storage_fee_per_state_byte × (key + value)` (bytes deposit); a modification that grows the
 *   value charges the growth, at most up to the target deposit at today's price (no refund on
 *   shrinking); a deletion refunds the slot's whole recorded deposit. Events and the transaction
 *   itself carry no storage fee under V2.
 *
 * Pure: the previous size and metadata of each slot come with the write.
 */
import type { ContractEvent } from "../domain/ContractEvent.js"
import type { StateKey } from "../domain/StateKey.js"
import type { TypeTag } from "../domain/TypeTag.js"
import type { StateValueMetadata, WriteOp, WriteSetEntry } from "../domain/WriteSet.js"
import type { TransactionGasParams } from "./TransactionGasParams.js"

/** One write of a change set, as the session produced it (no metadata yet), with the slot's past. */
export interface PricedWrite {
  readonly key: StateKey
  readonly keyBytes: Uint8Array
  readonly kind: "Creation" | "Modification" | "Deletion"
  /** The new value (undefined for a deletion). */
  readonly data: Uint8Array | undefined
  /** Size of the value the slot held before (0 when it held none). */
  readonly prevSize: number
  /** The slot's recorded metadata (undefined: none recorded, a legacy slot or a new one). */
  readonly prevMetadata: StateValueMetadata | undefined
}

export interface ChangeSetPrice {
  /** Internal gas units. */
  readonly ioGas: bigint
  /** Octas charged (converted to gas by the caller at the transaction's price). */
  readonly storageFee: bigint
  /** Octas refunded for deleted slots (0 unless the framework enables deletion refunds). */
  readonly storageRefund: bigint
  /** The writes in persisted form, with the metadata the reference records. */
  readonly entries: ReadonlyArray<WriteSetEntry>
}

/** Uleb128 at `offset` (a length prefix inside key bytes we built ourselves). */
const ulebAt = (bytes: Uint8Array, offset: number): { value: number; next: number } => {
  let value = 0
  let shift = 0
  let i = offset
  for (;;) {
    const b = bytes[i++] ?? 0
    value += (b & 0x7f) * 2 ** shift
    if ((b & 0x80) === 0 || shift > 28) return { value, next: i }
    shift += 7
  }
}

/**
 * The reference's `StateKey::size`: an access path counts its address and path bytes, a table
 * item its handle and key, a raw key its bytes (the enum tag and length prefixes are not counted).
 */
export const stateKeySize = (key: StateKey, keyBytes: Uint8Array): number => {
  switch (key._tag) {
    case "AccessPath":
      return 32 + ulebAt(keyBytes, 33).value
    case "TableItem":
      return 32 + key.key.length
    case "Raw":
      return key.bytes.length
  }
}

const ulebSize = (n: number): number => {
  let size = 1
  for (let x = n; x >= 0x80; x = Math.floor(x / 128)) size++
  return size
}

const utf8Size = (text: string): number => {
  let size = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) size += 1
    else if (c < 0x800) size += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      size += 4
      i++
    } else size += 3
  }
  return size
}

const stringSize = (text: string): number => {
  const n = utf8Size(text)
  return ulebSize(n) + n
}

/** Length of BCS(TypeTag), counted without writing it (events are priced per transaction). */
export const typeTagSize = (t: TypeTag): number => {
  switch (t._tag) {
    case "vector":
      return 1 + typeTagSize(t.element)
    case "struct": {
      const s = t.struct
      let size = 1 + 32 + stringSize(s.module) + stringSize(s.name) + ulebSize(s.typeArgs.length)
      for (const a of s.typeArgs) size += typeTagSize(a)
      return size
    }
    case "function": {
      let size = 1 + ulebSize(t.args.length) + ulebSize(t.results.length) + 1
      for (const a of t.args) size += 1 + typeTagSize(a.tag)
      for (const a of t.results) size += 1 + typeTagSize(a.tag)
      return size
    }
    default:
      return 1
  }
}

/** The reference's `ContractEvent::size`: (V1: event key 40 + sequence number 8) + BCS(type tag) + data. */
export const eventSize = (e: ContractEvent): number =>
  (e._tag === "V1" ? 48 : 0) + typeTagSize(e.typeTag) + e.data.length

const slotOf = (m: StateValueMetadata | undefined): bigint =>
  m === undefined ? 0n : m._tag === "V0" ? m.deposit : m.slotDeposit
const bytesOf = (m: StateValueMetadata | undefined): bigint =>
  m === undefined || m._tag === "V0" ? 0n : m.bytesDeposit
const createdAt = (m: StateValueMetadata | undefined): bigint => (m === undefined ? 0n : m.creationTimeUsecs)

/** The reference's persisted form: V0 while no bytes deposit was paid, V1 after. */
const persisted = (slot: bigint, bytes: bigint, creationTimeUsecs: bigint): StateValueMetadata =>
  bytes === 0n
    ? { _tag: "V0", deposit: slot, creationTimeUsecs }
    : { _tag: "V1", slotDeposit: slot, bytesDeposit: bytes, creationTimeUsecs }

export interface PricingContext {
  readonly params: TransactionGasParams
  /** BCS length of the RawTransaction. */
  readonly transactionSize: bigint
  readonly gasUnitPrice: bigint
  /** `timestamp::now_microseconds()`: the creation time recorded for new slots. */
  readonly nowUsecs: bigint
  /** REFUNDABLE_BYTES (51) on and gas feature version ≥ 13: disk space pricing V2. */
  readonly refundableBytes: boolean
  /** STORAGE_DELETION_REFUND (28, with 26 and 27) on. */
  readonly deletionRefund: boolean
}

/**
 * Prices a change set and attaches the metadata the reference records. Only disk space pricing V2
 * is implemented (devnet and every framework since gas version 13); with it off the storage fee
 * follows V2 anyway and docs/gas.md says so.
 */
export const priceChangeSet = (
  ctx: PricingContext,
  writes: ReadonlyArray<PricedWrite>,
  events: ReadonlyArray<ContractEvent>
): ChangeSetPrice => {
  const p = ctx.params
  let io = p.storageIoPerTransactionByteWrite * ctx.transactionSize
  for (const e of events) io += p.storageIoPerEventByteWrite * BigInt(eventSize(e))
  // A zero price takes no storage fee and records no deposits (the reference's early return).
  const priced = ctx.gasUnitPrice !== 0n
  let fee = 0n
  let refund = 0n
  const entries: WriteSetEntry[] = new Array(writes.length)
  for (let i = 0; i < writes.length; i++) {
    const w = writes[i]!
    const keySize = BigInt(stateKeySize(w.key, w.keyBytes))
    const valueSize = BigInt(w.data?.length ?? 0)
    io += p.storageIoPerStateSlotWrite + p.storageIoPerStateByteWrite * (keySize + valueSize)
    const target = (keySize + valueSize) * p.storageFeePerStateByte
    let op: WriteOp
    switch (w.kind) {
      case "Creation": {
        if (!priced) {
          op = { _tag: "CreationWithMetadata", data: w.data!, metadata: persisted(0n, 0n, ctx.nowUsecs) }
          break
        }
        fee += p.storageFeePerStateSlot + target
        op = {
          _tag: "CreationWithMetadata",
          data: w.data!,
          metadata: persisted(p.storageFeePerStateSlot, target, ctx.nowUsecs)
        }
        break
      }
      case "Modification": {
        if (!priced) {
          op =
            w.prevMetadata === undefined
              ? { _tag: "Modification", data: w.data! }
              : { _tag: "ModificationWithMetadata", data: w.data!, metadata: w.prevMetadata }
          break
        }
        const old = bytesOf(w.prevMetadata)
        let charge = 0n
        if (valueSize > BigInt(w.prevSize) && target > old) {
          const byIncrease = (valueSize - BigInt(w.prevSize)) * p.storageFeePerStateByte
          const gap = target - old
          charge = byIncrease < gap ? byIncrease : gap
        }
        fee += charge
        // V2 upgrades the slot's metadata, a legacy slot's to zero deposits at time 0.
        op = {
          _tag: "ModificationWithMetadata",
          data: w.data!,
          metadata: persisted(slotOf(w.prevMetadata), old + charge, createdAt(w.prevMetadata))
        }
        break
      }
      case "Deletion":
        if (priced) refund += slotOf(w.prevMetadata) + bytesOf(w.prevMetadata)
        op =
          w.prevMetadata === undefined
            ? { _tag: "Deletion" }
            : { _tag: "DeletionWithMetadata", metadata: w.prevMetadata }
        break
    }
    entries[i] = { key: w.key, keyBytes: w.keyBytes, op }
  }
  return { ioGas: io, storageFee: fee, storageRefund: ctx.deletionRefund ? refund : 0n, entries }
}
