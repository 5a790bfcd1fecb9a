/**
 * Signature verification per transaction (signing message build + strict verification) against
 * @noble/curves' `ed25519.verify` alone on a prebuilt message, for an Ed25519 transaction; and the
 * other account kinds for scale. Run: `nice npx vitest bench --run test/execution/verifySignature.bench.ts`.
 *
 * The Ed25519 path remembers the last 20,000 triples it verified (so a transaction the mempool
 * admitted is not verified again in its block): the first bench cycles through 25,000 distinct
 * transactions so that every verification misses that memo and does the work; the second measures
 * a hit.
 */
import { Ed25519Account, Ed25519PrivateKey, Secp256k1PrivateKey, SingleKeyAccount } from "@aptos-labs/ts-sdk"
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { test } from "vitest"
import { signingMessage } from "../../src/domain/signingMessage.js"
import { verifySignature } from "../../src/execution/verifySignature.js"
import { decodeSigned, signedSimple } from "./sdkSigned.js"
import { ed25519Signer } from "../../src/chain/ed25519Signer.js"
import type { SignedTransaction } from "../../src/domain/Transaction.js"

const edTxn = decodeSigned(
  signedSimple(new Ed25519Account({ privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(1)) }))
)
const secpTxn = decodeSigned(
  signedSimple(new SingleKeyAccount({ privateKey: new Secp256k1PrivateKey(new Uint8Array(32).fill(3)) }))
)
if (edTxn.authenticator._tag !== "Ed25519") throw new Error("expected Ed25519")
const { publicKey, signature } = edTxn.authenticator
const message = signingMessage(edTxn.rawTransaction)
// 25,000 distinct transfers of one key (their sequence numbers differ), signed through node:crypto.
const signer = ed25519Signer(new Uint8Array(32).fill(1))
const distinct: Array<SignedTransaction> = Array.from({ length: 25_000 }, (_, i) => {
  const rawTransaction = { ...edTxn.rawTransaction, sequenceNumber: BigInt(i) }
  return {
    rawTransaction,
    authenticator: {
      _tag: "Ed25519",
      publicKey: signer.publicKey,
      signature: signer.sign(signingMessage(rawTransaction))
    }
  }
})
const distinctMessages = distinct.map((t) => signingMessage(t.rawTransaction))
let next = 0
let nextNoble = 0

const secpSender = secpTxn.authenticator._tag === "SingleSender" ? secpTxn.authenticator.sender : undefined
if (secpSender?._tag !== "SingleKey") throw new Error("expected SingleKey")
const secpKey = secpSender.publicKey.publicKey as Uint8Array
const secpSig = (secpSender.signature as { signature: Uint8Array }).signature
const secpDigest = sha3_256(signingMessage(secpTxn.rawTransaction))

test("Ed25519 transaction, each one new", async ({ bench }) => {
  await bench.compare(
    bench("verifySignature (message build + strict checks + node:crypto verify)", () => {
      const t = distinct[next++ % distinct.length]!
      if (verifySignature(t)._tag !== "Valid") throw new Error("invalid")
    }),
    bench("@noble/curves ed25519.verify alone (prebuilt message)", () => {
      const i = nextNoble++ % distinct.length
      const a = distinct[i]!.authenticator as { publicKey: Uint8Array; signature: Uint8Array }
      if (!ed25519.verify(a.signature, distinctMessages[i]!, a.publicKey, { zip215: false })) throw new Error("invalid")
    }),
    { time: 1_500 }
  )
})

test("Ed25519 transaction verified a second time (mempool, then block)", async ({ bench }) => {
  await bench.compare(
    bench("verifySignature (a memo hit)", () => {
      if (verifySignature(edTxn)._tag !== "Valid") throw new Error("invalid")
    }),
    bench("@noble/curves ed25519.verify alone (prebuilt message)", () => {
      if (!ed25519.verify(signature, message, publicKey, { zip215: false })) throw new Error("invalid")
    }),
    { time: 1_500 }
  )
})

test("SingleKey Secp256k1 transaction", async ({ bench }) => {
  await bench.compare(
    bench("verifySignature (message build + sha3 + low-S verify)", () => {
      if (verifySignature(secpTxn)._tag !== "Valid") throw new Error("invalid")
    }),
    bench("@noble/curves secp256k1.verify alone (prebuilt digest)", () => {
      if (!secp256k1.verify(secpSig, secpDigest, secpKey, { prehash: false })) throw new Error("invalid")
    }),
    { time: 1_500 }
  )
})
