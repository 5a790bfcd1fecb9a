/**
 * The keyless (public key, signature) pairs of a transaction, across every signer, SingleKey and
 * MultiKey alike (`aptos_types::keyless::get_authenticators`): what the VM's keyless validation
 * stage examines after the signatures verified.
 */
import type {
  AccountAuthenticator,
  AnyPublicKey,
  AnySignature,
  KeylessSignature,
  TransactionAuthenticator
} from "../../domain/TransactionAuthenticator.js"
import { allSigners } from "./features.js"
import { bitmapOnes } from "./multiKey.js"

export interface KeylessAuthenticator {
  readonly publicKey: Extract<AnyPublicKey, { _tag: "Keyless" | "FederatedKeyless" }>
  readonly signature: KeylessSignature
}

const add = (pk: AnyPublicKey | undefined, sig: AnySignature | undefined, out: KeylessAuthenticator[]): void => {
  if (pk !== undefined && (pk._tag === "Keyless" || pk._tag === "FederatedKeyless") && sig?._tag === "Keyless")
    out.push({ publicKey: pk, signature: sig.signature })
}

const ofAccount = (a: AccountAuthenticator, out: KeylessAuthenticator[]): void => {
  if (a._tag === "SingleKey") add(a.publicKey, a.signature, out)
  else if (a._tag === "MultiKey") {
    const ones = bitmapOnes(a.bitmap)
    for (let j = 0; j < a.signatures.length && j < ones.length; j++) add(a.publicKeys[ones[j]!], a.signatures[j], out)
  }
}

export const keylessAuthenticators = (a: TransactionAuthenticator): ReadonlyArray<KeylessAuthenticator> => {
  const out: KeylessAuthenticator[] = []
  for (const s of allSigners(a)) ofAccount(s, out)
  return out
}
