#!/usr/bin/env node
/**
 * Where the latency's tail at a steady rate comes from (issue 22, item 4: submit → committed p99 at
 * 100/s): runs `scripts/loadgen.mjs latency` (its flags passed through; `npm run build` first),
 * samples every thread of the node every 5 ms (`/proc/PID/task/TID/schedstat`, ns on CPU), and
 * groups the slow transfers (≥ `--slow-ms`, default 50) into clusters — slow transfers submitted
 * within 300 ms of each other. For each cluster: when, how many, the slowest, and what each of the
 * node's busiest threads did over it (ms of CPU per 100 ms of the cluster's span, from its first
 * submission to its last commit).
 *
 * What it tells apart: a cluster during which the event loop (the first thread) was busy is the
 * chain's own work (a collection, a long block); one during which every thread was mostly idle is a
 * wait outside the process's CPU — the ledger's commit waiting for its fsync on a slow disk (compare
 * a run with `LOADGEN_MOVENODE_ARGS=--no-fsync`; docs/benchmarks.md, "Session 45").
 *
 *   node scripts/latency-stalls.mjs [--slow-ms 50] [--clusters 12] [-- loadgen latency flags…]
 *
 * Prints the loadgen's JSON line, then one line per cluster, then a JSON summary.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cliArgs, root, sleep } from "./lib.mjs"

const { num } = cliArgs()
const slowMs = num("slow-ms", 50)
const shown = num("clusters", 12)
const dash = process.argv.indexOf("--")
const passed = dash < 0 ? [] : process.argv.slice(dash + 1)
const dir = mkdtempSync(join(tmpdir(), "movenode-latency-stalls-"))
const timelineFile = join(dir, "timeline.json")

const loadgen = spawn(process.execPath, [join(root, "scripts", "loadgen.mjs"), "latency", ...passed], {
  env: { ...process.env, LOADGEN_TIMELINE: timelineFile },
  stdio: ["ignore", "pipe", "inherit"]
})
let output = ""
loadgen.stdout.on("data", (d) => {
  output += d
})
const exited = new Promise((resolve) => loadgen.once("exit", resolve))

/** The node: the load generator's child running movenode (the front process is the node's own child). */
const childrenOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}
const isNode = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("movenode.js")
  } catch {
    return false
  }
}
let pid
while (pid === undefined && loadgen.exitCode === null) {
  pid = childrenOf(loadgen.pid).find(isNode)
  if (pid === undefined) await sleep(20)
}

/** Per-thread CPU (µs) in each 5 ms step, with the step's wall-clock time (ms since the epoch). */
const samples = []
const previous = new Map()
const readThreads = () => {
  const d = new Map()
  let tids
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return undefined
  }
  for (const tid of tids) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "latin1").split(" ")[0])
      const before = previous.get(tid)
      if (before !== undefined && ns > before) d.set(tid, (ns - before) / 1000)
      previous.set(tid, ns)
    } catch {}
  }
  return d
}
if (pid !== undefined)
  while (loadgen.exitCode === null) {
    const d = readThreads()
    if (d === undefined) break
    samples.push({ at: Date.now(), d })
    await sleep(5)
  }
await exited
const line = output.trim().split("\n").at(-1) ?? ""
console.log(line)
let timeline = []
try {
  timeline = JSON.parse(readFileSync(timelineFile, "utf8"))
} catch {}
rmSync(dir, { recursive: true, force: true })
if (pid === undefined || timeline.length === 0 || timeline[0].length < 3) {
  console.log(JSON.stringify({ error: "no node or no timeline (loadgen failed?)" }))
  process.exit(1)
}

// Threads by CPU over the run; the event loop's is the node's own pid.
const total = new Map()
for (const { d } of samples) for (const [tid, us] of d) total.set(tid, (total.get(tid) ?? 0) + us)
const threads = [...total.keys()].sort((a, b) => (a === String(pid) ? -1 : b === String(pid) ? 1 : total.get(b) - total.get(a))).slice(0, 6)

let warmup = 5
try {
  warmup = JSON.parse(line).warmupSecs ?? warmup
} catch {}
const measured = timeline.filter(([offset]) => offset >= warmup * 1000).sort((a, b) => a[2] - b[2])
const slow = measured.filter(([, latency]) => latency >= slowMs)
const clusters = []
for (const [, latency, wall] of slow) {
  const c = clusters.at(-1)
  if (c !== undefined && wall - c.lastSubmitted < 300) {
    c.lastSubmitted = wall
    c.count++
    c.slowest = Math.max(c.slowest, latency)
    c.end = Math.max(c.end, wall + latency)
  } else clusters.push({ start: wall, lastSubmitted: wall, count: 1, slowest: latency, end: wall + latency })
}
const cpuOver = (from, to) => {
  const out = new Map()
  for (const { at, d } of samples) if (at > from && at <= to) for (const [tid, us] of d) out.set(tid, (out.get(tid) ?? 0) + us)
  return out
}
const t0 = measured[0]?.[2] ?? 0
const rows = clusters.map((c) => {
  const span = Math.max(c.end - c.start, 1)
  const cpu = cpuOver(c.start, c.end)
  return {
    atSecs: +((c.start - t0) / 1000).toFixed(2),
    spanMs: span,
    transfers: c.count,
    slowestMs: c.slowest,
    // ms of CPU per 100 ms of the span, the event loop first
    cpuPer100ms: threads.map((tid) => +(((cpu.get(tid) ?? 0) / 1000 / span) * 100).toFixed(1))
  }
})
for (const r of rows.sort((a, b) => b.slowestMs - a.slowestMs).slice(0, shown))
  console.log(
    `at ${String(r.atSecs).padStart(6)} s  ${String(r.transfers).padStart(3)} slow over ${String(r.spanMs).padStart(4)} ms, slowest ${String(r.slowestMs).padStart(4)} ms; CPU ms/100 ms (event loop, then busiest threads): ${r.cpuPer100ms.join(" ")}`
  )
const runCpu = cpuOver(0, Number.POSITIVE_INFINITY)
const runSpan = samples.length > 1 ? samples.at(-1).at - samples[0].at : 1
// A cluster the event loop spent under 30 % of on its core: the transfers waited on something else.
const idle = rows.filter((r) => r.cpuPer100ms[0] < 30)
console.log(
  JSON.stringify({
    slowMs,
    measured: measured.length,
    slow: slow.length,
    clusters: rows.length,
    slowInIdleClusters: idle.reduce((n, r) => n + r.transfers, 0),
    eventLoopCpuPer100msOverRun: +(((runCpu.get(String(pid)) ?? 0) / 1000 / runSpan) * 100).toFixed(1)
  })
)
