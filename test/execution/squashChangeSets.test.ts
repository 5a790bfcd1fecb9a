/**
 * squashChangeSets: the reference's write-op squash, checked by a property: squashing two change
 * sets and reading through one overlay answers what reading through both layers answers.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Result from "effect/Result"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { StateKey } from "../../src/domain/StateKey.js"
import type { WriteOp, WriteSetEntry } from "../../src/domain/WriteSet.js"
import { compareKeyBytes, makeWriteSetEntry } from "../../src/domain/WriteSetCodec.js"
import { OverlayStateView } from "../../src/execution/OverlayStateView.js"
import { squashChangeSets, squashWriteOp } from "../../src/execution/squashChangeSets.js"
import type { StateView } from "../../src/move/vm/StateView.js"

const data = (n: number) => new Uint8Array([n])
const keyOf = (i: number): StateKey => ({ _tag: "TableItem", handle: addressFromNumber(7), key: new Uint8Array([i]) })

describe("squashWriteOp", () => {
  it("follows the reference's rules", () => {
    expect(squashWriteOp({ _tag: "Creation", data: data(1) }, { _tag: "Modification", data: data(2) })).toEqual({
      _tag: "Creation",
      data: data(2)
    })
    expect(squashWriteOp({ _tag: "Creation", data: data(1) }, { _tag: "Deletion" })).toBeNull()
    expect(squashWriteOp({ _tag: "Modification", data: data(1) }, { _tag: "Deletion" })).toEqual({ _tag: "Deletion" })
    expect(squashWriteOp({ _tag: "Deletion" }, { _tag: "Creation", data: data(3) })).toEqual({
      _tag: "Modification",
      data: data(3)
    })
    const m = { _tag: "V1" as const, slotDeposit: 1n, bytesDeposit: 2n, creationTimeUsecs: 3n }
    expect(
      squashWriteOp(
        { _tag: "CreationWithMetadata", data: data(1), metadata: m },
        { _tag: "Modification", data: data(5) }
      )
    ).toEqual({ _tag: "CreationWithMetadata", data: data(5), metadata: m })
    expect(typeof squashWriteOp({ _tag: "Creation", data: data(1) }, { _tag: "Creation", data: data(1) })).toBe(
      "string"
    )
    expect(typeof squashWriteOp({ _tag: "Deletion" }, { _tag: "Modification", data: data(1) })).toBe("string")
  })
})

/** Valid op sequences: each key's state (present or not) decides which ops may follow. */
const validLayers = fc
  .array(
    fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 255 }), fc.boolean()), {
      maxLength: 8
    }),
    {
      minLength: 2,
      maxLength: 2
    }
  )
  .map(([first, second]) => {
    const present = new Set([0, 1, 2]) // keys 0..2 exist in the base
    const layer = (ops: ReadonlyArray<[number, number, boolean]>): WriteSetEntry[] => {
      const byKey = new Map<number, WriteOp>()
      for (const [k, v, del] of ops) {
        if (byKey.has(k)) continue
        const op: WriteOp = present.has(k)
          ? del
            ? { _tag: "Deletion" }
            : { _tag: "Modification", data: data(v) }
          : { _tag: "Creation", data: data(v) }
        byKey.set(k, op)
      }
      for (const [k, op] of byKey)
        if (op._tag === "Deletion") present.delete(k)
        else present.add(k)
      return [...byKey]
        .map(([k, op]) => makeWriteSetEntry(keyOf(k), op))
        .sort((x, y) => compareKeyBytes(x.keyBytes, y.keyBytes))
    }
    return [layer(first!), layer(second!)] as const
  })

const base: StateView = {
  module: () => undefined,
  resource: () => undefined,
  resourceGroup: () => undefined,
  tableItem: (_h, k) => (k[0]! <= 2 ? data(100 + k[0]!) : undefined)
}

describe("squashChangeSets", () => {
  it("reading the squashed change set equals reading both layers", () => {
    fc.assert(
      fc.property(validLayers, ([first, second]) => {
        const squashed = squashChangeSets(
          { writeSet: { entries: first }, events: [] },
          { writeSet: { entries: second }, events: [] }
        )
        expect(Result.isSuccess(squashed)).toBe(true)
        if (!Result.isSuccess(squashed)) return
        const layered = new OverlayStateView(base, [
          { writeSet: { entries: first }, version: 1n },
          { writeSet: { entries: second }, version: 2n }
        ])
        const one = new OverlayStateView(base, [{ writeSet: squashed.success.writeSet, version: 2n }])
        for (let k = 0; k <= 5; k++)
          expect(one.tableItem(addressFromNumber(7), new Uint8Array([k]))).toEqual(
            layered.tableItem(addressFromNumber(7), new Uint8Array([k]))
          )
        const keys = squashed.success.writeSet.entries.map((e) => e.keyBytes)
        for (let i = 1; i < keys.length; i++) expect(compareKeyBytes(keys[i - 1]!, keys[i]!)).toBeLessThan(0)
      })
    )
  })

  it("write sets out of key order squash as the same write sets in order", () => {
    fc.assert(
      fc.property(validLayers, fc.nat(), ([first, second], seed) => {
        const shuffled = (entries: ReadonlyArray<WriteSetEntry>, salt: number) =>
          entries
            .map((e, i) => ({ e, r: ((i + 1) * 2654435761 + seed + salt) % 1000 }))
            .sort((x, y) => x.r - y.r)
            .map((x) => x.e)
        const ordered = squashChangeSets(
          { writeSet: { entries: first }, events: [] },
          { writeSet: { entries: second }, events: [] }
        )
        const unordered = squashChangeSets(
          { writeSet: { entries: shuffled(first, 1) }, events: [] },
          { writeSet: { entries: shuffled(second, 2) }, events: [] }
        )
        expect(Result.isSuccess(ordered) && Result.isSuccess(unordered)).toBe(true)
        if (!Result.isSuccess(ordered) || !Result.isSuccess(unordered)) return
        // An empty second change set leaves the first's write set as it was given.
        const got = [...unordered.success.writeSet.entries]
        if (second.length === 0) got.sort((x, y) => compareKeyBytes(x.keyBytes, y.keyBytes))
        expect(got).toEqual(ordered.success.writeSet.entries)
      })
    )
  })
})
