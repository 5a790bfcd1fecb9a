/**
 * A block's overlay keeps what it read from the committed state and the resources the VM decoded
 * from it (OverlayStateView.baseRead, StateView.decodedResources): transactions executed one after
 * another over one overlay must give exactly the outputs they give over a fresh overlay each (no
 * cache carried over): write sets, events, gas and status, transfer after transfer, to the same
 * and to new recipients (values read, rewritten by a layer and read again).
 */
import { describe, expect, it } from "vitest"
import { executeTransaction } from "../../src/execution/executeTransaction.js"
import { type OverlayLayer, OverlayStateView } from "../../src/execution/OverlayStateView.js"
import { addressOf, devnetView, ROOT, signed, stringify, transferPayload, vm } from "./fixtures.js"

/**
 * Executes `txns` one after another over one block overlay (calling `beforeEach` on it before each,
 * as the block producer may) and each also over a fresh overlay of the same layers: the outputs must
 * be the same.
 */
const sameAsFresh = (
  txns: ReadonlyArray<ReturnType<typeof signed>>,
  beforeEach: (block: OverlayStateView) => void = () => {}
) => {
  const base = devnetView()
  const block = new OverlayStateView(base)
  const layers: OverlayLayer[] = []
  txns.forEach((txn, i) => {
    beforeEach(block)
    const cached = executeTransaction(vm, block, txn, { simulation: true })
    const fresh = executeTransaction(vm, new OverlayStateView(base, layers), txn, { simulation: true })
    expect(cached.status._tag, `transaction ${i}`).toBe("Keep")
    expect(stringify(cached), `transaction ${i}`).toBe(stringify(fresh))
    if (cached.status._tag !== "Keep") return
    const layer = { writeSet: cached.writeSet, version: BigInt(i + 1) }
    block.push(layer)
    layers.push(layer)
  })
}

const transfers = (recipients: ReadonlyArray<number>, amount: bigint) =>
  recipients.map((to, i) =>
    signed(ROOT, transferPayload(addressOf(to), amount + BigInt(i)), { sequenceNumber: BigInt(i) })
  )

describe("a block's overlay caches", () => {
  it("give the same outputs as a fresh overlay per transaction", () =>
    sameAsFresh(transfers([0xb0b1, 0xb0b2, 0xb0b1, 0xb0b3, 0xb0b2], 1_000n)))

  it("give the same outputs with a new decoded-resource cache per transaction, as a block makes them", () =>
    sameAsFresh(transfers([0xb0b1, 0xb0b2, 0xb0b1], 2_000n), (block) => block.forgetDecodedResources()))

  it("share one decoded-resource cache among overlays stacked on a block, until the block starts a new one", () => {
    const block = new OverlayStateView(devnetView())
    const before = new OverlayStateView(block)
    expect(before.decodedResources).toBe(block.decodedResources)
    expect(new OverlayStateView(before).decodedResources).toBe(block.decodedResources)
    block.forgetDecodedResources()
    const after = new OverlayStateView(block)
    expect(after.decodedResources).toBe(block.decodedResources)
    // An overlay stacked before keeps the cache it was made with (a session running over it).
    expect(before.decodedResources).not.toBe(block.decodedResources)
  })

  it("bound the decoded-resource cache of an overlay never told to forget (a new one at 10,000 values)", () => {
    const view = new OverlayStateView(devnetView())
    const stacked = new OverlayStateView(view)
    const first = view.decodedResources!
    const value = { byteLength: 1, type: undefined as never, value: 1n, node: undefined as never, size: 1 }
    for (let i = 0; i < 9_999; i++) first.set(new Uint8Array(1), value)
    expect(view.decodedResources).toBe(first)
    first.set(new Uint8Array(1), value)
    // Full: each overlay's next read starts a new cache; none grows past the bound.
    const second = view.decodedResources!
    expect(second).not.toBe(first)
    expect(second.size).toBe(0)
    expect(stacked.decodedResources).not.toBe(first)
    expect(first.size).toBe(10_000)
  })
})
