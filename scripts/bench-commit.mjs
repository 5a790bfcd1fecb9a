#!/usr/bin/env node
/**
 * The LMDB commit's cost to the committing thread (issue 22, docs/benchmarks.md "Session 18"): full
 * blocks of transfer-shaped transactions committed one after another into an fsync'd store (as the
 * local chain commits them), written ahead (the default: puts queued to lmdb-js's write thread)
 * and inside the write transaction (`writeAhead: false`: puts applied on the committing thread in
 * lmdb-js's `transaction` callback), alternately, each in a fresh store. Per block: the
 * committing thread's CPU (from /proc/thread-self/schedstat, so not the machine's load) and the
 * wall time until the block is durable.
 *
 *   node scripts/bench-commit.mjs [--blocks 200] [--txns 250] [--rounds 3]
 *
 * A transaction here is shaped like an APT transfer (five state writes of 100-200 bytes, three
 * events, a user transaction), not executed: the store's cost alone. Prints one JSON line.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { cliArgs, root, threadCpuNs } from "./lib.mjs"

const { openLmdbBackend, makeLedgerService } = await import(pathToFileURL(join(root, "dist", "ledger", "index.js")).href)
const { Effect } = await import("effect")

const { num: arg } = cliArgs()
const BLOCKS = arg("blocks", 200)
const TXNS = arg("txns", 250)
const ROUNDS = arg("rounds", 3)
const ACCOUNTS = 512

const address = (n) => {
  const a = new Uint8Array(32)
  a[28] = n >>> 24
  a[29] = n >>> 16
  a[30] = n >>> 8
  a[31] = n
  return a
}
/** BCS(StateKey::TableItem { handle, key }) with a 32-byte key: distinct per (account, slot). */
const keyBytes = (account, slot) => {
  const out = new Uint8Array(1 + 32 + 1 + 32)
  out[0] = 1
  out[32] = 0xcc
  out[33] = 32
  out.set(address(account), 34)
  out[34] = slot
  return out
}
const filled = (n, seed) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff)

const transfer = (from, to, seq) => ({
  transaction: {
    _tag: "UserTransaction",
    signed: {
      rawTransaction: {
        sender: address(from),
        sequenceNumber: seq,
        payload: {
          _tag: "EntryFunction",
          entryFunction: {
            module: { address: address(1), name: "aptos_account" },
            function: "transfer",
            typeArgs: [],
            args: [address(to), filled(8, from)]
          }
        },
        maxGasAmount: 2000n,
        gasUnitPrice: 100n,
        expirationTimestampSecs: 9999999999n,
        chainId: 4
      },
      authenticator: { _tag: "Ed25519", publicKey: filled(32, from), signature: filled(64, Number(seq)) }
    }
  },
  writeSet: {
    entries: [
      [from, 0, 120],
      [from, 1, 180],
      [to, 1, 180],
      [0, 2, 100],
      [from, 3, 140]
    ]
      .map(([account, slot, size]) => ({
        key: { _tag: "TableItem", handle: address(0xcc), key: address(account) },
        keyBytes: keyBytes(account, slot),
        op: { _tag: "Modification", data: filled(size, Number(seq) + slot) }
      }))
      .sort((a, b) => Buffer.compare(a.keyBytes, b.keyBytes))
  },
  events: [0, 1, 2].map((i) => ({ _tag: "V2", typeTag: { _tag: "u64" }, data: filled(56 + i * 8, from + i) })),
  outcome: { gasUsed: 9n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }
})

const run = async (writeAhead) => {
  const dir = mkdtempSync(join(tmpdir(), "movenode-bench-commit-"))
  const l = makeLedgerService(openLmdbBackend({ path: dir, sync: true, writeAhead }))
  try {
    await Effect.runPromise(
      l.commitGenesis({ epoch: 0n, timestampUsec: 0n, transactions: [transfer(0, 1, 0n)] }, 4)
    )
    const seqs = new Array(ACCOUNTS).fill(0n)
    let cpuNs = 0
    let wallMs = 0
    for (let b = 0; b < BLOCKS; b++) {
      const transactions = Array.from({ length: TXNS }, (_, i) => {
        const from = 1 + ((b * TXNS + i) % (ACCOUNTS - 1))
        return transfer(from, 1 + ((from * 7) % (ACCOUNTS - 1)), seqs[from]++)
      })
      const block = { epoch: 1n, timestampUsec: BigInt(b + 1) * 1000n, transactions }
      const c0 = threadCpuNs()
      const t0 = performance.now()
      await Effect.runPromise(l.service.commitBlock(block))
      wallMs += performance.now() - t0
      cpuNs += threadCpuNs() - c0
    }
    return { cpuMsPerBlock: +(cpuNs / 1e6 / BLOCKS).toFixed(2), wallMsPerBlock: +(wallMs / BLOCKS).toFixed(2) }
  } finally {
    await l.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const results = { ahead: [], inside: [] }
for (let r = 0; r < ROUNDS; r++) {
  results.inside.push(await run(false))
  results.ahead.push(await run(true))
}
console.log(JSON.stringify({ blocks: BLOCKS, txnsPerBlock: TXNS, rounds: ROUNDS, ...results }))
