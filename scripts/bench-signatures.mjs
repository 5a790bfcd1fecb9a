#!/usr/bin/env node
/**
 * Admission's Ed25519 equation off the event loop, two ways (issue 22): one libuv thread-pool job
 * per signature (node:crypto's callback form) against batches on one worker thread
 * (src/chain/mempool/signatureBatchVerifier.ts). Signatures arrive `--per-turn` at a time (a
 * flood's submissions read in one event-loop turn); each way verifies `--count` of them. Prints
 * the event loop's (the main thread's) CPU per signature, which is what the batching saves, and
 * the whole process's, from /proc (Linux). Needs `npm run build` (reads dist/).
 *
 *   node scripts/bench-signatures.mjs [--count 20000] [--per-turn 64]
 */
import { createPrivateKey, createPublicKey, sign } from "node:crypto"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const { threadPoolVerify } = await import(join(root, "dist", "execution", "signatures", "ed25519Fast.js"))
const { SignatureBatchVerifier } = await import(join(root, "dist", "chain", "mempool", "signatureBatchVerifier.js"))

const args = process.argv.slice(2)
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i < 0 ? fallback : Number(args[i + 1])
}
const count = arg("count", 20000)
const perTurn = arg("per-turn", 64)

/** CPU seconds (user + system) of the main thread, or of the whole process. */
const cpuSecs = (thread) => {
  const f = readFileSync(`/proc/self${thread ? `/task/${process.pid}` : ""}/stat`, "utf8").split(") ")[1].split(" ")
  return (Number(f[11]) + Number(f[12])) / 100
}

const PKCS8 = Buffer.from("302e020100300506032b657004220420", "hex")
const keys = Array.from({ length: 64 }, (_, i) => {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8, Buffer.alloc(32, i + 1)]), format: "der", type: "pkcs8" })
  const pk = new Uint8Array(createPublicKey(key).export({ format: "der", type: "spki" }).subarray(12))
  return { key, pk }
})
// Transfer-sized signing messages (~170 bytes: the RawTransaction's prefix hash and BCS).
const jobs = Array.from({ length: count }, (_, i) => {
  const k = keys[i % keys.length]
  const msg = new Uint8Array(170).fill(i & 0xff)
  new DataView(msg.buffer).setUint32(0, i)
  return { sig: new Uint8Array(sign(null, msg, k.key)), pk: k.pk, msg }
})

const run = async (name, verify) => {
  // Warm-up (workers started, code optimised), not counted.
  await Promise.all(jobs.slice(0, 512).map((j) => verify(j.sig, j.pk, j.msg)))
  const main0 = cpuSecs(true)
  const all0 = cpuSecs(false)
  const t0 = performance.now()
  let ok = 0
  for (let from = 0; from < count; from += perTurn) {
    const verdicts = await Promise.all(jobs.slice(from, from + perTurn).map((j) => verify(j.sig, j.pk, j.msg)))
    for (const v of verdicts) if (v) ok++
    // The next turn's arrivals come after a poll phase.
    await new Promise((r) => setImmediate(r))
  }
  const wallMs = performance.now() - t0
  return {
    way: name,
    verified: ok,
    mainThreadUsPerSignature: +(((cpuSecs(true) - main0) * 1e6) / count).toFixed(1),
    processUsPerSignature: +(((cpuSecs(false) - all0) * 1e6) / count).toFixed(1),
    wallUsPerSignature: +((wallMs * 1000) / count).toFixed(1)
  }
}

const batch = new SignatureBatchVerifier()
const results = [await run("thread pool, one job per signature", threadPoolVerify), await run("worker, one batch per turn", batch.verify)]
await batch.close()
console.log(JSON.stringify({ count, perTurn, load: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "), results }, null, 1))
