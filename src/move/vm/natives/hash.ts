import { blake2b } from "@noble/hashes/blake2.js"
import { ripemd160 } from "@noble/hashes/legacy.js"
import { sha256, sha512 } from "@noble/hashes/sha2.js"
import { keccak_256, sha3_512 } from "@noble/hashes/sha3.js"
import { sha3 as sha3_256 } from "../../../domain/hash.js"
import { fromBytes } from "../Value.js"
import { bytesOf, chargeBytes } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"
import { sipHash24 } from "./sipHash.js"

const hashNative =
  (h: (b: Uint8Array) => Uint8Array): NativeFunction =>
  (ctx, _t, [v]) => {
    const b = bytesOf(v)
    chargeBytes(ctx, b.length)
    return [fromBytes(h(b))]
  }

/** `0x1::hash` natives. */
export const hashNatives: Record<string, NativeFunction> = {
  sha2_256: hashNative(sha256),
  sha3_256: hashNative(sha3_256)
}

/** `0x1::aptos_hash` natives. */
export const aptosHashNatives: Record<string, NativeFunction> = {
  keccak256: hashNative(keccak_256),
  sha2_512_internal: hashNative(sha512),
  sha3_512_internal: hashNative(sha3_512),
  ripemd160_internal: hashNative(ripemd160),
  blake2b_256_internal: hashNative((b) => blake2b(b, { dkLen: 32 })),
  sip_hash: (ctx, _t, [v]) => {
    const b = bytesOf(v)
    chargeBytes(ctx, b.length)
    return [sipHash24(b)]
  }
}
