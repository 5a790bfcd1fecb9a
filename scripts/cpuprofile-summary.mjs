#!/usr/bin/env node
/**
 * Where a node's event loop spends its time, from a `--cpu-prof` profile (issue 22: "CPU per
 * transfer split by where it goes"). Each sample goes to the outermost frame of its stack that
 * names a stage of the path below (so the commit's hashing counts as commit, an answer's writev as
 * the answer), garbage collection to its own row, the rest to "other"; idle samples are left out.
 *
 *   node scripts/cpuprofile-summary.mjs PROFILE [--last SECONDS] [--per-transfer US]
 *
 * `--last`: only the profile's last SECONDS (the measured window, after start-up and warm-up).
 * `--per-transfer`: the event loop's CPU per transfer in µs (loadgen's nodeMainThreadMsPerTransfer
 * × 1000, or its submit mode's nodeMainThreadUsPerSubmission): each stage's share of it is printed
 * too. The profiler samples wall-clock time on the thread, so on a busy machine a thread waiting
 * for a core is counted where it was preempted: read shares from a quiet machine.
 *
 * `--turns MS`: also the event loop's busy stretches (runs of samples with no idle one between:
 * about one turn each, or several back to back when nothing waited in between) longer than MS ms:
 * how many, their lengths, and where the time inside them goes (the same stages). Issue 22's flood
 * probes wait behind these.
 */
import { readFileSync } from "node:fs"

const args = process.argv.slice(2)
const option = (name) => {
  const i = args.indexOf(`--${name}`)
  if (i < 0) return undefined
  const v = Number(args[i + 1])
  args.splice(i, 2)
  return v
}
const lastSecs = option("last") ?? Number.POSITIVE_INFINITY
const perTransferUs = option("per-transfer")
/** `--other N`: also list the N leaf functions that take most of "other" (to name a new stage). */
const otherTop = option("other") ?? 0
const turnsOverMs = option("turns")
const file = args[0]
if (file === undefined) {
  console.error("usage: node scripts/cpuprofile-summary.mjs PROFILE [--last SECONDS] [--per-transfer US]")
  process.exit(2)
}

/** Stages by the function names that open them (names survive the bundle: it is not mangled). */
const STAGES = [
  ["HTTP: parse, route, body", ["parserOnHeadersComplete", "parserOnIncoming", "parserOnBody", "readBody", "listener", "onStreamRead"]],
  ["HTTP: answer (headers, writev)", ["send", "answerPreflight"]],
  ["BCS decode of the submission", ["decodeSigned"]],
  ["signature (thread-pool dispatch)", ["preverifySignature", "preverifyStrictFast"]],
  ["admission: prologue, pool", ["admitInBudget", "admit", "validateTransaction"]],
  ["wait_by_hash, by_hash", ["awaitSettled", "lookup", "pendingJson"]],
  ["block execution", ["executeBlockSteps", "make"]],
  ["commit (records, hashes, LMDB puts)", ["commitBlock", "commitBlocks", "prepareBlock", "writeBlock"]],
  ["mempool maintenance", ["afterBlock", "onCommitted", "best"]]
]
const stageOf = new Map()
for (const [stage, names] of STAGES) for (const n of names) stageOf.set(n, stage)
/**
 * Functions Effect's runtime calls from anonymous callbacks (so no stage frame is above them):
 * for a stack no stage opened, the innermost of these names it.
 */
const INNER = new Map([
  ["poolEntryOf", "admission: prologue, pool"],
  ["insert", "admission: prologue, pool"],
  ["readyUpTo", "admission: prologue, pool"],
  ["accountSequenceNumber", "admission: prologue, pool"],
  ["resOnFinish", "HTTP: answer (headers, writev)"],
  // The table-info index (src/node/tableInfo) reads committed write sets back and learns their tables.
  ["learn", "table-info index (committed write sets read back)"],
  ["decodeTransactionRecord", "table-info index (committed write sets read back)"],
  ["_finish", "HTTP: answer (headers, writev)"]
])

const p = JSON.parse(readFileSync(file, "utf8"))
const byId = new Map(p.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

/** The stage of a sample's stack: its outermost named frame. */
const stageMemo = new Map()
const stageOfNode = (id) => {
  let s = stageMemo.get(id)
  if (s !== undefined) return s
  const leaf = byId.get(id).callFrame.functionName
  if (leaf === "(garbage collector)") s = "garbage collection"
  else if (leaf === "(idle)") s = "idle"
  else if (leaf === "(program)") s = "V8/Node internals (program)"
  else {
    s = "other"
    let inner
    for (let a = id; a !== undefined; a = parent.get(a)) {
      const name = byId.get(a).callFrame.functionName
      const named = stageOf.get(name)
      if (named !== undefined) s = named
      if (inner === undefined) inner = INNER.get(name)
    }
    if (s === "other" && inner !== undefined) s = inner
  }
  stageMemo.set(id, s)
  return s
}

const totals = new Map()
const otherLeaves = new Map()
/** Busy stretches: [length µs, Map(stage -> µs)] each. */
const stretches = []
let stretch
let t = p.startTime
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i] ?? 0
  if (p.endTime - t > lastSecs * 1e6) continue
  const s = stageOfNode(p.samples[i])
  if (s === "idle") {
    if (stretch !== undefined) stretches.push(stretch)
    stretch = undefined
  } else {
    stretch ??= [0, new Map()]
    stretch[0] += p.timeDeltas[i] ?? 0
    stretch[1].set(s, (stretch[1].get(s) ?? 0) + (p.timeDeltas[i] ?? 0))
  }
  totals.set(s, (totals.get(s) ?? 0) + (p.timeDeltas[i] ?? 0))
  if (s === "other") {
    const f = byId.get(p.samples[i]).callFrame
    const k = `${f.functionName || "(anonymous)"} ${f.url.split("/").at(-1)}:${f.lineNumber}`
    otherLeaves.set(k, (otherLeaves.get(k) ?? 0) + (p.timeDeltas[i] ?? 0))
  }
}
const idle = totals.get("idle") ?? 0
totals.delete("idle")
const busy = [...totals.values()].reduce((a, b) => a + b, 0)
const rows = [...totals].sort((a, b) => b[1] - a[1])
console.log(`busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s`)
console.log(`| stage | share of the event loop |${perTransferUs === undefined ? "" : " µs per transfer |"}`)
console.log(`|---|---:|${perTransferUs === undefined ? "" : "---:|"}`)
for (const [stage, us] of rows) {
  const share = us / busy
  console.log(
    `| ${stage} | ${(100 * share).toFixed(1)} % |${perTransferUs === undefined ? "" : ` ${(share * perTransferUs).toFixed(0)} |`}`
  )
}
if (otherTop > 0) {
  console.log("\nmost of \"other\" (leaf functions):")
  for (const [k, us] of [...otherLeaves].sort((a, b) => b[1] - a[1]).slice(0, otherTop))
    console.log(`${((100 * us) / busy).toFixed(1).padStart(5)} %  ${k}`)
}

if (turnsOverMs !== undefined) {
  const long = stretches.filter(([us]) => us > turnsOverMs * 1000)
  const lengths = stretches.map(([us]) => us / 1000).sort((a, b) => a - b)
  const q = (f) => (lengths[Math.min(lengths.length - 1, Math.floor(f * lengths.length))] ?? 0).toFixed(1)
  const inLong = new Map()
  for (const [, m] of long) for (const [s, us] of m) inLong.set(s, (inLong.get(s) ?? 0) + us)
  const longUs = [...inLong.values()].reduce((a, b) => a + b, 0)
  console.log(
    `\nbusy stretches: ${stretches.length}, p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms; ` +
      `${long.length} over ${turnsOverMs} ms (${(longUs / 1e6).toFixed(2)} s of busy time)`
  )
  console.log(`| stage, inside stretches over ${turnsOverMs} ms | share |`)
  console.log("|---|---:|")
  for (const [stage, us] of [...inLong].sort((a, b) => b[1] - a[1]))
    console.log(`| ${stage} | ${((100 * us) / longUs).toFixed(1)} % |`)
  console.log("\nthe longest five:")
  for (const [us, m] of [...long].sort((a, b) => b[0] - a[0]).slice(0, 5))
    console.log(
      `${(us / 1000).toFixed(1)} ms: ` +
        [...m].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([s, v]) => `${s} ${(v / 1000).toFixed(1)}`).join(", ")
    )
}
