/**
 * Event-loop turns of a running node, for benchmarks (issue 22: "the work of one loop turn is
 * bounded"): load it with `node --import ./scripts/turn-monitor.mjs …` and signal the process.
 * The first SIGUSR2 starts counting, the second stops and writes one JSON object to the file named
 * by `TURN_MONITOR_OUT`: per turn (timers phase to timers phase, turns with at least 0.5 ms of CPU)
 * the main thread's CPU time — from Linux's /proc/self/task/PID/schedstat, so it does not depend
 * on how loaded the machine is, unlike the wall time, also given, with the time spent waiting for
 * a core — as p50/p90/p99/max in ms, and the count of turns over 10 and 20 ms of CPU.
 *
 * While counting, a 1 ms timer samples every loop iteration that lasts 1 ms or more (shorter ones
 * merge into the next sample, idle ones are left out by the 0.5 ms of CPU); an idle loop is woken
 * once a millisecond (a few µs each) rather than kept spinning, so the node's other threads and
 * the load generator keep their cores. Nothing runs before the first signal.
 */
import { closeSync, openSync, readSync, writeFileSync } from "node:fs"

const out = process.env.TURN_MONITOR_OUT
let fd
try {
  fd = openSync(`/proc/self/task/${process.pid}/schedstat`, "r")
} catch {}
const buf = Buffer.alloc(128)
/** [cpu ns, runqueue wait ns] of the main thread, or zeros off Linux. */
const sched = () => {
  if (fd === undefined) return [0, 0]
  const n = readSync(fd, buf, 0, 128, 0)
  const f = buf.toString("latin1", 0, n).split(" ")
  return [Number(f[0]), Number(f[1])]
}
const turns = []
let on = false
let last
const tick = () => {
  if (!on) return
  const t = process.hrtime.bigint()
  const [cpu, wait] = sched()
  turns.push([Number(t - last.t) / 1e6, (cpu - last.cpu) / 1e6, (wait - last.wait) / 1e6])
  last = { t, cpu, wait }
  setTimeout(tick, 1)
}
const quantiles = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const q = (p) => +(s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0).toFixed(2)
  return { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: q(1) }
}
process.on("SIGUSR2", () => {
  if (!on) {
    on = true
    const [cpu, wait] = sched()
    last = { t: process.hrtime.bigint(), cpu, wait }
    setTimeout(tick, 1)
    return
  }
  on = false
  const busy = turns.filter(([, cpu]) => cpu >= 0.5)
  const summary = {
    turns: busy.length,
    cpuMs: quantiles(busy.map((x) => x[1])),
    wallMs: quantiles(busy.map((x) => x[0])),
    waitingForCoreMs: quantiles(busy.map((x) => x[2])),
    over10MsCpu: busy.filter(([, cpu]) => cpu > 10).length,
    over20MsCpu: busy.filter(([, cpu]) => cpu > 20).length,
    mainThreadCpuShare: +(busy.reduce((a, x) => a + x[1], 0) / Math.max(1, busy.reduce((a, x) => a + x[0], 0))).toFixed(2)
  }
  if (fd !== undefined) closeSync(fd)
  if (out !== undefined) writeFileSync(out, JSON.stringify(summary))
})
