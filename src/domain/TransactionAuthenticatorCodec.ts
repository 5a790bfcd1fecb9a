/** BCS codecs for AccountAuthenticator and TransactionAuthenticator. */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import { ADDRESS_LENGTH, type AccountAddress } from "./AccountAddress.js"
import {
  readAnyPublicKey,
  readAnySignature,
  readSizedBytes,
  writeAnyPublicKey,
  writeAnySignature
} from "./CryptoMaterialCodec.js"
import type {
  AbstractionAuthData,
  AccountAuthenticator,
  AnyPublicKey,
  AnySignature,
  TransactionAuthenticator
} from "./TransactionAuthenticator.js"

const ACCOUNT_INDEX = {
  Ed25519: 0,
  MultiEd25519: 1,
  SingleKey: 2,
  MultiKey: 3,
  NoAccountAuthenticator: 4,
  Abstraction: 5
} as const

/** BCS of `AbstractionAuthData` (enum V1 | DerivableV1), as the authenticator and the API's JSON carry it. */
export const writeAbstractionAuthData = (w: BcsWriter, d: AbstractionAuthData): void => {
  if (d._tag === "V1") w.u8(0).bytesWithLength(d.signingMessageDigest).bytesWithLength(d.authenticator)
  else
    w.u8(1)
      .bytesWithLength(d.signingMessageDigest)
      .bytesWithLength(d.abstractSignature)
      .bytesWithLength(d.abstractPublicKey)
}

export const writeAccountAuthenticator = (w: BcsWriter, a: AccountAuthenticator): void => {
  w.u8(ACCOUNT_INDEX[a._tag])
  switch (a._tag) {
    case "Ed25519":
    case "MultiEd25519":
      w.bytesWithLength(a.publicKey).bytesWithLength(a.signature)
      return
    case "SingleKey":
      writeAnyPublicKey(w, a.publicKey)
      writeAnySignature(w, a.signature)
      return
    case "MultiKey":
      w.uleb128(a.publicKeys.length)
      for (const k of a.publicKeys) writeAnyPublicKey(w, k)
      w.u8(a.signaturesRequired)
      w.uleb128(a.signatures.length)
      for (const s of a.signatures) writeAnySignature(w, s)
      w.bytesWithLength(a.bitmap)
      return
    case "NoAccountAuthenticator":
      return
    case "Abstraction": {
      w.fixed(a.functionInfo.moduleAddress).string(a.functionInfo.moduleName).string(a.functionInfo.functionName)
      writeAbstractionAuthData(w, a.authData)
      return
    }
  }
}

// Variants 0 and 1 are the same bytes in both enums (a single signer's Ed25519 / MultiEd25519).
type Ed25519Variant = Extract<AccountAuthenticator, { _tag: "Ed25519" }>
type MultiEd25519Variant = Extract<AccountAuthenticator, { _tag: "MultiEd25519" }>

const readEd25519 = (r: BcsReader): Ed25519Variant => ({
  _tag: "Ed25519",
  publicKey: readSizedBytes(r, 32, "Ed25519 public key"),
  signature: readSizedBytes(r, 64, "Ed25519 signature")
})

const readMultiEd25519 = (r: BcsReader): MultiEd25519Variant => ({
  _tag: "MultiEd25519",
  publicKey: r.bytesWithLength(),
  signature: r.bytesWithLength()
})

export const readAccountAuthenticator = (r: BcsReader): AccountAuthenticator => {
  const start = r.offset
  const tag = r.uleb128()
  switch (tag) {
    case 0:
      return readEd25519(r)
    case 1:
      return readMultiEd25519(r)
    case 2:
      return { _tag: "SingleKey", publicKey: readAnyPublicKey(r), signature: readAnySignature(r) }
    case 3: {
      const nk = r.length(2)
      const publicKeys: AnyPublicKey[] = new Array(nk)
      for (let i = 0; i < nk; i++) publicKeys[i] = readAnyPublicKey(r)
      const signaturesRequired = r.u8()
      const ns = r.length(2)
      const signatures: AnySignature[] = new Array(ns)
      for (let i = 0; i < ns; i++) signatures[i] = readAnySignature(r)
      return { _tag: "MultiKey", publicKeys, signaturesRequired, signatures, bitmap: r.bytesWithLength() }
    }
    case 4:
      return { _tag: "NoAccountAuthenticator" }
    case 5: {
      const functionInfo = { moduleAddress: r.fixed(ADDRESS_LENGTH), moduleName: r.string(), functionName: r.string() }
      const vStart = r.offset
      const v = r.uleb128()
      if (v === 0)
        return {
          _tag: "Abstraction",
          functionInfo,
          authData: { _tag: "V1", signingMessageDigest: r.bytesWithLength(), authenticator: r.bytesWithLength() }
        }
      if (v === 1)
        return {
          _tag: "Abstraction",
          functionInfo,
          authData: {
            _tag: "DerivableV1",
            signingMessageDigest: r.bytesWithLength(),
            abstractSignature: r.bytesWithLength(),
            abstractPublicKey: r.bytesWithLength()
          }
        }
      r.offset = vStart
      return r.fail(`invalid AbstractionAuthData variant ${v}`)
    }
    default:
      r.offset = start
      return r.fail(`invalid AccountAuthenticator variant ${tag}`)
  }
}

const writeAddresses = (w: BcsWriter, xs: ReadonlyArray<AccountAddress>): void => {
  w.uleb128(xs.length)
  for (const x of xs) w.fixed(x)
}

const readAddresses = (r: BcsReader): AccountAddress[] => {
  const n = r.length(ADDRESS_LENGTH)
  const out: AccountAddress[] = new Array(n)
  for (let i = 0; i < n; i++) out[i] = r.fixed(ADDRESS_LENGTH)
  return out
}

const writeAuthenticators = (w: BcsWriter, xs: ReadonlyArray<AccountAuthenticator>): void => {
  w.uleb128(xs.length)
  for (const x of xs) writeAccountAuthenticator(w, x)
}

const readAuthenticators = (r: BcsReader): AccountAuthenticator[] => {
  const n = r.length(1)
  const out: AccountAuthenticator[] = new Array(n)
  for (let i = 0; i < n; i++) out[i] = readAccountAuthenticator(r)
  return out
}

export const writeTransactionAuthenticator = (w: BcsWriter, a: TransactionAuthenticator): void => {
  switch (a._tag) {
    case "Ed25519":
      w.u8(0).bytesWithLength(a.publicKey).bytesWithLength(a.signature)
      return
    case "MultiEd25519":
      w.u8(1).bytesWithLength(a.publicKey).bytesWithLength(a.signature)
      return
    case "MultiAgent":
      w.u8(2)
      writeAccountAuthenticator(w, a.sender)
      writeAddresses(w, a.secondarySignerAddresses)
      writeAuthenticators(w, a.secondarySigners)
      return
    case "FeePayer":
      w.u8(3)
      writeAccountAuthenticator(w, a.sender)
      writeAddresses(w, a.secondarySignerAddresses)
      writeAuthenticators(w, a.secondarySigners)
      w.fixed(a.feePayerAddress)
      writeAccountAuthenticator(w, a.feePayerSigner)
      return
    case "SingleSender":
      w.u8(4)
      writeAccountAuthenticator(w, a.sender)
      return
  }
}

export const readTransactionAuthenticator = (r: BcsReader): TransactionAuthenticator => {
  const start = r.offset
  const tag = r.uleb128()
  switch (tag) {
    case 0:
      return readEd25519(r)
    case 1:
      return readMultiEd25519(r)
    case 2:
      return {
        _tag: "MultiAgent",
        sender: readAccountAuthenticator(r),
        secondarySignerAddresses: readAddresses(r),
        secondarySigners: readAuthenticators(r)
      }
    case 3:
      return {
        _tag: "FeePayer",
        sender: readAccountAuthenticator(r),
        secondarySignerAddresses: readAddresses(r),
        secondarySigners: readAuthenticators(r),
        feePayerAddress: r.fixed(ADDRESS_LENGTH),
        feePayerSigner: readAccountAuthenticator(r)
      }
    case 4:
      return { _tag: "SingleSender", sender: readAccountAuthenticator(r) }
    default:
      r.offset = start
      return r.fail(`invalid TransactionAuthenticator variant ${tag}`)
  }
}

export const accountAuthenticatorCodec: Codec<AccountAuthenticator> = Bcs.codec(
  writeAccountAuthenticator,
  readAccountAuthenticator
)
export const transactionAuthenticatorCodec: Codec<TransactionAuthenticator> = Bcs.codec(
  writeTransactionAuthenticator,
  readTransactionAuthenticator
)
