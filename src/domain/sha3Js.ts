/**
 * SHA3-256 (FIPS 202) in plain JS for short inputs, used by `hash.ts` only on a host with neither
 * WebAssembly (`sha3Wasm.ts`, first choice) nor node:crypto's one-shot `crypto.hash` (before Node
 * 20.12; both are cheaper): no native hash
 * object per call (its creation and the GC handle behind it cost more than the permutation), one reused state
 * (so not re-entrant; nothing here yields). Checked against node:crypto by
 * test/move/vm/sha3.test.ts. Lanes are 64-bit, held as (lo, hi)
 * 32-bit pairs in little-endian order, so input bytes XOR straight into the state's bytes.
 */
/** Keccak-f[1600]'s 24 round constants, each as its low then high 32 bits (also sha3Wasm's). */
export const KECCAK_ROUND_CONSTANTS = ((): Int32Array => {
  // Round constants from the FIPS 202 LFSR (rc(t) feeds bit 2^j - 1 of round i's constant).
  const out = new Int32Array(48)
  let lfsr = 1
  for (let i = 0; i < 24; i++) {
    for (let j = 0; j < 7; j++) {
      lfsr = ((lfsr << 1) ^ ((lfsr >> 7) * 0x71)) & 0xff
      if (lfsr & 2) {
        const bit = (1 << j) - 1
        if (bit < 32) out[2 * i]! ^= 1 << bit
        else out[2 * i + 1]! ^= 1 << (bit - 32)
      }
    }
  }
  return out
})()

/** Keccak-f[1600] on 25 lanes (theta, rho and pi, chi, iota), unrolled over locals (generated). */
const keccakF = (s: Int32Array): void => {
  let a0 = s[0]!,
    a1 = s[1]!,
    a2 = s[2]!,
    a3 = s[3]!,
    a4 = s[4]!,
    a5 = s[5]!,
    a6 = s[6]!,
    a7 = s[7]!,
    a8 = s[8]!,
    a9 = s[9]!
  let a10 = s[10]!,
    a11 = s[11]!,
    a12 = s[12]!,
    a13 = s[13]!,
    a14 = s[14]!,
    a15 = s[15]!,
    a16 = s[16]!,
    a17 = s[17]!,
    a18 = s[18]!,
    a19 = s[19]!
  let a20 = s[20]!,
    a21 = s[21]!,
    a22 = s[22]!,
    a23 = s[23]!,
    a24 = s[24]!,
    a25 = s[25]!,
    a26 = s[26]!,
    a27 = s[27]!,
    a28 = s[28]!,
    a29 = s[29]!
  let a30 = s[30]!,
    a31 = s[31]!,
    a32 = s[32]!,
    a33 = s[33]!,
    a34 = s[34]!,
    a35 = s[35]!,
    a36 = s[36]!,
    a37 = s[37]!,
    a38 = s[38]!,
    a39 = s[39]!
  let a40 = s[40]!,
    a41 = s[41]!,
    a42 = s[42]!,
    a43 = s[43]!,
    a44 = s[44]!,
    a45 = s[45]!,
    a46 = s[46]!,
    a47 = s[47]!,
    a48 = s[48]!,
    a49 = s[49]!
  for (let r = 0; r < 48; r += 2) {
    const c0 = a0 ^ a10 ^ a20 ^ a30 ^ a40
    const c1 = a1 ^ a11 ^ a21 ^ a31 ^ a41
    const c2 = a2 ^ a12 ^ a22 ^ a32 ^ a42
    const c3 = a3 ^ a13 ^ a23 ^ a33 ^ a43
    const c4 = a4 ^ a14 ^ a24 ^ a34 ^ a44
    const c5 = a5 ^ a15 ^ a25 ^ a35 ^ a45
    const c6 = a6 ^ a16 ^ a26 ^ a36 ^ a46
    const c7 = a7 ^ a17 ^ a27 ^ a37 ^ a47
    const c8 = a8 ^ a18 ^ a28 ^ a38 ^ a48
    const c9 = a9 ^ a19 ^ a29 ^ a39 ^ a49
    const d0 = c8 ^ ((c2 << 1) | (c3 >>> 31))
    const d1 = c9 ^ ((c3 << 1) | (c2 >>> 31))
    const d2 = c0 ^ ((c4 << 1) | (c5 >>> 31))
    const d3 = c1 ^ ((c5 << 1) | (c4 >>> 31))
    const d4 = c2 ^ ((c6 << 1) | (c7 >>> 31))
    const d5 = c3 ^ ((c7 << 1) | (c6 >>> 31))
    const d6 = c4 ^ ((c8 << 1) | (c9 >>> 31))
    const d7 = c5 ^ ((c9 << 1) | (c8 >>> 31))
    const d8 = c6 ^ ((c0 << 1) | (c1 >>> 31))
    const d9 = c7 ^ ((c1 << 1) | (c0 >>> 31))
    const b0 = a0 ^ d0
    const b1 = a1 ^ d1
    const t2 = a2 ^ d2
    const t3 = a3 ^ d3
    const b20 = (t2 << 1) | (t3 >>> 31)
    const b21 = (t3 << 1) | (t2 >>> 31)
    const t4 = a4 ^ d4
    const t5 = a5 ^ d5
    const b40 = (t5 << 30) | (t4 >>> 2)
    const b41 = (t4 << 30) | (t5 >>> 2)
    const t6 = a6 ^ d6
    const t7 = a7 ^ d7
    const b10 = (t6 << 28) | (t7 >>> 4)
    const b11 = (t7 << 28) | (t6 >>> 4)
    const t8 = a8 ^ d8
    const t9 = a9 ^ d9
    const b30 = (t8 << 27) | (t9 >>> 5)
    const b31 = (t9 << 27) | (t8 >>> 5)
    const t10 = a10 ^ d0
    const t11 = a11 ^ d1
    const b32 = (t11 << 4) | (t10 >>> 28)
    const b33 = (t10 << 4) | (t11 >>> 28)
    const t12 = a12 ^ d2
    const t13 = a13 ^ d3
    const b2 = (t13 << 12) | (t12 >>> 20)
    const b3 = (t12 << 12) | (t13 >>> 20)
    const t14 = a14 ^ d4
    const t15 = a15 ^ d5
    const b22 = (t14 << 6) | (t15 >>> 26)
    const b23 = (t15 << 6) | (t14 >>> 26)
    const t16 = a16 ^ d6
    const t17 = a17 ^ d7
    const b42 = (t17 << 23) | (t16 >>> 9)
    const b43 = (t16 << 23) | (t17 >>> 9)
    const t18 = a18 ^ d8
    const t19 = a19 ^ d9
    const b12 = (t18 << 20) | (t19 >>> 12)
    const b13 = (t19 << 20) | (t18 >>> 12)
    const t20 = a20 ^ d0
    const t21 = a21 ^ d1
    const b14 = (t20 << 3) | (t21 >>> 29)
    const b15 = (t21 << 3) | (t20 >>> 29)
    const t22 = a22 ^ d2
    const t23 = a23 ^ d3
    const b34 = (t22 << 10) | (t23 >>> 22)
    const b35 = (t23 << 10) | (t22 >>> 22)
    const t24 = a24 ^ d4
    const t25 = a25 ^ d5
    const b4 = (t25 << 11) | (t24 >>> 21)
    const b5 = (t24 << 11) | (t25 >>> 21)
    const t26 = a26 ^ d6
    const t27 = a27 ^ d7
    const b24 = (t26 << 25) | (t27 >>> 7)
    const b25 = (t27 << 25) | (t26 >>> 7)
    const t28 = a28 ^ d8
    const t29 = a29 ^ d9
    const b44 = (t29 << 7) | (t28 >>> 25)
    const b45 = (t28 << 7) | (t29 >>> 25)
    const t30 = a30 ^ d0
    const t31 = a31 ^ d1
    const b46 = (t31 << 9) | (t30 >>> 23)
    const b47 = (t30 << 9) | (t31 >>> 23)
    const t32 = a32 ^ d2
    const t33 = a33 ^ d3
    const b16 = (t33 << 13) | (t32 >>> 19)
    const b17 = (t32 << 13) | (t33 >>> 19)
    const t34 = a34 ^ d4
    const t35 = a35 ^ d5
    const b36 = (t34 << 15) | (t35 >>> 17)
    const b37 = (t35 << 15) | (t34 >>> 17)
    const t36 = a36 ^ d6
    const t37 = a37 ^ d7
    const b6 = (t36 << 21) | (t37 >>> 11)
    const b7 = (t37 << 21) | (t36 >>> 11)
    const t38 = a38 ^ d8
    const t39 = a39 ^ d9
    const b26 = (t38 << 8) | (t39 >>> 24)
    const b27 = (t39 << 8) | (t38 >>> 24)
    const t40 = a40 ^ d0
    const t41 = a41 ^ d1
    const b28 = (t40 << 18) | (t41 >>> 14)
    const b29 = (t41 << 18) | (t40 >>> 14)
    const t42 = a42 ^ d2
    const t43 = a43 ^ d3
    const b48 = (t42 << 2) | (t43 >>> 30)
    const b49 = (t43 << 2) | (t42 >>> 30)
    const t44 = a44 ^ d4
    const t45 = a45 ^ d5
    const b18 = (t45 << 29) | (t44 >>> 3)
    const b19 = (t44 << 29) | (t45 >>> 3)
    const t46 = a46 ^ d6
    const t47 = a47 ^ d7
    const b38 = (t47 << 24) | (t46 >>> 8)
    const b39 = (t46 << 24) | (t47 >>> 8)
    const t48 = a48 ^ d8
    const t49 = a49 ^ d9
    const b8 = (t48 << 14) | (t49 >>> 18)
    const b9 = (t49 << 14) | (t48 >>> 18)
    a0 = b0 ^ (~b2 & b4)
    a1 = b1 ^ (~b3 & b5)
    a2 = b2 ^ (~b4 & b6)
    a3 = b3 ^ (~b5 & b7)
    a4 = b4 ^ (~b6 & b8)
    a5 = b5 ^ (~b7 & b9)
    a6 = b6 ^ (~b8 & b0)
    a7 = b7 ^ (~b9 & b1)
    a8 = b8 ^ (~b0 & b2)
    a9 = b9 ^ (~b1 & b3)
    a10 = b10 ^ (~b12 & b14)
    a11 = b11 ^ (~b13 & b15)
    a12 = b12 ^ (~b14 & b16)
    a13 = b13 ^ (~b15 & b17)
    a14 = b14 ^ (~b16 & b18)
    a15 = b15 ^ (~b17 & b19)
    a16 = b16 ^ (~b18 & b10)
    a17 = b17 ^ (~b19 & b11)
    a18 = b18 ^ (~b10 & b12)
    a19 = b19 ^ (~b11 & b13)
    a20 = b20 ^ (~b22 & b24)
    a21 = b21 ^ (~b23 & b25)
    a22 = b22 ^ (~b24 & b26)
    a23 = b23 ^ (~b25 & b27)
    a24 = b24 ^ (~b26 & b28)
    a25 = b25 ^ (~b27 & b29)
    a26 = b26 ^ (~b28 & b20)
    a27 = b27 ^ (~b29 & b21)
    a28 = b28 ^ (~b20 & b22)
    a29 = b29 ^ (~b21 & b23)
    a30 = b30 ^ (~b32 & b34)
    a31 = b31 ^ (~b33 & b35)
    a32 = b32 ^ (~b34 & b36)
    a33 = b33 ^ (~b35 & b37)
    a34 = b34 ^ (~b36 & b38)
    a35 = b35 ^ (~b37 & b39)
    a36 = b36 ^ (~b38 & b30)
    a37 = b37 ^ (~b39 & b31)
    a38 = b38 ^ (~b30 & b32)
    a39 = b39 ^ (~b31 & b33)
    a40 = b40 ^ (~b42 & b44)
    a41 = b41 ^ (~b43 & b45)
    a42 = b42 ^ (~b44 & b46)
    a43 = b43 ^ (~b45 & b47)
    a44 = b44 ^ (~b46 & b48)
    a45 = b45 ^ (~b47 & b49)
    a46 = b46 ^ (~b48 & b40)
    a47 = b47 ^ (~b49 & b41)
    a48 = b48 ^ (~b40 & b42)
    a49 = b49 ^ (~b41 & b43)
    a0 ^= KECCAK_ROUND_CONSTANTS[r]!
    a1 ^= KECCAK_ROUND_CONSTANTS[r + 1]!
  }
  s[0] = a0
  s[1] = a1
  s[2] = a2
  s[3] = a3
  s[4] = a4
  s[5] = a5
  s[6] = a6
  s[7] = a7
  s[8] = a8
  s[9] = a9
  s[10] = a10
  s[11] = a11
  s[12] = a12
  s[13] = a13
  s[14] = a14
  s[15] = a15
  s[16] = a16
  s[17] = a17
  s[18] = a18
  s[19] = a19
  s[20] = a20
  s[21] = a21
  s[22] = a22
  s[23] = a23
  s[24] = a24
  s[25] = a25
  s[26] = a26
  s[27] = a27
  s[28] = a28
  s[29] = a29
  s[30] = a30
  s[31] = a31
  s[32] = a32
  s[33] = a33
  s[34] = a34
  s[35] = a35
  s[36] = a36
  s[37] = a37
  s[38] = a38
  s[39] = a39
  s[40] = a40
  s[41] = a41
  s[42] = a42
  s[43] = a43
  s[44] = a44
  s[45] = a45
  s[46] = a46
  s[47] = a47
  s[48] = a48
  s[49] = a49
}

const RATE = 136
const state = new Int32Array(50)
const stateBytes = new Uint8Array(state.buffer)
export const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
/** Inputs up to this many bytes are hashed in JS; longer ones by node:crypto (native wins there). */
export const JS_MAX_INPUT = 1024

export const sha3Js = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  state.fill(0)
  let at = 0 // bytes absorbed into the current block
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) {
      stateBytes[at]! ^= p[i]!
      if (++at === RATE) {
        keccakF(state)
        at = 0
      }
    }
  }
  stateBytes[at]! ^= 0x06
  stateBytes[RATE - 1]! ^= 0x80
  keccakF(state)
  return stateBytes.slice(0, 32)
}
