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
import { createPrivateKey, sign } from "node:crypto"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { cliArgs, loadDist, root } from "./lib.mjs"

if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc")
const { num } = cliArgs()
const COUNT = num("count", 20_000)
const lib = await loadDist()
const signatures = await import(pathToFileURL(join(root, "dist", "execution", "verifySignature.js")).href)
const { Bcs, signedTransactionCodec, signingMessage, TxPool, poolEntryOf, makeMempoolConfig } = lib

// One key for every transfer (the check verifies the signature, not the sender's authentication key).
const seed = new Uint8Array(32).fill(7)
const privateKey = createPrivateKey({
  key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
  format: "der",
  type: "pkcs8"
})
const publicKey = new Uint8Array(privateKey.export({ format: "jwk" }).x ? Buffer.from(privateKey.export({ format: "jwk" }).x, "base64url") : [])
const { verifySignature, knownSignatureCheck } = signatures

const address = (byte) => {
  const a = new Uint8Array(32)
  a[31] = byte
  return a
}

/** Transfer `i` of one sender, signed, as BCS bytes (a fresh buffer each, as each request body is). */
const transferBytes = (i) => {
  const rawTransaction = {
    sender: new Uint8Array(32).fill(1),
    sequenceNumber: BigInt(i),
    payload: {
      _tag: "EntryFunction",
      entryFunction: {
        module: { address: address(1), name: "aptos_account" },
        function: "transfer",
        typeArgs: [],
        args: [new Uint8Array(32).fill(9), Bcs.encode(Bcs.u64, 5n)]
      }
    },
    maxGasAmount: 2000n,
    gasUnitPrice: 100n,
    expirationTimestampSecs: 2_000_000_000n,
    chainId: 4
  }
  const signature = new Uint8Array(sign(null, signingMessage(rawTransaction), privateKey))
  return Buffer.from(
    Bcs.encode(signedTransactionCodec, { rawTransaction, authenticator: { _tag: "Ed25519", publicKey, signature } })
  )
}

const pool = new TxPool(makeMempoolConfig({ capacity: COUNT + 1, capacityPerUser: COUNT + 1 }))
globalThis.gc()
const before = process.memoryUsage().heapUsed
for (let i = 0; i < COUNT; i++) {
  const bytes = transferBytes(i)
  const transaction = Bcs.decode(signedTransactionCodec, bytes).success
  if (verifySignature(transaction)._tag !== "Valid") throw new Error("a transfer's signature did not verify")
  // Builds before session 40 take three arguments and ignore the fourth.
  pool.insert(poolEntryOf(transaction, bytes, 0, knownSignatureCheck?.(transaction)), 0n)
}
globalThis.gc()
const after = process.memoryUsage().heapUsed
console.log(JSON.stringify({ pooled: pool.size, heapBytesPerEntry: Math.round((after - before) / COUNT) }))
