import { hashWithPrefix } from "./hash.js"

/**
 * The reference's CryptoHash of a state key (the API's `state_key_hash`): sha3(prefix("StateKey") ‖
 * the key's storage encoding). That encoding is a tag byte then the key: for an access path 0 ‖
 * BCS(AccessPath), identical to BCS(StateKey); for a table item 1 ‖ handle ‖ key bytes (no length
 * prefix, unlike BCS); for a raw key 255 ‖ bytes. `keyBytes` is BCS(StateKey).
 */
export const stateKeyHash = (keyBytes: Uint8Array): Uint8Array => {
  if (keyBytes[0] === 0) return hashWithPrefix("StateKey", keyBytes)
  const r = { offset: 1 }
  if (keyBytes[0] === 1) {
    // 1 ‖ handle (32) ‖ ULEB length ‖ key: drop the length.
    const handle = keyBytes.subarray(1, 33)
    r.offset = 33
    skipUleb(keyBytes, r)
    const out = new Uint8Array(33 + keyBytes.length - r.offset)
    out[0] = 1
    out.set(handle, 1)
    out.set(keyBytes.subarray(r.offset), 33)
    return hashWithPrefix("StateKey", out)
  }
  // 2 ‖ ULEB length ‖ bytes.
  skipUleb(keyBytes, r)
  const out = new Uint8Array(1 + keyBytes.length - r.offset)
  out[0] = 255
  out.set(keyBytes.subarray(r.offset), 1)
  return hashWithPrefix("StateKey", out)
}

const skipUleb = (bytes: Uint8Array, r: { offset: number }): void => {
  while (r.offset < bytes.length && (bytes[r.offset++]! & 0x80) !== 0) {}
}
