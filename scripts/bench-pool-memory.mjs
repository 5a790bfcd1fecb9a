#!/usr/bin/env node
/**
 * The heap a pooled transaction holds (issue 22, docs/benchmarks.md "Session 40"): N signed APT
 * transfers, each decoded from its BCS bytes as the API decodes a submission, its signature checked
 * as admission checks it, then inserted into a `TxPool` as `Mempool` inserts it; the heap used
 * (after a full collection, before and after) divided by N. On the built library (`npm run build`
 * first); run with `--expose-gc`:
 *
 *   node --expose-gc scripts/bench-pool-memory.mjs [--count 20000]
 *
 * The transfers are signed with node:crypto's Ed25519, so the check each entry keeps is a valid one
 * (with its signers), as for a real submission. Prints one JSON line.
 */
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { aptTransfer, cliArgs, loadDist, root, signerOf } from "./lib.mjs"

if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc")
const { num } = cliArgs()
const COUNT = num("count", 20_000)
const lib = await loadDist()
const signatures = await import(pathToFileURL(join(root, "dist", "execution", "verifySignature.js")).href)
const { Bcs, signedTransactionCodec, TxPool, poolEntryOf, makeMempoolConfig, addressFromNumber } = lib
const { verifySignature, knownSignatureCheck } = signatures

// One sender (the check verifies the signature, not the sender's authentication key).
const sender = signerOf({ address: addressFromNumber(1), privateKey: new Uint8Array(32).fill(7) })
const receiver = addressFromNumber(0xb0b)

const pool = new TxPool(makeMempoolConfig({ capacity: COUNT + 1, capacityPerUser: COUNT + 1 }))
globalThis.gc()
const before = process.memoryUsage().heapUsed
for (let i = 0; i < COUNT; i++) {
  // A fresh buffer each, as each request body is.
  const bytes = Buffer.from(aptTransfer(lib, sender, receiver, 5n, 2_000_000_000n, { sequenceNumber: BigInt(i) }).bytes)
  const transaction = Bcs.decode(signedTransactionCodec, bytes).success
  if (verifySignature(transaction)._tag !== "Valid") throw new Error("a transfer's signature did not verify")
  // Builds before session 40 take three arguments and ignore the fourth.
  pool.insert(poolEntryOf(transaction, bytes, 0, knownSignatureCheck?.(transaction)), 0n)
}
globalThis.gc()
const after = process.memoryUsage().heapUsed
console.log(JSON.stringify({ pooled: pool.size, heapBytesPerEntry: Math.round((after - before) / COUNT) }))
