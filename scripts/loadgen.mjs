#!/usr/bin/env node
/**
 * Load generator for the local chain (docs/benchmarks.md, "Local chain"). Starts `movenode` (the
 * built bundle, as `npm start` runs it) on free ports with its own data directory and N pre-funded
 * accounts, derives the same account keys from the seed, and measures one of:
 *
 *   node scripts/loadgen.mjs start [--repeat 5]
 *        process start → first faucet-funded account committed, with the default parameters (as
 *        `npm start`), three ways on one data directory: a new directory (the genesis `npm run
 *        build` made is imported), a restart (the chain reopened), --fresh (a new chain on the kept
 *        genesis)
 *   node scripts/loadgen.mjs latency [--rate 100] [--seconds 30] [--warmup 5]
 *        submit → committed (visible to wait_by_hash) per transfer, at a fixed rate: p50 / p99 of
 *        the transfers sent after the warm-up (sent at the same rate, not counted), and of its two
 *        halves (submitMs: until the POST's 202; waitMs: then until wait_by_hash answers it
 *        committed), and the node's CPU over those seconds in cores (all its threads, and its event
 *        loop's thread alone). A transfer falls due every 1/rate s whatever the node does: one due
 *        while every sender still waits for its last is sent when one is free (`late`), and
 *        `fromDueMs` counts each from when it fell due, so a stall's delay is not left out
 *        (coordinated omission)
 *   node scripts/loadgen.mjs throughput [--seconds 60] [--accounts 64] [--retry 0] [--rate R] [--warmup 10]
 *        pre-signed APT transfers pushed through POST /v1/transactions (BCS) as fast as they are
 *        taken; committed transfers per second, from the ledger: over the whole run
 *        (committedPerSec, a fresh node's warm-up included), second by second (perSecond), and
 *        after the first --warmup seconds while submitting (steadyPerSec)
 *   node scripts/loadgen.mjs submit [--count 20000] [--accounts 256]
 *        the submission path alone (issue 22): no blocks are made (--block-time of an hour, no idle
 *        blocks), pre-signed transfers pushed through POST /v1/transactions (BCS, 64 in flight)
 *        into the pool; the node's CPU per accepted submission (its event loop's and the whole
 *        process's): HTTP, body, BCS decode, signature, admission's prologue, the pool, the answer
 *   node scripts/loadgen.mjs soak [--rate 200] [--seconds 600] [--warmup 5]
 *        transfers at a fixed rate, the node's resident memory sampled every 10 s
 *   node scripts/loadgen.mjs sdk [--seconds 30] [--accounts 64] [--wait]
 *        the TypeScript SDK as an application drives a chain: each sender in a loop builds an APT
 *        transfer (`transaction.build.simple`, its sequence number kept here, gas given), signs it
 *        (`transaction.sign`: the SDK's JS Ed25519) and submits it (`transaction.submit.simple`),
 *        with --wait then `waitForTransaction` (by_hash, then wait_by_hash while pending). The
 *        generator does all that work on the node's two cores while the clock runs, as a check
 *        signing with the SDK does: committed transfers/s, and the CPU a transfer of both processes
 *        (the node's split by thread)
 *   node scripts/loadgen.mjs sequential [--count 1000]
 *        transfers submitted one after another, each waited for with wait_by_hash before the next
 *        (how test suites and the SDK's helpers use a local chain: one block per transfer); the
 *        ledger's growth per transfer (data.mdb), and where the bytes go (scripts/ledger-stats.mjs);
 *        submit → committed p50 / p99 and its two halves, and the node's CPU per transfer (all its
 *        threads, the event loop's, the busiest other's: the index's worker)
 *
 * The load generator runs on the same machine as the node (the figures say so). Signing happens
 * before the clock starts where it can (throughput), so the node's work is what is measured, and
 * with node:crypto's Ed25519 (tens of µs a signature) so the generator takes little of the CPU.
 */
import { createRequire } from "node:module"
import http from "node:http"
import net from "node:net"
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ledgerStats } from "./ledger-stats.mjs"
import { aptTransfer, childrenCpuSecs, cliArgs, cpuSecs, cpuSplit, loadAverage, loadDist, localSigners, memoryKb, root, sleep, threadCpu, assertRunning, waitForNode, openLoop, startMovenode, stopMovenode } from "./lib.mjs"

const lib = await loadDist()
const { toHex } = lib

const args = process.argv.slice(2)
const mode = args[0] ?? "start"
const { num: arg } = cliArgs(args)

const PORTS = { api: 28080, faucet: 28081, ready: 28070, graphql: 28090 }
const API = `http://127.0.0.1:${PORTS.api}/v1`

/** Starts the node; `dataDir` absent: a new directory, removed on stop. */
const startNode = (accounts, { dataDir, fresh = true, keep = false, extra = [] } = {}) => {
  const own = dataDir === undefined && !keep
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "movenode-loadgen-"))
  const t0 = performance.now()
  // LOADGEN_NODE_STDOUT=FILE keeps the node's stdout (e.g. V8's --trace-opt) in FILE; the child has
  // its own copy of the descriptor, so this process closes its own once the child is started.
  const stdoutFd = process.env.LOADGEN_NODE_STDOUT ? openSync(process.env.LOADGEN_NODE_STDOUT, "w") : undefined
  const child = startMovenode(
    [
      "--data-dir", dir, ...(fresh ? ["--fresh"] : []), "--quiet",
      ...(accounts === undefined ? [] : ["--accounts", String(accounts)]),
      "--listen", `127.0.0.1:${PORTS.api}`,
      "--faucet-listen", `127.0.0.1:${PORTS.faucet}`,
      "--ready-listen", `127.0.0.1:${PORTS.ready}`,
      "--graphql-listen", `127.0.0.1:${PORTS.graphql}`,
      ...extra,
      // Extra flags for movenode (e.g. LOADGEN_MOVENODE_ARGS="--prune-window 100000").
      ...(process.env.LOADGEN_MOVENODE_ARGS ?? "").split(" ").filter((a) => a !== "")
    ],
    // Extra flags for Node (e.g. LOADGEN_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof").
    { nodeArgs: (process.env.LOADGEN_NODE_ARGS ?? "").split(" ").filter((a) => a !== ""), stdout: stdoutFd ?? "ignore" }
  )
  if (stdoutFd !== undefined) closeSync(stdoutFd)
  const stop = async () => {
    await stopMovenode(child)
    if (own) rmSync(dir, { recursive: true, force: true })
  }
  return { child, t0, stop, dir }
}

const waitReady = (node) => waitForNode(node.child, API)

/** Resident memory split: anonymous (the heap, buffers) and file-backed (LMDB's mapped pages, code). */
const memoryOf = (pid) => {
  const kb = memoryKb(pid)
  const mb = (name) => Math.round((kb[name] ?? 0) / 1024)
  return { rssMb: mb("VmRSS"), anonMb: mb("RssAnon"), fileMb: mb("RssFile") }
}

/** This process's CPU seconds so far. */
const ownCpuSecs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

const accountsOf = (n) => localSigners(lib, n)

/** A signed APT transfer; `hash` without its 0x (the URLs below add it). */
const transfer = (from, to, amount, expiration) => {
  const t = aptTransfer(lib, from, to, amount, expiration)
  return { bytes: t.bytes, hash: t.hash.slice(2), sender: toHex(from.address), sequenceNumber: t.raw.sequenceNumber }
}

/**
 * The hot requests (submit, wait_by_hash) go through node:http with a keep-alive agent: it takes
 * about half the CPU of fetch (undici) per request, and the generator shares the node's two cores.
 * The answer has fetch's shape where the callers use it (status, arrayBuffer, text, json).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 })
const request = (method, path, body, headers = {}) =>
  new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: PORTS.api, path: `/v1${path}`, method, agent, headers: body === undefined ? headers : { ...headers, "content-length": body.length } },
      (res) => {
        const chunks = []
        res.on("data", (c) => chunks.push(c))
        res.on("error", reject)
        res.on("end", () => {
          const all = Buffer.concat(chunks)
          resolve({ status: res.statusCode, arrayBuffer: async () => all, text: async () => all.toString("utf8"), json: async () => JSON.parse(all.toString("utf8")) })
        })
      }
    )
    req.on("error", reject)
    req.end(body)
  })

/**
 * The throughput run's submitters: one kept-alive connection each, one request at a time on it (as
 * wrk runs without pipelining), each request written whole and its answer read whole (status line,
 * headers, the body by its content-length) before the next. A lean client because the generator
 * shares the node's two cores: node:http's client took ~50 µs of CPU per submission, this ~15.
 */
const submitterConnection = () => {
  const socket = net.connect(PORTS.api, "127.0.0.1")
  socket.setNoDelay(true)
  let buffered = Buffer.alloc(0)
  let waiting
  const fail = (e) => {
    const w = waiting
    waiting = undefined
    w?.reject(e)
  }
  socket.on("error", fail)
  socket.on("close", () => fail(new Error("the node closed the connection")))
  socket.on("data", (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
    if (waiting === undefined) return
    const end = buffered.indexOf("\r\n\r\n")
    if (end < 0) return
    const head = buffered.subarray(0, end).toString("latin1")
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)
    if (length === null) return fail(new Error(`an answer without content-length: ${head.slice(0, 200)}`))
    const total = end + 4 + Number(length[1])
    if (buffered.length < total) return
    const answer = { status: Number(head.slice(9, 12)), body: buffered.subarray(end + 4, total) }
    buffered = buffered.subarray(total)
    const w = waiting
    waiting = undefined
    w.resolve(answer)
  })
  return {
    /** POST /v1/transactions with `bytes` (BCS); resolves to `{ status, body }`. */
    submit: (bytes) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject }
        const head = `POST /v1/transactions HTTP/1.1\r\nHost: 127.0.0.1:${PORTS.api}\r\nContent-Type: application/x.aptos.signed_transaction+bcs\r\nAccept: application/x-bcs\r\nContent-Length: ${bytes.length}\r\n\r\n`
        socket.write(Buffer.concat([Buffer.from(head, "latin1"), bytes]))
      }),
    close: () => socket.destroy()
  }
}

const submit = (bytes) =>
  request("POST", "/transactions", bytes, { "content-type": "application/x.aptos.signed_transaction+bcs", accept: "application/x-bcs" })

/**
 * wait_by_hash until committed. The node answers a pending transaction at once when 100 requests
 * already wait (the reference's bound), so a quick "pending" is followed by a short pause, not a spin.
 */
const waitCommitted = async (hash, deadlineMs = 60_000) => {
  const until = performance.now() + deadlineMs
  for (;;) {
    if (performance.now() > until) throw new Error(`not committed within ${deadlineMs} ms`)
    const t0 = performance.now()
    const r = await request("GET", `/transactions/wait_by_hash/0x${hash}`)
    const body = await r.json()
    if (r.status === 200 && body.type !== "pending_transaction") return body
    if (r.status !== 200) throw new Error(`wait_by_hash ${r.status}: ${JSON.stringify(body)}`)
    if (performance.now() - t0 < 100) await sleep(10)
  }
}

/**
 * Until the sender of `t` has committed it (its account's sequence number passed `t`'s), read the
 * account every 5 ms. The throughput run's end: a wait_by_hash would answer with the transaction's
 * JSON, and the first JSON answer of a run catches the table-info index up with every transaction
 * committed since the start (src/node/tableInfo: ~15 µs each, ~0.5 s after 30,000): a one-time
 * cost of the first read, not of committing.
 */
const waitSequence = async (t, deadlineMs = 60_000) => {
  const until = performance.now() + deadlineMs
  while (performance.now() < until) {
    const r = await request("GET", `/accounts/0x${t.sender}`)
    const body = await r.json()
    if (r.status === 200 && BigInt(body.sequence_number) > t.sequenceNumber) return
    await sleep(5)
  }
  throw new Error(`not committed within ${deadlineMs} ms`)
}

/** Transactions committed from `signers`' accounts so far: the sum of their sequence numbers (bigint). */
const committedBy = async (signers) => {
  let committed = 0n
  for (const s of signers) committed += BigInt((await (await fetch(`${API}/accounts/0x${toHex(s.address)}`)).json()).sequence_number)
  return committed
}

const percentile = (xs, p) => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}
const nowSecs = () => BigInt(Math.floor(Date.now() / 1000))

const main = async () => {
  if (mode === "start") {
    const repeat = arg("repeat", 5)
    const who = `0x${"cd".repeat(32)}`
    /** Start → the faucet answers → its transaction committed; then stop. */
    const once = async (options) => {
      // The default parameters, as `npm start` runs (a new directory imports the prebuilt genesis).
      const node = startNode(undefined, options)
      let hash
      for (;;) {
        assertRunning(node.child)
        try {
          const r = await fetch(`http://127.0.0.1:${PORTS.faucet}/fund`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address: who, amount: 100 }) })
          if (r.status === 200) { hash = (await r.json()).txn_hashes[0]; break }
        } catch {}
        await sleep(2)
      }
      await waitCommitted(hash)
      const ms = performance.now() - node.t0
      await node.stop()
      return ms
    }
    const runs = { newDirectory: [], restart: [], fresh: [] }
    for (let i = 0; i < repeat; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), "movenode-loadgen-"))
      runs.newDirectory.push(await once({ dataDir, fresh: false }))
      runs.restart.push(await once({ dataDir, fresh: false }))
      runs.fresh.push(await once({ dataDir, fresh: true }))
      rmSync(dataDir, { recursive: true, force: true })
    }
    const summary = Object.fromEntries(Object.entries(runs).map(([k, xs]) => [k, { medianMs: Math.round(percentile(xs, 50)), maxMs: Math.round(Math.max(...xs)), runsMs: xs.map(Math.round) }]))
    console.log(JSON.stringify({ mode, ...summary }))
    return
  }
  if (mode === "latency" || mode === "soak") {
    const rate = arg("rate", mode === "soak" ? 200 : 100)
    const seconds = arg("seconds", mode === "soak" ? 600 : 30)
    // The first seconds after a start run on a cold VM (modules loaded, code not yet optimised):
    // sent at the same rate, not counted (the start-up benchmark covers a cold node).
    const warmup = arg("warmup", 5)
    // Each sender has one transfer in flight at a time (submitted, then waited for): a refused or
    // lost submission re-reads the sender's sequence number, so one failed request never leaves a
    // gap that parks every later transfer of the sender. Senders for 200 ms per transfer; a due
    // transfer with no free sender waits for one (`openLoop`: oldest first, counted `late`), its
    // latency from when it fell due counted in `fromDueMs` — skipping it would leave out exactly
    // the transfers a stall delays most.
    const senders = accountsOf(Math.max(8, Math.ceil(rate / 5)))
    const node = startNode(senders.length)
    await waitReady(node)
    const latencies = []
    // The two halves of each measured latency: POST answered 202 (HTTP, decode, admission), then
    // wait_by_hash answered committed (the block: execution, the durable commit, the answer).
    const submitted = []
    const waited = []
    // submit → committed counted from when each transfer fell due (≥ the latency above: the wait
    // for a free sender and the generator's own lag included).
    const fromDue = []
    const timeline = []
    const memory = []
    let failures = 0
    const errors = {}
    const resync = async (from) => {
      try {
        const a = await (await fetch(`${API}/accounts/0x${toHex(from.address)}`)).json()
        from.next = BigInt(a.sequence_number)
      } catch {}
    }
    const start = performance.now()
    const sampler = mode === "soak" ? setInterval(() => memory.push({ t: Math.round((performance.now() - start) / 1000), ...memoryOf(node.child.pid) }), 10_000) : undefined
    // The node's CPU over the measured seconds (after the warm-up): the event loop's thread and all.
    let cpu0
    const paced = await openLoop({
      rate,
      seconds: warmup + seconds,
      senders,
      start,
      tick: (elapsed) => {
        if (cpu0 === undefined && elapsed >= warmup * 1000)
          cpu0 = { at: performance.now(), node: cpuSecs(node.child.pid), main: cpuSecs(node.child.pid, { mainThread: true }) }
      },
      send: async (from, dueAt, k) => {
        const t = transfer(from, senders[k % senders.length].address, 1n, nowSecs() + 60n)
        const t0 = performance.now()
        try {
          const r = await submit(t.bytes)
          await r.arrayBuffer()
          if (r.status !== 202) throw new Error(`submit ${r.status}`)
          const accepted = performance.now()
          const done = await waitCommitted(t.hash)
          const committed = performance.now()
          if (!done.success) failures++
          // [submitted (ms into the run), submit → committed (ms), submitted (wall clock, ms since
          // the epoch: scripts/latency-stalls.mjs lines it up with the node's threads), submit → 202 (ms)]
          timeline.push([Math.round(t0 - start), Math.round(committed - t0), Math.round(performance.timeOrigin + t0), Math.round(accepted - t0)])
          if (dueAt >= warmup * 1000) {
            latencies.push(committed - t0)
            fromDue.push(committed - start - dueAt)
            submitted.push(accepted - t0)
            waited.push(committed - accepted)
          }
        } catch (e) {
          failures++
          const why = String(e?.cause?.code ?? e?.message ?? e).slice(0, 60)
          errors[why] = (errors[why] ?? 0) + 1
          await resync(from)
        }
      }
    })
    const wall = (performance.now() - (cpu0?.at ?? start)) / 1000
    const cpu = cpu0 === undefined ? undefined : {
      nodeCores: +((cpuSecs(node.child.pid) - cpu0.node) / wall).toFixed(3),
      nodeMainThreadCores: +((cpuSecs(node.child.pid, { mainThread: true }) - cpu0.main) / wall).toFixed(3)
    }
    if (sampler !== undefined) clearInterval(sampler)
    if (process.env.LOADGEN_TIMELINE) writeFileSync(process.env.LOADGEN_TIMELINE, JSON.stringify(timeline))
    console.log(JSON.stringify({ mode, rate, seconds, warmupSecs: warmup, sent: paced.sent, late: paced.late, lateMaxMs: paced.lateMaxMs, unsent: paced.unsent, committed: timeline.length, measured: latencies.length, failures, errors, p50Ms: +percentile(latencies, 50).toFixed(2), p99Ms: +percentile(latencies, 99).toFixed(2), maxMs: +Math.max(...latencies).toFixed(2), fromDueMs: { p50: +percentile(fromDue, 50).toFixed(2), p99: +percentile(fromDue, 99).toFixed(2), max: +Math.max(...fromDue).toFixed(2) }, submitMs: { p50: +percentile(submitted, 50).toFixed(2), p99: +percentile(submitted, 99).toFixed(2) }, waitMs: { p50: +percentile(waited, 50).toFixed(2), p99: +percentile(waited, 99).toFixed(2) }, cpu, memory }))
    await node.stop()
    return
  }
  if (mode === "sequential") {
    const count = arg("count", 1000)
    const [from, to] = accountsOf(2)
    const node = startNode(2, { keep: true })
    await waitReady(node)
    const ledgerDir = join(node.dir, "ledger")
    const fileSize = () => statSync(join(ledgerDir, "data.mdb")).size
    const info0 = await (await fetch(API)).json()
    // After the node's first block (made at start), so the figure is per transfer.
    const stats0 = ledgerStats(ledgerDir)
    const size0 = fileSize()
    const t0 = performance.now()
    const threads0 = threadCpu(node.child.pid)
    const front0 = childrenCpuSecs(node.child.pid)
    const latencies = []
    const submitMs = []
    const waitMs = []
    for (let i = 0; i < count; i++) {
      const t = transfer(from, to.address, 1n, nowSecs() + 60n)
      const s0 = performance.now()
      const r = await submit(t.bytes)
      await r.arrayBuffer()
      if (r.status !== 202) throw new Error(`submit ${r.status}`)
      const s1 = performance.now()
      const done = await waitCommitted(t.hash)
      if (!done.success) throw new Error(`transfer ${i} failed: ${done.vm_status}`)
      const s2 = performance.now()
      latencies.push(s2 - s0)
      submitMs.push(s1 - s0)
      waitMs.push(s2 - s1)
    }
    const seconds = (performance.now() - t0) / 1000
    // The node's CPU per transfer (one block each: the block's own costs — its metadata
    // transaction, commit, fsync, announcement, the index's batch — are each transfer's here).
    const split = cpuSplit(node.child.pid, threads0, threadCpu(node.child.pid))
    const perTransfer = (secs) => +((secs * 1000) / count).toFixed(2)
    const cpuMsPerTransfer = {
      node: perTransfer(split.total),
      mainThread: perTransfer(split.main),
      busiestOtherThread: perTransfer(split.busiestOther),
      otherThreads: perTransfer(split.rest),
      // The node's child processes (the front process, which answers reads and hands connections
      // over): not in `node`, which is the node process's threads.
      front: perTransfer(childrenCpuSecs(node.child.pid) - front0)
    }
    const info1 = await (await fetch(API)).json()
    await node.stop()
    const size1 = fileSize()
    const stats1 = ledgerStats(ledgerDir)
    rmSync(node.dir, { recursive: true, force: true })
    const before = new Map(stats0.tables.map((t) => [t.table, t]))
    const tables = stats1.tables.map((t) => {
      const b = before.get(t.table) ?? { entries: 0, keyBytes: 0, valueBytes: 0, pageBytes: 0 }
      return {
        table: t.table,
        entriesPerTransfer: +((t.entries - b.entries) / count).toFixed(2),
        recordBytesPerTransfer: Math.round((t.keyBytes + t.valueBytes - b.keyBytes - b.valueBytes) / count),
        pageBytesPerTransfer: Math.round((t.pageBytes - b.pageBytes) / count),
        overflowPages: t.overflowPages
      }
    })
    const pages = (s) => s.usedPages
    console.log(
      JSON.stringify({
        mode,
        count,
        seconds: +seconds.toFixed(1),
        versions: Number(info1.ledger_version) - Number(info0.ledger_version),
        blocks: Number(info1.block_height) - Number(info0.block_height),
        dataMdbGrowth: size1 - size0,
        bytesPerTransfer: Math.round((size1 - size0) / count),
        usedPagesPerTransfer: +((pages(stats1) - pages(stats0)) / count).toFixed(2),
        unreferencedPages: { before: stats0.unreferencedPages, after: stats1.unreferencedPages },
        freeListRecords: stats1.freeListRecords,
        p50Ms: +percentile(latencies, 50).toFixed(2),
        p99Ms: +percentile(latencies, 99).toFixed(2),
        // The two halves: until the POST's 202, then until wait_by_hash answers it committed.
        submitMs: { p50: +percentile(submitMs, 50).toFixed(2), p99: +percentile(submitMs, 99).toFixed(2) },
        waitMs: { p50: +percentile(waitMs, 50).toFixed(2), p99: +percentile(waitMs, 99).toFixed(2) },
        cpuMsPerTransfer,
        load: loadAverage()
      })
    )
    console.table(tables)
    return
  }
  if (mode === "submit") {
    const count = arg("count", 20000)
    const senders = accountsOf(arg("accounts", 256))
    // The pool takes 100 per sender: more would be refused (507), which is not the path measured.
    if (count > senders.length * 100) throw new Error(`--count at most 100 per account (${senders.length * 100})`)
    const node = startNode(senders.length, { extra: ["--block-time", "3600000", "--idle-block-time", "off"] })
    await waitReady(node)
    const expiration = nowSecs() + 3600n
    const txns = Array.from({ length: count }, (_, i) => transfer(senders[i % senders.length], senders[(i + 1) % senders.length].address, 1n, expiration))
    // Warm-up: the first 5 % (code optimised, caches filled), not counted.
    const warm = Math.floor(count / 20)
    let next = 0
    const statuses = {}
    const push = async (until) => {
      while (next < until) {
        const r = await submit(txns[next++].bytes)
        await r.arrayBuffer()
        statuses[r.status] = (statuses[r.status] ?? 0) + 1
      }
    }
    const concurrency = arg("concurrency", 64)
    await Promise.all(Array.from({ length: concurrency }, () => push(warm)))
    const cpu0 = { node: cpuSecs(node.child.pid), nodeMain: cpuSecs(node.child.pid, { mainThread: true }), loadgen: ownCpuSecs() }
    const t0 = performance.now()
    await Promise.all(Array.from({ length: concurrency }, () => push(count)))
    const secs = (performance.now() - t0) / 1000
    const measured = count - warm
    const us = (s) => +((s * 1e6) / measured).toFixed(1)
    const cpu = {
      nodeUsPerSubmission: us(cpuSecs(node.child.pid) - cpu0.node),
      nodeMainThreadUsPerSubmission: us(cpuSecs(node.child.pid, { mainThread: true }) - cpu0.nodeMain),
      loadgenUsPerSubmission: us(ownCpuSecs() - cpu0.loadgen)
    }
    console.log(JSON.stringify({ mode, count, measured, statuses, submissionsPerSec: Math.round(measured / secs), cpu, load: loadAverage(), rssMb: memoryOf(node.child.pid).rssMb }))
    await node.stop()
    return
  }
  if (mode === "sdk") {
    const seconds = arg("seconds", 30)
    const n = arg("accounts", 64)
    const wait = args.includes("--wait")
    const sdk = await import(createRequire(join(root, "package.json")).resolve("@aptos-labs/ts-sdk"))
    const senders = accountsOf(n)
    const node = startNode(n)
    await waitReady(node)
    const aptos = new sdk.Aptos(new sdk.AptosConfig({ network: sdk.Network.CUSTOM, fullnode: API }))
    const accounts = senders.map((a) => sdk.Account.fromPrivateKey({ privateKey: new sdk.Ed25519PrivateKey(a.privateKey) }))
    const sequence = accounts.map(() => 0)
    const info0 = await (await fetch(API)).json()
    const cpu0 = { node: cpuSecs(node.child.pid), main: cpuSecs(node.child.pid, { mainThread: true }), loadgen: ownCpuSecs(), threads: threadCpu(node.child.pid) }
    const start = performance.now()
    const deadline = start + seconds * 1000
    let submitted = 0
    const failures = {}
    await Promise.all(
      accounts.map(async (account, i) => {
        while (performance.now() < deadline) {
          try {
            const transaction = await aptos.transaction.build.simple({
              sender: account.accountAddress,
              data: { function: "0x1::aptos_account::transfer", functionArguments: [accounts[(i + 1) % n].accountAddress, 1] },
              options: { accountSequenceNumber: sequence[i], maxGasAmount: 20_000, gasUnitPrice: 100, expireTimestamp: Math.floor(Date.now() / 1000) + 600 }
            })
            const senderAuthenticator = aptos.transaction.sign({ signer: account, transaction })
            const pending = await aptos.transaction.submit.simple({ transaction, senderAuthenticator })
            sequence[i]++
            submitted++
            if (wait) await aptos.waitForTransaction({ transactionHash: pending.hash })
          } catch (e) {
            const key = String(e?.message ?? e).slice(0, 120)
            failures[key] = (failures[key] ?? 0) + 1
            await sleep(50)
          }
        }
      })
    )
    const submitSecs = (performance.now() - start) / 1000
    // Everything submitted committed (or the run says how many did not).
    const deadlineCommit = performance.now() + 10_000
    let committed = 0
    for (;;) {
      committed = Number(await committedBy(senders))
      if (committed >= submitted || performance.now() > deadlineCommit) break
      await sleep(50)
    }
    const elapsed = (performance.now() - start) / 1000
    const info1 = await (await fetch(API)).json()
    const nodeSecs = cpuSecs(node.child.pid) - cpu0.node
    const split = cpuSplit(node.child.pid, cpu0.threads, threadCpu(node.child.pid))
    const ms = (secs) => +((secs * 1000) / Math.max(1, committed)).toFixed(3)
    console.log(JSON.stringify({
      mode, wait, seconds, accounts: n, submitted, committed, failures,
      committedPerSec: Math.round(committed / elapsed), submitSecs: +submitSecs.toFixed(1),
      versions: Number(info1.ledger_version) - Number(info0.ledger_version), blocks: Number(info1.block_height) - Number(info0.block_height),
      cpu: {
        nodeCores: +(nodeSecs / elapsed).toFixed(2), loadgenCores: +((ownCpuSecs() - cpu0.loadgen) / elapsed).toFixed(2),
        nodeMsPerTransfer: ms(nodeSecs), loadgenMsPerTransfer: ms(ownCpuSecs() - cpu0.loadgen),
        nodeMainThreadMsPerTransfer: ms(cpuSecs(node.child.pid, { mainThread: true }) - cpu0.main),
        nodeBusiestOtherThreadMsPerTransfer: ms(split.busiestOther), nodeSecondOtherThreadMsPerTransfer: ms(split.secondOther),
        nodeRemainingThreadsMsPerTransfer: ms(split.restBeyondTwo)
      },
      load: loadAverage()
    }))
    await node.stop()
    return
  }
  if (mode === "throughput") {
    const seconds = arg("seconds", 60)
    // Transfers signed beforehand per second of the run: more than the node takes, so the run is
    // never short of them (issue 22's target is 2,500/s).
    const target = arg("target", 4000)
    const senders = accountsOf(arg("accounts", 64))
    const node = startNode(senders.length, { keep: true })
    await waitReady(node)
    // Pre-signed: target × seconds transfers, round-robin over the senders (sequence numbers in order).
    // `--rate R`: an offered rate (transfers/s, paced) instead of "as fast as taken": below the
    // node's capacity the CPU per transfer at the same rate compares builds on a busy machine.
    const rate = arg("rate", 0)
    const total = (rate > 0 ? rate : target) * seconds
    const expiration = nowSecs() + BigInt(seconds) + 600n
    const txns = Array.from({ length: total }, (_, i) => transfer(senders[i % senders.length], senders[(i + 1) % senders.length].address, 1n, expiration))
    const info0 = await (await fetch(API)).json()
    // The ledger's growth per committed transfer in full blocks (the node's own directory).
    const ledgerBytes = () => statSync(join(node.dir, "ledger", "data.mdb")).size
    const bytes0 = ledgerBytes()
    const start = performance.now()
    const cpu0 = { node: cpuSecs(node.child.pid), nodeMain: cpuSecs(node.child.pid, { mainThread: true }), front: childrenCpuSecs(node.child.pid), loadgen: ownCpuSecs(), threads: threadCpu(node.child.pid) }
    // The committed transfers once a second (the ledger's versions less each block's two system
    // transactions), so the node's warm-up — V8 compiling the hot path, most of the first ~8 s of
    // a fresh node's load on this machine — shows apart from its steady rate.
    const samples = []
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const at = performance.now()
        try {
          const i = await (await fetch(API)).json()
          samples.push({ at: (at - start) / 1000, transfers: Number(i.ledger_version) - 2 * Number(i.block_height) })
        } catch {}
        await sleep(Math.max(0, 1000 - (performance.now() - at)))
      }
    })()
    let next = 0
    let refused = 0
    let retried = 0
    /** Refusals by the answer's status and message (numbers blanked), so a figure says why. */
    const refusals = {}
    /** Indices of the accepted transfers, and each sender's first refused one (by sender index). */
    const accepted = []
    const firstRefused = new Map()
    // `--retry 0`: a refused transfer is skipped (its sender's later transfers then wait behind a
    // gap and never commit). By default a client honours 507 mempool_is_full (backpressure: the
    // sender already has 100 pending, the reference's capacity_per_user) by resubmitting the same
    // transfer after a pause, as the SDK's users do; the pause lets the pool drain.
    const retry = arg("retry", 1) !== 0
    // A fixed number of concurrent submitters; the pool holds up to 100 per sender, so with 64
    // senders a few thousand may be in flight.
    const worker = async () => {
      const connection = submitterConnection()
      while (next < total && performance.now() - start < seconds * 1000) {
        const k = next++
        const t = txns[k]
        if (rate > 0) {
          const due = start + (k * 1000) / rate
          const now = performance.now()
          if (due > now) await sleep(due - now)
        }
        for (;;) {
          const r = await connection.submit(t.bytes)
          const body = r.body
          if (r.status === 202) {
            accepted.push(k)
            break
          }
          let why = String(r.status)
          try {
            const e = JSON.parse(Buffer.from(body).toString("utf8"))
            why = `${r.status} ${e.error_code}: ${String(e.message).replace(/[0-9]+/g, "N").slice(0, 80)}`
          } catch {}
          refusals[why] = (refusals[why] ?? 0) + 1
          if (!(retry && r.status === 507 && performance.now() - start < seconds * 1000)) {
            refused++
            const sender = k % senders.length
            firstRefused.set(sender, Math.min(firstRefused.get(sender) ?? k, k))
            break
          }
          retried++
          await sleep(20)
        }
      }
      connection.close()
    }
    await Promise.all(Array.from({ length: arg("concurrency", 64) }, worker))
    const submitted = next
    const submitSecs = (performance.now() - start) / 1000
    sampling = false
    await sampler
    // `--warmup W` (default 10 s): the steady rate is the one after the first W seconds, while
    // transfers were still being submitted.
    const warmup = arg("warmup", 10)
    const steady = samples.filter((x) => x.at >= warmup)
    const steadyPerSec =
      steady.length < 2 ? null : Math.round((steady.at(-1).transfers - steady[0].transfers) / (steady.at(-1).at - steady[0].at))
    const perSecond = samples.slice(1).map((x, i) => Math.round((x.transfers - samples[i].transfers) / (x.at - samples[i].at)))
    // Wait for the pool to drain — until the last accepted transfer that can commit has: one after
    // a refused transfer of its sender waits behind the gap for ever (the pool was full as the run
    // ended: the last refusals come then) — then count committed transfers by sequence numbers.
    let lastCommittable = -1
    for (const k of accepted)
      if (k > lastCommittable && k < (firstRefused.get(k % senders.length) ?? Number.POSITIVE_INFINITY)) lastCommittable = k
    if (lastCommittable >= 0) await waitSequence(txns[lastCommittable]).catch(() => undefined)
    const elapsed = (performance.now() - start) / 1000
    const committed = await committedBy(senders)
    const info1 = await (await fetch(API)).json()
    // CPU seconds each process used while the transfers flowed (the node's per committed transfer).
    const cpu = {
      nodeSecs: +(cpuSecs(node.child.pid) - cpu0.node).toFixed(1),
      nodeMainThreadSecs: +(cpuSecs(node.child.pid, { mainThread: true }) - cpu0.nodeMain).toFixed(1),
      loadgenSecs: +(ownCpuSecs() - cpu0.loadgen).toFixed(1),
      // The node's child processes (the front process): not in nodeSecs, the node process's threads.
      frontSecs: +(childrenCpuSecs(node.child.pid) - cpu0.front).toFixed(1)
    }
    cpu.nodeMsPerTransfer = +((cpu.nodeSecs * 1000) / Math.max(1, Number(committed))).toFixed(3)
    cpu.nodeMainThreadMsPerTransfer = +((cpu.nodeMainThreadSecs * 1000) / Math.max(1, Number(committed))).toFixed(3)
    // The busiest thread besides main: the indexer's worker thread when the indexer is on (up to
    // the last commit: the index may still be a batch behind then).
    const split = cpuSplit(node.child.pid, cpu0.threads, threadCpu(node.child.pid))
    const perTransfer = (secs) => +((secs * 1000) / Math.max(1, Number(committed))).toFixed(3)
    cpu.nodeBusiestOtherThreadMsPerTransfer = perTransfer(split.busiestOther)
    // The next busiest (the admission worker, validating submissions off the event loop under this
    // load) and every other thread (V8's collector and compiler helpers, libuv's pool: LMDB's writes).
    cpu.nodeSecondOtherThreadMsPerTransfer = perTransfer(split.secondOther)
    cpu.nodeRemainingThreadsMsPerTransfer = perTransfer(split.restBeyondTwo)
    console.log(JSON.stringify({ cpu, load: loadAverage(), mode, seconds, rate, submitted, refused, retried, refusals, submitSecs: +submitSecs.toFixed(1), committed: Number(committed), elapsedSecs: +elapsed.toFixed(1), committedPerSec: Math.round(Number(committed) / elapsed), steadyPerSec, steadyFromSecs: warmup, perSecond, versions: Number(info1.ledger_version) - Number(info0.ledger_version), blocks: Number(info1.block_height) - Number(info0.block_height), ledgerBytesPerTransfer: Math.round((ledgerBytes() - bytes0) / Math.max(1, Number(committed))), rssMb: memoryOf(node.child.pid).rssMb }))
    await node.stop()
    rmSync(node.dir, { recursive: true, force: true })
  }
}

await main()
