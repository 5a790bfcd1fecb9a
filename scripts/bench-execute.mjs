#!/usr/bin/env node
// CPU per APT transfer executed by `executeTransaction` (prologue to output), over dist/ (run
// `npm run build` first), without vitest: the devnet genesis state (see `base` below), 0xa550c18's earlier transfer funding the recipient in an OverlayStateView (as a
// block's earlier transaction), then the same transfer executed again and again, warm. Prints the
// per-transaction wall time (p10 / median / p90) and the process CPU time per transaction over 3
// rounds after a 1,000-transaction warm-up, for three forms: simulated (no signature), signed for
// real (Ed25519 verified first), and validateTransaction (signature + prologue: mempool admission).
//
//   node scripts/bench-execute.mjs [--rounds N] [--count N] [--forms N] [--store lmdb|memory|map]
// (`--forms 1`: the simulated form only, e.g. under `node --cpu-prof`.)
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha3_256 } from "@noble/hashes/sha3.js"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const dist = (p) => import(pathToFileURL(join(root, "dist", p)).href)
const { toHex, BcsWriter } = await dist("bcs/index.js")
const { decodeGenesisTransaction } = await dist("domain/Genesis.js")
const { signingMessage } = await dist("domain/signingMessage.js")
const { stateViewFromReader } = await dist("move/vm/StateView.js")
const { MoveVm } = await dist("move/vm/MoveVm.js")
const { executeTransaction } = await dist("execution/executeTransaction.js")
const { validateTransaction } = await dist("execution/validateTransaction.js")
const { overlayStateView } = await dist("execution/OverlayStateView.js")

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name)
  return i < 0 ? dflt : Number(process.argv[i + 1])
}
const rounds = arg("--rounds", 3)
const count = arg("--count", 3000)
const formCount = arg("--forms", 3)

// The base state: the devnet genesis imported into an LMDB store (what `movenode` runs on; fsync
// off), read at version 0 with the version as the view's snapshot, as the block producer, the
// mempool and simulations read it. `--store map`: a plain Map keyed by hex (the older figures).
const storeKind = process.argv.includes("--store") ? process.argv[process.argv.indexOf("--store") + 1] : "lmdb"
const genesisBytes = new Uint8Array(readFileSync(join(root, "genesis/devnet.blob")))
let base
if (storeKind === "map") {
  const genesis = decodeGenesisTransaction(genesisBytes)
  const map = new Map()
  for (const e of genesis.success.payload.changeSet.writeSet.entries)
    if ("data" in e.op) map.set(toHex(e.keyBytes), e.op.data)
  base = stateViewFromReader({
    get: (k) => map.get(toHex(k)),
    getVersioned: (k) => {
      const v = map.get(toHex(k))
      return v === undefined ? undefined : { value: v, version: 0n }
    }
  })
} else {
  const { Effect } = await import("effect")
  const ledger = await dist("ledger/index.js")
  const dir = mkdtempSync(join(tmpdir(), "bench-execute-"))
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }))
  const backend =
    storeKind === "memory" ? ledger.makeMemoryBackend() : ledger.openLmdbBackend({ path: dir, sync: false })
  const handle = ledger.makeLedgerService(backend)
  Effect.runSync(ledger.importGenesis(handle, genesisBytes))
  base = stateViewFromReader(Effect.runSync(handle.service.stateAt(0n)), 0n)
}
const vm = new MoveVm()

const address = (hex) => {
  const a = new Uint8Array(32)
  const h = hex.padStart(64, "0")
  for (let i = 0; i < 32; i++) a[i] = Number.parseInt(h.slice(2 * i, 2 * i + 2), 16)
  return a
}
const ROOT = address("a550c18")
const ONE = address("1")
const bob = address("42000000000000000000000000000000000000000000000000000000000004d")
const secret = new Uint8Array(32).fill(3)
const publicKey = ed25519.getPublicKey(secret)
const alice = sha3_256(Uint8Array.from([...publicKey, 0]))
const NO_ACCOUNT = { _tag: "SingleSender", sender: { _tag: "NoAccountAuthenticator" } }

const raw = (sender, to, amount, sequenceNumber) => ({
  sender,
  sequenceNumber,
  payload: {
    _tag: "EntryFunction",
    entryFunction: {
      module: { address: ONE, name: "aptos_account" },
      function: "transfer",
      typeArgs: [],
      args: [to, new BcsWriter(8).u64(amount).toBytes()]
    }
  },
  maxGasAmount: 10_000n,
  gasUnitPrice: 100n,
  expirationTimestampSecs: 4_000_000_000n,
  chainId: 243
})
const simulate = (view, txn) => executeTransaction(vm, view, txn, { simulation: true })
// One overlay the funding transfers are pushed onto, as executeBlock pushes each transaction's writes.
const state = overlayStateView(base, [])
for (const [to, seq] of [
  [alice, 0n],
  [bob, 1n]
]) {
  const out = simulate(state, { rawTransaction: raw(ROOT, to, 10_000_000_000n, seq), authenticator: NO_ACCOUNT })
  state.push({ writeSet: out.writeSet, version: seq + 1n })
}
const simulated = { rawTransaction: raw(ROOT, bob, 1n, 2n), authenticator: NO_ACCOUNT }
const aliceRaw = raw(alice, bob, 1n, 0n)
const signed = {
  rawTransaction: aliceRaw,
  authenticator: { _tag: "Ed25519", publicKey, signature: ed25519.sign(signingMessage(aliceRaw), secret) }
}

const forms = [
  ["simulated (prologue to output)", () => simulate(state, simulated)],
  ["signed (Ed25519 verified, then prologue to output)", () => executeTransaction(vm, state, signed)],
  ["validateTransaction (signature + prologue)", () => validateTransaction(vm, state, signed)]
]
for (const [name, run] of forms.slice(0, 2)) {
  const out = run()
  if (out.status._tag !== "Keep" || out.status.status._tag !== "Success")
    throw new Error(`${name}: ${JSON.stringify(out.status)}`)
}

for (const [name, run] of forms.slice(0, formCount)) {
  for (let i = 0; i < 1000; i++) run()
  for (let r = 0; r < rounds; r++) {
    const times = new Float64Array(count)
    const cpu0 = process.cpuUsage()
    for (let i = 0; i < count; i++) {
      const t = performance.now()
      run()
      times[i] = performance.now() - t
    }
    const cpu = process.cpuUsage(cpu0)
    times.sort()
    const q = (p) => `${Math.round(times[Math.floor(p * (count - 1))] * 1000)}`
    console.log(
      `${name}: p10 ${q(0.1)} µs, median ${q(0.5)} µs, p90 ${q(0.9)} µs; CPU ${Math.round((cpu.user + cpu.system) / count)} µs per transaction`
    )
  }
}
