#!/usr/bin/env node
/**
 * TurboFan's work in a loaded node's steady seconds (docs/benchmarks.md, session 47): runs
 * `scripts/loadgen.mjs throughput` with V8's `--trace-opt` on the node (all its threads), reads the
 * node's stdout through a FIFO as it comes so each line gets the time it arrived, and counts the
 * compiles completed between --from and --to seconds after the start (the node starts within the
 * first second; its load about 4–6 s later, once the transfers are signed).
 *
 *   node scripts/compiles.mjs [--seconds 30] [--from 18] [--to 33] [--top 15]
 *
 * Prints one JSON line: the compiles and their compiler time (ms, V8's three phases summed), those
 * of anonymous functions apart, the names compiled most often, and loadgen's own figures. A body
 * compiled again and again in the steady seconds is code V8 dropped (a closure made per call that
 * died, its optimised code with it at the next full collection) or deoptimised; which functions
 * those are, per thread and mapped into src/: `scripts/recompiles.mjs`. This one gives the time.
 * Linux (a FIFO); `npm run build` first.
 */
import { spawn, spawnSync } from "node:child_process"
import { createReadStream, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { cliArgs, root } from "./lib.mjs"

const { num } = cliArgs()
const seconds = num("seconds", 30)
const from = num("from", 18)
const to = num("to", 33)
const top = num("top", 15)

const dir = mkdtempSync(join(tmpdir(), "movenode-compiles-"))
const fifo = join(dir, "stdout")
if (spawnSync("mkfifo", [fifo]).status !== 0) throw new Error("mkfifo failed (this script needs Linux)")

const t0 = performance.now()
const COMPILED = /completed compiling \S+ <JSFunction (\S*) ?\(sfi = 0x[0-9a-f]+\)>[^\]]*?took ([\d.]+), ([\d.]+), ([\d.]+) ms/g
let compiles = 0
let compileMs = 0
let anonymous = 0
let anonymousMs = 0
const byName = new Map()
// Opened before loadgen starts the node (the node's open of the FIFO waits for this reader).
const lines = createInterface({ input: createReadStream(fifo) })
lines.on("line", (line) => {
  const at = (performance.now() - t0) / 1000
  if (at < from || at > to) return
  // Threads' lines may run together: every completed compile on the line counts.
  for (const m of line.matchAll(COMPILED)) {
    const ms = Number(m[2]) + Number(m[3]) + Number(m[4])
    compiles++
    compileMs += ms
    const name = m[1] === "" || m[1].startsWith("(") ? "(anonymous)" : m[1]
    if (name === "(anonymous)") {
      anonymous++
      anonymousMs += ms
    }
    const e = byName.get(name) ?? { count: 0, ms: 0 }
    e.count++
    e.ms += ms
    byName.set(name, e)
  }
})
const done = new Promise((resolve) => lines.on("close", resolve))

const nodeArgs = ["--trace-opt", process.env.LOADGEN_NODE_ARGS ?? ""].join(" ").trim()
const loadgen = spawn(process.execPath, [join(root, "scripts", "loadgen.mjs"), "throughput", "--seconds", String(seconds)], {
  env: { ...process.env, LOADGEN_NODE_STDOUT: fifo, LOADGEN_NODE_ARGS: nodeArgs },
  stdio: ["ignore", "pipe", "inherit"]
})
let out = ""
loadgen.stdout.on("data", (d) => {
  out += d
})
const code = await new Promise((resolve) => loadgen.on("exit", resolve))
await done
rmSync(dir, { recursive: true, force: true })
if (code !== 0) {
  console.error(out)
  process.exit(code ?? 1)
}
const run = JSON.parse(out.trim().split("\n").pop())
const most = [...byName]
  .sort((a, b) => b[1].ms - a[1].ms)
  .slice(0, top)
  .map(([name, e]) => ({ name, count: e.count, ms: +e.ms.toFixed(1) }))
console.log(
  JSON.stringify({
    window: [from, to],
    compiles,
    compileMs: +compileMs.toFixed(0),
    anonymous: { compiles: anonymous, ms: +anonymousMs.toFixed(0) },
    most,
    committedPerSec: run.committedPerSec,
    steadyPerSec: run.steadyPerSec,
    nodeMsPerTransfer: run.cpu.nodeMsPerTransfer
  })
)
