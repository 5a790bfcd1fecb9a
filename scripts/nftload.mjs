#!/usr/bin/env node
/**
 * Digital-asset load for the indexer (docs/benchmarks.md, "Indexer: digital assets"). Starts
 * `movenode` (the built bundle, as `npm start` runs it, indexer on) on free ports with N pre-funded
 * accounts (keys derived from the local chain's seed, as scripts/loadgen.mjs does) and measures:
 *
 *   node scripts/nftload.mjs index [--rate 500] [--seconds 30] [--warmup 5]
 *        NFT mints (0x4::aptos_token::mint) and transfers (0x1::object::transfer) at a fixed rate,
 *        each sender alternating: mint a token, then give it to the next sender. Reports the
 *        transactions committed per second, the ledger versions the indexer processed per second
 *        (`processor_status` of token_v2_processor) over the run, and how far it trailed the ledger
 *        at the end and when it caught up. One transaction in flight per sender: one that falls due
 *        while every sender waits is sent when one is free (`late`, `lateMaxMs`, `unsent`).
 *   node scripts/nftload.mjs owned [--tokens 10000] [--requests 2000] [--concurrency 8]
 *        `--minters` accounts mint N tokens in their collections and give each to one owner (a mint and
 *        a transfer per token),
 *        then the SDK's getOwnedDigitalAssets document for that owner is posted to /v1/graphql
 *        `--requests` times by one client, then by `--concurrency` clients: p50 / p99 / max, beside a bare node:http server
 *        answering the same JSON text in the same run (the machine's floor).
 *
 * The generator runs on the same machine as the node (the figures say so).
 */
import http from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cliArgs, cpuSecs, loadAverage, loadDist, localSigners, openLoop, root, sleep, startMovenode, stopMovenode, waitForNode } from "./lib.mjs"

const lib = await loadDist()
const { Bcs, BcsWriter, signingMessage, signedTransactionCodec, addressFromNumber, toHex } = lib

const args = process.argv.slice(2)
const mode = args[0] ?? "index"
const { num: arg } = cliArgs(args)
const PORTS = { api: 38080, faucet: 38081, ready: 38070, graphql: 38090 }
const API = `http://127.0.0.1:${PORTS.api}/v1`
const GRAPHQL = `http://127.0.0.1:${PORTS.graphql}/v1/graphql`

const startNode = (accounts, { dataDir, fresh = true } = {}) => {
  const own = dataDir === undefined
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "movenode-nftload-"))
  const child = startMovenode([
    "--data-dir", dir, ...(fresh ? ["--fresh"] : []), "--quiet", "--accounts", String(accounts),
    "--listen", `127.0.0.1:${PORTS.api}`,
    "--faucet-listen", `127.0.0.1:${PORTS.faucet}`,
    "--ready-listen", `127.0.0.1:${PORTS.ready}`,
    "--graphql-listen", `127.0.0.1:${PORTS.graphql}`,
    ...(process.env.NFTLOAD_MOVENODE_ARGS ?? "").split(" ").filter((a) => a !== "")
  ])
  const stop = async () => {
    await stopMovenode(child)
    if (own && !keep) rmSync(dir, { recursive: true, force: true })
  }
  let keep = false
  return { child, stop, dir, keepData: () => (keep = true) }
}

const accountsOf = (n) => localSigners(lib, n).map((signer) => Object.assign(signer, { tokens: [] }))

const bcs = (write) => {
  const w = new BcsWriter(64)
  write(w)
  return w.toBytes()
}
const str = (s) => bcs((w) => w.string(s))
const u64 = (n) => bcs((w) => w.u64(BigInt(n)))
const bool = (b) => Uint8Array.of(b ? 1 : 0)
const empty = Uint8Array.of(0)
const FOUR = addressFromNumber(4)
const ONE = addressFromNumber(1)
const TOKEN_TAG = { _tag: "struct", struct: { address: FOUR, module: "token", name: "Token", typeArgs: [] } }

const call = (from, module, fn, callArgs, typeArgs = [], expiration) => {
  const raw = {
    sender: from.address,
    sequenceNumber: from.next++,
    payload: { _tag: "EntryFunction", entryFunction: { module, function: fn, typeArgs, args: callArgs } },
    maxGasAmount: 200_000n,
    gasUnitPrice: 100n,
    expirationTimestampSecs: expiration ?? BigInt(Math.floor(Date.now() / 1000) + 120),
    chainId: 4
  }
  const signed = { rawTransaction: raw, authenticator: { _tag: "Ed25519", publicKey: from.publicKey, signature: from.sign(signingMessage(raw)) } }
  const bytes = Bcs.encode(signedTransactionCodec, signed)
  const tagged = new Uint8Array(bytes.length + 1)
  tagged.set(bytes, 1)
  return { bytes, hash: toHex(lib.transactionHashOfBytes(tagged)) }
}
const createCollection = (from, name) =>
  call(from, { address: FOUR, name: "aptos_token" }, "create_collection", [
    str("load"), u64(1_000_000_000), str(name), str("https://c"),
    bool(true), bool(true), bool(true), bool(true), bool(true), bool(true), bool(true), bool(true), bool(true),
    u64(0), u64(100)
  ])
const mint = (from, collection, i) =>
  call(from, { address: FOUR, name: "aptos_token" }, "mint", [str(collection), str("token"), str(`t${i}`), str(`https://t/${i}`), empty, empty, empty])
const give = (from, token, to) => call(from, { address: ONE, name: "object" }, "transfer", [token, to], [TOKEN_TAG])

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 })
const request = (method, port, path, body, headers = {}) =>
  new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method, agent, headers: body === undefined ? headers : { ...headers, "content-length": body.length } }, (res) => {
      const chunks = []
      res.on("data", (c) => chunks.push(c))
      res.on("error", reject)
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }))
    })
    req.on("error", reject)
    req.end(body)
  })
const submit = (bytes) => request("POST", PORTS.api, "/v1/transactions", bytes, { "content-type": "application/x.aptos.signed_transaction+bcs" })
const waitCommitted = async (hash, deadlineMs = 60_000) => {
  const until = performance.now() + deadlineMs
  for (;;) {
    if (performance.now() > until) throw new Error(`0x${hash} not committed within ${deadlineMs} ms`)
    const t0 = performance.now()
    const r = await request("GET", PORTS.api, `/v1/transactions/wait_by_hash/0x${hash}`)
    const body = JSON.parse(r.body.toString("utf8"))
    if (r.status === 200 && body.type !== "pending_transaction") return body
    if (r.status !== 200) throw new Error(`wait_by_hash ${r.status}: ${r.body}`)
    if (performance.now() - t0 < 100) await sleep(10)
  }
}
const run = async (t) => {
  const r = await submit(t.bytes)
  if (r.status !== 202) throw new Error(`submit ${r.status}: ${r.body}`)
  const done = await waitCommitted(t.hash)
  if (!done.success) throw new Error(`failed: ${done.vm_status}`)
  return done
}
const mintedToken = (done) => done.events.find((e) => e.type === "0x4::collection::Mint").data.token

const graphql = async (query, variables) => {
  const r = await request("POST", PORTS.graphql, "/v1/graphql", Buffer.from(JSON.stringify({ query, variables })), { "content-type": "application/json" })
  return JSON.parse(r.body.toString("utf8"))
}
const indexedVersion = async () => {
  const r = await graphql(`query { processor_status(where: {processor: {_eq: "token_v2_processor"}}) { last_success_version } }`)
  return BigInt(r.data?.processor_status?.[0]?.last_success_version ?? -1)
}
const ledgerVersion = async () => BigInt((await (await fetch(API)).json()).ledger_version)
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}
const addressHex = (a) => `0x${toHex(a)}`
const hexBytes = (s) => Uint8Array.from(Buffer.from(s.slice(2).padStart(64, "0"), "hex"))

/**
 * The indexer alone: the chain just built is reopened with its index removed, so the indexer
 * processes every version from genesis as fast as it can (no load on the node meanwhile).
 */
const reindex = async (node, accounts) => {
  node.keepData()
  await node.stop()
  rmSync(join(node.dir, "indexer"), { recursive: true, force: true })
  const again = startNode(accounts, { dataDir: node.dir, fresh: false })
  await waitForNode(again.child, API, 20)
  const target = await ledgerVersion()
  const t0 = performance.now()
  const cpu0 = cpuSecs(again.child.pid)
  let indexed = -1n
  while ((indexed = await indexedVersion()) < target) await sleep(100)
  const secs = (performance.now() - t0) / 1000
  const cpu = cpuSecs(again.child.pid) - cpu0
  await again.stop()
  rmSync(node.dir, { recursive: true, force: true })
  return { versions: Number(target), secs: +secs.toFixed(1), versionsPerSec: Math.round(Number(target) / secs), nodeCpuSecs: +cpu.toFixed(1), load: loadAverage() }
}


const main = async () => {
  if (mode === "index") {
    const rate = arg("rate", 500)
    const seconds = arg("seconds", 30)
    const warmup = arg("warmup", 5)
    // One transaction in flight per sender: enough senders that a commit latency of ~0.5 s still
    // lets the offered rate through.
    const senders = accountsOf(Math.max(8, Math.ceil(rate / 2)))
    const node = startNode(senders.length)
    await waitForNode(node.child, API, 20)
    // Setup (not measured): one collection per sender.
    await Promise.all(senders.map((s, i) => run(createCollection(s, `c${i}`))))
    console.error(`setup: ${senders.length} collections created`)
    const slots = senders.map((s, i) => ({ s, i, minted: 0 }))
    const start = performance.now()
    const v0 = await ledgerVersion()
    let committed = 0, failures = 0
    let measuredFrom, measuredCommitted = 0
    const errors = {}
    const samples = []
    const sampler = setInterval(async () => {
      samples.push({ t: (performance.now() - start) / 1000, ledger: await ledgerVersion(), indexed: await indexedVersion() })
    }, 1000)
    // An operation falls due every 1/rate s whatever the node does (`openLoop`): one due while every
    // sender still waits for its last is sent when one is free, oldest first (`late`, `lateMaxMs`;
    // `unsent` if the run ended first), so a slow spell shows as lateness instead of silently lowering
    // the offered rate.
    const paced = await openLoop({
      rate,
      seconds: warmup + seconds,
      senders: slots,
      start,
      tick: async (elapsed) => {
        if (measuredFrom === undefined && elapsed >= warmup * 1000)
          measuredFrom = { t: performance.now(), ledger: await ledgerVersion(), indexed: await indexedVersion() }
      },
      send: async (slot) => {
        const { s, i } = slot
        try {
          const last = s.tokens.pop()
          const next = senders[(i + 1) % senders.length]
          const done = await run(last === undefined ? mint(s, `c${i}`, slot.minted++) : give(s, hexBytes(last), next.address))
          if (last === undefined) s.tokens.push(mintedToken(done))
          committed++
          if (performance.now() - start >= warmup * 1000) measuredCommitted++
        } catch (e) {
          failures++
          const why = String(e?.message ?? e).slice(0, 80)
          errors[why] = (errors[why] ?? 0) + 1
          try {
            const a = await (await fetch(`${API}/accounts/${addressHex(slot.s.address)}`)).json()
            slot.s.next = BigInt(a.sequence_number)
          } catch {}
        }
      }
    })
    const end = { t: performance.now(), ledger: await ledgerVersion(), indexed: await indexedVersion() }
    // Until the indexer has caught up with the ledger's version at the end of the load.
    let caughtUp = end
    while (caughtUp.indexed < end.ledger) {
      await sleep(100)
      caughtUp = { t: performance.now(), ledger: end.ledger, indexed: await indexedVersion() }
    }
    clearInterval(sampler)
    const secs = (end.t - measuredFrom.t) / 1000
    const catchSecs = (caughtUp.t - measuredFrom.t) / 1000
    console.log(JSON.stringify({
      mode, rate, seconds, warmupSecs: warmup, load: loadAverage(), senders: senders.length, sent: paced.sent, late: paced.late, lateMaxMs: paced.lateMaxMs,
      unsent: paced.unsent, committed, failures, errors,
      committedPerSec: Math.round(measuredCommitted / secs),
      ledgerVersionsPerSec: Math.round(Number(end.ledger - measuredFrom.ledger) / secs),
      indexedVersionsPerSecDuringLoad: Math.round(Number(end.indexed - measuredFrom.indexed) / secs),
      indexedVersionsPerSecToCatchUp: Math.round(Number(end.ledger - measuredFrom.indexed) / catchSecs),
      lagAtEndVersions: Number(end.ledger - end.indexed),
      catchUpSecsAfterLoad: +((caughtUp.t - end.t) / 1000).toFixed(1),
      versionsFromStart: Number(end.ledger - v0),
      samples: samples.filter((_, k) => k % 5 === 0).map((x) => ({ t: Math.round(x.t), lag: Number(x.ledger - x.indexed) })),
      reindex: await reindex(node, senders.length)
    }))
    return
  }
  if (mode === "owned") {
    const tokens = arg("tokens", 10_000)
    const requests = arg("requests", 2000)
    const concurrency = arg("concurrency", 8)
    const minters = accountsOf(arg("minters", 64) + 1)
    const owner = minters.pop()
    const node = startNode(minters.length + 1)
    await waitForNode(node.child, API, 20)
    await Promise.all(minters.map((s, i) => run(createCollection(s, `c${i}`))))
    // Each minter mints and gives to the owner until `tokens` are given.
    let given = 0
    const t0 = performance.now()
    await Promise.all(minters.map(async (s, i) => {
      let k = 0
      while (given < tokens) {
        given++
        const done = await run(mint(s, `c${i}`, k++))
        await run(give(s, hexBytes(mintedToken(done)), owner.address))
      }
    }))
    const setupSecs = (performance.now() - t0) / 1000
    const target = await ledgerVersion()
    while ((await indexedVersion()) < target) await sleep(200)
    const ownerLong = `0x${toHex(owner.address)}`
    // The SDK's document (getOwnedDigitalAssets → getCurrentTokenOwnership), as the SDK sends it.
    // (the package's exports do not list the file: imported by path)
    const { GetCurrentTokenOwnership: query } = await import(join(root, "node_modules", "@aptos-labs", "ts-sdk", "dist", "types", "generated", "queries.js"))
    const variables = { where_condition: { owner_address: { _eq: ownerLong }, amount: { _gt: 0 } }, offset: 0, limit: 100 }
    const body = Buffer.from(JSON.stringify({ query, variables }))
    const count = await graphql(`query { current_token_ownerships_v2_aggregate(where: {owner_address: {_eq: "${ownerLong}"}, amount: {_gt: 0}}) { aggregate { count } } }`)
    const first = await request("POST", PORTS.graphql, "/v1/graphql", body, { "content-type": "application/json" })
    const answer = first.body
    const rows = JSON.parse(answer.toString("utf8")).data?.current_token_ownerships_v2?.length
    const measure = async (port, clients) => {
      const lat = []
      let next = 0
      await Promise.all(Array.from({ length: clients }, async () => {
        while (next++ < requests) {
          const a = performance.now()
          const r = await request("POST", port, "/v1/graphql", body, { "content-type": "application/json" })
          if (r.status !== 200) throw new Error(`graphql ${r.status}`)
          lat.push(performance.now() - a)
        }
      }))
      return { p50Ms: +percentile(lat, 50).toFixed(2), p99Ms: +percentile(lat, 99).toFixed(2), maxMs: +Math.max(...lat).toFixed(2), perSec: Math.round(requests / (lat.reduce((x, y) => x + y, 0) / 1000 / clients)) }
    }
    // The floor: a bare node:http server answering the same bytes, measured the same way.
    const bare = http.createServer((req, res) => { req.resume(); req.on("end", () => { res.writeHead(200, { "content-type": "application/json" }); res.end(answer) }) })
    await new Promise((r) => bare.listen(0, "127.0.0.1", r))
    const serial = { movenode: await measure(PORTS.graphql, 1), bareNodeHttp: await measure(bare.address().port, 1) }
    const parallel = { movenode: await measure(PORTS.graphql, concurrency), bareNodeHttp: await measure(bare.address().port, concurrency) }
    bare.close()
    console.log(JSON.stringify({ mode, tokens, held: count.data?.current_token_ownerships_v2_aggregate?.aggregate?.count, rowsPerAnswer: rows, answerBytes: answer.length, setupSecs: Math.round(setupSecs), requests, load: loadAverage(), concurrency1: serial, [`concurrency${concurrency}`]: parallel }))
    await node.stop()
  }
}

await main()
