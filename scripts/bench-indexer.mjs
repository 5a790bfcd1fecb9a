#!/usr/bin/env node
/**
 * The indexer on the local chain (docs/benchmarks.md, "Indexer"). Starts the built `movenode` (as
 * `npm start` runs it) on fixed ports (run it in a network namespace of its own, or with the ports
 * free) and measures one of:
 *
 *   node scripts/bench-indexer.mjs start [--repeat 5] [--no-indexer]
 *        process start → first faucet-funded account committed AND visible to the indexer
 *        (processor_status of fungible_asset_processor at its version: what the SDK's fundAccount
 *        waits for), a new data directory each time; with --no-indexer the stub answers at once
 *   node scripts/bench-indexer.mjs lag [--rate 100] [--seconds 30]
 *        transfers at a fixed rate; for every other transfer, commit (wait_by_hash answered) → the
 *        GraphQL query for its version answered with its row (the query waits for the index,
 *        bounded): p50 / p99; for the others the same round trip to GET /transactions/by_version
 *        (what a request right after the commit costs anyway)
 *   node scripts/bench-indexer.mjs keepup [--seconds 60] [--accounts 64]
 *        pre-signed transfers pushed as fast as taken; every second a processor_status query (which
 *        waits until the index reaches the ledger version current when it arrived: its duration is
 *        the indexer's lag then); versions committed per second, the status query's p50 / max and its
 *        max per 10 s (the lag must not grow), the catch-up time after the load stops, and RSS
 *   node scripts/bench-indexer.mjs graphql [--transactions 100000] [--seconds 10] [--keep DIR]
 *        builds a chain of N transfers (kept in DIR with --keep, reused when present), then wrk
 *        (-t1 -c16) against getAccountCoinsData and an account-transactions page, and a bare
 *        node:http server in the same run for scale: req/s and p99
 *
 * Prints one JSON line. The generator shares the machine (and its 2 cores) with the node.
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import http from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { aptTransfer, cliArgs, cpuSplit, loadAverage, loadDist, localSigners, memoryKb, requireCommand, sleep, startMovenode, stopMovenode, threadCpu, waitForNode } from "./lib.mjs"

const lib = await loadDist()
const { toHex } = lib
const args = process.argv.slice(2)
const mode = args[0] ?? "start"
const { num: arg, arg: argText, has: flag } = cliArgs(args)
const API = "http://127.0.0.1:8080/v1"
const GRAPHQL = "http://127.0.0.1:8090/v1/graphql"

const startNode = ({ dataDir, fresh = true, accounts, extra = [] }) => {
  const t0 = performance.now()
  const child = startMovenode(
    ["--data-dir", dataDir, ...(fresh ? ["--fresh"] : []), "--quiet", ...(accounts === undefined ? [] : ["--accounts", String(accounts)]), ...extra],
    { nodeArgs: (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "") }
  )
  const stop = () => stopMovenode(child)
  return { child, t0, stop }
}
const rssMb = (pid) => Math.round(memoryKb(pid).VmRSS / 1024)

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 })
/** One retry on a reset: a kept-alive socket the server closed meanwhile (its 5 s keep-alive timeout). */
const request = (method, url, body, headers = {}) =>
  requestOnce(method, url, body, headers).catch((e) => (e.code === "ECONNRESET" ? requestOnce(method, url, body, headers) : Promise.reject(e)))
const requestOnce = (method, url, body, headers = {}) =>
  new Promise((resolve, reject) => {
    const u = new URL(url)
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method, agent, headers: body === undefined ? headers : { ...headers, "content-length": body.length } },
      (res) => {
        const chunks = []
        res.on("data", (c) => chunks.push(c))
        res.on("error", reject)
        res.on("end", () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8") }))
      }
    )
    req.on("error", reject)
    req.end(body)
  })
const graphql = async (query, variables) => {
  const r = await request("POST", GRAPHQL, Buffer.from(JSON.stringify({ query, variables })), { "content-type": "application/json" })
  return JSON.parse(r.text)
}
const indexedVersion = async () =>
  Number((await graphql('{ processor_status(where: {processor: {_eq: "fungible_asset_processor"}}) { last_success_version } }')).data.processor_status[0].last_success_version)
const ledgerVersion = async () => Number(JSON.parse((await request("GET", API)).text).ledger_version)

const accountsOf = (n) => localSigners(lib, n)
/** A signed APT transfer; `hash` without its 0x (the URLs below add it). */
const transfer = (from, to, amount, expiration) => {
  const t = aptTransfer(lib, from, to, amount, expiration)
  return { bytes: t.bytes, hash: t.hash.slice(2) }
}
const submit = (bytes) => request("POST", `${API}/transactions`, bytes, { "content-type": "application/x.aptos.signed_transaction+bcs", accept: "application/x-bcs" })
const waitCommitted = async (hash) => {
  for (;;) {
    const r = await request("GET", `${API}/transactions/wait_by_hash/0x${hash}`)
    const body = JSON.parse(r.text)
    if (r.status === 200 && body.type !== "pending_transaction") return body
    if (r.status !== 200) throw new Error(`wait_by_hash ${r.status}: ${r.text}`)
    await sleep(5)
  }
}
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}
const nowSecs = () => BigInt(Math.floor(Date.now() / 1000))
const round = (x) => Math.round(x * 100) / 100

/** Pushes pre-signed transfers for `seconds`, as fast as the node takes them (64 in flight). */
const pushTransfers = async (accounts, seconds, onTick) => {
  const expiration = nowSecs() + 3600n
  const deadline = performance.now() + seconds * 1000
  let sent = 0
  let i = 0
  const worker = async () => {
    while (performance.now() < deadline) {
      const from = accounts[i++ % accounts.length]
      const t = transfer(from, accounts[(i * 7) % accounts.length].address, 1n, expiration)
      const r = await submit(t.bytes)
      if (r.status === 202) sent++
      else {
        from.next--
        await sleep(2)
      }
    }
  }
  const ticker = onTick === undefined ? undefined : setInterval(onTick, 1000)
  await Promise.all(Array.from({ length: 64 }, worker))
  if (ticker !== undefined) clearInterval(ticker)
  return sent
}

const main = async () => {
  if (mode === "graphql") requireCommand("wrk")
  if (mode === "start") {
    const runs = []
    for (let i = 0; i < arg("repeat", 5); i++) {
      const dataDir = mkdtempSync(join(tmpdir(), "movenode-bench-indexer-"))
      const node = startNode({ dataDir, fresh: false, extra: flag("no-indexer") ? ["--no-indexer"] : [] })
      let hash
      for (;;) {
        try {
          const r = await fetch("http://127.0.0.1:8081/fund", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address: `0x${"cd".repeat(32)}`, amount: 100 }) })
          if (r.status === 200) {
            hash = (await r.json()).txn_hashes[0]
            break
          }
        } catch {}
        await sleep(2)
      }
      const version = Number((await waitCommitted(hash)).version)
      const committedMs = performance.now() - node.t0
      while ((await indexedVersion()) < version) await sleep(1)
      runs.push({ committedMs: Math.round(committedMs), indexedMs: Math.round(performance.now() - node.t0), rssMb: rssMb(node.child.pid) })
      await node.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
    const med = (k) => percentile(runs.map((r) => r[k]), 50)
    console.log(JSON.stringify({ mode, indexer: !flag("no-indexer"), medianCommittedMs: med("committedMs"), medianIndexedMs: med("indexedMs"), medianRssMb: med("rssMb"), runs }))
    return
  }
  const dataDir = argText("keep") ?? mkdtempSync(join(tmpdir(), "movenode-bench-indexer-"))
  const kept = argText("keep") !== undefined && existsSync(join(dataDir, "ledger"))
  const accountCount = arg("accounts", 64)
  const node = startNode({ dataDir, fresh: !kept, accounts: accountCount, extra: flag("no-indexer") ? ["--no-indexer"] : [] })
  try {
    await waitForNode(node.child, API)
    const accounts = accountsOf(accountCount)
    for (const a of accounts) a.next = BigInt(JSON.parse((await request("GET", `${API}/accounts/0x${toHex(a.address)}`)).text).sequence_number ?? 0)
    if (mode === "lag") {
      const rate = arg("rate", 100)
      const seconds = arg("seconds", 30)
      const lags = []
      const rest = []
      const pending = []
      const expiration = nowSecs() + 3600n
      const start = performance.now()
      for (let k = 0; k < rate * seconds; k++) {
        const due = start + (k * 1000) / rate
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        const from = accounts[k % accounts.length]
        const t = transfer(from, accounts[(k + 1) % accounts.length].address, 1n, expiration)
        pending.push(
          (async () => {
            const r = await submit(t.bytes)
            if (r.status !== 202) throw new Error(`submit ${r.status} ${r.text}`)
            const committed = await waitCommitted(t.hash)
            const c = performance.now()
            // Every other transfer: the same round trip to the REST API (GET by version), for scale.
            if (k % 2 === 1 || flag("no-indexer")) {
              const r = await request("GET", `${API}/transactions/by_version/${committed.version}`)
              if (r.status !== 200) throw new Error(`by_version ${r.status}`)
              if (k >= rate * 3) rest.push(performance.now() - c)
              return
            }
            const answer = await graphql("query q($v: bigint) { user_transactions(where: {version: {_eq: $v}}) { version } }", { v: Number(committed.version) })
            if (answer.data.user_transactions.length !== 1) throw new Error(`not indexed: ${JSON.stringify(answer)}`)
            if (k >= rate * 3) lags.push(performance.now() - c)
          })()
        )
      }
      await Promise.all(pending)
      console.log(JSON.stringify({ mode, rate, seconds, measured: lags.length, commitToQueryP50Ms: round(percentile(lags, 50)), p99Ms: round(percentile(lags, 99)), maxMs: round(Math.max(...lags)), restByVersionAfterCommitP50Ms: round(percentile(rest, 50)), restP99Ms: round(percentile(rest, 99)), rssMb: rssMb(node.child.pid) }))
      return
    }
    if (mode === "keepup") {
      const seconds = arg("seconds", 60)
      const v0 = await ledgerVersion()
      const samples = []
      const t0 = performance.now()
      const cpu0 = threadCpu(node.child.pid)
      // A status query waits until the index reaches the ledger version current when it arrived:
      // its duration is the indexer's lag in milliseconds at that moment.
      const sent = await pushTransfers(accounts, seconds, async () => {
        const l = await ledgerVersion()
        const q0 = performance.now()
        const x = flag("no-indexer") ? 0 : await indexedVersion()
        samples.push({ t: Math.round((performance.now() - t0) / 1000), ledger: l, indexed: x, waitMs: round(performance.now() - q0) })
      })
      const elapsed = (performance.now() - t0) / 1000
      const v1 = await ledgerVersion()
      const stopAt = performance.now()
      if (!flag("no-indexer")) while ((await indexedVersion()) < v1) await sleep(5)
      const catchUpMs = performance.now() - stopAt
      // CPU of the node's threads from the start of the load until the index caught up, per
      // committed version (transfers and their blocks' metadata): main = the chain's event loop,
      // busiestOther = the indexer's worker thread (with the indexer on).
      const split = cpuSplit(node.child.pid, cpu0, threadCpu(node.child.pid))
      const perVersionMs = Object.fromEntries(Object.entries(split).map(([k, secs]) => [k, round((secs * 1000) / Math.max(1, v1 - v0))]))
      const lagVersions = samples.map((s) => s.ledger - s.indexed)
      const waits = samples.map((s) => s.waitMs)
      // The lag over the minute, 10 s at a time (the largest status-query wait in each): it must not grow.
      const windows = []
      for (const s of samples) windows[Math.floor(s.t / 10)] = Math.max(windows[Math.floor(s.t / 10)] ?? 0, s.waitMs)
      console.log(JSON.stringify({ mode, indexer: !flag("no-indexer"), load: loadAverage(), seconds: round(elapsed), sent, versions: v1 - v0, committedPerSec: Math.round((v1 - v0) / elapsed), cpuSecs: split, cpuMsPerVersion: perVersionMs, statusQueryP50Ms: percentile(waits, 50), statusQueryMaxMs: Math.max(...waits), statusQueryMaxMsPer10s: Array.from(windows, (w) => w ?? null), indexedBehindLedgerMaxVersions: Math.max(...lagVersions), catchUpAfterStopMs: Math.round(catchUpMs), rssMb: rssMb(node.child.pid), samples: samples.filter((_, i) => i % 10 === 0) }))
      return
    }
    if (mode === "graphql") {
      const target = arg("transactions", 100000)
      let have = await ledgerVersion()
      const building = performance.now()
      while (have < target) {
        await pushTransfers(accounts, 10)
        have = await ledgerVersion()
      }
      while ((await indexedVersion()) < have) await sleep(50)
      const buildSecs = Math.round((performance.now() - building) / 1000)
      const owner = `0x${toHex(accounts[0].address)}`
      const bodies = {
        getAccountCoinsData: { query: "query getAccountCoinsData($where_condition: current_fungible_asset_balances_bool_exp!, $offset: Int, $limit: Int, $order_by: [current_fungible_asset_balances_order_by!]) { current_fungible_asset_balances(where: $where_condition, offset: $offset, limit: $limit, order_by: $order_by) { amount asset_type is_frozen is_primary last_transaction_timestamp last_transaction_version owner_address storage_id token_standard metadata { token_standard symbol supply_aggregator_table_key_v1 supply_aggregator_table_handle_v1 project_uri name last_transaction_version last_transaction_timestamp icon_uri decimals creator_address asset_type } } }", variables: { where_condition: { owner_address: { _eq: owner } } } },
        accountTransactionsPage: { query: "query q($a: String, $o: Int) { account_transactions(where: {account_address: {_eq: $a}}, order_by: {transaction_version: desc}, limit: 25, offset: $o) { transaction_version user_transaction { sender entry_function_id_str timestamp gas_unit_price } } }", variables: { a: owner, o: 100 } }
      }
      const secs = arg("seconds", 10)
      const wrk = (url, body) => {
        const script = join(tmpdir(), `bench-indexer-${process.pid}.lua`)
        writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify(body))}\nwrk.headers["Content-Type"] = "application/json"\n`)
        const out = execFileSync("wrk", ["-t1", "-c16", `-d${secs}s`, "--latency", "-s", script, url], { encoding: "utf8" })
        rmSync(script)
        const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1])
        const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out)
        const p99Ms = Number(p99[1]) * (p99[2] === "us" ? 0.001 : p99[2] === "s" ? 1000 : 1)
        return { reqPerSec: Math.round(rps), p99Ms: round(p99Ms) }
      }
      const check = {}
      for (const [k, b] of Object.entries(bodies)) {
        const a = await graphql(b.query, b.variables)
        if (a.errors !== undefined) throw new Error(JSON.stringify(a.errors))
        check[k] = JSON.stringify(a).length
      }
      // The bare server in a process of its own (wrk runs synchronously here, blocking this one).
      const bare = spawn(process.execPath, ["-e", "require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.end('{\"data\":{}}')) }).listen(18099, '127.0.0.1')"], { stdio: "ignore" })
      await sleep(500)
      const results = { bare: wrk("http://127.0.0.1:18099/", {}) }
      bare.kill()
      for (const [k, b] of Object.entries(bodies)) results[k] = wrk(GRAPHQL, b)
      console.log(JSON.stringify({ mode, transactions: have, buildSecs, answerBytes: check, wrk: "-t1 -c16", seconds: secs, ...results, rssMb: rssMb(node.child.pid) }))
      return
    }
    throw new Error(`unknown mode ${mode}`)
  } finally {
    await node.stop()
    if (argText("keep") === undefined) rmSync(dataDir, { recursive: true, force: true })
  }
}
await main()
agent.destroy()
