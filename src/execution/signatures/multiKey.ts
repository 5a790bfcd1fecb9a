/**
 * MultiKey authenticators (account authenticator 3), as the reference's `MultiKeyAuthenticator`:
 * the bitmap (a `BitVec`, at most 32 bytes, bit i from the most significant bit of byte i / 8)
 * marks which keys signed; it must have a set bit, its last set bit must index a key, its popcount
 * must equal the number of signatures and reach `signatures_required`; signature j pairs with the
 * j-th set bit's key and must verify as a SingleKey signature.
 */
import type { AnyPublicKey, AnySignature } from "../../domain/TransactionAuthenticator.js"
import { verifyAnySignature } from "./anySignature.js"
import type { SigningSubject } from "./SigningSubject.js"

/** `aptos_bitvec::BitVec`'s size limit (256 bits). */
export const MAX_BITMAP_BYTES = 32

/** Indices of the set bits of a BitVec, in order. */
export const bitmapOnes = (bitmap: Uint8Array): number[] => {
  const ones: number[] = []
  for (let i = 0; i < bitmap.length * 8; i++) if ((bitmap[i >> 3]! >> (7 - (i & 7))) & 1) ones.push(i)
  return ones
}

export const verifyMultiKey = (
  publicKeys: ReadonlyArray<AnyPublicKey>,
  signaturesRequired: number,
  signatures: ReadonlyArray<AnySignature>,
  bitmap: Uint8Array,
  subject: SigningSubject
): string | undefined => {
  if (bitmap.length > MAX_BITMAP_BYTES)
    return `MultiKey bitmap is ${bitmap.length} bytes, more than ${MAX_BITMAP_BYTES}`
  const ones = bitmapOnes(bitmap)
  if (ones.length === 0) return "There were no signatures set in the bitmap."
  if (ones[ones.length - 1]! >= publicKeys.length)
    return "Mismatch in the position of the last signature and the number of public keys"
  if (ones.length !== signatures.length)
    return "Mismatch in number of signatures and the number of bits set in the signatures_bitmap"
  if (signatures.length < signaturesRequired) return "Not enough signatures for verification"
  for (let j = 0; j < signatures.length; j++) {
    const failure = verifyAnySignature(publicKeys[ones[j]!]!, signatures[j]!, subject)
    if (failure !== undefined) return `MultiKey signature ${j} (key ${ones[j]}): ${failure}`
  }
  return undefined
}
