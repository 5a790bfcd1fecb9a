/**
 * Signature verification per transaction (signing message build + strict verification) against
 * @noble/curves' `ed25519.verify` alone on a prebuilt message, for an Ed25519 transaction; and the
 * other account kinds for scale. Run: `nice npx vitest bench --run test/execution/verifySignature.bench.ts`.
 */
import { Ed25519Account, Ed25519PrivateKey, Secp256k1PrivateKey, SingleKeyAccount } from "@aptos-labs/ts-sdk"
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { test } from "vitest"
import { signingMessage } from "../../src/domain/signingMessage.js"
import { verifySignature } from "../../src/execution/verifySignature.js"
import { decodeSigned, signedSimple } from "./sdkSigned.js"

const edTxn = decodeSigned(
  signedSimple(new Ed25519Account({ privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(1)) }))
)
const secpTxn = decodeSigned(
  signedSimple(new SingleKeyAccount({ privateKey: new Secp256k1PrivateKey(new Uint8Array(32).fill(3)) }))
)
if (edTxn.authenticator._tag !== "Ed25519") throw new Error("expected Ed25519")
const { publicKey, signature } = edTxn.authenticator
const message = signingMessage(edTxn.rawTransaction)
const secpSender = secpTxn.authenticator._tag === "SingleSender" ? secpTxn.authenticator.sender : undefined
if (secpSender?._tag !== "SingleKey") throw new Error("expected SingleKey")
const secpKey = secpSender.publicKey.publicKey as Uint8Array
const secpSig = (secpSender.signature as { signature: Uint8Array }).signature
const secpDigest = sha3_256(signingMessage(secpTxn.rawTransaction))

test("Ed25519 transaction", async ({ bench }) => {
  await bench.compare(
    bench("verifySignature (message build + strict verify)", () => {
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
