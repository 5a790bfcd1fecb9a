import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { StateKey } from "../../src/domain/StateKey.js"
import type { TypeTag } from "../../src/domain/TypeTag.js"
import { writeTypeTag } from "../../src/domain/TypeTagCodec.js"
import { makeWriteSetEntry } from "../../src/domain/WriteSetCodec.js"
import type { StateValueMetadata } from "../../src/domain/WriteSet.js"
import {
  eventSize,
  type PricedWrite,
  type PricingContext,
  priceChangeSet,
  stateKeySize,
  typeTagSize
} from "../../src/execution/storagePricing.js"
import { transactionGasParams, type TransactionGasParams } from "../../src/execution/TransactionGasParams.js"
import { readGasSchedule } from "../../src/move/vm/GasSchedule.js"
import { typeTag } from "../domain/arbitraries.js"
import { genesisState } from "../move/vm/genesisState.js"

const r = transactionGasParams(readGasSchedule(genesisState("devnet").view))
if (r._tag !== "Ok") throw new Error("schedule")
const devnet = r.params

const ctx = (params: TransactionGasParams, over: Partial<PricingContext> = {}): PricingContext => ({
  params,
  transactionSize: 0n,
  gasUnitPrice: 100n,
  nowUsecs: 7n,
  refundableBytes: true,
  deletionRefund: true,
  ...over
})

const raw: StateKey = { _tag: "Raw", bytes: Uint8Array.of(1, 2, 3) }
const rawEntry = makeWriteSetEntry(raw, { _tag: "Deletion" })
const write = (
  kind: PricedWrite["kind"],
  len: number,
  prevSize: number,
  prevMetadata: StateValueMetadata | undefined
): PricedWrite => ({
  key: raw,
  keyBytes: rawEntry.keyBytes,
  kind,
  data: kind === "Deletion" ? undefined : new Uint8Array(len),
  prevSize,
  prevMetadata
})

const metadataOf = (
  w: PricedWrite,
  params: TransactionGasParams
): { fee: bigint; refund: bigint; m: StateValueMetadata | undefined } => {
  const price = priceChangeSet(ctx(params), [w], [])
  const op = price.entries[0]!.op
  return { fee: price.storageFee, refund: price.storageRefund, m: "metadata" in op ? op.metadata : undefined }
}

describe("stateKeySize", () => {
  it("counts an access path's address and path bytes, a table item's handle and key, a raw key's bytes", () => {
    expect(stateKeySize(raw, rawEntry.keyBytes)).toBe(3)
    const table: StateKey = { _tag: "TableItem", handle: addressFromNumber(5), key: new Uint8Array(10) }
    expect(stateKeySize(table, makeWriteSetEntry(table, { _tag: "Deletion" }).keyBytes)).toBe(42)
    const resource: StateKey = {
      _tag: "AccessPath",
      address: addressFromNumber(1),
      path: {
        _tag: "Resource",
        struct: { address: addressFromNumber(1), module: "account", name: "Account", typeArgs: [] }
      }
    }
    // Path = tag 1 + StructTag (address 32, "account" 1+7, "Account" 1+7, no type args 1) = 50.
    expect(stateKeySize(resource, makeWriteSetEntry(resource, { _tag: "Deletion" }).keyBytes)).toBe(32 + 50)
  })
})

describe("eventSize", () => {
  it("V1 counts its key and sequence number, V2 only type tag and data", () => {
    const typeTag = { _tag: "u64" } as const
    expect(eventSize({ _tag: "V2", typeTag, data: new Uint8Array(5) })).toBe(1 + 5)
    expect(
      eventSize({
        _tag: "V1",
        key: { creationNumber: 0n, accountAddress: addressFromNumber(1) },
        sequenceNumber: 0n,
        typeTag,
        data: new Uint8Array(5)
      })
    ).toBe(48 + 1 + 5)
  })

  it("counts BCS(type tag) without writing it: the written length, for any tag", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          typeTag(5),
          typeTag(2).map((t) => withName(t, "é𝄞x".repeat(50)))
        ),
        (t) => {
          const w = new BcsWriter(64)
          writeTypeTag(w, t)
          expect(typeTagSize(t)).toBe(w.toBytes().length)
        }
      ),
      { numRuns: 500 }
    )
  })
})

/** `t` with its outermost struct (if any) renamed: non-ASCII and long names (uleb lengths > 1 byte). */
const withName = (t: TypeTag, name: string): TypeTag =>
  t._tag === "struct" ? { _tag: "struct", struct: { ...t.struct, name } } : t

describe("priceChangeSet: bytes deposits as the reference's space_pricing test walks them", () => {
  let params: TransactionGasParams = { ...devnet, storageFeePerStateByte: 5n, storageFeePerStateSlot: 1000n }

  it("follows create, legacy modify, growth at new prices, capped growth, shrink and delete", () => {
    const created = metadataOf(write("Creation", 2, 0, undefined), params)
    expect(created.m).toEqual({ _tag: "V1", slotDeposit: 1000n, bytesDeposit: 25n, creationTimeUsecs: 7n })
    expect(created.fee).toBe(1025n)

    // A slot that paid no bytes deposit is not charged while its size stays.
    let m: StateValueMetadata = { _tag: "V0", deposit: 1000n, creationTimeUsecs: 7n }
    let step = metadataOf(write("Modification", 2, 2, m), params)
    expect([step.fee, step.m]).toEqual([0n, m])

    params = { ...params, storageFeePerStateByte: 20n }
    step = metadataOf(write("Modification", 4, 2, m), params)
    expect(step.fee).toBe(40n)
    m = step.m!
    expect(m).toEqual({ _tag: "V1", slotDeposit: 1000n, bytesDeposit: 40n, creationTimeUsecs: 7n })

    params = { ...params, storageFeePerStateByte: 10n }
    step = metadataOf(write("Modification", 5, 4, m), params)
    expect(step.fee).toBe(10n)
    m = step.m!

    params = { ...params, storageFeePerStateByte: 6n }
    step = metadataOf(write("Modification", 6, 5, m), params)
    expect(step.fee).toBe(4n) // capped at the target (3 + 6) × 6 = 54
    m = step.m!

    params = { ...params, storageFeePerStateByte: 5n }
    step = metadataOf(write("Modification", 7, 6, m), params)
    expect(step.fee).toBe(0n)
    step = metadataOf(write("Modification", 2, 7, m), params)
    expect(step.fee).toBe(0n) // no refund for shrinking
    expect(step.m).toEqual({ _tag: "V1", slotDeposit: 1000n, bytesDeposit: 54n, creationTimeUsecs: 7n })

    const deleted = metadataOf(write("Deletion", 0, 2, m), params)
    expect(deleted.refund).toBe(1054n)
    expect(deleted.m).toEqual(m)
  })

  it("upgrades a legacy slot's metadata on modification and records nothing when the price is zero", () => {
    expect(metadataOf(write("Modification", 2, 2, undefined), params).m).toEqual({
      _tag: "V0",
      deposit: 0n,
      creationTimeUsecs: 0n
    })
    const free = priceChangeSet(ctx(params, { gasUnitPrice: 0n }), [write("Modification", 9, 2, undefined)], [])
    expect(free.storageFee).toBe(0n)
    expect(free.entries[0]!.op._tag).toBe("Modification")
  })

  it("charges IO per transaction byte, event byte and write (key + value bytes)", () => {
    const price = priceChangeSet(
      ctx(devnet, { transactionSize: 200n }),
      [write("Creation", 10, 0, undefined), write("Deletion", 0, 4, undefined)],
      [{ _tag: "V2", typeTag: { _tag: "bool" }, data: new Uint8Array(40) }]
    )
    expect(price.ioGas).toBe(890n * 200n + 890n * 41n + (895_680n + 890n * 13n) + (895_680n + 890n * 3n))
    expect(price.storageFee).toBe(400_000n + 400n * 13n)
    expect(price.storageRefund).toBe(0n)
  })

  it("refunds nothing when deletion refunds are off", () => {
    const m: StateValueMetadata = { _tag: "V0", deposit: 400_000n, creationTimeUsecs: 1n }
    expect(priceChangeSet(ctx(devnet), [write("Deletion", 0, 2, m)], []).storageRefund).toBe(400_000n)
    expect(priceChangeSet(ctx(devnet, { deletionRefund: false }), [write("Deletion", 0, 2, m)], []).storageRefund).toBe(
      0n
    )
  })
})
