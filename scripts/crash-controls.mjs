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
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { aptTransfer, cliArgs, freePort, loadDist, localSigners, root, sleep } from "./lib.mjs"

const lib = await loadDist()
const { toHex } = lib

const { num: arg } = cliArgs()
const RUNS = arg("runs", 20)
const MAX_MS = arg("max-ms", 300)
const TRANSFERS = arg("transfers", 200)
const PORT = arg("port", 0) || (await freePort())
const API = `http://127.0.0.1:${PORT}/v1`
const CONTROLS = `http://127.0.0.1:${PORT}/__movenode/v1`
const ACCOUNTS = 8

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

const signers = localSigners(lib, ACCOUNTS)
const expiration = BigInt(Math.floor(Date.now() / 1000) + 7200)
const signTransfers = (n) =>
  Array.from({ length: n }, (_, i) => aptTransfer(lib, signers[i % ACCOUNTS], signers[(i + 1) % ACCOUNTS].address, 1n, expiration))

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
