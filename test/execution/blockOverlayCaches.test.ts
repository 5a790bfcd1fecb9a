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

describe("a block's overlay caches", () => {
  it("give the same outputs as a fresh overlay per transaction", () => {
    const base = devnetView()
    const recipients = [addressOf(0xb0b1), addressOf(0xb0b2), addressOf(0xb0b1), addressOf(0xb0b3), addressOf(0xb0b2)]
    const txns = recipients.map((to, i) =>
      signed(ROOT, transferPayload(to, 1_000n + BigInt(i)), { sequenceNumber: BigInt(i) })
    )
    const block = new OverlayStateView(base)
    const layers: OverlayLayer[] = []
    txns.forEach((txn, i) => {
      const cached = executeTransaction(vm, block, txn, { simulation: true })
      const fresh = executeTransaction(vm, new OverlayStateView(base, layers), txn, { simulation: true })
      expect(cached.status._tag, `transaction ${i}`).toBe("Keep")
      expect(stringify(cached), `transaction ${i}`).toBe(stringify(fresh))
      if (cached.status._tag !== "Keep") return
      const layer = { writeSet: cached.writeSet, version: BigInt(i + 1) }
      block.push(layer)
      layers.push(layer)
    })
  })

  it("give the same outputs with a new decoded-resource cache per transaction, as a block makes them", () => {
    const base = devnetView()
    const recipients = [addressOf(0xb0b1), addressOf(0xb0b2), addressOf(0xb0b1)]
    const block = new OverlayStateView(base)
    const layers: OverlayLayer[] = []
    recipients.forEach((to, i) => {
      const txn = signed(ROOT, transferPayload(to, 2_000n + BigInt(i)), { sequenceNumber: BigInt(i) })
      block.forgetDecodedResources()
      const cached = executeTransaction(vm, block, txn, { simulation: true })
      const fresh = executeTransaction(vm, new OverlayStateView(base, layers), txn, { simulation: true })
      expect(cached.status._tag, `transaction ${i}`).toBe("Keep")
      expect(stringify(cached), `transaction ${i}`).toBe(stringify(fresh))
      if (cached.status._tag !== "Keep") return
      const layer = { writeSet: cached.writeSet, version: BigInt(i + 1) }
      block.push(layer)
      layers.push(layer)
    })
  })

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
})
