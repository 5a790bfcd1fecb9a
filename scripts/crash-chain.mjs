#!/usr/bin/env node
/**
 * Kill -9 during block production, again and again (issue 14, "How it will be judged"): starts the
 * built `movenode` local chain on a data directory, keeps transfers flowing from its pre-funded
 * accounts (each submitted, then waited for with wait_by_hash; every transaction the API reported
 * committed is recorded with its version), SIGKILLs the process at a random moment, restarts it on
 * the same directory and checks:
 *
 *   - no committed transaction is lost: each recorded one is there, at the same version, committed;
 *   - none is half-applied: the newest block is whole (its metadata first, its transactions
 *     contiguous up to the ledger version, a block end unless it ended an epoch), and every sender's
 *     on-chain sequence number is exactly its number of committed transactions;
 *   - the chain continues: the next run's transfers commit after the last block of the previous one.
 *
 * Each kill is classified by what the driver had in flight: a transfer accepted (202) and not yet
 * answered committed means a block was due or being produced (instant mining makes it as soon as
 * the transfer is waited for). After the restart each of those is either committed (the block had
 * reached the disk; only the answer was lost: it is then checked like any committed one) or gone
 * (killed before the block committed; the mempool is not kept), never anything else.
 *
 *   node scripts/crash-chain.mjs [--runs 100] [--data-dir DIR] [--min-ms 300] [--max-ms 1500] [--no-fsync]
 *
 * `--no-fsync` runs the chain so (blocks never flushed by it: a killed process still loses nothing).
 *
 * Prints one JSON line per run and a summary line; exits 1 on the first inconsistency.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { aptTransfer, cliArgs, failRun as fail, fetchJson as json, loadDist, localSigners, sleep, spawnMovenode } from "./lib.mjs"

const lib = await loadDist()
const { addressFromNumber, toHex } = lib

const { arg, num, has } = cliArgs()
const RUNS = num("runs", 100)
const MIN_MS = num("min-ms", 300)
const MAX_MS = num("max-ms", 1500)
const ACCOUNTS = 4
const keepDir = arg("data-dir", undefined)
const dataDir = keepDir ?? mkdtempSync(join(tmpdir(), "movenode-crash-"))
const accounts = localSigners(lib, ACCOUNTS)

/** Starts the chain (port 0 everywhere it serves), resolves with its API URL once it answers. */
const start = (fresh) =>
  spawnMovenode(
    ["--data-dir", dataDir, ...(fresh ? ["--fresh"] : []), ...(has("no-fsync") ? ["--no-fsync"] : []),
      "--quiet", "--accounts", String(ACCOUNTS),
      "--listen", "127.0.0.1:0", "--faucet-listen", "off", "--ready-listen", "off", "--graphql-listen", "off"],
    { env: { ...process.env, MOVENODE_NO_REEXEC: "1" } }
  )


const transfer = (account, sequenceNumber) =>
  aptTransfer(lib, account, addressFromNumber(0xb0b), 1n, BigInt(Math.floor(Date.now() / 1000) + 120), { sequenceNumber })

const sequenceOf = async (api, a) => BigInt((await json(`${api}/accounts/0x${toHex(a.address)}`)).body.sequence_number)

/**
 * Submits and waits, one transfer at a time per account, recording what the API says committed;
 * `inFlight` holds each account's unanswered transfer ({hash, sender, accepted}).
 */
const drive = (api, committed, stop, inFlight = new Map()) =>
  Promise.all(
    accounts.map(async (a) => {
      let seq
      try {
        seq = await sequenceOf(api, a)
      } catch {
        return // killed before the first answer
      }
      while (!stop.done) {
        const t = transfer(a, seq)
        const flight = { hash: t.hash, sender: toHex(a.address), accepted: false }
        inFlight.set(a, flight)
        try {
          const r = await fetch(`${api}/transactions`, { method: "POST", headers: { "content-type": "application/x.aptos.signed_transaction+bcs" }, body: t.bytes })
          await r.arrayBuffer()
          if (r.status !== 202) { inFlight.delete(a); seq = await sequenceOf(api, a); continue }
          flight.accepted = true
          for (;;) {
            const w = await json(`${api}/transactions/wait_by_hash/${t.hash}`)
            if (w.status === 200 && w.body.type === "user_transaction") {
              inFlight.delete(a)
              committed.push({ hash: t.hash, version: w.body.version, sender: toHex(a.address) })
              seq++
              break
            }
            if (w.status !== 200) { inFlight.delete(a); seq = await sequenceOf(api, a); break }
          }
        } catch {
          return // the process was killed
        }
      }
    })
  )

/** The checks after a restart (see the header). */
const verify = async (api, committed) => {
  const info = (await json(api)).body
  const head = BigInt(info.ledger_version)
  for (const c of committed) {
    const t = await json(`${api}/transactions/by_hash/${c.hash}`)
    if (t.status !== 200 || t.body.type !== "user_transaction" || t.body.version !== c.version)
      fail(`lost: ${c.hash} (reported committed at ${c.version}) now ${t.status} ${JSON.stringify(t.body).slice(0, 300)}`)
  }
  const block = (await json(`${api}/blocks/by_height/${info.block_height}?with_transactions=true`)).body
  if (BigInt(block.last_version) !== head) fail(`the newest block ends at ${block.last_version}, the ledger at ${head}`)
  const kinds = block.transactions.map((t) => t.type)
  if (kinds[0] !== "block_metadata_transaction") fail(`the newest block does not start with its metadata: ${kinds}`)
  const versions = block.transactions.map((t) => BigInt(t.version))
  versions.forEach((v, i) => {
    if (v !== BigInt(block.first_version) + BigInt(i)) fail(`the newest block's versions are not contiguous: ${versions}`)
  })
  const last = kinds[kinds.length - 1]
  if (last !== "block_epilogue_transaction" && last !== "state_checkpoint_transaction" && kinds.length !== 1)
    fail(`the newest block has no block end: ${kinds}`)
  for (const a of accounts) {
    const seq = await sequenceOf(api, a)
    const count = committedCountOf(committed, toHex(a.address))
    // Every committed transfer is in the sequence number; any beyond those recorded were committed
    // without their answer reaching the driver (killed while waiting), and must be in the ledger.
    if (seq < count) fail(`${toHex(a.address)}: sequence number ${seq} below its ${count} reported transactions`)
    if (seq > 0n) {
      const txns = (await json(`${api}/accounts/0x${toHex(a.address)}/transactions?start=${seq - 1n}&limit=2`)).body
      if (!Array.isArray(txns) || txns.length !== 1 || BigInt(txns[0].sequence_number) !== seq - 1n)
        fail(`${toHex(a.address)}: sequence number ${seq} but the ledger's last transaction of it is ${JSON.stringify(txns).slice(0, 200)}`)
    }
  }
  return { head, blockHeight: BigInt(info.block_height) }
}

const committedCountOf = (committed, sender) => BigInt(committed.filter((c) => c.sender === sender).length)

/**
 * After a restart: what became of the transfers unanswered at the kill. Committed ones join
 * `committed` (later restarts must keep them too); a pending one would mean the pool survived.
 */
const settle = async (api, unanswered, committed) => {
  const outcome = { committed: 0, gone: 0, acceptedCommitted: 0, acceptedGone: 0 }
  for (const f of unanswered) {
    const t = await json(`${api}/transactions/by_hash/${f.hash}`)
    if (t.status === 200 && t.body.type === "user_transaction") {
      if (!t.body.success) fail(`${f.hash}: committed after the restart but failed: ${t.body.vm_status}`)
      // Its answer may have been read after the kill (it was already on the socket).
      if (!committed.some((c) => c.hash === f.hash)) committed.push({ hash: f.hash, version: t.body.version, sender: f.sender })
      outcome.committed++
      if (f.accepted) outcome.acceptedCommitted++
    } else if (t.status === 404) {
      outcome.gone++
      if (f.accepted) outcome.acceptedGone++
    } else fail(`${f.hash}: unanswered at the kill, now ${t.status} ${JSON.stringify(t.body).slice(0, 300)}`)
  }
  return outcome
}

/**
 * Kills by what was in flight: no transfer accepted (only submissions unanswered: the server had
 * not answered them yet); accepted ones all committed, all gone, or some of each.
 */
const kills = { total: 0, noneAccepted: 0, blockInFlight: 0, committedBeforeKill: 0, killedBeforeCommit: 0, mixed: 0 }
const tally = (outcome) => {
  kills.total++
  if (outcome.acceptedCommitted + outcome.acceptedGone === 0) kills.noneAccepted++
  else {
    kills.blockInFlight++
    if (outcome.acceptedGone === 0) kills.committedBeforeKill++
    else if (outcome.acceptedCommitted === 0) kills.killedBeforeCommit++
    else kills.mixed++
  }
}

const committed = []
let previous
let unanswered = []
let last
for (let run = 0; run < RUNS; run++) {
  const node = await start(run === 0)
  if (run > 0) {
    // Every transfer unanswered at the kill was submitted by the time of the kill: it is committed
    // (and then checked by verify like the rest) or gone.
    const outcome = await settle(node.api, unanswered, committed)
    tally(outcome)
    previous = await verify(node.api, committed)
    console.log(JSON.stringify({ ...last, ...outcome, verifiedHead: previous.head.toString() }))
  }
  const stop = { done: false }
  const before = committed.length
  const inFlight = new Map()
  const driving = drive(node.api, committed, stop, inFlight)
  await sleep(MIN_MS + Math.floor(Math.random() * (MAX_MS - MIN_MS)))
  node.kill("SIGKILL")
  // What was unanswered at the moment of the kill (answers arriving later are cut off by the kill).
  unanswered = [...inFlight.values()].map((f) => ({ ...f }))
  stop.done = true
  await driving
  await new Promise((r) => (node.exitCode !== null || node.signalCode !== null ? r() : node.once("exit", r)))
  last = { run, committedThisRun: committed.length - before, committedTotal: committed.length, unansweredAtKill: unanswered.length, acceptedAtKill: unanswered.filter((f) => f.accepted).length }
}
// The last check, after the last kill, and the chain still commits.
const node = await start(false)
const lastOutcome = await settle(node.api, unanswered, committed)
tally(lastOutcome)
const final = await verify(node.api, committed)
console.log(JSON.stringify({ ...last, ...lastOutcome, verifiedHead: final.head.toString() }))
const stop = { done: false }
const more = []
const driving = drive(node.api, more, stop)
await sleep(1000)
stop.done = true
await driving
node.kill("SIGTERM")
if (more.length === 0) fail("no transaction committed after the last restart")
if (BigInt(more[0].version) <= final.head) fail(`a transaction committed after the restart at ${more[0].version}, not after ${final.head}`)
console.log(JSON.stringify({ ok: true, runs: RUNS, committedAndVerified: committed.length, committedAfterLastRestart: more.length, head: final.head.toString(), kills }))
if (keepDir === undefined) rmSync(dataDir, { recursive: true, force: true })
