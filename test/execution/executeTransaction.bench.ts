/**
 * CPU per APT transfer executed by `executeTransaction`, prologue to output (the reference runs one
 * in ~64 µs single-threaded): 0xa550c18 → an account that already has a primary store, on the
 * devnet genesis state with that account funded, warm (modules loaded and linked). Three forms:
 * simulated (no signature check: prologue to output), the same signed for real (Ed25519 verified
 * first), and mempool admission (`validateTransaction`: signature + prologue).
 *
 *   nice npx vitest bench --run test/execution/executeTransaction.bench.ts
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { test } from "vitest"
import { signingMessage } from "../../src/domain/signingMessage.js"
import type { SignedTransaction } from "../../src/domain/Transaction.js"
import { executeTransaction } from "../../src/execution/executeTransaction.js"
import { validateTransaction } from "../../src/execution/validateTransaction.js"
import { addressOf, applied, devnetView, ROOT, signed, transferPayload, vm } from "./fixtures.js"

const secret = new Uint8Array(32).fill(3)
const publicKey = ed25519.getPublicKey(secret)
const alice = sha3_256(Uint8Array.from([...publicKey, 0]))
const bob = addressOf(77)

const base = devnetView()
const fund = (view: typeof base, to: Uint8Array, seq: bigint) =>
  applied(
    view,
    executeTransaction(vm, view, signed(ROOT, transferPayload(to, 10_000_000_000n), { sequenceNumber: seq }), {
      simulation: true
    })
  )
const state = fund(fund(base, alice, 0n), bob, 1n)

const simulated = signed(ROOT, transferPayload(bob, 1n), { sequenceNumber: 2n, maxGasAmount: 10_000n })
const raw = signed(alice, transferPayload(bob, 1n), { maxGasAmount: 10_000n }).rawTransaction
const real: SignedTransaction = {
  rawTransaction: raw,
  authenticator: { _tag: "Ed25519", publicKey, signature: ed25519.sign(signingMessage(raw), secret) }
}
for (const t of [simulated, real]) {
  const out = executeTransaction(vm, state, t, { simulation: t === simulated })
  if (out.status._tag !== "Keep" || out.status.status._tag !== "Success") throw new Error(JSON.stringify(out.status))
}

test("APT transfer, executeTransaction", async ({ bench }) => {
  await bench.compare(
    bench("simulated (prologue to output, no signature)", () => {
      executeTransaction(vm, state, simulated, { simulation: true })
    }),
    bench("signed (Ed25519 verified, then prologue to output)", () => {
      executeTransaction(vm, state, real)
    }),
    bench("validateTransaction (signature + prologue)", () => {
      validateTransaction(vm, state, real)
    }),
    { time: 3_000 }
  )
})
