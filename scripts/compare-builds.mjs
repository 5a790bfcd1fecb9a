#!/usr/bin/env node
/**
 * Issue 22's throughput judged as it is judged: this checkout against an earlier commit (by default
 * `f2da457`, the code the issue was filed against), "before and after, in the same sitting", in
 * interleaved pairs of `loadgen.mjs throughput` runs. This machine's speed drifts by up to 2× within
 * an hour (docs/benchmarks.md, sessions 44–52), so an absolute rate says little and only the ratio of
 * runs minutes apart compares; sessions 44–52 made these pairs by hand.
 *
 *   node scripts/compare-builds.mjs [--base f2da457] [--pairs 5] [--seconds 60] [--keep]
 *
 * The base is checked out as a git worktree in the temporary directory (`movenode-compare-<sha>`),
 * installed and built there with `npm ci` (its own `prepare`), and given this checkout's
 * `loadgen.mjs` and the scripts it imports, so both builds are driven by the same generator (the
 * base's own generator predates some of its options). The worktree is removed at the end unless
 * `--keep`; a kept one is reused by the next run. This checkout must be built (`npm run build`).
 *
 * The order alternates (base first in odd pairs, this checkout first in even ones): the machine
 * tends to slow or speed up over minutes, and a fixed order would credit that to one side. Prints a
 * line per run as it ends, then one JSON line: each pair's rates and the ratio (committed a second
 * over the run, and the steady rate after loadgen's warm-up), with the ratios' mean and median.
 * Issue 22 needs 2,500/s where the base makes the 1,316–1,354/s: a ratio of about 1.87.
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, existsSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cliArgs, loadAverage, median, root, runThroughput } from "./lib.mjs"

const { arg, num, has } = cliArgs()
const base = arg("base", "f2da457")
const pairs = num("pairs", 5)
const seconds = num("seconds", 60)
if (!Number.isInteger(pairs) || pairs < 1 || pairs > 50) throw new Error("--pairs: 1 to 50")
if (!Number.isInteger(seconds) || seconds < 5 || seconds > 600) throw new Error("--seconds: 5 to 600")

/** The generator and what it imports: the same driver for both builds. */
const GENERATOR_FILES = ["loadgen.mjs", "lib.mjs", "ledger-stats.mjs"]

const git = (...args) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim()
const sha = git("rev-parse", "--verify", `${base}^{commit}`)
const head = git("rev-parse", "--short", "HEAD")
if (!existsSync(join(root, "dist", "bin", "movenode.js"))) throw new Error("this checkout is not built: npm run build")

const dir = join(tmpdir(), `movenode-compare-${sha.slice(0, 12)}`)
if (!existsSync(join(dir, "dist", "bin", "movenode.js"))) {
  // A half-made checkout of an earlier run: a registered worktree, or a folder git no longer knows.
  if (existsSync(dir)) {
    try {
      git("worktree", "remove", "--force", dir)
    } catch {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  console.log(`compare: checking out ${sha.slice(0, 12)} in ${dir}, npm ci (installs and builds it)`)
  git("worktree", "add", "--detach", "--force", dir, sha)
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] })
}
for (const f of GENERATOR_FILES) copyFileSync(join(root, "scripts", f), join(dir, "scripts", f))

/** A run's figures, stamped with the time it ended (UTC). */
const summary = (r) => ({
  endedAt: new Date().toISOString().slice(11, 16),
  perSec: r.committedPerSec,
  steadyPerSec: r.steadyPerSec,
  nodeMsPerTransfer: r.cpu.nodeMsPerTransfer,
  eventLoopMsPerTransfer: r.cpu.nodeMainThreadMsPerTransfer,
  load: r.load
})

const results = []
try {
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? ["base", "head"] : ["head", "base"]
    const pair = { first: order[0] }
    for (const side of order) {
      const r = summary(await runThroughput({ cwd: side === "base" ? dir : root, seconds }))
      pair[side] = r
      console.log(
        `pair ${i + 1} ${side === "base" ? sha.slice(0, 7) : head}: ${r.perSec}/s (steady ${r.steadyPerSec}), ${r.nodeMsPerTransfer} ms a transfer, load ${r.load}`
      )
    }
    pair.ratio = Number((pair.head.perSec / pair.base.perSec).toFixed(2))
    // loadgen has no steady rate for a run no longer than its warm-up (10 s).
    pair.steadyRatio =
      pair.head.steadyPerSec > 0 && pair.base.steadyPerSec > 0
        ? Number((pair.head.steadyPerSec / pair.base.steadyPerSec).toFixed(2))
        : null
    results.push(pair)
  }
} finally {
  if (!has("keep")) git("worktree", "remove", "--force", dir)
}

const mean = (xs) => Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2))
const ratios = results.map((p) => p.ratio)
const steady = results.map((p) => p.steadyRatio).filter((r) => r !== null)
console.log(
  JSON.stringify({
    base: sha.slice(0, 12),
    head,
    seconds,
    pairs: results,
    ratio: { mean: mean(ratios), median: Number(median(ratios).toFixed(2)), min: Math.min(...ratios), max: Math.max(...ratios) },
    steadyRatio: steady.length === 0 ? null : { mean: mean(steady), median: Number(median(steady).toFixed(2)) },
    load: loadAverage()
  })
)
