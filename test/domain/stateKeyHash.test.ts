import { describe, expect, it } from "vitest"
import { Bcs } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import { hashWithPrefix } from "../../src/domain/hash.js"
import { stateKeyHash } from "../../src/domain/stateKeyHash.js"

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

describe("stateKeyHash", () => {
  it("matches the reference's own test vectors (types/src/state_store/state_key tests)", () => {
    // An access path of 0x1002 whose path bytes are [7, 2, 3] (not a valid Path, hashed all the same).
    const accessPath = Uint8Array.from([0, ...addressFromNumber(0x1002), 3, 7, 2, 3])
    expect(hex(stateKeyHash(accessPath))).toBe("0e0960bcabe04c40e8814ecc0e6de415163573243fb5059e9951f5890e9481ef")
    const tableItem = Bcs.encode(stateKeyCodec, {
      _tag: "TableItem",
      handle: addressFromNumber(0x1002),
      key: Uint8Array.from([7, 2, 3])
    })
    expect(hex(stateKeyHash(tableItem))).toBe("6f5550015f7a6036f88b2458f98a7e4800aba09e83f8f294dbf70bff77f224e6")
    const raw = Bcs.encode(stateKeyCodec, { _tag: "Raw", bytes: Uint8Array.from([1, 2, 3]) })
    expect(hex(stateKeyHash(raw))).toBe("655ab5766bc87318e18d9287f32d318e15535d3db9d21a6e5a2b41a51b535aff")
  })

  it("drops a long table key's multi-byte length, and a raw key's", () => {
    const key = new Uint8Array(300).fill(9)
    const bytes = Bcs.encode(stateKeyCodec, { _tag: "TableItem", handle: addressFromNumber(1), key })
    expect(bytes.length).toBe(1 + 32 + 2 + 300)
    expect(stateKeyHash(bytes)).toEqual(
      hashWithPrefix("StateKey", Uint8Array.from([1, ...addressFromNumber(1), ...key]))
    )
    const raw = Bcs.encode(stateKeyCodec, { _tag: "Raw", bytes: key })
    expect(stateKeyHash(raw)).toEqual(hashWithPrefix("StateKey", Uint8Array.from([255, ...key])))
  })
})
