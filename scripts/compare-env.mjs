#!/usr/bin/env node
/**
 * A trial of one build under different environments: `loadgen.mjs throughput` runs of this checkout,
 * one per variant per round, interleaved (A B C, then C B A, …), each variant with its own environment
 * variables (a V8 flag through `LOADGEN_NODE_ARGS`, or a temporary knob a trial build reads from
 * `process.env`).
 *
 *   node scripts/compare-env.mjs [--rounds 4] [--seconds 30] NAME:VAR=value,VAR=value NAME: …
 *   e.g. node scripts/compare-env.mjs --rounds 4 none: big:MOVENODE_TRIAL_BATCH=1000 (a knob a trial build reads)
 *
 * Why a second script beside `compare-builds.mjs`: this machine's speed drifts by up to 40 % within
 * minutes (docs/benchmarks.md, session 58), more than most trials change. When a trial leaves one
 * thread's code alone, that thread's CPU per transfer in the same run measures the machine's speed at
 * that moment, so each run is also reported as ratios to its own event loop's CPU per transfer: the
 * node's whole (`nodePerEventLoop`) and its busiest other thread's, the index worker under this load
 * (`busiestOtherPerEventLoop`). Those ratios compare runs minutes apart; the rates do not. A trial that
 * changes the event loop's own work must be judged by the rates and `compare-builds.mjs` instead.
 *
 * Prints a line per run as it ends, then one JSON line: per variant, its runs and the means.
 */
import { cliArgs, loadAverage, root, runThroughput } from "./lib.mjs"

const { argv, num } = cliArgs()
const rounds = num("rounds", 4)
const seconds = num("seconds", 30)
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50) throw new Error("--rounds: 1 to 50")
if (!Number.isInteger(seconds) || seconds < 5 || seconds > 600) throw new Error("--seconds: 5 to 600")

/** The arguments that are not options (`--name value`) or their values. */
const positional = []
for (let i = 0; i < argv.length; i++) {
  if (argv[i].startsWith("--")) i++
  else positional.push(argv[i])
}
const variants = positional.map((spec) => {
  const colon = spec.indexOf(":")
  if (colon <= 0) throw new Error(`a variant is NAME:VAR=value,…, not ${JSON.stringify(spec)}`)
  const env = {}
  for (const pair of spec.slice(colon + 1).split(",").filter((s) => s !== "")) {
    const eq = pair.indexOf("=")
    if (eq <= 0) throw new Error(`not VAR=value: ${JSON.stringify(pair)}`)
    env[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return { name: spec.slice(0, colon), env }
})
if (variants.length < 2) throw new Error("give two variants or more (NAME: for none)")

const round3 = (x) => Number(x.toFixed(3))

const runs = new Map(variants.map((v) => [v.name, []]))
for (let r = 0; r < rounds; r++) {
  for (const v of r % 2 === 0 ? variants : [...variants].reverse()) {
    const res = await runThroughput({ cwd: root, seconds, env: v.env })
    const { nodeMsPerTransfer: node, nodeMainThreadMsPerTransfer: loop, nodeBusiestOtherThreadMsPerTransfer: other } = res.cpu
    const run = {
      endedAt: new Date().toISOString().slice(11, 16),
      steadyPerSec: res.steadyPerSec,
      nodeMs: node,
      eventLoopMs: loop,
      busiestOtherMs: other,
      nodePerEventLoop: round3(node / loop),
      busiestOtherPerEventLoop: round3(other / loop),
      load: res.load
    }
    runs.get(v.name).push(run)
    console.log(
      `round ${r + 1} ${v.name}: steady ${run.steadyPerSec}/s, ${node} ms a transfer (event loop ${loop}, busiest other ${other}); node ÷ loop ${run.nodePerEventLoop}, other ÷ loop ${run.busiestOtherPerEventLoop}`
    )
  }
}

const mean = (xs) => round3(xs.reduce((a, b) => a + b, 0) / xs.length)
console.log(
  JSON.stringify({
    seconds,
    rounds,
    variants: variants.map((v) => {
      const rs = runs.get(v.name)
      // loadgen has no steady rate for a run no longer than its warm-up (10 s).
      const steady = rs.map((x) => x.steadyPerSec).filter((x) => x !== null)
      return {
        name: v.name,
        env: v.env,
        runs: rs,
        mean: {
          steadyPerSec: steady.length === 0 ? null : Math.round(mean(steady)),
          nodePerEventLoop: mean(rs.map((x) => x.nodePerEventLoop)),
          busiestOtherPerEventLoop: mean(rs.map((x) => x.busiestOtherPerEventLoop))
        }
      }
    }),
    load: loadAverage()
  })
)
