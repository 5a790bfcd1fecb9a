#!/usr/bin/env node
// Setup step of bench-http.mjs: imports a genesis blob into a fresh LMDB data dir, then commits
// `blocks` blocks of `perBlock` user transactions of one sender (aptos_account::transfer, empty
// write sets) through the ledger writer, so `transaction_summaries` has pages to serve. It also
// times genesis imports into scratch dirs. Runs on the compiled tree (`npm run build` first).
//
//   node scripts/bench-populate.mjs <genesis> <dataDir> <scratchDir> <blocks> <perBlock> <senderNumber>
//
// Prints one JSON line: {importMs, importWarmMs: [...], commitMs, transactions, sender}.
import { readFileSync } from "node:fs"
import { join, resolve, dirname } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const dist = (p) => pathToFileURL(join(root, "dist", p)).href
const { Effect } = await import("effect")
const { LedgerLmdb } = await import(dist("ledger/index.js"))
const { addressFromNumber, addressToShortString } = await import(dist("domain/index.js"))

const [genesisPath, dataDir, scratchDir, blocksText, perBlockText, senderText] = process.argv.slice(2)
const blocks = Number(blocksText)
const perBlock = Number(perBlockText)
if (!(blocks >= 1 && blocks <= 10_000 && perBlock >= 1 && perBlock <= 1_000)) {
  process.stderr.write("blocks in 1..10000, perBlock in 1..1000\n")
  process.exit(2)
}
const genesis = new Uint8Array(readFileSync(genesisPath))
const sender = addressFromNumber(BigInt(senderText))
const framework = addressFromNumber(1)

const u64 = (v) => {
  const b = new Uint8Array(8)
  new DataView(b.buffer).setBigUint64(0, v, true)
  return b
}

const transfer = (seq) => ({
  transaction: {
    _tag: "UserTransaction",
    signed: {
      rawTransaction: {
        sender,
        sequenceNumber: seq,
        payload: {
          _tag: "EntryFunction",
          entryFunction: {
            module: { address: framework, name: "aptos_account" },
            function: "transfer",
            typeArgs: [],
            args: [addressFromNumber(2), u64(100n + seq)]
          }
        },
        maxGasAmount: 2000n,
        gasUnitPrice: 100n,
        expirationTimestampSecs: 9_999_999_999n,
        chainId: 4
      },
      authenticator: { _tag: "Ed25519", publicKey: new Uint8Array(32).fill(3), signature: new Uint8Array(64).fill(4) }
    }
  },
  writeSet: { entries: [] },
  events: [],
  outcome: { gasUsed: 7n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }
})

const timedImport = (path) =>
  Effect.scoped(
    Effect.gen(function* () {
      const t0 = performance.now()
      const handle = yield* LedgerLmdb.open({ path, genesis })
      return { handle, ms: performance.now() - t0 }
    })
  )

const program = Effect.gen(function* () {
  // The first import runs in a cold process (what `movenode run` pays on a fresh data dir).
  const result = yield* Effect.scoped(
    Effect.gen(function* () {
      const t0 = performance.now()
      const handle = yield* LedgerLmdb.open({ path: dataDir, genesis })
      const importMs = performance.now() - t0
      const c0 = performance.now()
      let seq = 0n
      for (let h = 0; h < blocks; h++) {
        const transactions = Array.from({ length: perBlock }, () => transfer(seq++))
        yield* handle.service.commitBlock({ epoch: 1n, timestampUsec: BigInt(h + 1) * 1_000_000n, transactions })
      }
      return { importMs, commitMs: performance.now() - c0, transactions: Number(seq) }
    })
  )
  const importWarmMs = []
  for (let i = 0; i < 3; i++) importWarmMs.push((yield* timedImport(join(scratchDir, `genesis-${i}`))).ms)
  return { ...result, importWarmMs, sender: addressToShortString(sender) }
})

Effect.runPromise(program).then(
  (r) => process.stdout.write(JSON.stringify(r) + "\n"),
  (e) => {
    process.stderr.write(`populate failed: ${String(e)}\n`)
    process.exit(1)
  }
)
