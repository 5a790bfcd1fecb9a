/**
 * Public keys and signature bitmaps as the reference's processors print them (account restoration,
 * signatures): key type names, a key's bytes without its variant, the indices a bitmap selects.
 */
import { BcsWriter, toHex0x } from "../../bcs/index.js"
import { writeAnyPublicKey } from "../../domain/CryptoMaterialCodec.js"
import type { AnyPublicKey } from "../../domain/TransactionAuthenticator.js"

export const publicKeyTypeOf = (k: AnyPublicKey): string => {
  switch (k._tag) {
    case "Ed25519":
      return "ed25519"
    case "Secp256k1Ecdsa":
      return "secp256k1_ecdsa"
    case "Secp256r1Ecdsa":
      return "secp256r1_ecdsa"
    case "Keyless":
      return "keyless"
    case "FederatedKeyless":
      return "federated_keyless"
    case "SlhDsaSha2_128s":
      return "slh_dsa_sha2_128s"
  }
}

/** A member key's bytes without its variant (the reference's `public_key` column). */
export const publicKeyHex = (k: AnyPublicKey): string => {
  if (k._tag === "Keyless" || k._tag === "FederatedKeyless") {
    const w = new BcsWriter(128)
    writeAnyPublicKey(w, k)
    return toHex0x(w.toBytes().subarray(1))
  }
  return toHex0x(k.publicKey)
}

/** Indices whose bit is set, most significant bit of byte 0 first (the bitmaps of multi signatures). */
export const bitIndices = (bitmap: Uint8Array): number[] => {
  const out: number[] = []
  for (let i = 0; i < bitmap.length * 8; i++) if ((bitmap[i >> 3]! & (0x80 >> (i & 7))) !== 0) out.push(i)
  return out
}
