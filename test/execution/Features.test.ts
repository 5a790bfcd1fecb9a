import { describe, expect, it } from "vitest"
import { Features, readFeatures } from "../../src/execution/Features.js"
import { genesisState } from "../move/vm/genesisState.js"

describe("Features", () => {
  it("reads the devnet flags (112, 91, 93, 94, 85, 88 on; 104 SESSION_CONTINUATION off)", () => {
    const f = readFeatures(genesisState("devnet").view)
    for (const flag of [112, 91, 93, 94, 85, 88, 27, 28, 51]) expect(f.isEnabled(flag)).toBe(true)
    expect(f.isEnabled(104)).toBe(false)
    expect(f.isEnabled("VERSIONED_TRANSACTION_VALIDATION")).toBe(true)
    expect(f.storageDeletionRefund).toBe(true)
    expect(f.accountAbstraction).toBe(true)
  })

  it("a flag past the bitset's end is off", () => {
    expect(new Features(Uint8Array.of(0xff)).isEnabled(8)).toBe(false)
    expect(new Features(Uint8Array.of(0xff)).isEnabled(7)).toBe(true)
  })
})
