#!/usr/bin/env node
/**
 * Kill -9 during a revert or a load (issue 21, "How it will be judged"): the built `movenode` on a
 * data directory, transfers committed, a snapshot, more transfers committed (the "after" history);
 * then, each run, either `POST /__movenode/v1/revert` or `POST /__movenode/v1/state/load` (a dump of
 * the "before" history) is sent and the process SIGKILLed a random few milliseconds later;
 * restarted on the same directory, the chain must be whole, either before or after the control:
 *
 *   - the ledger version is the "after" history's (killed before) or the snapshot's (after a revert)
 *     / the dump's (after a load), nothing in between;
 *   - every transfer of the "before" history reads back committed at its version; those of the
 *     "after" history are all there (before) or all gone, by hash (after);
 *   - the chain continues: a block is made on top.
 *
 * A run that ended "after" restores the "after" history by submitting its transfers again (the same
 * signed bytes: they commit again) before the next run.
 *
 *   node scripts/crash-controls.mjs [--runs 20] [--max-ms 300] [--transfers 200] [--port P]
 *
 * Prints one JSON line per run and a summary line; exits 1 on the first inconsistency.
 */
import { spawn } from "node:child_process"
import { createServer } from "node:net"
import { createPrivateKey, sign as nodeSign } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { ed25519 } from "@noble/curves/ed25519.js"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const lib = await import(join(root, "dist", "index.js"))
const { Bcs, signingMessage, signedTransactionCodec, addressFromNumber, toHex, transactionHashOfBytes, localKeys, defaultLocalChainConfig } = lib

const args = process.argv.slice(2)
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i < 0 ? fallback : Number(args[i + 1])
}
const RUNS = arg("runs", 20)
const MAX_MS = arg("max-ms", 300)
const TRANSFERS = arg("transfers", 200)
/** A free port (bound once, released): the node is told it, as its own start cannot report one. */
const freePort = () =>
  new Promise((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
const PORT = arg("port", 0) || (await freePort())
const API = `http://127.0.0.1:${PORT}/v1`
const CONTROLS = `http://127.0.0.1:${PORT}/__movenode/v1`
const ACCOUNTS = 8
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

const dir = mkdtempSync(join(tmpdir(), "movenode-crash-controls-"))
let child
const start = async () => {
  child = spawn(
    process.execPath,
    [
      join(root, "dist", "bin", "movenode.js"),
      "--data-dir", dir, "--quiet", "--accounts", String(ACCOUNTS), "--idle-block-time", "off",
      "--listen", `127.0.0.1:${PORT}`, "--faucet-listen", "off", "--ready-listen", "off", "--graphql-listen", "off"
    ],
    { stdio: ["ignore", "ignore", "inherit"] }
  )
  for (;;) {
    try {
      if ((await fetch(API)).status === 200) return
    } catch {}
    await sleep(10)
  }
}
const kill = () =>
  new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r()
    child.once("exit", r)
    child.kill("SIGKILL")
  })

const PKCS8 = Buffer.from("302e020100300506032b657004220420", "hex")
const signers = localKeys({ ...defaultLocalChainConfig, accounts: ACCOUNTS }).accounts.map((a) => {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8, a.privateKey]), format: "der", type: "pkcs8" })
  return { address: a.address, publicKey: ed25519.getPublicKey(a.privateKey), sign: (m) => new Uint8Array(nodeSign(null, m, key)), next: 0n }
})
const ONE = addressFromNumber(1)
const expiration = BigInt(Math.floor(Date.now() / 1000) + 7200)
const signTransfers = (n) =>
  Array.from({ length: n }, (_, i) => {
    const from = signers[i % ACCOUNTS]
    const raw = {
      sender: from.address,
      sequenceNumber: from.next++,
      payload: { _tag: "EntryFunction", entryFunction: { module: { address: ONE, name: "aptos_account" }, function: "transfer", typeArgs: [], args: [signers[(i + 1) % ACCOUNTS].address, Bcs.encode(Bcs.u64, 1n)] } },
      maxGasAmount: 20_000n,
      gasUnitPrice: 100n,
      expirationTimestampSecs: expiration,
      chainId: 4
    }
    const bytes = Bcs.encode(signedTransactionCodec, { rawTransaction: raw, authenticator: { _tag: "Ed25519", publicKey: from.publicKey, signature: from.sign(signingMessage(raw)) } })
    const tagged = new Uint8Array(bytes.length + 1)
    tagged.set(bytes, 1)
    return { bytes, hash: `0x${toHex(transactionHashOfBytes(tagged))}` }
  })

/** Submits and waits for each; returns their versions. */
const commit = async (txns) => {
  const versions = []
  for (const t of txns) {
    const r = await fetch(`${API}/transactions`, { method: "POST", headers: { "content-type": "application/x.aptos.signed_transaction+bcs" }, body: t.bytes })
    if (r.status !== 202) throw new Error(`submit ${r.status}: ${await r.text()}`)
  }
  for (const t of txns) {
    for (;;) {
      const r = await fetch(`${API}/transactions/wait_by_hash/${t.hash}`)
      const j = await r.json()
      if (r.status === 200 && j.type === "user_transaction") {
        if (!j.success) throw new Error(`${t.hash} failed: ${j.vm_status}`)
        versions.push(j.version)
        break
      }
      await sleep(5)
    }
  }
  return versions
}
const version = async () => (await (await fetch(API)).json()).ledger_version
const found = async (hash) => (await fetch(`${API}/transactions/by_hash/${hash}`)).status === 200
const post = (path, body, type = "application/json") =>
  fetch(`${CONTROLS}${path}`, { method: "POST", headers: { "content-type": type }, body })

const progress = (m) => process.env.CRASH_DEBUG && console.error(m)
const fail = (message, detail) => {
  console.log(JSON.stringify({ ok: false, message, ...detail }))
  if (child !== undefined) child.kill("SIGKILL")
  rmSync(dir, { recursive: true, force: true })
  process.exit(1)
}

progress("script loaded")
try {
  await start()
  progress("started")
  const before = signTransfers(TRANSFERS)
  const beforeVersions = await commit(before)
  progress("before committed")
  const snapshotVersion = await version()
  const dump = new Uint8Array(await (await fetch(`${CONTROLS}/state/dump`)).arrayBuffer())
  const after = signTransfers(TRANSFERS)
  let afterVersion
  let afterVersions = []
  let lastVersion = "0"
  const outcomes = { before: 0, after: 0 }
  for (let run = 0; run < RUNS; run++) {
    // Set up: the "before" history (loaded from its dump), a snapshot there, the "after" history on top.
    const loaded = await post("/state/load", dump, "application/octet-stream")
    if (loaded.status !== 200) fail("the dump does not load", { run, status: loaded.status, body: await loaded.text() })
    const { id } = await (await post("/snapshot", "{}")).json()
    afterVersions = await commit(after)
    afterVersion = await version()
    const kind = run % 2 === 0 ? "revert" : "load"
    const pending = kind === "revert" ? post("/revert", JSON.stringify({ id })) : post("/state/load", dump, "application/octet-stream")
    pending.catch(() => {})
    await sleep(Math.random() * MAX_MS)
    await kill()
    await start()
    const v = await version()
    const afterPresent = await Promise.all(after.map((t) => found(t.hash)))
    // A restarted chain makes a block at start (metadata and block end): versions past the control's
    // end are allowed when they are only such blocks.
    const onlyEmptyBlocksAfter = async (from) => {
      if (BigInt(v) <= BigInt(from)) return BigInt(v) === BigInt(from)
      const list = await (await fetch(`${API}/transactions?start=${BigInt(from) + 1n}&limit=100`)).json()
      return list.every((t) => t.type !== "user_transaction" && t.type !== "genesis_transaction")
    }
    let outcome
    if (afterPresent.every((x) => x) && (await onlyEmptyBlocksAfter(afterVersion))) {
      outcome = "before"
      for (let i = 0; i < after.length; i++) {
        const j = await (await fetch(`${API}/transactions/by_hash/${after[i].hash}`)).json()
        if (j.version !== afterVersions[i]) fail("a transaction of the later history moved", { run, kind, hash: after[i].hash })
      }
    } else if (afterPresent.every((x) => !x) && (await onlyEmptyBlocksAfter(snapshotVersion))) outcome = "after"
    else
      fail("the chain is neither before nor after the control", {
        run,
        kind,
        version: v,
        afterVersion,
        snapshotVersion,
        afterPresent: afterPresent.filter((x) => x).length
      })
    for (let i = 0; i < before.length; i++) {
      const r = await fetch(`${API}/transactions/by_hash/${before[i].hash}`)
      const j = await r.json()
      if (r.status !== 200 || j.version !== beforeVersions[i] || !j.success)
        fail("a transaction before the snapshot is lost or moved", { run, kind, hash: before[i].hash })
    }
    outcomes[outcome]++
    lastVersion = v
    console.log(JSON.stringify({ run, kind, outcome, version: v }))
  }
  // The chain continues.
  const mined = await (await post("/mine", "{}")).json()
  if (BigInt(mined.ledger_version) <= BigInt(lastVersion)) fail("no block after the last restart", { mined, lastVersion })
  console.log(JSON.stringify({ ok: true, runs: RUNS, outcomes, transfersBefore: before.length, transfersAfter: after.length }))
} finally {
  await kill()
  rmSync(dir, { recursive: true, force: true })
}
