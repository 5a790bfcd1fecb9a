/**
 * The `signature` of a JSON `SubmitTransactionRequest` (the reference's `TransactionSignature`,
 * api/types/src/transaction.rs) into the domain's `TransactionAuthenticator`. Tagged by `type`:
 * `ed25519_signature`, `multi_ed25519_signature`, `multi_agent_signature`, `fee_payer_signature`,
 * `single_sender` (an account signature whose kind is given by its fields, the reference's
 * discriminator having taken the `type` key), `no_account_signature`. Account signatures add
 * `single_key_signature` (`public_key`/`signature` as `{type, value}`: raw key and signature bytes,
 * or the BCS of keyless keys, WebAuthn and keyless signatures, as the reference's `to_bytes`),
 * `multi_key_signature` and `abstract_signature`. Hex with or without 0x. Bounded: at most 32 keys
 * per authenticator and 32 secondary signers; never throws.
 */
import * as Result from "effect/Result"
import { BcsReader, BcsWriter, fromHex } from "../../bcs/index.js"
import { type AccountAddress, parseAddress } from "../../domain/AccountAddress.js"
import { readAnyPublicKey, readAnySignature } from "../../domain/CryptoMaterialCodec.js"
import { parseIdentifier } from "../../domain/Identifier.js"
import type {
  AccountAuthenticator,
  AnyPublicKey,
  AnySignature,
  TransactionAuthenticator
} from "../../domain/TransactionAuthenticator.js"
import { readAccountAuthenticator } from "../../domain/TransactionAuthenticatorCodec.js"

const MAX_KEYS = 32

class Invalid {
  constructor(readonly message: string) {}
}
const invalid = (message: string): never => {
  throw new Invalid(message)
}

type Obj = Readonly<Record<string, unknown>>

const obj = (v: unknown, what: string): Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : invalid(`${what} must be an object`)

const hex = (v: unknown, what: string): Uint8Array => {
  if (typeof v !== "string") return invalid(`${what} must be a hex string`)
  const bytes = fromHex(v.startsWith("0x") || v.startsWith("0X") ? v.slice(2) : v)
  return bytes ?? invalid(`${what} is not valid hex`)
}

const sized = (v: unknown, n: number, what: string): Uint8Array => {
  const b = hex(v, what)
  return b.length === n ? b : invalid(`${what} should be ${n} bytes but found ${b.length}`)
}

const array = (v: unknown, what: string): ReadonlyArray<unknown> => {
  if (!Array.isArray(v)) return invalid(`${what} must be an array`)
  if (v.length > MAX_KEYS) return invalid(`${what} has more than ${MAX_KEYS} entries`)
  return v
}

const u8 = (v: unknown, what: string): number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 255 ? v : invalid(`${what} must be a u8`)

const address = (v: unknown, what: string): AccountAddress => {
  if (typeof v !== "string") return invalid(`${what} must be an address`)
  const a = parseAddress(v)
  return Result.isSuccess(a) ? a.success : invalid(`${what} is not a valid address`)
}

/** Decodes `bytes` as the BCS of a domain value with `read`, all of it. */
const bcs = <A>(bytes: Uint8Array, read: (r: BcsReader) => A, what: string): A => {
  try {
    const r = new BcsReader(bytes)
    const v = read(r)
    r.expectEnd()
    return v
  } catch (e) {
    return invalid(`Failed to parse given ${what}: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300))
  }
}

/** A variant index before some bytes, for reading a tagged domain value through its enum codec. */
const tagged = (index: number, body: Uint8Array): Uint8Array => {
  const out = new Uint8Array(body.length + 1)
  out[0] = index
  out.set(body, 1)
  return out
}

/** `{type, value}` public keys: ed25519 / secp256k1_ecdsa / secp256r1_ecdsa raw, keyless BCS. */
const publicKey = (v: unknown): AnyPublicKey => {
  const o = obj(v, "public_key")
  const value = hex(o.value, "public_key.value")
  switch (o.type) {
    case "ed25519":
      return { _tag: "Ed25519", publicKey: sized(o.value, 32, "Ed25519 public key") }
    case "secp256k1_ecdsa":
      return { _tag: "Secp256k1Ecdsa", publicKey: sized(o.value, 65, "Secp256k1Ecdsa public key") }
    case "secp256r1_ecdsa":
      return { _tag: "Secp256r1Ecdsa", publicKey: sized(o.value, 65, "Secp256r1Ecdsa public key") }
    case "keyless":
      return bcs(tagged(3, value), readAnyPublicKey, "public_key bytes as AnyPublicKey::Keyless")
    case "federated_keyless":
      return bcs(tagged(4, value), readAnyPublicKey, "public_key bytes as AnyPublicKey::FederatedKeyless")
    default:
      return invalid(`unknown public key type ${JSON.stringify(o.type)?.slice(0, 50)}`)
  }
}

/** `{type, value}` signatures: ed25519 / secp256k1_ecdsa raw, web_authn and keyless BCS. */
const signature = (v: unknown): AnySignature => {
  const o = obj(v, "signature")
  const value = hex(o.value, "signature.value")
  switch (o.type) {
    case "ed25519":
      return { _tag: "Ed25519", signature: sized(o.value, 64, "Ed25519 signature") }
    case "secp256k1_ecdsa":
      return { _tag: "Secp256k1Ecdsa", signature: sized(o.value, 64, "Secp256k1Ecdsa signature") }
    case "web_authn":
      return bcs(tagged(2, value), readAnySignature, "signature bytes as PartialAuthenticatorAssertionResponse")
    case "keyless":
      return bcs(tagged(3, value), readAnySignature, "signature bytes as AnySignature::Keyless")
    default:
      return invalid(`unknown signature type ${JSON.stringify(o.type)?.slice(0, 50)}`)
  }
}

const ed25519 = (o: Obj): { readonly publicKey: Uint8Array; readonly signature: Uint8Array } => ({
  publicKey: sized(o.public_key, 32, "Ed25519 public key"),
  signature: sized(o.signature, 64, "Ed25519 signature")
})

/** MultiEd25519 in the domain's packed form: keys ‖ threshold, signatures ‖ 4-byte bitmap. */
const multiEd25519 = (o: Obj): { readonly publicKey: Uint8Array; readonly signature: Uint8Array } => {
  const keys = array(o.public_keys, "public_keys").map((k) => sized(k, 32, "MultiEd25519 public key"))
  const sigs = array(o.signatures, "signatures").map((s) => sized(s, 64, "MultiEd25519 signature"))
  const threshold = u8(o.threshold, "threshold")
  const bitmap = sized(o.bitmap, 4, "bitmap")
  if (keys.length === 0 || sigs.length === 0) invalid("MultiEd25519 signature has no public keys or no signatures")
  if (threshold === 0 || threshold > keys.length)
    invalid("MultiEd25519 threshold must be between 1 and the number of keys")
  const publicKey = new Uint8Array(keys.length * 32 + 1)
  for (let i = 0; i < keys.length; i++) publicKey.set(keys[i]!, i * 32)
  publicKey[keys.length * 32] = threshold
  const packed = new Uint8Array(sigs.length * 64 + 4)
  for (let i = 0; i < sigs.length; i++) packed.set(sigs[i]!, i * 64)
  packed.set(bitmap, sigs.length * 64)
  return { publicKey, signature: packed }
}

const multiKey = (o: Obj): AccountAuthenticator => {
  const publicKeys = array(o.public_keys, "public_keys").map(publicKey)
  const indexed = array(o.signatures, "signatures").map((s) => {
    const e = obj(s, "indexed signature")
    return { index: u8(e.index, "signature index"), signature: signature(e.signature) }
  })
  const signaturesRequired = u8(o.signatures_required, "signatures_required")
  if (publicKeys.length === 0 || indexed.length === 0) invalid("MultiKey signature has no public keys or no signatures")
  const sorted = [...indexed].sort((a, b) => a.index - b.index)
  const bitmap = new Uint8Array(4)
  for (let i = 0; i < sorted.length; i++) {
    const { index } = sorted[i]!
    if (index >= publicKeys.length || (i > 0 && sorted[i - 1]!.index === index))
      invalid("MultiKey signature indices must be distinct and name a public key")
    bitmap[index >> 3]! |= 0x80 >> (index & 7)
  }
  return { _tag: "MultiKey", publicKeys, signaturesRequired, signatures: sorted.map((s) => s.signature), bitmap }
}

/** `0x1::module::function`. */
const functionInfoBytes = (v: unknown): Uint8Array => {
  if (typeof v !== "string") return invalid("function_info must be a string")
  const parts = v.split("::")
  if (parts.length !== 3) return invalid("function_info must be <address>::<module>::<function>")
  const a = address(parts[0], "function_info address")
  for (const id of [parts[1]!, parts[2]!])
    if (Result.isFailure(parseIdentifier(id))) invalid("function_info names an invalid identifier")
  const w = new BcsWriter(96)
  w.fixed(a)
  w.string(parts[1]!)
  w.string(parts[2]!)
  return w.toBytes()
}

const accountSignature = (v: unknown, kind?: unknown): AccountAuthenticator => {
  const o = obj(v, "account signature")
  const type = kind ?? o.type
  switch (type) {
    case "ed25519_signature":
      return { _tag: "Ed25519", ...ed25519(o) }
    case "multi_ed25519_signature":
      return { _tag: "MultiEd25519", ...multiEd25519(o) }
    case "single_key_signature":
      return { _tag: "SingleKey", publicKey: publicKey(o.public_key), signature: signature(o.signature) }
    case "multi_key_signature":
      return multiKey(o)
    case "no_account_signature":
      return { _tag: "NoAccountAuthenticator" }
    case "abstract_signature": {
      const info = functionInfoBytes(o.function_info)
      const data = hex(o.auth_data, "auth_data")
      const w = new BcsWriter(info.length + data.length + 1)
      w.u8(5)
      w.fixed(info)
      w.fixed(data)
      return bcs(w.toBytes(), readAccountAuthenticator, "auth_data as AbstractionAuthData")
    }
    default:
      return invalid(`unknown account signature type ${JSON.stringify(type)?.slice(0, 50)}`)
  }
}

/** `single_sender`: the account signature's kind told by its fields. */
const singleSenderKind = (o: Obj): string => {
  if (o.function_info !== undefined) return "abstract_signature"
  if (o.signatures_required !== undefined) return "multi_key_signature"
  if (o.threshold !== undefined) return "multi_ed25519_signature"
  if (typeof o.public_key === "object" && o.public_key !== null) return "single_key_signature"
  if (o.public_key !== undefined) return "ed25519_signature"
  return "no_account_signature"
}

const secondaries = (o: Obj) => {
  const addresses = array(o.secondary_signer_addresses, "secondary_signer_addresses").map((a) =>
    address(a, "secondary signer address")
  )
  const signers = array(o.secondary_signers, "secondary_signers").map((s) => accountSignature(s))
  if (addresses.length !== signers.length) invalid("secondary signer addresses and signatures differ in number")
  return { secondarySignerAddresses: addresses, secondarySigners: signers }
}

/** The request's `signature` as a `TransactionAuthenticator`, or why it is not one. */
export const signatureFromJson = (json: unknown): Result.Result<TransactionAuthenticator, string> => {
  try {
    const o = obj(json, "signature")
    switch (o.type) {
      case "ed25519_signature":
        return Result.succeed({ _tag: "Ed25519", ...ed25519(o) })
      case "multi_ed25519_signature":
        return Result.succeed({ _tag: "MultiEd25519", ...multiEd25519(o) })
      case "multi_agent_signature":
        return Result.succeed({ _tag: "MultiAgent", sender: accountSignature(o.sender), ...secondaries(o) })
      case "fee_payer_signature":
        return Result.succeed({
          _tag: "FeePayer",
          sender: accountSignature(o.sender),
          ...secondaries(o),
          feePayerAddress: address(o.fee_payer_address, "fee_payer_address"),
          feePayerSigner: accountSignature(o.fee_payer_signer)
        })
      case "single_sender":
        return Result.succeed({ _tag: "SingleSender", sender: accountSignature(o, singleSenderKind(o)) })
      case "no_account_signature":
        return Result.succeed({ _tag: "SingleSender", sender: { _tag: "NoAccountAuthenticator" } })
      default:
        return Result.fail(`unknown signature type ${JSON.stringify(o.type)?.slice(0, 50)}`)
    }
  } catch (e) {
    if (e instanceof Invalid) return Result.fail(e.message)
    return Result.fail(e instanceof Error ? e.message.slice(0, 300) : "invalid signature")
  }
}
