/**
 * node:crypto public keys loaded from raw key bytes (a DER SubjectPublicKeyInfo prefix, then the
 * bytes), kept by the bytes' hex: loading one costs about what a verification does, and a key signs
 * many transactions. At most `size` are kept (all forgotten when full). Bytes OpenSSL refuses (not a
 * point of the curve) are kept too, as `null`, so a key that does not load is not tried again.
 * Ed25519 (`ed25519Fast.ts`) and ECDSA (`ecdsaNative.ts`) use it.
 */
import { createPublicKey, type KeyObject } from "node:crypto"

/** `keyOf(raw, hex)`: the loaded key, or null when OpenSSL will not load it. */
export type PublicKeyCache = (raw: Uint8Array, hex: string) => KeyObject | null

export const publicKeyCache = (spkiPrefix: Buffer, size: number): PublicKeyCache => {
  const keys = new Map<string, KeyObject | null>()
  return (raw, hex) => {
    let key = keys.get(hex)
    if (key === undefined) {
      try {
        key = createPublicKey({ key: Buffer.concat([spkiPrefix, raw]), format: "der", type: "spki" })
      } catch {
        key = null
      }
      if (keys.size >= size) keys.clear()
      keys.set(hex, key)
    }
    return key
  }
}
