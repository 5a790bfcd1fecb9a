/**
 * Crypto natives not implemented yet fail as the reference does for what it does not support:
 * crypto_algebra aborts NOT_IMPLEMENTED (0x0C_0001), the bulletproofs verifiers abort their
 * module's invalid_state(E_NATIVE_FUN_NOT_AVAILABLE).
 */
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../../../src/bcs/index.js"
import { addressFromNumber } from "../../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../../src/domain/TypeTag.js"
import { type CallOutcome, MoveVm } from "../../../../src/move/vm/MoveVm.js"
import { genesisState } from "../genesisState.js"

const ONE = addressFromNumber(1)
const { view } = genesisState("devnet")
const vm = new MoveVm()
const struct = (module: string, name: string): TypeTag => ({
  _tag: "struct",
  struct: { address: ONE, module, name, typeArgs: [] }
})
const call = (module: string, fn: string, tyArgs: TypeTag[], args: Uint8Array[]): CallOutcome =>
  vm.call(view, { module: { address: ONE, name: module }, function: fn, tyArgs, args })

describe("unsupported crypto natives", () => {
  it("crypto_algebra aborts NOT_IMPLEMENTED (0x0C_0001) in 0x1::crypto_algebra", () => {
    const o = call("crypto_algebra", "zero_internal", [struct("bls12381_algebra", "Fr")], [])
    expect(o._tag).toBe("Abort")
    if (o._tag === "Abort") {
      expect(o.code).toBe(0x0c_0001n)
      expect(o.location?.name).toBe("crypto_algebra")
    }
  })

  it("bulletproofs range proofs abort invalid_state(E_NATIVE_FUN_NOT_AVAILABLE) of their module", () => {
    const bytes = (b: Uint8Array) => new BcsWriter().bytesWithLength(b).toBytes()
    const handle = new BcsWriter().u64(0n).toBytes()
    const o = call(
      "ristretto255_bulletproofs",
      "verify_range_proof_internal",
      [],
      [
        bytes(new Uint8Array(32)),
        handle,
        handle,
        bytes(new Uint8Array(10)),
        new BcsWriter().u64(64n).toBytes(),
        bytes(new Uint8Array())
      ]
    )
    expect(o._tag).toBe("Abort")
    if (o._tag === "Abort") {
      expect(o.code >> 16n).toBe(3n)
      expect(o.info?.name).toBe("E_NATIVE_FUN_NOT_AVAILABLE")
    }
  })
})
