/**
 * Crypto natives per call through the VM (devnet framework, metered): BLS12-381 proof-of-possession
 * check (2 pairings + hash to G2), BLS normal signature, secp256k1 recovery, Ed25519 strict
 * verification. Run: `nice npx vitest bench --run test/move/vm/natives/crypto.bench.ts`.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { test } from "vitest"
import { BcsWriter } from "../../../../src/bcs/index.js"
import { addressFromNumber } from "../../../../src/domain/AccountAddress.js"
import { MoveVm } from "../../../../src/move/vm/MoveVm.js"
import { blsKeyWithPop, blsSign } from "../../../../src/move/vm/natives/bls12381.js"
import { genesisState } from "../genesisState.js"

const ONE = addressFromNumber(1)
const { view } = genesisState("devnet")
const vm = new MoveVm()
const vec = (b: Uint8Array) => new BcsWriter().bytesWithLength(b).toBytes()
const ok = (module: string, fn: string, args: Uint8Array[]) => {
  const o = vm.call(
    view,
    { module: { address: ONE, name: module }, function: fn, tyArgs: [], args },
    { maxGas: 2_000_000n }
  )
  if (o._tag !== "Success") throw new Error(o._tag)
}

const k = blsKeyWithPop(new Uint8Array(32).fill(5))
const msg = new TextEncoder().encode("movenode bench")
const blsSig = blsSign(k.secretKey, msg)
const edSk = new Uint8Array(32).fill(6)
const edPk = ed25519.getPublicKey(edSk)
const edSig = ed25519.sign(msg, edSk)
const digest = sha256(msg)
const rec = secp256k1.Signature.fromBytes(
  secp256k1.sign(digest, new Uint8Array(32).fill(7), { prehash: false, format: "recovered" }),
  "recovered"
)

test("crypto natives", async ({ bench }) => {
  await bench.compare(
    bench("bls12381::verify_proof_of_possession_internal", () =>
      ok("bls12381", "verify_proof_of_possession_internal", [vec(k.publicKey), vec(k.proofOfPossession)])
    ),
    bench("bls12381::verify_normal_signature_internal", () =>
      ok("bls12381", "verify_normal_signature_internal", [vec(blsSig), vec(k.publicKey), vec(msg)])
    ),
    bench("secp256k1::ecdsa_recover_internal", () =>
      ok("secp256k1", "ecdsa_recover_internal", [
        vec(digest),
        new Uint8Array([rec.recovery!]),
        vec(rec.toBytes("compact"))
      ])
    ),
    bench("ed25519::signature_verify_strict_internal", () =>
      ok("ed25519", "signature_verify_strict_internal", [vec(edSig), vec(edPk), vec(msg)])
    ),
    { time: 2_000 }
  )
})
