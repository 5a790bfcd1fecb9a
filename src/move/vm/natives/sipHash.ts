/** SipHash-2-4 with a zero key (Rust's `SipHasher::new()` as `aptos_hash::sip_hash` uses it). */
const M = (1n << 64n) - 1n
const rotl = (x: bigint, b: bigint): bigint => ((x << b) | (x >> (64n - b))) & M

export const sipHash24 = (data: Uint8Array): bigint => {
  let v0 = 0x736f6d6570736575n
  let v1 = 0x646f72616e646f6dn
  let v2 = 0x6c7967656e657261n
  let v3 = 0x7465646279746573n
  const round = (): void => {
    v0 = (v0 + v1) & M
    v1 = rotl(v1, 13n) ^ v0
    v0 = rotl(v0, 32n)
    v2 = (v2 + v3) & M
    v3 = rotl(v3, 16n) ^ v2
    v0 = (v0 + v3) & M
    v3 = rotl(v3, 21n) ^ v0
    v2 = (v2 + v1) & M
    v1 = rotl(v1, 17n) ^ v2
    v2 = rotl(v2, 32n)
  }
  const n = data.length
  const end = n - (n % 8)
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  for (let i = 0; i < end; i += 8) {
    const m = view.getBigUint64(i, true)
    v3 ^= m
    round()
    round()
    v0 ^= m
  }
  let last = BigInt(n & 0xff) << 56n
  for (let i = end; i < n; i++) last |= BigInt(data[i]!) << BigInt(8 * (i - end))
  v3 ^= last
  round()
  round()
  v0 ^= last
  v2 ^= 0xffn
  round()
  round()
  round()
  round()
  return (v0 ^ v1 ^ v2 ^ v3) & M
}
