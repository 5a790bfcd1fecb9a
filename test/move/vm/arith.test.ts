/** Move integer semantics of ops/arith.ts against a plain bigint model, per width. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as A from "../../../src/move/vm/ops/arith.js"
import { K } from "../../../src/move/vm/Type.js"
import { VmError } from "../../../src/move/vm/VmError.js"

const KINDS = [
  { kind: K.U8, bits: 8, signed: false },
  { kind: K.U16, bits: 16, signed: false },
  { kind: K.U32, bits: 32, signed: false },
  { kind: K.U64, bits: 64, signed: false },
  { kind: K.U128, bits: 128, signed: false },
  { kind: K.U256, bits: 256, signed: false },
  { kind: K.I8, bits: 8, signed: true },
  { kind: K.I32, bits: 32, signed: true },
  { kind: K.I64, bits: 64, signed: true }
] as const

const range = (bits: number, signed: boolean): [bigint, bigint] =>
  signed ? [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n] : [0n, (1n << BigInt(bits)) - 1n]
const asValue = (bits: number, v: bigint): number | bigint => (bits <= 32 ? Number(v) : v)
const outcome = (f: () => number | bigint): bigint | "ARITHMETIC_ERROR" => {
  try {
    return BigInt(f())
  } catch (e) {
    if (e instanceof VmError && e.status === "ARITHMETIC_ERROR") return "ARITHMETIC_ERROR"
    throw e
  }
}
const model = (lo: bigint, hi: bigint, r: bigint): bigint | "ARITHMETIC_ERROR" =>
  r < lo || r > hi ? "ARITHMETIC_ERROR" : r

describe("integer arithmetic", () => {
  for (const { kind, bits, signed } of KINDS) {
    const [lo, hi] = range(bits, signed)
    const arb = fc.bigInt({ min: lo, max: hi })
    it(`${signed ? "i" : "u"}${bits}: add/sub/mul/div/mod match the checked model`, () => {
      fc.assert(
        fc.property(arb, arb, (a, b) => {
          const x = asValue(bits, a)
          const y = asValue(bits, b)
          expect(outcome(() => A.add(kind, x, y))).toEqual(model(lo, hi, a + b))
          expect(outcome(() => A.sub(kind, x, y))).toEqual(model(lo, hi, a - b))
          expect(outcome(() => A.mul(kind, x, y))).toEqual(model(lo, hi, a * b))
          expect(outcome(() => A.div(kind, x, y))).toEqual(b === 0n ? "ARITHMETIC_ERROR" : model(lo, hi, a / b))
          expect(outcome(() => A.mod(x, y))).toEqual(b === 0n ? "ARITHMETIC_ERROR" : a % b)
        })
      )
    })
    if (!signed)
      it(`u${bits}: shifts truncate to the width and reject amounts ≥ ${bits}`, () => {
        fc.assert(
          fc.property(arb, fc.integer({ min: 0, max: 255 }), (a, n) => {
            const x = asValue(bits, a)
            const mask = (1n << BigInt(bits)) - 1n
            expect(outcome(() => A.shl(kind, x, n))).toEqual(n >= bits ? "ARITHMETIC_ERROR" : (a << BigInt(n)) & mask)
            expect(outcome(() => A.shr(kind, x, n))).toEqual(n >= bits ? "ARITHMETIC_ERROR" : a >> BigInt(n))
          })
        )
      })
    it(`${signed ? "i" : "u"}${bits}: casts check the target range`, () => {
      fc.assert(
        fc.property(fc.bigInt({ min: -(1n << 260n), max: 1n << 260n }), (v) => {
          expect(outcome(() => A.castTo(kind, v))).toEqual(model(lo, hi, v))
        })
      )
    })
  }
})
