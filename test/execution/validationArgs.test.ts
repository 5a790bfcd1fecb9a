/**
 * PrologueArgs / EpilogueArgs written by the framework's own enum declarations (devnet genesis),
 * checked against BCS built by hand in local-chain.md §3.3 / §8.4 field order.
 */
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { encodeByLayout, LayoutMismatch } from "../../src/execution/encodeByLayout.js"
import { encodeEpilogueArgs } from "../../src/execution/EpilogueArgs.js"
import { encodePrologueArgs, type PrologueArgsV1 } from "../../src/execution/PrologueArgs.js"
import { Layouts } from "../../src/move/layout/MoveTypeLayout.js"
import { MoveVm } from "../../src/move/vm/MoveVm.js"
import { genesisState } from "../move/vm/genesisState.js"

const vm = new MoveVm()
const { view } = genesisState("devnet")
const withSource = <A>(f: (source: (a: Uint8Array, n: string) => any) => A): A =>
  vm.loader.withView(view, () => f((a, n) => vm.loader.tryLoad(a, n)?.cm))

const key = new Uint8Array(32).fill(7)
const args: PrologueArgsV1 = {
  needsFeePayerAuthCheck: true,
  senderAuthKey: key,
  feePayerAuthKey: undefined,
  replayProtector: { _tag: "SequenceNumber", sequenceNumber: 5n },
  secondarySignerAddresses: [addressFromNumber(0xb0b)],
  secondarySignerAuthKeys: [undefined],
  gasUnitPrice: 100n,
  maxGasAmount: 2000n,
  expirationTimestampSecs: 99n,
  chainId: 4,
  isSimulation: true
}

describe("PrologueArgs", () => {
  it("is written in the devnet enum's field order (V1, 12 fields, ReplayProtector SequenceNumber = 1)", () => {
    const w = new BcsWriter()
    w.uleb128(0) // V1
    w.bool(true)
    w.uleb128(1).bytesWithLength(key) // Some(key)
    w.uleb128(0) // None
    w.uleb128(1).u64(5n) // SequenceNumber(5)
    w.uleb128(1).fixed(addressFromNumber(0xb0b))
    w.uleb128(1).uleb128(0) // [None]
    w.u64(100n).u64(2000n).u64(99n).u8(4).bool(true)
    w.uleb128(0) // txn_limits_request: None
    expect(withSource((s) => encodePrologueArgs(s, args))).toEqual(w.toBytes())
  })

  it("writes a nonce as ReplayProtector variant 0", () => {
    const bytes = withSource((s) => encodePrologueArgs(s, { ...args, replayProtector: { _tag: "Nonce", nonce: 9n } }))
    if (typeof bytes === "string") throw new Error(bytes)
    // V1 tag, bool, Some(32-byte key) = 1 + 1 + 1 + 1 + 32, then None (1): the replay protector follows.
    expect(Array.from(bytes.subarray(37, 46))).toEqual([0, 9, 0, 0, 0, 0, 0, 0, 0])
  })

  it("says why when the framework has no transaction_validation module", () => {
    expect(encodePrologueArgs(() => undefined, args)).toBe("module 0x1::transaction_validation not found")
  })
})

describe("EpilogueArgs", () => {
  it("is written in the devnet enum's field order, the fee statement first", () => {
    const fs = {
      totalChargeGasUnits: 7n,
      executionGasUnits: 3n,
      ioGasUnits: 2n,
      storageFeeOctas: 400_000n,
      storageFeeRefundOctas: 1n
    }
    const w = new BcsWriter()
    w.uleb128(0).u64(7n).u64(3n).u64(2n).u64(400_000n).u64(1n).u64(100n).u64(2000n).u64(1993n).bool(false).bool(true)
    const bytes = withSource((s) =>
      encodeEpilogueArgs(s, {
        feeStatement: fs,
        gasUnitPrice: 100n,
        maxGasAmount: 2000n,
        gasUnitsRemaining: 1993n,
        isSimulation: false,
        isOrderless: true
      })
    )
    expect(bytes).toEqual(w.toBytes())
  })
})

describe("encodeByLayout", () => {
  const layout = {
    _tag: "struct" as const,
    struct: { address: addressFromNumber(1), module: "m", name: "S", typeArgs: [] },
    fields: [
      { name: "a", layout: Layouts.u64 },
      { name: "b", layout: Layouts.bool }
    ]
  }
  it("refuses a value that lacks a field the framework declares, or has one it does not", () => {
    expect(() => encodeByLayout(new BcsWriter(), layout, { a: 1n })).toThrow(LayoutMismatch)
    expect(() => encodeByLayout(new BcsWriter(), layout, { a: 1n, c: true })).toThrow(LayoutMismatch)
    expect(() => encodeByLayout(new BcsWriter(), layout, { a: 1, b: true })).toThrow(LayoutMismatch)
  })
})
