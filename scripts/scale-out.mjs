#!/usr/bin/env node
/**
 * The read-replica harness (issue 24, docs/scale-out.md): a leader (the local chain), two followers
 * (`movenode follow`) and HAProxy in front of the followers, all on loopback, then one of:
 *
 *   node scripts/scale-out.mjs lag [--rate 100] [--seconds 30]
 *        transfers at a fixed rate on the leader; each follower's apply lag per block (block applied
 *        there − the block's timestamp on the leader) p50/p99, and the followers' CPU per applied
 *        transfer
 *   node scripts/scale-out.mjs identical
 *        the same requests at one pinned version to the leader and both followers: byte-identical?
 *   node scripts/scale-out.mjs failover [--seconds 20]
 *        readers through HAProxy (cookie stickiness on) while transfers run; follower 1 is killed
 *        with SIGKILL, then restarted: how long HAProxy kept sending it requests, the statuses
 *        clients saw, whether any client saw its ledger version go backwards, the catch-up
 *   node scripts/scale-out.mjs catchup [--versions 100000] [--leader-dir DIR]
 *        the leader made to hold that many versions, then a new follower started: versions/s
 *   node scripts/scale-out.mjs reads [--seconds 10]
 *        wrk against one follower directly and through HAProxy: requests/s and the follower's CPU
 *        per request
 *   node scripts/scale-out.mjs ryw [--count 200]
 *        read-your-writes through HAProxy: a transfer committed on the leader, then the sender's
 *        account read through the balancer plainly (stale?) and with the version header (docs)
 *   node scripts/scale-out.mjs workers [--seconds 10]
 *        reads through `movenode run --api-workers N` (N = 0, 1, 2) with wrk: one process against N
 *   node scripts/scale-out.mjs apply [--versions 20000] [--leader-dir DIR]
 *        a follower's own CPU per version (fetch + decode, checks, commit) over a leader's blocks, in
 *        this process without HTTP serving (the catch-up's cost, load-independent)
 *   node scripts/scale-out.mjs smoke
 *        a short run of everything (what test/follow/harness.test.ts runs): exits 1 on a failure
 *
 * Prints one JSON object per mode. Every process is a child of this script, stopped at the end; data
 * directories are temporary. Ports are free ones picked at start. The machine may be shared: the
 * figures carry the load average (`uptime`) measured with them.
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import http from "node:http"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { aptTransfer, cliArgs, cpuSecs, cpuSecsOfStat, freePort, loadDist, localSigners, requireCommand, root, sleep } from "./lib.mjs"

const lib = await loadDist()
const { addressFromNumber, toHex } = lib
const BIN = join(root, "dist", "bin", "movenode.js")

const args = process.argv.slice(2)
const mode = args[0] ?? "smoke"
const { num: arg, arg: stringArg } = cliArgs(args)
const load = () => loadavg().map((x) => Math.round(x * 100) / 100)

// ---- processes ------------------------------------------------------------------------------------

const children = new Set()
const dirs = new Set()
const tempDir = (name) => {
  const d = mkdtempSync(join(tmpdir(), `movenode-scaleout-${name}-`))
  dirs.add(d)
  return d
}

const start = (name, command, argv) => {
  const child = spawn(command, argv, { stdio: ["ignore", "ignore", "pipe"] })
  let stderr = ""
  child.stderr.on("data", (c) => {
    stderr = (stderr + c.toString()).slice(-4000)
  })
  const p = { name, child, stderr: () => stderr }
  children.add(p)
  child.once("exit", () => children.delete(p))
  return p
}

const stopAll = async () => {
  for (const p of [...children]) {
    p.child.kill("SIGTERM")
  }
  const deadline = Date.now() + 10_000
  while (children.size > 0 && Date.now() < deadline) await sleep(20)
  for (const p of [...children]) p.child.kill("SIGKILL")
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
  dirs.clear()
  // Pooled sockets point at stopped processes (whose ports a later run may get again).
  agent.destroy()
  agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
}
process.on("SIGINT", () => stopAll().then(() => process.exit(130)))

const waitHttp = async (url, what, ms = 60_000) => {
  const until = Date.now() + ms
  for (;;) {
    try {
      const r = await get(url)
      if (r.status === 200) return r
    } catch {}
    if (Date.now() > until) throw new Error(`${what} did not answer ${url} within ${ms} ms`)
    await sleep(20)
  }
}

// ---- HTTP -----------------------------------------------------------------------------------------

let agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
/** One request over keep-alive; resolves with status, headers and the body bytes. */
const request = (method, url, body, headers = {}, requestAgent = agent) =>
  new Promise((resolve, reject) => {
    const u = new URL(url)
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        agent: requestAgent,
        headers: body === undefined ? headers : { ...headers, "content-length": body.length }
      },
      (res) => {
        const chunks = []
        res.on("data", (c) => chunks.push(c))
        res.on("error", reject)
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }))
      }
    )
    req.on("error", reject)
    req.end(body)
  })
const get = (url, headers) => request("GET", url, undefined, headers)
const getJson = async (url) => JSON.parse((await get(url)).body.toString("utf8"))

// ---- the topology ---------------------------------------------------------------------------------

const startLeader = async (accounts, dataDir = tempDir("leader"), { fresh = true } = {}) => {
  const port = await freePort()
  const p = start("leader", process.execPath, [
    "--max-semi-space-size=8",
    // Extra flags for the leader's node (e.g. SCALEOUT_LEADER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof").
    ...(process.env.SCALEOUT_LEADER_NODE_ARGS ?? "").split(" ").filter((a) => a !== ""),
    BIN,
    "--data-dir", dataDir,
    ...(fresh ? ["--fresh"] : []),
    "--quiet",
    "--accounts", String(accounts),
    "--listen", `127.0.0.1:${port}`,
    "--faucet-listen", "off",
    "--ready-listen", "off",
    "--graphql-listen", "off",
    // Nobody reads its GraphQL: no indexer on the leader (it would compete with the followers for the cores).
    "--no-indexer"
  ])
  const url = `http://127.0.0.1:${port}/v1`
  await waitHttp(url, "the leader")
  return { ...p, url, port, dataDir }
}

const startFollower = async (name, source, { port, metricsPort, dataDir } = {}) => {
  const api = port ?? (await freePort())
  const metrics = metricsPort ?? (await freePort())
  const dir = dataDir ?? tempDir(name)
  const p = start(name, process.execPath, [
    "--max-semi-space-size=8",
    // Extra flags for the followers' node (e.g. SCALEOUT_FOLLOWER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof").
    ...(process.env.SCALEOUT_FOLLOWER_NODE_ARGS ?? "").split(" ").filter((a) => a !== ""),
    BIN,
    "follow", source,
    "--data-dir", dir,
    "--quiet",
    "--listen", `127.0.0.1:${api}`,
    "--metrics-listen", `127.0.0.1:${metrics}`,
    // Extra flags for `movenode follow` (e.g. SCALEOUT_FOLLOWER_ARGS="--no-fsync").
    ...(process.env.SCALEOUT_FOLLOWER_ARGS ?? "").split(" ").filter((a) => a !== "")
  ])
  const url = `http://127.0.0.1:${api}/v1`
  await waitHttp(url, name)
  return { ...p, url, port: api, metricsPort: metrics, dataDir: dir }
}

/** HAProxy over the followers: freshness health check, cookie stickiness, retries on connection failures. */
const startHaproxy = async (followers, { interMs = 500 } = {}) => {
  const port = await freePort()
  const statsPort = await freePort()
  const dir = tempDir("haproxy")
  const cfg = `global
    maxconn 4096
defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    option http-keep-alive
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout 503
frontend api
    bind 127.0.0.1:${port}
    default_backend followers
frontend stats
    bind 127.0.0.1:${statsPort}
    http-request use-service prometheus-exporter if { path /metrics }
    stats enable
    stats uri /stats
backend followers
    balance roundrobin
    cookie MOVENODE insert indirect nocache
    option httpchk GET /v1/-/healthy?duration_secs=2
    http-check expect status 200
    default-server inter ${interMs} fall 2 rise 2
${followers.map((f, i) => `    server f${i + 1} 127.0.0.1:${f.port} check cookie f${i + 1}`).join("\n")}
`
  const file = join(dir, "haproxy.cfg")
  writeFileSync(file, cfg)
  const p = start("haproxy", "haproxy", ["-db", "-f", file])
  const url = `http://127.0.0.1:${port}/v1`
  await waitHttp(url, "haproxy")
  return { ...p, url, port, statsPort, file, interMs }
}

/** HAProxy's view of its servers: name → status (UP, DOWN, …), from the CSV stats page. */
const haproxyStatus = async (h) => {
  const csv = (await get(`http://127.0.0.1:${h.statsPort}/stats;csv`)).body.toString("utf8").split("\n")
  const header = csv[0].replace(/^# /, "").split(",")
  const out = {}
  for (const line of csv.slice(1)) {
    const f = line.split(",")
    if (f[0] === "followers" && f[1] !== "BACKEND") out[f[1]] = f[header.indexOf("status")]
  }
  return out
}

// ---- transfers on the leader ----------------------------------------------------------------------

const accountsOf = (n) => localSigners(lib, n)
const transferBytes = (from, to, amount) => aptTransfer(lib, from, to, amount, BigInt(Math.floor(Date.now() / 1000) + 600)).bytes

/**
 * Sends transfers to the leader at `rate`/s for `seconds` (senders round-robin, each with its own
 * sequence numbers; a refused submission re-reads the sender's sequence number). Resolves with the
 * number sent and refused.
 */
const transfers = async (leaderUrl, senders, rate, seconds) => {
  const to = addressFromNumber(0xbeef)
  let sent = 0
  let refused = 0
  let firstRefusal
  const t0 = performance.now()
  const total = Math.round(rate * seconds)
  const inflight = new Set()
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate
    const wait = due - performance.now()
    if (wait > 1) await sleep(wait)
    const from = senders[i % senders.length]
    const p = request("POST", `${leaderUrl}/transactions`, transferBytes(from, to, 1n), {
      "content-type": "application/x.aptos.signed_transaction+bcs",
      accept: "application/x-bcs"
    })
      .then(async (r) => {
        if (r.status === 202) sent++
        else {
          refused++
          if (firstRefusal === undefined) firstRefusal = `${r.status} ${r.body.toString("utf8").slice(0, 300)}`
          const account = await getJson(`${leaderUrl}/accounts/0x${toHex(from.address)}`).catch(() => undefined)
          if (account?.sequence_number !== undefined) from.next = BigInt(account.sequence_number)
        }
      })
      .catch(() => refused++)
      .finally(() => inflight.delete(p))
    inflight.add(p)
    if (inflight.size > 2000) await Promise.race(inflight)
  }
  await Promise.all(inflight)
  return { sent, refused, firstRefusal, seconds: (performance.now() - t0) / 1000 }
}

const ledgerVersion = async (url) => BigInt((await getJson(url)).ledger_version)
const waitVersion = async (url, version, ms = 120_000) => {
  const until = Date.now() + ms
  while ((await ledgerVersion(url)) < version) {
    if (Date.now() > until) throw new Error(`${url} did not reach version ${version} within ${ms} ms`)
    await sleep(20)
  }
}


/** CPU seconds of each of a process's threads, by name-tid (the main thread: "main"). */
const threadCpuSecs = (pid) => {
  const out = {}
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")
      const name = tid === String(pid) ? "main" : `${stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))}-${tid}`
      out[name] = (out[name] ?? 0) + cpuSecsOfStat(stat)
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out
}

/** Scrapes the follower's apply-lag histogram (cumulative counts by upper bound, seconds). */
const lagHistogram = async (f) => {
  const text = (await get(`http://127.0.0.1:${f.metricsPort}/metrics`)).body.toString("utf8")
  const buckets = []
  for (const m of text.matchAll(/^movenode_follow_apply_lag_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm))
    buckets.push([m[1] === "+Inf" ? Infinity : Number(m[1]), Number(m[2])])
  return buckets
}

/**
 * A quantile from the difference of two scrapes of a cumulative histogram (linear within a bucket,
 * as Prometheus's histogram_quantile); ms.
 */
const histogramQuantile = (before, after, q) => {
  const counts = after.map(([le, n], i) => [le, n - (before[i]?.[1] ?? 0)])
  const total = counts.at(-1)[1]
  if (total === 0) return null
  const rank = q * total
  let lower = 0
  let below = 0
  for (const [le, n] of counts) {
    if (n >= rank) {
      if (le === Infinity) return lower * 1000
      return Math.round((lower + ((le - lower) * (rank - below)) / Math.max(1, n - below)) * 1000 * 10) / 10
    }
    lower = le
    below = n
  }
  return null
}

// ---- modes ----------------------------------------------------------------------------------------

/**
 * Replication lag seen from outside: every `everyMs` the leader's and each follower's ledger version
 * (GET /v1); for each leader version seen, how long until each follower reported at least it.
 * Resolution: the probe interval plus a request's time.
 */
const probeLag = (leader, followers, everyMs = 10) => {
  const firstSeen = [] // [version, ms] of the leader, ascending
  const reached = followers.map(() => []) // per follower: [version, ms] whenever it moved
  let stop = false
  const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 4 })
  const versionOf = async (url) =>
    BigInt(JSON.parse((await request("GET", url, undefined, {}, probeAgent)).body.toString("utf8")).ledger_version)
  const loop = (async () => {
    while (!stop) {
      const t = performance.now()
      const [l, ...fs] = await Promise.all([versionOf(leader.url), ...followers.map((f) => versionOf(f.url))])
      const now = performance.now()
      if (firstSeen.length === 0 || l > firstSeen.at(-1)[0]) firstSeen.push([l, now])
      fs.forEach((v, i) => {
        if (reached[i].length === 0 || v > reached[i].at(-1)[0]) reached[i].push([v, now])
      })
      const wait = everyMs - (performance.now() - t)
      if (wait > 0) await sleep(wait)
    }
  })()
  return async () => {
    stop = true
    await loop
    probeAgent.destroy()
    return followers.map((_, i) => {
      const lags = []
      let j = 0
      for (const [v, t] of firstSeen) {
        while (j < reached[i].length && reached[i][j][0] < v) j++
        if (j < reached[i].length) lags.push(Math.max(0, reached[i][j][1] - t))
      }
      lags.sort((a, b) => a - b)
      const q = (x) => (lags.length === 0 ? null : Math.round(lags[Math.min(lags.length - 1, Math.floor(x * lags.length))] * 10) / 10)
      return { samples: lags.length, p50Ms: q(0.5), p99Ms: q(0.99), maxMs: q(1) }
    })
  }
}

const lagMode = async ({ rate = arg("rate", 100), seconds = arg("seconds", 30) } = {}) => {
  const senders = accountsOf(rate > 300 ? 96 : 32)
  const leader = await startLeader(senders.length)
  const f1 = await startFollower("follower1", leader.url)
  const f2 = await startFollower("follower2", leader.url)
  await waitVersion(f1.url, await ledgerVersion(leader.url))
  await waitVersion(f2.url, await ledgerVersion(leader.url))
  // Warm up (not counted): a few seconds at the same rate.
  await transfers(leader.url, senders, rate, Math.min(5, seconds / 4))
  const before = await Promise.all(
    [f1, f2].map(async (f) => ({ cpu: cpuSecs(f.child.pid), info: (await getJson(f.url)).follow, lag: await lagHistogram(f) }))
  )
  const leaderCpu0 = cpuSecs(leader.child.pid)
  const loadBefore = load()
  const probe = probeLag(leader, [f1, f2])
  const sentStats = await transfers(leader.url, senders, rate, seconds)
  const head = await ledgerVersion(leader.url)
  await Promise.all([f1, f2].map((f) => waitVersion(f.url, head)))
  const probed = await probe()
  const after = await Promise.all(
    [f1, f2].map(async (f) => ({ cpu: cpuSecs(f.child.pid), info: (await getJson(f.url)).follow, lag: await lagHistogram(f) }))
  )
  const followers = [f1, f2].map((f, i) => {
    const applied = Number(after[i].info.applied_version) - Number(before[i].info.applied_version)
    return {
      name: f.name,
      replicationLag: probed[i],
      blockLagP50Ms: histogramQuantile(before[i].lag, after[i].lag, 0.5),
      blockLagP99Ms: histogramQuantile(before[i].lag, after[i].lag, 0.99),
      blocks: after[i].lag.at(-1)[1] - before[i].lag.at(-1)[1],
      log: f.stderr().split("\n").filter((l) => l !== "").slice(-4),
      appliedVersions: applied,
      cpuSecs: Math.round((after[i].cpu - before[i].cpu) * 100) / 100,
      cpuUsPerAppliedVersion: Math.round(((after[i].cpu - before[i].cpu) * 1e6) / Math.max(1, applied)),
      cpuUsPerTransfer: Math.round(((after[i].cpu - before[i].cpu) * 1e6) / Math.max(1, sentStats.sent))
    }
  })
  return {
    mode: "lag",
    rate,
    seconds,
    transfersSent: sentStats.sent,
    refused: sentStats.refused,
    firstRefusal: sentStats.firstRefusal,
    achievedRate: Math.round(sentStats.sent / sentStats.seconds),
    leaderCpuSecs: Math.round((cpuSecs(leader.child.pid) - leaderCpu0) * 100) / 100,
    followers,
    lagNote:
      "replicationLag: for each leader version seen by a 10 ms probe of GET /v1 on all nodes, the time until the follower reported it (the probe's resolution); blockLag: per block, applied on the follower minus the block's timestamp on the leader (taken when the leader starts the block, so it includes the leader's execution and commit), from the follower's histogram",
    loadBefore,
    loadAfter: load()
  }
}

const IDENTICAL_PATHS = (v, address) => [
  // A list that ends at v (the leader may hold more by the time it is asked).
  `/transactions?start=${v >= 49n ? v - 49n : 0n}&limit=${v >= 49n ? 50n : v + 1n}`,
  `/transactions/by_version/${v}`,
  `/blocks/by_version/${v}?with_transactions=true`,
  `/accounts/${address}?ledger_version=${v}`,
  `/accounts/${address}/resources?ledger_version=${v}`,
  `/accounts/${address}/balance/0x1::aptos_coin::AptosCoin?ledger_version=${v}`,
  `/accounts/${address}/transactions?limit=10`,
  `/accounts/0x1/module/coin?ledger_version=${v}`,
  `/accounts/0x1/resource/0x1::chain_id::ChainId?ledger_version=${v}`
]

const identicalMode = async () => {
  const senders = accountsOf(8)
  const leader = await startLeader(senders.length)
  const f1 = await startFollower("follower1", leader.url)
  const f2 = await startFollower("follower2", leader.url)
  await transfers(leader.url, senders, 50, 2)
  await sleep(300)
  const v = await ledgerVersion(leader.url)
  await waitVersion(f1.url, v)
  await waitVersion(f2.url, v)
  const address = `0x${toHex(senders[0].address)}`
  const results = []
  const view = JSON.stringify({ function: "0x1::coin::balance", type_arguments: ["0x1::aptos_coin::AptosCoin"], arguments: [address] })
  const requests = [
    ...IDENTICAL_PATHS(v, address).flatMap((p) =>
      ["application/json", "application/x-bcs"].map((accept) => ({ what: `GET ${p} (${accept})`, send: (u) => get(`${u}${p}`, { accept }) }))
    ),
    {
      what: "POST /view (json)",
      send: (u) => request("POST", `${u}/view?ledger_version=${v}`, Buffer.from(view), { "content-type": "application/json" })
    }
  ]
  for (const r of requests) {
    const answers = await Promise.all([leader, f1, f2].map((n) => r.send(n.url)))
    const same = answers.every((a) => a.status === answers[0].status && a.body.equals(answers[0].body))
    const result = { request: r.what, status: answers[0].status, identical: same }
    if (!same) {
      // Where: the first byte that differs, and the first version whose own answer differs.
      const other = answers.find((a) => !a.body.equals(answers[0].body)) ?? answers[0]
      let at = 0
      while (at < answers[0].body.length && answers[0].body[at] === other.body[at]) at++
      result.firstDifferenceAt = at
      result.leaderBytes = answers[0].body.subarray(at, at + 24).toString("hex")
      result.followerBytes = other.body.subarray(at, at + 24).toString("hex")
      for (let x = 0n; x <= v && result.firstDifferentVersion === undefined; x++) {
        const pair = await Promise.all([leader, f1, f2].map((n) => get(`${n.url}/transactions/by_version/${x}`, { accept: "application/x-bcs" })))
        if (!pair.every((p) => p.body.equals(pair[0].body))) result.firstDifferentVersion = String(x)
      }
    }
    results.push(result)
  }
  return { mode: "identical", version: String(v), requests: results.length, allIdentical: results.every((r) => r.identical), differing: results.filter((r) => !r.identical), load: load() }
}

/**
 * Readers through HAProxy while transfers run on the leader; follower 1 killed with SIGKILL midway,
 * restarted a few seconds later. Each reader keeps HAProxy's cookie (stickiness) and checks its
 * ledger version never goes backwards; with `minVersion` it also sends the last version it saw
 * (X-Movenode-Min-Ledger-Version, waiting up to 1 s), the recipe of docs/scale-out.md.
 */
const failoverMode = async ({ seconds = arg("seconds", 20), readers = arg("readers", 8), rate = arg("rate", 50) } = {}) => {
  const senders = accountsOf(16)
  const leader = await startLeader(senders.length)
  const f1 = await startFollower("follower1", leader.url)
  const f2 = await startFollower("follower2", leader.url)
  const lb = await startHaproxy([f1, f2])
  const statuses = {}
  const samples = []
  const t0 = Date.now()
  let backwards = 0
  let reads = 0
  let stop = false
  const reader = async (minVersion) => {
    let cookie
    let last = -1n
    const readerAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    while (!stop) {
      const headers = { accept: "application/json" }
      if (cookie !== undefined) headers.cookie = cookie
      if (minVersion && last >= 0n) Object.assign(headers, { "x-movenode-min-ledger-version": String(last), "x-movenode-wait-ms": "1000" })
      try {
        const r = await request("GET", `${lb.url}/accounts/0x1/resource/0x1::chain_id::ChainId`, undefined, headers, readerAgent)
        reads++
        statuses[r.status] = (statuses[r.status] ?? 0) + 1
        if (r.status !== 200 && samples.length < 3) samples.push({ status: r.status, at: Date.now() - t0, body: r.body.toString("utf8").slice(0, 300) })
        const set = r.headers["set-cookie"]
        if (set !== undefined) cookie = set[0].split(";")[0]
        const v = r.headers["x-aptos-ledger-version"]
        if (r.status === 200 && v !== undefined) {
          const version = BigInt(v)
          if (version < last) backwards++
          if (version > last) last = version
        }
      } catch (e) {
        statuses[`error ${e.code ?? e.message}`] = (statuses[`error ${e.code ?? e.message}`] ?? 0) + 1
      }
      await sleep(5)
    }
  }
  const load0 = load()
  const running = [
    ...Array.from({ length: readers }, (_, i) => reader(i % 2 === 1)),
    transfers(leader.url, senders, rate, seconds)
  ]
  await sleep((seconds * 1000) / 3)
  // Kill follower 1; watch HAProxy's view of it.
  const killedAt = Date.now()
  f1.child.kill("SIGKILL")
  let downAfterMs
  const readsAtKill = reads
  const statusesAtKill = JSON.stringify(statuses)
  while (downAfterMs === undefined && Date.now() - killedAt < 10_000) {
    const s = await haproxyStatus(lb)
    if (s.f1 !== undefined && s.f1.startsWith("DOWN")) downAfterMs = Date.now() - killedAt
    else await sleep(20)
  }
  await sleep(2000)
  const restartAt = Date.now()
  const again = await startFollower("follower1", leader.url, { port: f1.port, metricsPort: f1.metricsPort, dataDir: f1.dataDir })
  let upAfterMs
  while (upAfterMs === undefined && Date.now() - restartAt < 30_000) {
    const s = await haproxyStatus(lb)
    if (s.f1 === "UP") upAfterMs = Date.now() - restartAt
    else await sleep(50)
  }
  stop = true
  const sentStats = await running.at(-1)
  stop = true
  await Promise.all(running.slice(0, -1))
  const head = await ledgerVersion(leader.url)
  const caughtUp = Date.now()
  await waitVersion(again.url, head)
  const fiveXX = Object.entries(statuses).filter(([k]) => /^5/.test(k) || k.startsWith("error")).reduce((n, [, c]) => n + c, 0)
  return {
    mode: "failover",
    readers,
    reads,
    readsBeforeKill: readsAtKill,
    statuses,
    statusesAtKill: JSON.parse(statusesAtKill),
    killedAtMs: killedAt - t0,
    samples,
    clientErrorsOr5xx: fiveXX,
    versionWentBackwards: backwards,
    haproxyMarkedDownAfterMs: downAfterMs,
    healthCheck: { interMs: lb.interMs, fall: 2, rise: 2 },
    restartedUpAfterMs: upAfterMs,
    caughtUpAfterRestartMs: Date.now() - caughtUp + (caughtUp - restartAt),
    transfersSent: sentStats.sent,
    loadBefore: load0,
    loadAfter: load()
  }
}

const catchupMode = async ({ versions = arg("versions", 100_000), rate = arg("rate", 1200) } = {}) => {
  const senders = accountsOf(64)
  // --leader-dir DIR: the leader's data directory is kept there and used again by the next run (filled
  // to --versions once; later runs start the follower at once).
  const kept = stringArg("leader-dir", undefined)
  const reuse = kept !== undefined && existsSync(join(kept, "ledger"))
  const leader = await startLeader(senders.length, kept ?? tempDir("leader"), { fresh: !reuse })
  const t0 = Date.now()
  while ((await ledgerVersion(leader.url)) < BigInt(versions)) {
    // Each sender's next sequence number from the chain (a leader kept from an earlier run, or refusals).
    for (const from of senders) {
      const account = await getJson(`${leader.url}/accounts/0x${toHex(from.address)}`).catch(() => undefined)
      if (account?.sequence_number !== undefined) from.next = BigInt(account.sequence_number)
    }
    await transfers(leader.url, senders, rate, 5)
  }
  const head = await ledgerVersion(leader.url)
  const filledSecs = (Date.now() - t0) / 1000
  await sleep(500)
  const load0 = load()
  const started = performance.now()
  const leaderCpu0 = cpuSecs(leader.child.pid)
  const f = await startFollower("follower-new", leader.url)
  const cpu0 = 0
  await waitVersion(f.url, head, 600_000)
  const secs = (performance.now() - started) / 1000
  const cpu = cpuSecs(f.child.pid) - cpu0
  const threads = threadCpuSecs(f.child.pid)
  const leaderCpu = cpuSecs(leader.child.pid) - leaderCpu0
  return {
    mode: "catchup",
    versions: String(head),
    leaderFilledInSecs: Math.round(filledSecs),
    secondsFromStart: Math.round(secs * 10) / 10,
    versionsPerSecond: Math.round(Number(head) / secs),
    followerCpuSecs: cpu,
    cpuUsPerVersion: Math.round((cpu * 1e6) / Number(head)),
    // The leader's CPU while it served the feed (its API answering the follower's block requests).
    leaderCpuUsPerVersion: Math.round((leaderCpu * 1e6) / Number(head)),
    // By thread (the follower's threads that ran; µs per version): main = its event loop.
    followerThreadsCpuUsPerVersion: Object.fromEntries(
      Object.entries(threads)
        .map(([name, s]) => [name, Math.round((s * 1e6) / Number(head))])
        .filter(([, us]) => us > 0)
    ),
    loadBefore: load0,
    loadAfter: load()
  }
}

const wrk = (url, seconds, connections = 16) => {
  const out = execFileSync("wrk", ["-t2", `-c${connections}`, `-d${seconds}s`, "--latency", url], { encoding: "utf8" })
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
  const requests = Number(/(\d+) requests in/.exec(out)?.[1])
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
  const p50 = /50%\s+([\d.]+\w+)/.exec(out)?.[1]
  const p99 = /99%\s+([\d.]+\w+)/.exec(out)?.[1]
  return { rps, requests, non2xx, p50, p99 }
}

const readsMode = async ({ seconds = arg("seconds", 10) } = {}) => {
  requireCommand("wrk")
  const leader = await startLeader(4)
  const f1 = await startFollower("follower1", leader.url)
  const f2 = await startFollower("follower2", leader.url)
  const lb = await startHaproxy([f1, f2])
  await waitVersion(f1.url, await ledgerVersion(leader.url))
  const path = "/accounts/0x1/resource/0x1::chain_id::ChainId"
  const out = { mode: "reads", path, seconds }
  const cpu0 = cpuSecs(f1.child.pid)
  out.loadBefore = load()
  out.direct = wrk(`${f1.url}${path}`, seconds)
  out.direct.followerCpuUsPerRequest = Math.round(((cpuSecs(f1.child.pid) - cpu0) * 1e6) / out.direct.requests)
  const h0 = cpuSecs(lb.child.pid)
  const c1 = cpuSecs(f1.child.pid) + cpuSecs(f2.child.pid)
  out.throughHaproxy = wrk(`${lb.url}${path}`, seconds)
  out.throughHaproxy.haproxyCpuUsPerRequest = Math.round(((cpuSecs(lb.child.pid) - h0) * 1e6) / out.throughHaproxy.requests)
  out.throughHaproxy.followersCpuUsPerRequest = Math.round(
    ((cpuSecs(f1.child.pid) + cpuSecs(f2.child.pid) - c1) * 1e6) / out.throughHaproxy.requests
  )
  out.loadAfter = load()
  return out
}

/**
 * Reads through N API processes over one data directory against one process (`movenode run
 * --api-workers N`, the shipped devnet genesis): wrk on a resource read and on GET /v1.
 */
const workersMode = async ({ seconds = arg("seconds", 10), counts = [0, 1, 2] } = {}) => {
  requireCommand("wrk")
  const out = { mode: "workers", seconds, runs: [], loadBefore: load() }
  const dataDir = tempDir("run")
  for (const n of counts) {
    const port = await freePort()
    const p = start(`run-${n}`, process.execPath, [
      "--max-semi-space-size=8",
      BIN, "run", "--data-dir", dataDir, "--quiet", "--listen", `127.0.0.1:${port}`, "--api-workers", String(n)
    ])
    const url = `http://127.0.0.1:${port}/v1`
    await waitHttp(url, `movenode run --api-workers ${n}`)
    const resource = wrk(`${url}/accounts/0x1/resource/0x1::chain_id::ChainId`, seconds, 32)
    const info = wrk(url, seconds, 32)
    out.runs.push({ apiWorkers: n, processesServing: Math.max(1, n), resource, ledgerInfo: info })
    p.child.kill("SIGTERM")
    while (children.has(p)) await sleep(20)
  }
  out.loadAfter = load()
  return out
}

/**
 * Read-your-writes through the balancer (aptos-python-sdk #31's failure): a transfer is submitted to
 * the leader and waited for there (wait_by_hash gives its version V); at once the sender's account
 * is read through HAProxy on a new connection (no cookie: any follower), (a) plainly — stale when
 * its sequence number is not yet past the transfer — and (b) with X-Movenode-Min-Ledger-Version: V
 * and X-Movenode-Wait-Ms: 1000 (docs/scale-out.md's recipe).
 */
const rywMode = async ({ count = arg("count", 200) } = {}) => {
  const senders = accountsOf(4)
  const leader = await startLeader(senders.length)
  const f1 = await startFollower("follower1", leader.url)
  const f2 = await startFollower("follower2", leader.url)
  const lb = await startHaproxy([f1, f2])
  await waitVersion(f1.url, await ledgerVersion(leader.url))
  await waitVersion(f2.url, await ledgerVersion(leader.url))
  const to = addressFromNumber(0xbeef)
  const result = { plain: { reads: 0, stale: 0 }, pinned: { reads: 0, stale: 0, notFound: 0, waitedMsMax: 0 } }
  const fresh = () => new http.Agent({ keepAlive: false })
  for (let i = 0; i < count; i++) {
    const from = senders[i % senders.length]
    const bytes = transferBytes(from, to, 1n)
    const tagged = new Uint8Array(bytes.length + 1)
    tagged.set(bytes, 1)
    const hash = toHex(lib.transactionHashOfBytes(tagged))
    const submitted = await request("POST", `${leader.url}/transactions`, bytes, {
      "content-type": "application/x.aptos.signed_transaction+bcs"
    })
    if (submitted.status !== 202) throw new Error(`submission ${submitted.status}: ${submitted.body}`)
    let committed
    for (;;) {
      committed = JSON.parse((await get(`${leader.url}/transactions/wait_by_hash/0x${hash}`)).body.toString("utf8"))
      if (committed.type !== "pending_transaction") break
    }
    const version = committed.version
    const expected = BigInt(committed.sequence_number) + 1n
    const account = `${lb.url}/accounts/0x${toHex(from.address)}`
    const pinned = i % 2 === 1
    const t0 = performance.now()
    const r = await request(
      "GET",
      account,
      undefined,
      pinned ? { "x-movenode-min-ledger-version": version, "x-movenode-wait-ms": "1000" } : {},
      fresh()
    )
    const waited = performance.now() - t0
    const bucket = pinned ? result.pinned : result.plain
    bucket.reads++
    if (r.status === 404) bucket.notFound = (bucket.notFound ?? 0) + 1
    else if (BigInt(JSON.parse(r.body.toString("utf8")).sequence_number) < expected) bucket.stale++
    if (pinned) result.pinned.waitedMsMax = Math.max(result.pinned.waitedMsMax, Math.round(waited))
  }
  return { mode: "ryw", count, ...result, load: load() }
}

/**
 * A follower's own work per version, without the HTTP server or a second process competing: the
 * blocks of a leader (kept with --leader-dir, or filled to --versions) fetched by height through
 * the follower's feed client, then checked (min of 3 rounds) and applied (checks + commit, several
 * blocks per step as catching up does) into a new LMDB store in this process. CPU time per version
 * (process.cpuUsage: this process's threads, lmdb-js's write thread included).
 */
const applyMode = async ({ versions = arg("versions", 20_000), group = arg("group", 50) } = {}) => {
  const { Effect } = await import("effect")
  const { Follow, LedgerLmdb } = lib
  const kept = stringArg("leader-dir", undefined)
  const reuse = kept !== undefined && existsSync(join(kept, "ledger"))
  const senders = accountsOf(64)
  const leader = await startLeader(senders.length, kept ?? tempDir("leader"), { fresh: !reuse })
  while ((await ledgerVersion(leader.url)) < BigInt(versions)) await transfers(leader.url, senders, 1200, 5)
  const cpuMs = () => {
    const c = process.cpuUsage()
    return (c.user + c.system) / 1000
  }
  const feed = Follow.makeFeedClient({ url: leader.url, timeoutMs: 60_000 })
  const c0 = cpuMs()
  const blocks = []
  for (let h = 0n, v = 0; v < versions; h++) {
    const a = await Effect.runPromise(feed.blockAtHeight(h))
    blocks.push(a.block)
    v = Number(a.block.lastVersion) + 1
  }
  const fetched = cpuMs() - c0
  const count = Number(blocks.at(-1).lastVersion)
  const genesis = Follow.checkTransaction(blocks[0].transactions[0], 0n, { frozen: [], leaves: 0n }).accumulator
  let checks = Infinity
  for (let round = 0; round < 3; round++) {
    let acc = genesis
    const c = cpuMs()
    for (const b of blocks.slice(1))
      for (const t of b.transactions) {
        const r = Follow.checkTransaction(t, t.version, acc)
        if (r instanceof Error) throw r
        acc = r.accumulator
      }
    checks = Math.min(checks, cpuMs() - c)
  }
  const dir = tempDir("apply")
  const applied = await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const ledger = yield* LedgerLmdb.open({ path: dir, durability: "committed" })
        yield* Follow.applySourceBlocks(ledger, [blocks[0]])
        const c = cpuMs()
        const t = performance.now()
        for (let i = 1; i < blocks.length; i += group) yield* Follow.applySourceBlocks(ledger, blocks.slice(i, i + group))
        return { cpu: cpuMs() - c, wall: performance.now() - t }
      })
    )
  )
  const us = (ms) => Math.round((ms * 1000) / count)
  return {
    mode: "apply",
    blocks: blocks.length,
    versions: count,
    cpuUsPerVersion: {
      fetchAndDecode: us(fetched),
      checks: us(checks),
      checksAndCommit: us(applied.cpu),
      commit: us(applied.cpu - checks)
    },
    applyVersionsPerSecond: Math.round(count / (applied.wall / 1000)),
    blocksPerCommit: group,
    load: load()
  }
}

const smokeMode = async () => {
  const results = {}
  results.identical = await identicalMode()
  await stopAll()
  results.failover = await failoverMode({ seconds: 9, readers: 4, rate: 30 })
  await stopAll()
  results.ryw = await rywMode({ count: 40 })
  await stopAll()
  const ok =
    results.identical.allIdentical &&
    results.failover.clientErrorsOr5xx === 0 &&
    results.failover.haproxyMarkedDownAfterMs !== undefined &&
    results.failover.restartedUpAfterMs !== undefined &&
    results.ryw.pinned.stale === 0
  return { mode: "smoke", ok, ...results }
}

const modes = { apply: applyMode, ryw: rywMode, workers: workersMode, lag: lagMode, identical: identicalMode, failover: failoverMode, catchup: catchupMode, reads: readsMode, smoke: smokeMode }

try {
  if (modes[mode] === undefined) throw new Error(`unknown mode ${mode} (one of ${Object.keys(modes).join(", ")})`)
  const result = await modes[mode]()
  console.log(JSON.stringify(result, (_, v) => (typeof v === "bigint" ? String(v) : v)))
  await stopAll()
  process.exit(mode === "smoke" && !result.ok ? 1 : 0)
} catch (e) {
  for (const p of children) if (p.stderr() !== "") console.error(`--- ${p.name} stderr:\n${p.stderr()}`)
  console.error(e)
  await stopAll()
  process.exit(1)
}
