/**
 * `signatures` rows of the `user_transaction_processor` (pv2
 * `processors/user_transaction/models/signature_utils/`): one row per signer key of a user
 * transaction — the sender's (`is_sender_primary`, multi_agent_index 0) and each secondary
 * signer's (multi_agent_index = its position), one row per signature of a multi-signature
 * (`multi_sig_index`). The fee payer's signature is not recorded, as in the reference. The Explorer
 * reads it through `user_transactions.signature`.
 */
import { BcsWriter, toHex0x } from "../../bcs/index.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import { writeAnySignature } from "../../domain/CryptoMaterialCodec.js"
import type { AccountAuthenticator, AnyPublicKey, AnySignature } from "../../domain/TransactionAuthenticator.js"
import { writeAbstractionAuthData } from "../../domain/TransactionAuthenticatorCodec.js"
import { bitIndices, publicKeyHex, publicKeyTypeOf } from "./keys.js"
import type { IndexerTransaction } from "./input/IndexerTransaction.js"
import type { Row } from "./Processor.js"

const anySignatureType = (s: AnySignature): string => {
  switch (s._tag) {
    case "Ed25519":
      return "ed25519"
    case "Secp256k1Ecdsa":
      return "secp256k1_ecdsa"
    case "WebAuthn":
      return "webauthn"
    case "Keyless":
      return "keyless"
    case "SlhDsaSha2_128s":
      return "slh_dsa_sha2_128s"
  }
}

/** A signature's bytes: raw for Ed25519/secp256k1/SLH-DSA, the BCS of the structure otherwise. */
const anySignatureHex = (s: AnySignature): string => {
  if (s._tag === "Ed25519" || s._tag === "Secp256k1Ecdsa" || s._tag === "SlhDsaSha2_128s") return toHex0x(s.signature)
  const w = new BcsWriter(256)
  writeAnySignature(w, s)
  return toHex0x(w.toBytes().subarray(1))
}

interface Position {
  readonly t: IndexerTransaction
  readonly signer: string
  readonly isSenderPrimary: boolean
  readonly multiAgentIndex: number
}

const row = (
  p: Position,
  type: string,
  publicKey: string,
  signature: string,
  extra: {
    multiSigIndex?: number
    threshold?: number
    indices?: number[]
    anySignatureType?: string | null
    publicKeyType?: string | null
    functionInfo?: string | null
  } = {}
): Row => ({
  transaction_version: p.t.version,
  multi_agent_index: BigInt(p.multiAgentIndex),
  multi_sig_index: BigInt(extra.multiSigIndex ?? 0),
  transaction_block_height: p.t.blockHeight,
  signer: p.signer,
  is_sender_primary: p.isSenderPrimary,
  type,
  public_key: publicKey,
  signature,
  threshold: BigInt(extra.threshold ?? 1),
  public_key_indices: extra.indices ?? [],
  any_signature_type: extra.anySignatureType ?? null,
  public_key_type: extra.publicKeyType ?? null,
  function_info: extra.functionInfo ?? null
})

/** MultiEd25519: packed keys ‖ threshold, packed signatures ‖ 4-byte bitmap. */
const multiEd25519Rows = (p: Position, type: string, publicKey: Uint8Array, signature: Uint8Array): Row[] => {
  if (signature.length < 4 || publicKey.length < 1) return []
  const indices = bitIndices(signature.subarray(signature.length - 4))
  const threshold = publicKey[publicKey.length - 1]!
  const count = Math.floor((signature.length - 4) / 64)
  const rows: Row[] = []
  for (let i = 0; i < count; i++) {
    const keyIndex = indices[i]
    if (keyIndex === undefined || (keyIndex + 1) * 32 > publicKey.length - 1) return []
    rows.push(
      row(
        p,
        type,
        toHex0x(publicKey.subarray(keyIndex * 32, keyIndex * 32 + 32)),
        toHex0x(signature.subarray(i * 64, i * 64 + 64)),
        { multiSigIndex: i, threshold, indices }
      )
    )
  }
  return rows
}

const accountRows = (p: Position, a: AccountAuthenticator): Row[] => {
  switch (a._tag) {
    case "Ed25519":
      return [row(p, "ed25519_signature", toHex0x(a.publicKey), toHex0x(a.signature))]
    case "MultiEd25519":
      return multiEd25519Rows(p, "multi_ed25519_signature", a.publicKey, a.signature)
    case "SingleKey":
      return [
        row(p, "single_key_signature", publicKeyHex(a.publicKey), anySignatureHex(a.signature), {
          anySignatureType: anySignatureType(a.signature),
          publicKeyType: publicKeyTypeOf(a.publicKey)
        })
      ]
    case "MultiKey": {
      const indices = bitIndices(a.bitmap)
      // As the reference: the i-th signature is shown with the i-th public key of the list.
      return a.signatures.map((s, i) => {
        const key: AnyPublicKey | undefined = a.publicKeys[i]
        return row(p, "multi_key_signature", key === undefined ? "" : publicKeyHex(key), anySignatureHex(s), {
          multiSigIndex: i,
          threshold: a.signaturesRequired,
          indices,
          anySignatureType: anySignatureType(s),
          publicKeyType: key === undefined ? null : publicKeyTypeOf(key)
        })
      })
    }
    case "Abstraction": {
      const w = new BcsWriter(128)
      writeAbstractionAuthData(w, a.authData)
      const f = a.functionInfo
      return [
        row(p, "abstraction_signature", "Not applicable", toHex0x(w.toBytes()), {
          functionInfo: `${addressToShortString(f.moduleAddress)}::${f.moduleName}::${f.functionName}`
        })
      ]
    }
    case "NoAccountAuthenticator":
      return []
  }
}

export const signatureRows = (t: IndexerTransaction): Row[] => {
  const u = t.user
  if (u === undefined) return []
  const sender: Position = { t, signer: u.sender, isSenderPrimary: true, multiAgentIndex: 0 }
  const auth = u.authenticator
  switch (auth._tag) {
    case "Ed25519":
      return [row(sender, "ed25519_signature", toHex0x(auth.publicKey), toHex0x(auth.signature))]
    case "MultiEd25519":
      return multiEd25519Rows(sender, "multi_ed25519_signature", auth.publicKey, auth.signature)
    case "SingleSender":
      return accountRows(sender, auth.sender)
    case "MultiAgent":
    case "FeePayer":
      return [
        ...accountRows(sender, auth.sender),
        ...auth.secondarySigners.flatMap((s, i) =>
          accountRows({ t, signer: u.secondarySigners[i] ?? u.sender, isSenderPrimary: false, multiAgentIndex: i }, s)
        )
      ]
  }
}
