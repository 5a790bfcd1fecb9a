/**
 * OverlayStateView: later layers win, deletions hide the base, module versions come from the layer,
 * and the code snapshot changes exactly when a layer writes a module.
 */
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { StateKey } from "../../src/domain/StateKey.js"
import type { StructTag } from "../../src/domain/TypeTag.js"
import type { WriteOp, WriteSet } from "../../src/domain/WriteSet.js"
import { makeWriteSetEntry } from "../../src/domain/WriteSetCodec.js"
import { OverlayStateView } from "../../src/execution/OverlayStateView.js"
import type { StateView } from "../../src/move/vm/StateView.js"

const A = addressFromNumber(0xa11ce)
const tag: StructTag = { address: addressFromNumber(1), module: "m", name: "R", typeArgs: [] }
const resourceKey: StateKey = { _tag: "AccessPath", address: A, path: { _tag: "Resource", struct: tag } }
const groupKey: StateKey = { _tag: "AccessPath", address: A, path: { _tag: "ResourceGroup", struct: tag } }
const moduleKey: StateKey = {
  _tag: "AccessPath",
  address: A,
  path: { _tag: "Code", module: { address: A, name: "mod" } }
}
const tableKey: StateKey = { _tag: "TableItem", handle: A, key: new Uint8Array([1, 2, 3]) }
const ws = (...entries: Array<[StateKey, WriteOp]>): WriteSet => ({
  entries: entries.map(([k, op]) => makeWriteSetEntry(k, op))
})
const bytes = (...b: number[]) => new Uint8Array(b)

const base: StateView = {
  snapshot: 7n,
  module: () => ({ bytes: bytes(9), version: 3n }),
  resource: () => bytes(1),
  resourceGroup: () => bytes(2),
  tableItem: () => bytes(3),
  storageUsage: () => ({ items: 5n, bytes: 50n })
}

describe("OverlayStateView", () => {
  it("reads through to the base where no layer writes", () => {
    const v = new OverlayStateView(base)
    expect(v.resource(A, tag)).toEqual(bytes(1))
    expect(v.resourceGroup(A, tag)).toEqual(bytes(2))
    expect(v.tableItem(A, bytes(1, 2, 3))).toEqual(bytes(3))
    expect(v.module(A, "mod")).toEqual({ bytes: bytes(9), version: 3n })
    expect(v.snapshot).toBeUndefined()
    expect(v.codeSnapshot).toBe(7n)
    expect(v.storageUsage()).toEqual({ items: 5n, bytes: 50n })
  })

  it("later layers win and deletions hide the base", () => {
    const v = new OverlayStateView(base, [
      {
        writeSet: ws(
          [resourceKey, { _tag: "Modification", data: bytes(10) }],
          [tableKey, { _tag: "Deletion" }],
          [groupKey, { _tag: "Creation", data: bytes(20) }]
        ),
        version: 8n
      }
    ])
    v.push({ writeSet: ws([resourceKey, { _tag: "Modification", data: bytes(11) }]), version: 9n })
    expect(v.resource(A, tag)).toEqual(bytes(11))
    expect(v.tableItem(A, bytes(1, 2, 3))).toBeUndefined()
    expect(v.tableItem(A, bytes(1, 2))).toEqual(bytes(3))
    expect(v.resourceGroup(A, tag)).toEqual(bytes(20))
    expect(v.codeSnapshot).toBe(7n) // no module written
  })

  it("answers state-value metadata from its layers' *WithMetadata ops, else from the base", () => {
    const m = { _tag: "V1" as const, slotDeposit: 400_000n, bytesDeposit: 4_000n, creationTimeUsecs: 9n }
    const baseMeta = { _tag: "V0" as const, deposit: 1n, creationTimeUsecs: 2n }
    const withMeta: StateView = { ...base, stateValueMetadata: () => baseMeta }
    const v = new OverlayStateView(withMeta, [
      {
        writeSet: ws(
          [resourceKey, { _tag: "CreationWithMetadata", data: bytes(1), metadata: m }],
          [tableKey, { _tag: "DeletionWithMetadata", metadata: m }],
          [groupKey, { _tag: "Modification", data: bytes(2) }]
        ),
        version: 1n
      }
    ])
    const key = (k: StateKey) => makeWriteSetEntry(k, { _tag: "Deletion" }).keyBytes
    expect(v.stateValueMetadata(key(resourceKey))).toEqual(m)
    expect(v.stateValueMetadata(key(tableKey))).toBeUndefined()
    expect(v.stateValueMetadata(key(groupKey))).toBeUndefined()
    expect(v.stateValueMetadata(key(moduleKey))).toEqual(baseMeta)
  })

  it("a module write takes its layer's version and gives the view a new code snapshot", () => {
    const v = new OverlayStateView(base)
    const before = v.codeSnapshot
    v.push({ writeSet: ws([moduleKey, { _tag: "Modification", data: bytes(42) }]), version: 12n })
    expect(v.module(A, "mod")).toEqual({ bytes: bytes(42), version: 12n })
    const after = v.codeSnapshot
    expect(after).not.toBe(before)
    expect(v.codeSnapshot).toBe(after) // stable while nothing is pushed
    v.push({ writeSet: ws([moduleKey, { _tag: "Deletion" }]), version: 13n })
    expect(v.module(A, "mod")).toBeUndefined()
    expect(v.codeSnapshot).not.toBe(after)
    // Two overlays over one base never share a code snapshot once they write modules.
    const w = new OverlayStateView(base, [
      { writeSet: ws([moduleKey, { _tag: "Creation", data: bytes(1) }]), version: 12n }
    ])
    expect(w.codeSnapshot).not.toBe(after)
  })

  it("a block's overlay reads each present base value once; layers still win over it, and an absent value is asked again", () => {
    const keyHex = (k: StateKey) => Buffer.from(makeWriteSetEntry(k, { _tag: "Deletion" }).keyBytes).toString("hex")
    const reads = new Map<string, number>()
    const stored = new Map<string, Uint8Array>([[keyHex(resourceKey), bytes(1)]])
    const keyed: StateView = {
      ...base,
      valueAt: (keyBytes) => {
        const k = Buffer.from(keyBytes).toString("hex")
        reads.set(k, (reads.get(k) ?? 0) + 1)
        return stored.get(k)
      }
    }
    const block = new OverlayStateView(keyed)
    // Sessions stack their own overlays on the block's; all read through to the bottom one.
    for (let i = 0; i < 3; i++) {
      const session = new OverlayStateView(block)
      expect(session.resource(A, tag)).toEqual(bytes(1))
      expect(session.resourceGroup(A, tag)).toBeUndefined()
    }
    expect(reads.get(keyHex(resourceKey))).toBe(1)
    expect(reads.get(keyHex(groupKey))).toBe(3)
    block.push({ writeSet: ws([resourceKey, { _tag: "Modification", data: bytes(11) }]), version: 9n })
    expect(new OverlayStateView(block).resource(A, tag)).toEqual(bytes(11))
    expect(block.resource(A, tag)).toEqual(bytes(11))
  })
})
