/**
 * The batching verifier gives node:crypto's verdict for every input (valid, tampered, garbage),
 * in order, sends one turn's signatures as one batch, and keeps answering (through the thread
 * pool) once its worker is gone.
 */
import { createPublicKey, verify } from "node:crypto"
import { ed25519 } from "@noble/curves/ed25519.js"
import fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { SignatureBatchVerifier } from "../../../src/chain/mempool/signatureBatchVerifier.js"

const SPKI_ED25519 = Buffer.from("302a300506032b6570032100", "hex")
/** node:crypto's own verdict, false where it throws (a key not on the curve). */
const expected = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array): boolean => {
  try {
    return verify(null, msg, createPublicKey({ key: Buffer.concat([SPKI_ED25519, pk]), format: "der", type: "spki" }), sig)
  } catch {
    return false
  }
}

const keys = Array.from({ length: 8 }, (_, i) => {
  const secret = new Uint8Array(32).fill(i + 1)
  return { secret, publicKey: ed25519.getPublicKey(secret) }
})
const signed = (i: number) => {
  const k = keys[i % keys.length]!
  const msg = new TextEncoder().encode(`message ${i}`)
  // A copy of the key: the fast-check case flips bits in place.
  return { sig: ed25519.sign(msg, k.secret), pk: k.publicKey.slice(), msg }
}

const verifiers: SignatureBatchVerifier[] = []
const make = () => {
  const v = new SignatureBatchVerifier()
  verifiers.push(v)
  return v
}
afterAll(async () => {
  for (const v of verifiers) await v.close()
})

describe("SignatureBatchVerifier", () => {
  it("answers a turn's signatures in one batch, each with its own verdict", async () => {
    const v = make()
    const jobs = Array.from({ length: 300 }, (_, i) => {
      const s = signed(i)
      // Every third tampered: a byte of the message changed after signing.
      if (i % 3 === 0) s.msg[0] = s.msg[0]! ^ 1
      return s
    })
    const verdicts = await Promise.all(jobs.map((j) => v.verify(j.sig, j.pk, j.msg)))
    expect(verdicts).toEqual(jobs.map((_, i) => i % 3 !== 0))
    expect(v.stats).toEqual({ batches: 1, signatures: 300 })
  })

  it("splits a large turn into batches of at most 512", async () => {
    const v = make()
    const jobs = Array.from({ length: 600 }, (_, i) => signed(i))
    const verdicts = await Promise.all(jobs.map((j) => v.verify(j.sig, j.pk, j.msg)))
    expect(verdicts.every((ok) => ok)).toBe(true)
    expect(v.stats).toEqual({ batches: 2, signatures: 600 })
  })

  it("gives node:crypto's verdict for garbage and near-misses (fast-check)", async () => {
    const v = make()
    const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n })
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ sig: bytes(64), pk: bytes(32), msg: fc.uint8Array({ maxLength: 300 }) }),
            // A valid signature with one bit flipped somewhere (or none).
            fc.record({ i: fc.nat(1000), where: fc.nat(200), bit: fc.nat(7), flip: fc.boolean() }).map(
              ({ i, where, bit, flip }) => {
                const s = signed(i)
                if (flip) {
                  const all = [s.sig, s.pk, s.msg]
                  const part = all[where % 3]!
                  part[where % part.length] = part[where % part.length]! ^ (1 << bit)
                }
                return s
              }
            )
          ),
          { minLength: 1, maxLength: 40 }
        ),
        async (jobs) => {
          const verdicts = await Promise.all(jobs.map((j) => v.verify(j.sig, j.pk, j.msg)))
          expect(verdicts).toEqual(jobs.map((j) => expected(j.sig, j.pk, j.msg)))
        }
      ),
      { numRuns: 60 }
    )
  })

  it("after its worker is gone, verifies on the thread pool (same verdicts)", async () => {
    const v = make()
    const s = signed(1)
    expect(await v.verify(s.sig, s.pk, s.msg)).toBe(true)
    await v.close()
    const batches = v.stats.batches
    expect(await v.verify(s.sig, s.pk, s.msg)).toBe(true)
    s.msg[0] = s.msg[0]! ^ 1
    expect(await v.verify(s.sig, s.pk, s.msg)).toBe(false)
    expect(v.stats.batches).toBe(batches)
  })
})
