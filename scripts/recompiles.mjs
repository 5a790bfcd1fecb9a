// Which functions V8 optimized again and again, per thread, from the code logs of a run:
//
//   LOADGEN_NODE_ARGS="--log-code --logfile=DIR/v8.log" node scripts/loadgen.mjs throughput --seconds 20
//   node scripts/recompiles.mjs DIR [--after SECONDS] [--top N]
//
// V8 writes one log per thread (isolate-<address>-<pid>-v8.log). A function optimized more than
// once in a steady run usually lives in a closure made per call: V8 keeps optimized code only while
// a closure of it is alive, so such code is dropped at every full collection and compiled again
// (docs/architecture.md, "Hot loops live in functions made once"; docs/benchmarks.md, session 12).
// Positions are mapped through the bundle's source map and tsc's into src/ where the maps exist.
import { readdirSync, readFileSync } from "node:fs"
import { SourceMap } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const args = process.argv.slice(2)
const dir = args.find((a) => !a.startsWith("--"))
if (dir === undefined) {
  console.error("usage: node scripts/recompiles.mjs DIR [--after SECONDS] [--top N]")
  process.exit(2)
}
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback
}
const afterUs = option("after", 5) * 1e6
const top = option("top", 15)

const maps = new Map()
const mapOf = (file) => {
  if (!maps.has(file)) {
    let map
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")))
    } catch {}
    maps.set(file, map)
  }
  return maps.get(file)
}
/** `name file:line:column` (the log's form) → `name src/…:line`, following up to two source maps. */
const whereOf = (entry) => {
  const m = /^(.*?)\s*(file:\/\/\S+?):(\d+):(\d+)$/.exec(entry)
  if (m === null) return entry
  let file = fileURLToPath(m[2])
  let line = Number(m[3]) - 1
  let column = Number(m[4]) - 1
  for (let hop = 0; hop < 2; hop++) {
    const found = mapOf(file)?.findEntry(line, column)
    if (found?.originalSource === undefined) break
    file = found.originalSource.startsWith("file:")
      ? fileURLToPath(found.originalSource)
      : join(file, "..", found.originalSource)
    line = found.originalLine
    column = found.originalColumn
  }
  const shown = file.includes("/node_modules/")
    ? `node_modules/${file.split("/node_modules/").pop()}`
    : file.includes("/src/")
      ? `src/${file.split("/src/").pop()}`
      : file.split("/").slice(-3).join("/")
  return `${m[1] || "(anonymous)"} ${shown}:${line + 1}`
}

let logs = []
try {
  logs = readdirSync(dir).filter((f) => f.endsWith("-v8.log"))
} catch (e) {
  console.error(`cannot read ${dir}: ${e.message}`)
  process.exit(1)
}
if (logs.length === 0) {
  console.error(`no *-v8.log in ${dir}`)
  process.exit(1)
}
const report = []
for (const log of logs) {
  const counts = new Map()
  let optimized = 0
  let late = 0
  for (const line of readFileSync(join(dir, log), "latin1").split("\n")) {
    // code-creation,JS,kind,timestamp(µs),address,size,name…,sfi,state — "*" marks optimized code.
    if (!line.startsWith("code-creation,JS,") || !line.endsWith(",*")) continue
    const parts = line.split(",")
    optimized++
    if (Number(parts[3]) < afterUs) continue
    late++
    const where = whereOf(parts.slice(6, parts.length - 2).join(","))
    counts.set(where, (counts.get(where) ?? 0) + 1)
  }
  report.push({ log, optimized, late, counts })
}
report.sort((a, b) => b.optimized - a.optimized)
for (const { log, optimized, late, counts } of report) {
  console.log(`${log}: ${optimized} optimized compiles, ${late} after ${afterUs / 1e6} s`)
  for (const [where, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${String(n).padStart(4)}  ${where}`)
}
