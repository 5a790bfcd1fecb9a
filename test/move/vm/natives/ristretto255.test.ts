/**
 * `0x1::ristretto255` natives: the reference's Move unit-test vectors
 * (aptos-stdlib sources/cryptography/ristretto255.move) run against the natives directly (a
 * session's point store spans calls, as a Move function's would), handle numbering, in-place
 * operations, the point limit, gas, and the natives wired into the VM (scalar functions through
 * the devnet framework).
 */
import { ristretto255 } from "@noble/curves/ed25519.js"
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter, fromHex } from "../../../../src/bcs/index.js"
import { addressFromNumber } from "../../../../src/domain/AccountAddress.js"
import { GasMeter } from "../../../../src/move/vm/GasMeter.js"
import { meterFor, readGasSchedule } from "../../../../src/move/vm/GasSchedule.js"
import { MoveVm } from "../../../../src/move/vm/MoveVm.js"
import type { NativeContext } from "../../../../src/move/vm/natives/NativeContext.js"
import { ristretto255Natives as N } from "../../../../src/move/vm/natives/ristretto255.js"
import type { Session } from "../../../../src/move/vm/Session.js"
import { fromBytes, Ref, StructValue, type Value } from "../../../../src/move/vm/Value.js"
import { MoveAbort } from "../../../../src/move/vm/VmError.js"
import { genesisState } from "../genesisState.js"

const ONE = addressFromNumber(1)
const { view } = genesisState("devnet")
const x = (h: string) => fromHex(h)!
const v = (h: string): Value => fromBytes(x(h))

const context = (gas: GasMeter = GasMeter.unmetered()): NativeContext =>
  ({
    session: {} as Session,
    loader: undefined as never,
    gas,
    chainId: () => 4,
    module: { address: ONE, name: "ristretto255" },
    caller: undefined
  }) as NativeContext

/** Calls a native, returning its results (never a NativeCall for these). */
const run = (ctx: NativeContext, fn: string, ...args: Value[]): Value[] => N[fn]!(ctx, [], args) as Value[]
const refTo = (value: Value): Ref => new Ref([value], 0, undefined)
const point = (handle: bigint): Ref => refTo(new StructValue(-1, [handle]))
const bytes = (vs: Value): Uint8Array => Uint8Array.from(vs as number[])

const A_SCALAR = "1a0e978a90f6622d3747023f8ad8264da758aa1b88e040d1589e7b7f2376ef09"
const B_SCALAR = "dbfd97afd38a06f0138d0527efb28ead5b7109b486465913bf3aa472a8ed4e0d"
const A_TIMES_B_SCALAR = "2ab50e383d7c210f74d5387330735f18315112d10dfb98fcce1e2620c0c01402"
const A_PLUS_B_SCALAR = "083839dd491e57c5743710c39a91d6e502cab3cf0e279ae417d91ff2cb633e07"
const A_TIMES_BASE_POINT = "96d52d9262ee1e1aae79fbaee8c1d9068b0d01bf9a4579e618090c3d1088ae10"
const A_POINT = "e87feda199d72b83de4f5b2d45d34805c57019c6c59c42cb70ee3d19aa996f75"
const B_POINT = "fa0b3624b081c62f364d0b2839dcc76d7c3ab0e27e31beb2b9ed766575f28e76"
const A_PLUS_B_POINT = "70cf3753475b9ff33e2f84413ed6b5052073bccc0a0a81789d3e5675dc258056"
const X_SCALAR = "4e5ab4345d4708845913b4641bc27d5252a585101bcc4244d449f4a879d9f204"
const X_INV_SCALAR = "1cdc17fce0e9a5bbd9247e56bb016347bbba31edd5a9bb96d50bcd7a3f962a0f"
const Y_SCALAR = "907633fe1c4b66a4a28d2dd7678386c353d0de5455d4fc9de8ef7ac31f35bb05"
const X_TIMES_Y_SCALAR = "6c3374a1894f62210aaa2fe186a6f92ce0aa75c2779581c295fc08179a73940c"
const L_PLUS_ONE = "eed3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010"
const L_PLUS_TWO = "efd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010"
const L_MINUS_ONE = "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010"
const TWO = "0200000000000000000000000000000000000000000000000000000000000000"
const ONE_S = "0100000000000000000000000000000000000000000000000000000000000000"
const ZERO_S = "0000000000000000000000000000000000000000000000000000000000000000"
const BASE_POINT = ristretto255.Point.BASE.toBytes()

const decompress = (ctx: NativeContext, hex: string | Uint8Array): bigint => {
  const [h, ok] = run(ctx, "point_decompress_internal", typeof hex === "string" ? v(hex) : fromBytes(hex))
  expect(ok).toBe(true)
  return h as bigint
}
const equals = (ctx: NativeContext, a: bigint, b: bigint) => run(ctx, "point_equals", point(a), point(b))[0]

describe("ristretto255 points (the reference's Move tests)", () => {
  it("point_mul: handles count from 0; the input stays, the result is a·G", () => {
    const ctx = context()
    const g = decompress(ctx, BASE_POINT)
    const ag = decompress(ctx, A_TIMES_BASE_POINT)
    const [p] = run(ctx, "point_mul_internal", point(g), v(A_SCALAR), false)
    expect([g, ag, p]).toEqual([0n, 1n, 2n])
    expect(equals(ctx, g, ag)).toBe(false)
    expect(equals(ctx, p as bigint, ag)).toBe(true)
    // in place: same handle, g becomes a·G
    const [same] = run(ctx, "point_mul_internal", point(g), v(A_SCALAR), true)
    expect(same).toBe(g)
    expect(equals(ctx, g, ag)).toBe(true)
  })

  it("point_add / point_sub / point_neg, in place and not, with gaps before the operands", () => {
    for (const [gapA, gapB] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [3, 7]
    ] as const) {
      const ctx = context()
      for (let i = 0; i < gapA; i++) decompress(ctx, BASE_POINT)
      const a = decompress(ctx, A_POINT)
      for (let i = 0; i < gapB; i++) decompress(ctx, BASE_POINT)
      const b = decompress(ctx, B_POINT)
      const sum = decompress(ctx, A_PLUS_B_POINT)
      expect(a).toBe(BigInt(gapA))
      expect(b).toBe(BigInt(1 + gapA + gapB))
      const [r] = run(ctx, "point_add_internal", point(a), point(b), false)
      expect(equals(ctx, r as bigint, sum)).toBe(true)
      const [d] = run(ctx, "point_sub_internal", point(sum), point(b), false)
      expect(equals(ctx, d as bigint, a)).toBe(true)
      const [inPlace] = run(ctx, "point_add_internal", point(a), point(b), true)
      expect(inPlace).toBe(a)
      expect(equals(ctx, a, sum)).toBe(true)
    }
    const ctx = context()
    const a = decompress(ctx, A_POINT)
    const [neg] = run(ctx, "point_neg_internal", point(a), false)
    const [id] = run(ctx, "point_identity_internal")
    const [s] = run(ctx, "point_add_internal", point(a), point(neg as bigint), false)
    expect(equals(ctx, s as bigint, id as bigint)).toBe(true)
    const [same] = run(ctx, "point_neg_internal", point(a), true)
    expect(same).toBe(a)
    expect(equals(ctx, a, neg as bigint)).toBe(true)
  })

  it("compress/decompress round trip; basepoint_mul; basepoint_double_mul; double and multi scalar mul", () => {
    const ctx = context()
    const a = decompress(ctx, A_POINT)
    expect(bytes(run(ctx, "point_compress_internal", point(a))[0]!)).toEqual(x(A_POINT))
    const [ag] = run(ctx, "basepoint_mul_internal", v(A_SCALAR))
    expect(bytes(run(ctx, "point_compress_internal", point(ag as bigint))[0]!)).toEqual(x(A_TIMES_BASE_POINT))
    const expected = decompress(ctx, "be5d615d8b8f996723cdc6e1895b8b6d312cc75d1ffb0259873b99396a38c05a")
    const [dm] = run(ctx, "basepoint_double_mul_internal", v(A_SCALAR), point(a), v(B_SCALAR))
    expect(equals(ctx, dm as bigint, expected)).toBe(true)
    const g = decompress(ctx, BASE_POINT)
    const [m1] = run(ctx, "double_scalar_mul_internal", g, g, v(A_SCALAR), v(B_SCALAR))
    const [m2] = run(ctx, "basepoint_double_mul_internal", v(A_SCALAR), point(g), v(B_SCALAR))
    expect(equals(ctx, m1 as bigint, m2 as bigint)).toBe(true)
  })

  it("multi_scalar_mul of five hashed points and scalars (test_multi_scalar_mul_many)", () => {
    const ctx = context()
    const scalars: Value[] = []
    const points: Value[] = []
    for (const s of ["1", "2", "3", "4", "5"]) {
      const msg = fromBytes(new TextEncoder().encode(s))
      scalars.push(new StructValue(-1, [run(ctx, "scalar_from_sha512_internal", msg)[0]!]))
      points.push(new StructValue(-1, [run(ctx, "new_point_from_sha512_internal", msg)[0]!]))
    }
    const expected = decompress(ctx, "c4a98fbe6bd0f315a0c150858aec8508be397443093e955ef982e299c1318928")
    const [r] = N.multi_scalar_mul_internal!(ctx, [], [refTo(points), refTo(scalars)]) as Value[]
    expect(equals(ctx, r as bigint, expected)).toBe(true)
  })

  it("points from SHA-512 and from 64 uniform bytes (the reference's vectors); non-canonical encodings refused", () => {
    const ctx = context()
    const msg = fromBytes(
      new TextEncoder().encode("To really appreciate architecture, you may even need to commit a murder")
    )
    const [h] = run(ctx, "new_point_from_sha512_internal", msg)
    const e1 = decompress(ctx, "baaa91eb43e5e2f12ffc96347e14bc458fdb1772b2232b08977ee61ea9f84e31")
    expect(equals(ctx, h as bigint, e1)).toBe(true)
    const [u] = run(
      ctx,
      "new_point_from_64_uniform_bytes_internal",
      v(
        "baaa91eb43e5e2f12ffc96347e14bc458fdb1772b2232b08977ee61ea9f84e31e87feda199d72b83de4f5b2d45d34805c57019c6c59c42cb70ee3d19aa996f75"
      )
    )
    const e2 = decompress(ctx, "4a8e429f906478654232d7ae180ad60854754944ac67f38e20d8fa79e4b7d71e")
    expect(equals(ctx, u as bigint, e2)).toBe(true)
    // A non-canonical field encoding (p + 1) and a wrong length.
    expect(
      run(ctx, "point_is_canonical_internal", v("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))[0]
    ).toBe(false)
    expect(run(ctx, "point_is_canonical_internal", v(A_POINT.slice(2)))[0]).toBe(false)
    expect(run(ctx, "point_decompress_internal", v(A_POINT.slice(2)))).toEqual([(1n << 64n) - 1n, false])
  })

  it("more than 10,000 points in a session abort E_TOO_MANY_POINTS_CREATED", () => {
    const ctx = context()
    for (let i = 0; i < 10_000; i++) run(ctx, "point_identity_internal")
    expect(() => run(ctx, "point_identity_internal")).toThrow(MoveAbort)
    try {
      run(ctx, "point_identity_internal")
    } catch (e) {
      expect((e as MoveAbort).code).toBe(0x09_0004n)
    }
  })
})

describe("ristretto255 scalars (the reference's Move tests)", () => {
  const ctx = context()
  const s = (fn: string, ...args: Value[]) => Buffer.from(bytes(run(ctx, fn, ...args)[0]!)).toString("hex")

  it("arithmetic: mul, add, sub reduce; neg; invert; from u64/u128", () => {
    expect(s("scalar_mul_internal", v(X_SCALAR), v(Y_SCALAR))).toBe(X_TIMES_Y_SCALAR)
    expect(s("scalar_mul_internal", v(A_SCALAR), v(B_SCALAR))).toBe(A_TIMES_B_SCALAR)
    expect(s("scalar_add_internal", v(A_SCALAR), v(B_SCALAR))).toBe(A_PLUS_B_SCALAR)
    expect(s("scalar_add_internal", v(L_MINUS_ONE), v(ONE_S))).toBe(ZERO_S)
    expect(s("scalar_sub_internal", v(ZERO_S), v(ONE_S))).toBe(L_MINUS_ONE)
    expect(s("scalar_sub_internal", v(ONE_S), v(TWO))).toBe(L_MINUS_ONE)
    expect(s("scalar_neg_internal", v(s("scalar_neg_internal", v(X_SCALAR))))).toBe(X_SCALAR)
    expect(s("scalar_invert_internal", v(X_SCALAR))).toBe(X_INV_SCALAR)
    expect(s("scalar_invert_internal", v(ONE_S))).toBe(ONE_S)
    expect(s("scalar_from_u64_internal", 2n)).toBe(TWO)
    expect(s("scalar_from_u128_internal", 2n)).toBe(TWO)
  })

  it("reductions: from 32 bytes (ℓ + 2 → 2; 2²⁵⁶ − 1), from 64 uniform bytes, from SHA-512", () => {
    expect(s("scalar_reduced_from_32_bytes_internal", v(L_PLUS_TWO))).toBe(TWO)
    expect(s("scalar_reduced_from_32_bytes_internal", v("ff".repeat(32)))).toBe(
      "1c95988d7431ecd670cf7d73f45befc6feffffffffffffffffffffffffffff0f"
    )
    expect(s("scalar_uniform_from_64_bytes_internal", v(X_SCALAR + X_SCALAR))).toBe(
      "d89ab38bd279024745639ed817ad3f64cc005b32db9939f91c521fc564a5c008"
    )
    const text =
      "To really appreciate architecture, you may even need to commit a murder." +
      "While the programs used for The Manhattan Transcripts are of the most extreme" +
      "nature, they also parallel the most common formula plot: the archetype of" +
      "murder. Other phantasms were occasionally used to underline the fact that" +
      "perhaps all architecture, rather than being about functional standards, is" +
      "about love and death."
    expect([...bytes(run(ctx, "scalar_from_sha512_internal", fromBytes(new TextEncoder().encode(text)))[0]!)]).toEqual([
      21, 88, 208, 252, 63, 122, 210, 152, 154, 38, 15, 23, 16, 167, 80, 150, 192, 221, 77, 226, 62, 25, 224, 148, 239,
      48, 176, 10, 185, 69, 168, 11
    ])
  })

  it("is_canonical: below ℓ only, 32 bytes only", () => {
    const canon = (h: string) => run(ctx, "scalar_is_canonical_internal", v(h))[0]
    expect(canon(ZERO_S)).toBe(true)
    expect(canon(L_MINUS_ONE)).toBe(true)
    expect(canon(L_PLUS_ONE)).toBe(false)
    expect(canon("10".repeat(32))).toBe(false)
    expect(canon(`${"00".repeat(31)}80`)).toBe(false)
    expect(canon("00")).toBe(false)
  })
})

describe("ristretto255 gas and VM wiring", () => {
  const schedule = readGasSchedule(view)
  const e = (k: string) => Number(schedule.entries.get(`aptos_framework.ristretto255.${k}`)!)

  it("charges the schedule's entries (multi-scalar mul: per argument plus point_mul × n / ⌊log₂(n + 1)⌋)", () => {
    const gas = meterFor(schedule, 1_000_000n)
    const ctx = context(gas)
    const before = gas.used
    run(ctx, "basepoint_mul_internal", v(A_SCALAR))
    expect(gas.used - before).toBe(e("basepoint_mul"))
    const g = 0n
    const pts: Value[] = [1, 2, 3].map(() => new StructValue(-1, [g]))
    const scs: Value[] = [1, 2, 3].map(() => new StructValue(-1, [v(A_SCALAR)]))
    const b2 = gas.used
    N.multi_scalar_mul_internal!(ctx, [], [refTo(pts), refTo(scs)])
    expect(gas.used - b2).toBe(3 * e("point_parse_arg") + 3 * e("scalar_parse_arg") + 1 * e("point_mul"))
  })

  it("the framework's scalar functions run on the natives (new_scalar_from_sha512 of the reference's message)", () => {
    const vm = new MoveVm()
    const w = new BcsWriter().bytesWithLength(new TextEncoder().encode("bello!")).toBytes()
    const names = ["new_scalar_from_sha2_512", "new_scalar_from_sha512"]
    const o = names
      .map((f) => vm.call(view, { module: { address: ONE, name: "ristretto255" }, function: f, tyArgs: [], args: [w] }))
      .find((r) => r._tag === "Success")
    if (o === undefined || o._tag !== "Success") throw new Error("no scalar-from-SHA-512 function ran")
    expect(Buffer.from(new BcsReader(o.values[0]!).bytesWithLength()).toString("hex")).toBe(B_SCALAR)
  })
})
