/**
 * `0x1::secp256k1::ecdsa_recover_internal`: the reference's Move test vector, round trips with
 * @noble/curves, the deserialization aborts (0x1_0001) and `([], false)` answers, gas.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter, fromHex } from "../../../../src/bcs/index.js"
import { addressFromNumber } from "../../../../src/domain/AccountAddress.js"
import { readGasSchedule } from "../../../../src/move/vm/GasSchedule.js"
import { type CallOutcome, MoveVm } from "../../../../src/move/vm/MoveVm.js"
import { genesisState } from "../genesisState.js"

const ONE = addressFromNumber(1)
const { view } = genesisState("devnet")
const vm = new MoveVm()
const x = (h: string) => fromHex(h)!
const args = (msg: Uint8Array, id: number, sig: Uint8Array) => [
  new BcsWriter().bytesWithLength(msg).toBytes(),
  new Uint8Array([id]),
  new BcsWriter().bytesWithLength(sig).toBytes()
]
const recover = (msg: Uint8Array, id: number, sig: Uint8Array, maxGas = 2_000_000n): CallOutcome =>
  vm.call(
    view,
    {
      module: { address: ONE, name: "secp256k1" },
      function: "ecdsa_recover_internal",
      tyArgs: [],
      args: args(msg, id, sig)
    },
    { maxGas }
  )
const result = (o: CallOutcome) => {
  if (o._tag !== "Success") throw new Error(`${o._tag}: ${o._tag === "Error" ? o.error.message : String(o.code)}`)
  return { pk: new BcsReader(o.values[0]!).bytesWithLength(), ok: new BcsReader(o.values[1]!).bool() }
}
const abortCode = (o: CallOutcome) => (o._tag === "Abort" ? o.code : undefined)

const MSG = sha256(new TextEncoder().encode("test aptos secp256k1"))
const SIG = x(
  "f7ad936da03f948c14c542020e3c5f4e02aaacd1f20427c11aa6e2fbf8776477646bba0e1a37f9e7c777c423a1d2849baafd7ff6a9930814a43c3f80d59db56f"
)
const PK = x(
  "4646ae5047316b4230d0086c8acec687f00b1cd9d1dc634f6cb358ac0a9a8ffffe77b4dd0a4bfb95851f3b7355c781dd60f8418fc8a65d14907aff47c903a559"
)

describe("secp256k1::ecdsa_recover_internal", () => {
  it("the reference's test_ecdsa_recover vector, and its flipped-bit cases", () => {
    expect(result(recover(MSG, 0, SIG))).toEqual({ pk: PK, ok: true })
    const stillValid = x(
      "f7ad936da03f948c14c542020e3c5f4e02aaacd1f20427c11aa6e2fbf8776477646bba0e1a37f9e7c7f7c423a1d2849baafd7ff6a9930814a43c3f80d59db56f"
    )
    const r = result(recover(MSG, 0, stillValid))
    expect(r.ok).toBe(true)
    expect(r.pk).not.toEqual(PK)
    const invalid = x(
      "ffad936da03f948c14c542020e3c5f4e02aaacd1f20427c11aa6e2fbf8776477646bba0e1a37f9e7c7f7c423a1d2849baafd7ff6a9930814a43c3f80d59db56f"
    )
    expect(result(recover(MSG, 0, invalid))).toEqual({ pk: new Uint8Array(), ok: false })
  })

  it("recovers the key of @noble/curves signatures with their recovery bit, high S too", () => {
    const sk = new Uint8Array(32).fill(0x33)
    const pk = secp256k1.getPublicKey(sk, false).subarray(1)
    for (let i = 0; i < 5; i++) {
      const digest = sha256(new Uint8Array([i]))
      const sig = secp256k1.Signature.fromBytes(
        secp256k1.sign(digest, sk, { prehash: false, format: "recovered" }),
        "recovered"
      )
      expect(result(recover(digest, sig.recovery!, sig.toBytes("compact")))).toEqual({ pk, ok: true })
      const N = secp256k1.Point.Fn.ORDER
      const high = new secp256k1.Signature(sig.r, N - sig.s)
      expect(result(recover(digest, sig.recovery! ^ 1, high.toBytes("compact")))).toEqual({ pk, ok: true })
    }
  })

  it("aborts 0x1_0001 on a message other than 32 bytes, a recovery id above 3, a bad signature encoding", () => {
    const N = secp256k1.Point.Fn.ORDER
    expect(abortCode(recover(MSG.subarray(1), 0, SIG))).toBe(0x1_0001n)
    expect(abortCode(recover(MSG, 4, SIG))).toBe(0x1_0001n)
    expect(abortCode(recover(MSG, 0, SIG.subarray(1)))).toBe(0x1_0001n)
    const overflow = SIG.slice()
    overflow.set(fromHex(N.toString(16))!, 0)
    expect(abortCode(recover(MSG, 0, overflow))).toBe(0x1_0001n)
  })

  it("zero r or s answers ([], false)", () => {
    expect(result(recover(MSG, 0, new Uint8Array(64))).ok).toBe(false)
    const zs = SIG.slice()
    zs.fill(0, 32)
    expect(result(recover(MSG, 1, zs)).ok).toBe(false)
  })

  it("garbage never throws: a result or the deserialization abort", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 3 }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        (m, id, s) => {
          const o = recover(m, id, s)
          expect(o._tag === "Success" || abortCode(o) === 0x1_0001n).toBe(true)
        }
      ),
      { numRuns: 100 }
    )
  })

  it("gas: base + ecdsa_recover; an abort pays the base only", () => {
    const entries = readGasSchedule(view).entries
    const e = (k: string) => Number(entries.get(`aptos_framework.secp256k1.${k}`)!)
    const scaling = Number(entries.get("txn.gas_unit_scaling_factor")!)
    const o = recover(MSG, 0, SIG)
    expect(o._tag === "Success" && o.gasUsed).toBe(BigInt(Math.ceil((e("base") + e("ecdsa_recover")) / scaling)))
    const a = recover(MSG, 9, SIG)
    expect(a._tag === "Abort" && a.gasUsed).toBe(BigInt(Math.ceil(e("base") / scaling)))
  })
})
