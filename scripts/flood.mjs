#!/usr/bin/env node
/**
 * Accepting under load (issue 22, docs/benchmarks.md "Accepting under a submission flood"): the
 * built local chain (as `npm start` runs it) on ports 28080/28081/28070/28090 of this machine (run
 * it in a network namespace of your own when others use those ports), flooded by `--clients`
 * kept-alive connections that each submit signed APT transfers (BCS) back to back, one in every
 * `--garbage` of them a malformed body; meanwhile a separate probe process (so the flood's own
 * event loop cannot delay it), warmed up before the flood starts (a prober is a long-running
 * process), opens a *new* connection every `--probe-ms` for each of: the API's
 * health check (`GET /v1/-/healthy`), the readiness server (`GET /` on 8070) and a plain read
 * (`GET /v1/accounts/0x1`), and times connect → full answer.
 *
 *   node scripts/flood.mjs [--clients 512] [--seconds 20] [--garbage 10] [--probe-ms 100] [--accounts 256] [--probe-nice N] [--probe-lookups]
 *
 * Prints one JSON line: per probe kind the count, failures (no answer within 10 s or not 200), p50,
 * p99 and max in ms; the flood's answers by status; committed transfers; the load average;
 * `turns`, the node's event-loop turns during the flood (scripts/turn-monitor.mjs): the main
 * thread's CPU per turn (p50/p90/p99/max ms, independent of the machine's load), the wall time per
 * turn and the part of it spent waiting for a core (which the load decides); and `cores`, the CPU
 * each process took during the flood in cores (the node, its child processes — the front process —,
 * this generator, the prober) — on a
 * 2-core machine the three share two cores, so a probe also waits for the prober's own turn.
 * `--probe-nice N` runs the prober's event loop at nice N (a negative N needs root or
 * `RLIMIT_NICE`; `probeNice` says what it got): a prober on a machine of its own, or a balancer's
 * checks at their own priority, do not wait behind the flood; the difference to a run without it
 * is the part of the probes' time that was the prober's own waiting for a core.
 * `--probe-lookups`: two more kinds, what a client building and following a transaction asks on a
 * new connection: the gas estimate (`GET /v1/estimate_gas_price`) and a committed transaction by
 * hash (`GET /v1/transactions/by_hash/…`, the chain's first block's).
 * `FLOOD_PROBE_DUMP=FILE`: every probe's start (ms after the first) and duration, to FILE.
 * `FLOOD_NODE_ARGS="…"`: extra flags for Node.js (e.g. `--cpu-prof --cpu-prof-dir=DIR`);
 * `FLOOD_MOVENODE_ARGS="…"`: extra flags for movenode (e.g. `--no-indexer`, `--no-fsync`), as
 * `LOADGEN_MOVENODE_ARGS` for scripts/loadgen.mjs.
 */
import { fork } from "node:child_process"
import http from "node:http"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { getPriority, setPriority, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { aptTransfer, childrenCpuSecs, cpuSecs, cliArgs, loadAverage, loadDist, localSigners, root, sleep, startMovenode, stopMovenode, waitForNode } from "./lib.mjs"

const PORTS = { api: 28080, faucet: 28081, ready: 28070, graphql: 28090 }
const args = process.argv.slice(2)
const { num: arg } = cliArgs(args)
const percentile = (xs, p) => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}

// ---- the probe process: new connections, timed ---------------------------------------------------
if (args[0] === "--probe") {
  const everyMs = Number(args[1])
  // The prober's own priority (its event loop's thread; Linux's setpriority acts per thread).
  let probeNice
  if (args[2] !== undefined && args[2] !== "") {
    try {
      setPriority(0, Number(args[2]))
    } catch {}
    probeNice = getPriority(0)
  }
  const targets = [
    ["healthy", PORTS.api, "/v1/-/healthy"],
    ["ready", PORTS.ready, "/"],
    ["read", PORTS.api, "/v1/accounts/0x1"]
  ]
  if (args[3] === "lookups") {
    const first = await (await fetch(`http://127.0.0.1:${PORTS.api}/v1/transactions/by_version/1`)).json()
    targets.push(["gas", PORTS.api, "/v1/estimate_gas_price"], ["byHash", PORTS.api, `/v1/transactions/by_hash/${first.hash}`])
  }
  const results = Object.fromEntries(targets.map(([name]) => [name, { ms: [], at: [], failures: 0 }]))
  let probeStart = performance.now()
  let stop = false
  let go
  const started = new Promise((resolve) => (go = resolve))
  process.on("message", (m) => {
    if (m === "stop") stop = true
    else if (m === "go") go()
  })
  const once = ([name, port, path]) =>
    new Promise((resolve) => {
      const t0 = performance.now()
      // agent: false: a new TCP connection per probe, as a balancer's or Kubernetes' probe.
      const req = http.get({ host: "127.0.0.1", port, path, agent: false, timeout: 10_000 }, (res) => {
        res.resume()
        res.once("end", () => {
          if (res.statusCode === 200) {
            results[name].ms.push(performance.now() - t0)
            results[name].at.push(t0 - probeStart)
          } else results[name].failures++
          resolve()
        })
      })
      req.once("timeout", () => req.destroy(new Error("timeout")))
      req.once("error", () => {
        results[name].failures++
        resolve()
      })
    })
  // Warm-up, not counted: a balancer's or Kubernetes' prober is a long-running process, and this
  // one's first requests would otherwise time its own start — loading node:http's client and
  // compiling it, ~130 ms of its CPU in the flood's first 0.2 s, while the node's event loop was
  // idle (9–14 ms of CPU during the first probe's 107–152 ms; session 20).
  // At most 20 rounds or 5 s (a probe that fails waits up to its 10 s timeout).
  const warmUntil = performance.now() + 5_000
  for (let i = 0; i < 20 && performance.now() < warmUntil; i++) for (const t of targets) await once(t)
  for (const r of Object.values(results)) Object.assign(r, { ms: [], at: [], failures: 0 })
  process.send("warm")
  await started
  probeStart = performance.now()
  const cpu0 = process.cpuUsage()
  const inflight = new Set()
  while (!stop) {
    for (const t of targets) {
      const p = once(t)
      inflight.add(p)
      p.finally(() => inflight.delete(p))
    }
    await sleep(everyMs)
  }
  await Promise.all(inflight)
  const cpu = process.cpuUsage(cpu0)
  const seconds = (performance.now() - probeStart) / 1000
  process.send(
    { results, cores: +((cpu.user + cpu.system) / 1e6 / seconds).toFixed(3), nice: probeNice },
    () => process.exit(0)
  )
} else {
  const lib = await loadDist()
  const clients = arg("clients", 512)
  const seconds = arg("seconds", 20)
  const garbageEvery = arg("garbage", 10)
  const probeMs = arg("probe-ms", 100)
  const accountCount = arg("accounts", 256)
  const probeNice = cliArgs(args).arg("probe-nice", "")
  const accounts = localSigners(lib, accountCount)
  const expiration = BigInt(Math.floor(Date.now() / 1000) + seconds + 600)
  const transfer = (from, to) => aptTransfer(lib, from, to, 1n, expiration).bytes

  const dir = mkdtempSync(join(tmpdir(), "movenode-flood-"))
  // The node's event-loop turns during the flood (scripts/turn-monitor.mjs: SIGUSR2 starts and stops it).
  const turnsFile = join(tmpdir(), `movenode-flood-turns-${process.pid}.json`)
  const node = startMovenode(
    [
      "--data-dir", dir, "--fresh", "--quiet", "--accounts", String(accountCount),
      "--listen", `127.0.0.1:${PORTS.api}`, "--faucet-listen", `127.0.0.1:${PORTS.faucet}`,
      "--ready-listen", `127.0.0.1:${PORTS.ready}`, "--graphql-listen", `127.0.0.1:${PORTS.graphql}`,
      ...(process.env.FLOOD_MOVENODE_ARGS ?? "").split(" ").filter((a) => a !== "")
    ],
    {
      nodeArgs: [
        "--import", pathToFileURL(join(root, "scripts", "turn-monitor.mjs")).href,
        ...(process.env.FLOOD_NODE_ARGS ?? "").split(" ").filter((a) => a !== "")
      ],
      env: { ...process.env, TURN_MONITOR_OUT: turnsFile }
    }
  )
  const stopNode = async () => {
    await stopMovenode(node)
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    // Ready as the SDK's harness waits for it: the readiness server answers 200 (it listens once
    // every service is up, the indexer included, which can be seconds after the API answers).
    await waitForNode(node, `http://127.0.0.1:${PORTS.ready}/`, { intervalMs: 10, timeoutMs: 60_000 })
    const agent = new http.Agent({ keepAlive: true, maxSockets: clients })
    const statuses = {}
    let sent = 0
    const post = (body) =>
      new Promise((resolve) => {
        const req = http.request(
          {
            host: "127.0.0.1", port: PORTS.api, path: "/v1/transactions", method: "POST", agent,
            headers: { "content-type": "application/x.aptos.signed_transaction+bcs", accept: "application/x-bcs", "content-length": body.length }
          },
          (res) => {
            res.resume()
            res.once("end", () => {
              statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
              resolve()
            })
          }
        )
        req.once("error", (e) => {
          statuses[e.code ?? "error"] = (statuses[e.code ?? "error"] ?? 0) + 1
          resolve()
        })
        req.end(body)
      })
    const lookups = args.includes("--probe-lookups") ? "lookups" : ""
    const probe = fork(fileURLToPath(import.meta.url), ["--probe", String(probeMs), probeNice, lookups], { stdio: "inherit" })
    await new Promise((resolve, reject) => {
      probe.once("message", resolve) // "warm"
      probe.once("exit", (code) => reject(new Error(`the probe process exited (${code}) before its warm-up ended`)))
    })
    const probed = new Promise((r) => probe.once("message", r))
    probe.send("go")
    node.kill("SIGUSR2")
    const start = performance.now()
    const nodeCpu0 = cpuSecs(node.pid)
    const frontCpu0 = childrenCpuSecs(node.pid)
    const floodCpu0 = process.cpuUsage()
    const garbage = Buffer.from("this is not a signed transaction")
    // Client c sends for accounts c, c + clients, …: one sender's sequence numbers stay in order.
    const client = async (c) => {
      const mine = accounts.filter((_, i) => i % clients === c % accounts.length)
      let k = 0
      while (performance.now() - start < seconds * 1000) {
        sent++
        if (garbageEvery > 0 && sent % garbageEvery === 0) await post(garbage)
        else {
          const from = mine[k++ % mine.length] ?? accounts[c % accounts.length]
          await post(transfer(from, accounts[(c + 1) % accounts.length].address))
        }
      }
    }
    await Promise.all(Array.from({ length: clients }, (_, c) => client(c)))
    node.kill("SIGUSR2")
    const floodSecs = (performance.now() - start) / 1000
    const nodeCpu = cpuSecs(node.pid) - nodeCpu0
    const frontCpu = childrenCpuSecs(node.pid) - frontCpu0
    const floodCpu = process.cpuUsage(floodCpu0)
    probe.send("stop")
    const { results, cores: proberCores, nice: proberNice } = await probed
    if (process.env.FLOOD_PROBE_DUMP) writeFileSync(process.env.FLOOD_PROBE_DUMP, JSON.stringify(results))
    const info = await (await fetch(`http://127.0.0.1:${PORTS.api}/v1`)).json()
    let turns
    for (let i = 0; i < 200 && turns === undefined; i++) {
      try {
        turns = JSON.parse(readFileSync(turnsFile, "utf8"))
        rmSync(turnsFile, { force: true })
      } catch {
        await sleep(10)
      }
    }
    const summary = Object.fromEntries(
      Object.entries(results).map(([name, r]) => [
        name,
        { count: r.ms.length, failures: r.failures, p50Ms: +percentile(r.ms, 50).toFixed(1), p99Ms: +percentile(r.ms, 99).toFixed(1), maxMs: +Math.max(...r.ms).toFixed(1) }
      ])
    )
    console.log(
      JSON.stringify({
        clients, seconds, garbageEvery, probes: summary, flood: statuses, turns,
        cores: {
          node: +(nodeCpu / floodSecs).toFixed(3),
          // The node's child processes (the front process, the extra acceptors' helpers).
          front: +(frontCpu / floodSecs).toFixed(3),
          generator: +((floodCpu.user + floodCpu.system) / 1e6 / floodSecs).toFixed(3),
          prober: proberCores
        },
        ...(proberNice === undefined ? {} : { probeNice: proberNice }),
        ledgerVersion: Number(info.ledger_version), blockHeight: Number(info.block_height),
        load: loadAverage()
      })
    )
  } finally {
    await stopNode()
  }
}
