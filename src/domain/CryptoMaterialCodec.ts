/**
 * BCS codecs for the key and signature enums inside authenticators: AnyPublicKey, AnySignature,
 * keyless keys and signatures, ephemeral keys/signatures, WebAuthn assertions. Keys and signatures
 * are length-prefixed byte vectors on the wire; fixed-size schemes are checked for their exact size,
 * as the reference's deserializers do.
 */
import type { BcsReader, BcsWriter } from "../bcs/index.js"
import { ADDRESS_LENGTH } from "./AccountAddress.js"
import type {
  AnyPublicKey,
  AnySignature,
  EphemeralPublicKey,
  EphemeralSignature,
  KeylessPublicKey,
  KeylessSignature,
  WebAuthnSignature
} from "./TransactionAuthenticator.js"

/** Length-prefixed bytes that must be exactly `n` long. */
export const readSizedBytes = (r: BcsReader, n: number, what: string): Uint8Array => {
  const start = r.offset
  const b = r.bytesWithLength()
  if (b.length !== n) {
    r.offset = start
    r.fail(`${what} must be ${n} bytes, got ${b.length}`)
  }
  return b
}

const variant = (r: BcsReader, max: number, what: string): number => {
  const start = r.offset
  const v = r.uleb128()
  if (v > max) {
    r.offset = start
    r.fail(`invalid ${what} variant ${v}`)
  }
  return v
}

const writeOptionString = (w: BcsWriter, s: string | undefined): void => {
  if (s === undefined) w.u8(0)
  else w.u8(1).string(s)
}

const readOption = <A>(r: BcsReader, read: (r: BcsReader) => A): A | undefined => (r.optionTag() ? read(r) : undefined)

export const writeKeylessPublicKey = (w: BcsWriter, k: KeylessPublicKey): void => {
  w.string(k.issVal).bytesWithLength(k.idc)
}

export const readKeylessPublicKey = (r: BcsReader): KeylessPublicKey => ({
  issVal: r.string(),
  idc: r.bytesWithLength()
})

export const writeWebAuthnSignature = (w: BcsWriter, s: WebAuthnSignature): void => {
  w.u8(0).bytesWithLength(s.signature).bytesWithLength(s.authenticatorData).bytesWithLength(s.clientDataJson)
}

export const readWebAuthnSignature = (r: BcsReader): WebAuthnSignature => {
  variant(r, 0, "AssertionSignature")
  return {
    signature: readSizedBytes(r, 64, "secp256r1 signature"),
    authenticatorData: r.bytesWithLength(),
    clientDataJson: r.bytesWithLength()
  }
}

export const writeEphemeralPublicKey = (w: BcsWriter, k: EphemeralPublicKey): void => {
  w.u8(k._tag === "Ed25519" ? 0 : 1).bytesWithLength(k.publicKey)
}

export const readEphemeralPublicKey = (r: BcsReader): EphemeralPublicKey =>
  variant(r, 1, "EphemeralPublicKey") === 0
    ? { _tag: "Ed25519", publicKey: readSizedBytes(r, 32, "Ed25519 public key") }
    : { _tag: "Secp256r1Ecdsa", publicKey: readSizedBytes(r, 65, "secp256r1 public key") }

export const writeEphemeralSignature = (w: BcsWriter, s: EphemeralSignature): void => {
  if (s._tag === "Ed25519") w.u8(0).bytesWithLength(s.signature)
  else {
    w.u8(1)
    writeWebAuthnSignature(w, s.signature)
  }
}

export const readEphemeralSignature = (r: BcsReader): EphemeralSignature =>
  variant(r, 1, "EphemeralSignature") === 0
    ? { _tag: "Ed25519", signature: readSizedBytes(r, 64, "Ed25519 signature") }
    : { _tag: "WebAuthn", signature: readWebAuthnSignature(r) }

export const writeKeylessSignature = (w: BcsWriter, s: KeylessSignature): void => {
  const c = s.certificate
  // EphemeralCertificate::ZeroKnowledgeSig, ZKP::Groth16
  w.u8(0).u8(0).fixed(c.proof.a).fixed(c.proof.b).fixed(c.proof.c).u64(c.expHorizonSecs)
  writeOptionString(w, c.extraField)
  writeOptionString(w, c.overrideAudVal)
  if (c.trainingWheelsSignature === undefined) w.u8(0)
  else {
    w.u8(1)
    writeEphemeralSignature(w, c.trainingWheelsSignature)
  }
  w.string(s.jwtHeaderJson).u64(s.expDateSecs)
  writeEphemeralPublicKey(w, s.ephemeralPublicKey)
  writeEphemeralSignature(w, s.ephemeralSignature)
}

export const readKeylessSignature = (r: BcsReader): KeylessSignature => {
  const start = r.offset
  if (r.uleb128() !== 0) {
    r.offset = start
    r.fail("unsupported EphemeralCertificate variant (only ZeroKnowledgeSig)")
  }
  variant(r, 0, "ZKP")
  const proof = { a: r.fixed(32), b: r.fixed(64), c: r.fixed(32) }
  const expHorizonSecs = r.u64()
  const extraField = readOption(r, (r) => r.string())
  const overrideAudVal = readOption(r, (r) => r.string())
  const trainingWheelsSignature = readOption(r, readEphemeralSignature)
  return {
    certificate: {
      _tag: "ZeroKnowledgeSig",
      proof,
      expHorizonSecs,
      extraField,
      overrideAudVal,
      trainingWheelsSignature
    },
    jwtHeaderJson: r.string(),
    expDateSecs: r.u64(),
    ephemeralPublicKey: readEphemeralPublicKey(r),
    ephemeralSignature: readEphemeralSignature(r)
  }
}

const PUBLIC_KEY_INDEX = {
  Ed25519: 0,
  Secp256k1Ecdsa: 1,
  Secp256r1Ecdsa: 2,
  Keyless: 3,
  FederatedKeyless: 4,
  SlhDsaSha2_128s: 5
} as const

export const writeAnyPublicKey = (w: BcsWriter, k: AnyPublicKey): void => {
  w.u8(PUBLIC_KEY_INDEX[k._tag])
  switch (k._tag) {
    case "Keyless":
      writeKeylessPublicKey(w, k.publicKey)
      return
    case "FederatedKeyless":
      w.fixed(k.jwkAddress)
      writeKeylessPublicKey(w, k.publicKey)
      return
    default:
      w.bytesWithLength(k.publicKey)
  }
}

export const readAnyPublicKey = (r: BcsReader): AnyPublicKey => {
  switch (variant(r, 5, "AnyPublicKey")) {
    case 0:
      return { _tag: "Ed25519", publicKey: readSizedBytes(r, 32, "Ed25519 public key") }
    case 1:
      return { _tag: "Secp256k1Ecdsa", publicKey: readSizedBytes(r, 65, "secp256k1 public key") }
    case 2:
      return { _tag: "Secp256r1Ecdsa", publicKey: readSizedBytes(r, 65, "secp256r1 public key") }
    case 3:
      return { _tag: "Keyless", publicKey: readKeylessPublicKey(r) }
    case 4:
      return { _tag: "FederatedKeyless", jwkAddress: r.fixed(ADDRESS_LENGTH), publicKey: readKeylessPublicKey(r) }
    default:
      return { _tag: "SlhDsaSha2_128s", publicKey: r.bytesWithLength() }
  }
}

const SIGNATURE_INDEX = { Ed25519: 0, Secp256k1Ecdsa: 1, WebAuthn: 2, Keyless: 3, SlhDsaSha2_128s: 4 } as const

export const writeAnySignature = (w: BcsWriter, s: AnySignature): void => {
  w.u8(SIGNATURE_INDEX[s._tag])
  switch (s._tag) {
    case "WebAuthn":
      writeWebAuthnSignature(w, s.signature)
      return
    case "Keyless":
      writeKeylessSignature(w, s.signature)
      return
    default:
      w.bytesWithLength(s.signature)
  }
}

export const readAnySignature = (r: BcsReader): AnySignature => {
  switch (variant(r, 4, "AnySignature")) {
    case 0:
      return { _tag: "Ed25519", signature: readSizedBytes(r, 64, "Ed25519 signature") }
    case 1:
      return { _tag: "Secp256k1Ecdsa", signature: readSizedBytes(r, 64, "secp256k1 signature") }
    case 2:
      return { _tag: "WebAuthn", signature: readWebAuthnSignature(r) }
    case 3:
      return { _tag: "Keyless", signature: readKeylessSignature(r) }
    default:
      return { _tag: "SlhDsaSha2_128s", signature: r.bytesWithLength() }
  }
}
