/**
 * WebAuthn assertions: the reference's own vectors (types/src/transaction/webauthn.rs: a real
 * passkey assertion and a Secure Payment Confirmation one over the same coin-transfer raw
 * transaction), assertions built by hand with @noble/curves p256 in the reference's format, and
 * each rule (size, client data shape, challenge, key type, low S).
 */
import { p256 } from "@noble/curves/nist.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Bcs } from "../../../src/bcs/index.js"
import { rawTransactionCodec } from "../../../src/domain/PayloadCodec.js"
import type { RawTransaction, SignedTransaction } from "../../../src/domain/Transaction.js"
import type { WebAuthnSignature } from "../../../src/domain/TransactionAuthenticator.js"
import { rawTransactionSubject } from "../../../src/execution/signatures/SigningSubject.js"
import { decodeChallenge, verifyWebAuthn } from "../../../src/execution/signatures/webAuthn.js"
import { verifySignature } from "../../../src/execution/verifySignature.js"

const b64url = (b: Uint8Array) => Buffer.from(b).toString("base64url")
const fromB64url = (s: string) => new Uint8Array(Buffer.from(s, "base64url"))
const utf8 = (s: string) => new TextEncoder().encode(s)

// --- the reference's vectors (webauthn.rs tests) ---------------------------------------------
const RAW_TXN_BCS_BYTES = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
  0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 13, 97, 112,
  116, 111, 115, 95, 97, 99, 99, 111, 117, 110, 116, 14, 116, 114, 97, 110, 115, 102, 101, 114, 95, 99, 111, 105, 110,
  115, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 10, 97,
  112, 116, 111, 115, 95, 99, 111, 105, 110, 9, 65, 112, 116, 111, 115, 67, 111, 105, 110, 0, 2, 32, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 8, 232, 3, 0, 0, 0, 0, 0, 0, 232, 3, 0,
  0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 128, 116, 23, 188, 190, 0, 0, 0, 89
])
const ATTESTATION_OBJECT =
  "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YViYSZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NdAAAAAAAAAAAAAAAAAAAAAAAAAAAAFG_FKuGMNWGiFATwhbpPPcm-wkFLpQECAyYgASFYIMXShkyn1SgV8l9FKzTdChTDgnn9HB2TuXHLf1GA_VuGIlggRj8IW2yK6AcefsrfbM_6WIqK5CTVpkhtT8WFRvUAfcg"
const SPC_ATTESTATION_OBJECT =
  "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVikSZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAAK3OAAI1vMYKZIsLJfHwVQMAIIwkb4vzhrcbFEOzI6_J233DJiKugvfuflXjcIXQunjupQECAyYgASFYIB1yTmeAb93Xv2GaYO_SV3cDKqJeRX5jYqqgijy_9d0bIlggur6NDT5HhEu0VPlzpevZt2lOGh0qiNXfFytsqCLPZ8E"
const AUTHENTICATOR_DATA = new Uint8Array([
  73, 150, 13, 229, 136, 14, 140, 104, 116, 52, 23, 15, 100, 118, 96, 91, 143, 228, 174, 185, 162, 134, 50, 199, 153,
  92, 243, 186, 131, 29, 151, 99, 29, 0, 0, 0, 0
])
const CLIENT_DATA_JSON = utf8(
  '{"type":"webauthn.get","challenge":"eUf1aXwdtHKnIYUXkTgHxmWtYQ_U0c3O8Ldmx3PTA_g","origin":"http://localhost:5173","crossOrigin":false}'
)
const SIGNATURE = new Uint8Array([
  113, 168, 216, 132, 231, 240, 12, 39, 184, 16, 246, 230, 166, 142, 70, 117, 131, 2, 3, 155, 44, 87, 236, 192, 192, 28,
  110, 2, 33, 143, 17, 200, 62, 221, 102, 227, 147, 24, 126, 96, 10, 168, 199, 184, 85, 11, 3, 212, 24, 148, 12, 118,
  60, 116, 123, 117, 228, 159, 139, 235, 130, 6, 114, 60
])
const SPC_AUTHENTICATOR_DATA = new Uint8Array([
  73, 150, 13, 229, 136, 14, 140, 104, 116, 52, 23, 15, 100, 118, 96, 91, 143, 228, 174, 185, 162, 134, 50, 199, 153,
  92, 243, 186, 131, 29, 151, 99, 5, 0, 0, 0, 0
])
const SPC_CLIENT_DATA_JSON = utf8(
  '{"type":"payment.get","challenge":"eUf1aXwdtHKnIYUXkTgHxmWtYQ_U0c3O8Ldmx3PTA_g","origin":"http://localhost:5173","crossOrigin":false,"payment":{"rpId":"localhost","topOrigin":"http://localhost:5173","payeeOrigin":"https://localhost:4000","total":{"value":"1.01","currency":"APT"},"instrument":{"icon":"https://aptoslabs.com/assets/favicon-2c9e23abc3a3f4c45038e8c784b0a4ecb9051baa.ico","displayName":"Petra test"}},"other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex"}'
)
const SPC_SIGNATURE = new Uint8Array([
  254, 40, 71, 181, 216, 187, 97, 118, 196, 106, 251, 170, 106, 47, 184, 77, 174, 187, 18, 135, 14, 184, 149, 146, 37,
  80, 10, 37, 137, 187, 68, 84, 43, 29, 246, 120, 32, 23, 254, 69, 228, 43, 148, 122, 244, 216, 183, 80, 139, 56, 12,
  62, 195, 49, 97, 184, 185, 170, 184, 138, 123, 39, 106, 237
])

/** The P-256 key of a COSE EC2 key inside an attestation object: x after `21 58 20`, y after `22 58 20`. */
const coseKey = (attestation: string): Uint8Array => {
  const b = fromB64url(attestation)
  const find = (tag: number) => {
    for (let i = 0; i + 3 < b.length; i++) if (b[i] === tag && b[i + 1] === 0x58 && b[i + 2] === 0x20) return i + 3
    throw new Error("COSE coordinate not found")
  }
  const x = b.subarray(find(0x21), find(0x21) + 32)
  const y = b.subarray(find(0x22), find(0x22) + 32)
  return new Uint8Array([4, ...x, ...y])
}

const decodeRaw = (bytes: Uint8Array): RawTransaction => {
  const r = Bcs.decode(rawTransactionCodec, bytes)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}

const webAuthnTxn = (raw: RawTransaction, pk: Uint8Array, signature: WebAuthnSignature): SignedTransaction => ({
  rawTransaction: raw,
  authenticator: {
    _tag: "SingleSender",
    sender: {
      _tag: "SingleKey",
      publicKey: { _tag: "Secp256r1Ecdsa", publicKey: pk },
      signature: { _tag: "WebAuthn", signature }
    }
  }
})

describe("WebAuthn: the reference's vectors", () => {
  const raw = decodeRaw(RAW_TXN_BCS_BYTES)
  const subject = rawTransactionSubject(raw)

  it("the challenge is sha3-256 of the raw transaction's signing message", () => {
    expect(b64url(sha3_256(subject.message))).toBe("eUf1aXwdtHKnIYUXkTgHxmWtYQ_U0c3O8Ldmx3PTA_g")
  })

  it("a real passkey assertion verifies; a transaction through verifySignature too", () => {
    const pk = coseKey(ATTESTATION_OBJECT)
    const signature = { signature: SIGNATURE, authenticatorData: AUTHENTICATOR_DATA, clientDataJson: CLIENT_DATA_JSON }
    expect(verifyWebAuthn({ _tag: "Secp256r1Ecdsa", publicKey: pk }, signature, subject)).toBeUndefined()
    expect(verifySignature(webAuthnTxn(raw, pk, signature))._tag).toBe("Valid")
  })

  it("a Secure Payment Confirmation assertion (extended client data) verifies", () => {
    const pk = coseKey(SPC_ATTESTATION_OBJECT)
    const signature = {
      signature: SPC_SIGNATURE,
      authenticatorData: SPC_AUTHENTICATOR_DATA,
      clientDataJson: SPC_CLIENT_DATA_JSON
    }
    expect(verifyWebAuthn({ _tag: "Secp256r1Ecdsa", publicKey: pk }, signature, subject)).toBeUndefined()
  })

  it("fails as the reference's failure test: empty client data, empty authenticator data, other transaction, other key, too long", () => {
    const pk = { _tag: "Secp256r1Ecdsa", publicKey: coseKey(ATTESTATION_OBJECT) } as const
    const good = { signature: SIGNATURE, authenticatorData: AUTHENTICATOR_DATA, clientDataJson: CLIENT_DATA_JSON }
    expect(verifyWebAuthn(pk, { ...good, clientDataJson: new Uint8Array() }, subject)).toBeDefined()
    expect(verifyWebAuthn(pk, { ...good, authenticatorData: new Uint8Array() }, subject)).toBeDefined()
    const other = rawTransactionSubject({ ...raw, sequenceNumber: 1n })
    expect(verifyWebAuthn(pk, good, other)).toMatch(/challenge/)
    const otherKey = p256.getPublicKey(new Uint8Array(32).fill(3), false)
    expect(verifyWebAuthn({ _tag: "Secp256r1Ecdsa", publicKey: otherKey }, good, subject)).toBeDefined()
    expect(verifyWebAuthn(pk, { ...good, clientDataJson: new Uint8Array(1024) }, subject)).toMatch(/more than 1024/)
    expect(verifyWebAuthn(pk, good, subject)).toBeUndefined()
  })
})

describe("WebAuthn: assertions built with @noble/curves p256", () => {
  const raw = decodeRaw(RAW_TXN_BCS_BYTES)
  const subject = rawTransactionSubject(raw)
  const sk = new Uint8Array(32).fill(0x42)
  const pk = p256.getPublicKey(sk, false)
  const anyPk = { _tag: "Secp256r1Ecdsa", publicKey: pk } as const
  const authenticatorData = new Uint8Array(37).fill(7)
  const N = p256.Point.Fn.ORDER

  const assertion = (clientData: object | string, opts: { sig?: (s: Uint8Array) => Uint8Array } = {}) => {
    const clientDataJson = utf8(typeof clientData === "string" ? clientData : JSON.stringify(clientData))
    const digest = sha256(new Uint8Array([...authenticatorData, ...sha256(clientDataJson)]))
    const sig = p256.sign(digest, sk, { prehash: false, lowS: true })
    return { signature: opts.sig ? opts.sig(sig) : sig, authenticatorData, clientDataJson }
  }
  const challenge = b64url(sha3_256(subject.message))
  const client = { type: "webauthn.get", challenge, origin: "http://localhost", crossOrigin: false }

  it("verifies with each client data type and crossOrigin form; other keys are free", () => {
    for (const type of ["webauthn.get", "webauthn.create", "payment.get"])
      expect(verifyWebAuthn(anyPk, assertion({ ...client, type }), subject)).toBeUndefined()
    const { crossOrigin: _, ...noCross } = client
    expect(verifyWebAuthn(anyPk, assertion(noCross), subject)).toBeUndefined()
    expect(verifyWebAuthn(anyPk, assertion({ ...client, crossOrigin: null }), subject)).toBeUndefined()
    expect(verifyWebAuthn(anyPk, assertion({ ...client, extra: { a: [1, 2] } }), subject)).toBeUndefined()
  })

  it("accepts the challenge padded or in the standard alphabet, as passkey-types decodes it", () => {
    const bytes = sha3_256(subject.message)
    const std = Buffer.from(bytes).toString("base64")
    expect(verifyWebAuthn(anyPk, assertion({ ...client, challenge: std }), subject)).toBeUndefined()
    expect(verifyWebAuthn(anyPk, assertion({ ...client, challenge: `${challenge}=` }), subject)).toBeUndefined()
    expect(decodeChallenge("")).toEqual(new Uint8Array())
    expect(decodeChallenge("A")).toBeUndefined()
    expect(decodeChallenge("a+b_")).toBeUndefined()
  })

  it("refuses a bad client data type, a missing challenge or origin, a non-boolean crossOrigin, non-JSON", () => {
    expect(verifyWebAuthn(anyPk, assertion({ ...client, type: "webauthn.other" }), subject)).toMatch(/type/)
    const { challenge: _c, ...noChallenge } = client
    expect(verifyWebAuthn(anyPk, assertion(noChallenge), subject)).toMatch(/challenge/)
    const { origin: _o, ...noOrigin } = client
    expect(verifyWebAuthn(anyPk, assertion(noOrigin), subject)).toMatch(/origin/)
    expect(verifyWebAuthn(anyPk, assertion({ ...client, crossOrigin: "no" }), subject)).toMatch(/crossOrigin/)
    expect(verifyWebAuthn(anyPk, assertion("[1,2]"), subject)).toMatch(/object/)
    expect(verifyWebAuthn(anyPk, assertion("{"), subject)).toMatch(/JSON/)
  })

  it("refuses high S and S = (n - 1) / 2 (the reference's ORDER_HALF bound), and other key types", () => {
    const highS = (sig: Uint8Array) => {
      const s = BigInt("0x" + Buffer.from(sig.subarray(32)).toString("hex"))
      const flipped = (N - s).toString(16).padStart(64, "0")
      return new Uint8Array([...sig.subarray(0, 32), ...Buffer.from(flipped, "hex")])
    }
    expect(verifyWebAuthn(anyPk, assertion(client, { sig: highS }), subject)).toMatch(/verification failed/)
    const half = (sig: Uint8Array) =>
      new Uint8Array([...sig.subarray(0, 32), ...Buffer.from(((N - 1n) / 2n).toString(16).padStart(64, "0"), "hex")])
    expect(verifyWebAuthn(anyPk, assertion(client, { sig: half }), subject)).toMatch(/verification failed/)
    expect(verifyWebAuthn({ _tag: "Ed25519", publicKey: new Uint8Array(32) }, assertion(client), subject)).toMatch(
      /secp256r1/
    )
  })

  it("every flipped bit of the assertion or the key fails", () => {
    const good = assertion(client)
    expect(verifyWebAuthn(anyPk, good, subject)).toBeUndefined()
    const fields = ["signature", "authenticatorData", "clientDataJson"] as const
    for (const f of fields)
      for (let i = 0; i < good[f].length; i++) {
        const t = good[f].slice()
        t[i]! ^= 1
        expect(verifyWebAuthn(anyPk, { ...good, [f]: t }, subject)).toBeDefined()
      }
    for (let i = 0; i < pk.length; i += 5) {
      const t = pk.slice()
      t[i]! ^= 1
      expect(verifyWebAuthn({ _tag: "Secp256r1Ecdsa", publicKey: t }, good, subject)).toBeDefined()
    }
  })

  it("never throws on arbitrary assertion bytes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 70 }),
        fc.uint8Array({ maxLength: 60 }),
        fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.json().map(utf8)),
        (signature, authenticatorData, clientDataJson) => {
          const r = verifyWebAuthn(anyPk, { signature, authenticatorData, clientDataJson }, subject)
          expect(typeof r).toBe("string")
        }
      ),
      { numRuns: 200 }
    )
  })
})
