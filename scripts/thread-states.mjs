#!/usr/bin/env node
/**
 * Which thread is the critical path: every thread's scheduler state, sampled (Linux, /proc), while
 * something else loads the node (docs/benchmarks.md, session 59).
 *
 *   node scripts/thread-states.mjs --pid NODE_PID [--also PID] [--seconds 6] [--every-ms 1]
 *   e.g. node scripts/loadgen.mjs throughput --seconds 30 &
 *        sleep 15; node scripts/thread-states.mjs --pid $(pgrep -f dist/bin/movenode.js) --also $(pgrep -f loadgen.mjs)
 *
 * Each sample reads `/proc/PID/task/TID/stat` for every thread of the node (and of `--also`, e.g. the
 * load generator: it shares the cores) and notes each thread's state: R (running, or runnable and
 * waiting for a core), S (asleep: waiting for work, a lock, I/O readiness) or D (in the kernel on a
 * disk). Prints per thread the share of samples in each state, with its CPU over the same span from
 * the same files (R minus CPU is the time it waited for a core), then how often 0, 1, 2 and 3+
 * threads were runnable together. On a 2-core machine a thread that is R nearly always is what the
 * rate waits for, and the share of samples with fewer than 2 runnable is a core left idle.
 *
 * Sampling costs this process a core's fraction (it reads ~30 small files a sample): the figures
 * are of a machine with that load added. Threads carry no names (all `node`): the main thread is the
 * event loop, the busiest other the index's worker under a flood of transfers, then the admission
 * worker (loadgen.mjs's `cpuSplit` names them the same way).
 */
import { readdirSync, readFileSync } from "node:fs"
import { cliArgs, cpuSecsOfStat, sleep } from "./lib.mjs"

const { num } = cliArgs()
const pid = num("pid", 0)
const also = num("also", 0)
const seconds = num("seconds", 6)
const everyMs = num("every-ms", 1)
if (!(pid > 0)) throw new Error("--pid: the node's process id")
if (!(seconds > 0 && seconds <= 600)) throw new Error("--seconds: 1 to 600")

/** A thread's state letter and CPU seconds so far from its stat file; undefined if it ended. */
const stat = (p, tid) => {
  try {
    const s = readFileSync(`/proc/${p}/task/${tid}/stat`, "latin1")
    // The state follows the command's name, which is in parentheses and may itself hold ") ".
    return { state: s[s.lastIndexOf(")") + 2], cpuSecs: cpuSecsOfStat(s) }
  } catch {
    return undefined
  }
}

const processes = also > 0 ? [pid, also] : [pid]
const threads = new Map() // "pid/tid" → { role, states: {R, S, D, …}, first, last } (CPU seconds)
const together = [0, 0, 0, 0]
let samples = 0
const t0 = performance.now()
while (performance.now() - t0 < seconds * 1000) {
  let runnable = 0
  for (const p of processes) {
    let tids
    try {
      tids = readdirSync(`/proc/${p}/task`)
    } catch {
      continue
    }
    for (const tid of tids) {
      const s = stat(p, tid)
      if (s === undefined) continue
      const key = `${p}/${tid}`
      let t = threads.get(key)
      if (t === undefined) {
        const role = p === pid ? (Number(tid) === pid ? "node: event loop" : "node") : Number(tid) === p ? "other: main" : "other"
        t = { role, states: {}, first: s.cpuSecs, last: s.cpuSecs }
        threads.set(key, t)
      }
      t.states[s.state] = (t.states[s.state] ?? 0) + 1
      t.last = s.cpuSecs
      if (s.state === "R") runnable++
    }
  }
  together[Math.min(runnable, 3)]++
  samples++
  await sleep(everyMs)
}
const elapsed = (performance.now() - t0) / 1000

const share = (n) => Math.round((1000 * n) / samples) / 1000
const rows = [...threads]
  .map(([key, t]) => ({
    thread: key,
    role: t.role,
    running: share(t.states.R ?? 0),
    asleep: share(t.states.S ?? 0),
    disk: share(t.states.D ?? 0),
    cpu: Math.round(((t.last - t.first) / elapsed) * 1000) / 1000
  }))
  .filter((r) => r.running > 0.005 || r.cpu > 0.005)
  .sort((a, b) => b.running - a.running)
console.table(rows)
const runnableTogether = Object.fromEntries(together.map((n, k) => [k === 3 ? "3+" : String(k), share(n)]))
console.log(JSON.stringify({ samples, seconds: Math.round(elapsed * 10) / 10, runnableTogether, threads: rows }))
