import { blake2b } from "@noble/hashes/blake2.js"
import { ripemd160 } from "@noble/hashes/legacy.js"
import { sha256, sha512 } from "@noble/hashes/sha2.js"
import { keccak_256, sha3_512 } from "@noble/hashes/sha3.js"
import { sha3 as sha3_256 } from "../../../domain/hash.js"
import { fromBytes } from "../Value.js"
import { bytesOf, chargeParam } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"
import { sipHash24 } from "./sipHash.js"

/** A hash native: its schedule's base (charged by the interpreter) plus `perByte` × input bytes. */
const hashNative =
  (h: (b: Uint8Array) => Uint8Array, perByte: string): NativeFunction =>
  (ctx, _t, [v]) => {
    const b = bytesOf(v)
    chargeParam(ctx, perByte, b.length)
    return [fromBytes(h(b))]
  }

/** `0x1::hash` natives. */
export const hashNatives: Record<string, NativeFunction> = {
  sha2_256: hashNative(sha256, "move_stdlib.hash.sha2_256.per_byte"),
  sha3_256: hashNative(sha3_256, "move_stdlib.hash.sha3_256.per_byte")
}

/** `0x1::aptos_hash` natives. */
export const aptosHashNatives: Record<string, NativeFunction> = {
  keccak256: hashNative(keccak_256, "aptos_framework.hash.keccak256.per_byte"),
  sha2_512_internal: hashNative(sha512, "aptos_framework.hash.sha2_512.per_byte"),
  sha3_512_internal: hashNative(sha3_512, "aptos_framework.hash.sha3_512.per_byte"),
  ripemd160_internal: hashNative(ripemd160, "aptos_framework.hash.ripemd160.per_byte"),
  blake2b_256_internal: hashNative((b) => blake2b(b, { dkLen: 32 }), "aptos_framework.hash.blake2b_256.per_byte"),
  sip_hash: (ctx, _t, [v]) => {
    const b = bytesOf(v)
    chargeParam(ctx, "aptos_framework.hash.sip_hash.per_byte", b.length)
    return [sipHash24(b)]
  }
}
