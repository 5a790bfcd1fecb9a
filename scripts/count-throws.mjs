// Where a node throws, per thread: an `--import` hook that pauses on every exception (the
// inspector's "pause on all exceptions", in-process), counts the top frames and the exception, and
// resumes. A throw is never free in V8: with any native caller up the stack (an event handler, a
// worker's message), V8 builds the exception's message and works out where it happened, which for
// an optimized frame means translating it back as a deoptimization would (Isolate::ComputeLocation,
// TranslatedState). A throw per transaction on a hot path shows up here as thousands of one line.
//
//   LOADGEN_NODE_ARGS="--import ./scripts/count-throws.mjs" node scripts/loadgen.mjs throughput --seconds 10
//
// Each thread writes THROWS_DIR (default: the system's temporary directory)/throws-<pid>-<thread>.txt
// once it has counted THROWS_LIMIT (default 3,000) throws, or when it exits. Pausing costs far more
// than the throw: use it to find throws, never to measure throughput (session 13, docs/benchmarks.md,
// found the prologue's SEQUENCE_NUMBER_TOO_NEW aborts this way).
import { writeFileSync } from "node:fs"
import inspector from "node:inspector"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { threadId } from "node:worker_threads"

const limit = Number(process.env.THROWS_LIMIT ?? 3000)
const out = join(process.env.THROWS_DIR ?? tmpdir(), `throws-${process.pid}-${threadId}.txt`)
const session = new inspector.Session()
session.connect()
const urls = new Map()
const counts = new Map()
let seen = 0
let written = false

const write = () => {
  if (written || seen === 0) return
  written = true
  const lines = [...counts].sort((a, b) => b[1] - a[1]).map(([where, n]) => `${n} ${where}`)
  writeFileSync(out, `${lines.join("\n")}\n`)
}

session.on("Debugger.scriptParsed", (m) => urls.set(m.params.scriptId, m.params.url))
session.on("Debugger.paused", (m) => {
  if (!written) {
    const frames = m.params.callFrames
      .slice(0, 4)
      .map((f) => {
        const url = (urls.get(f.location.scriptId) ?? "?").split("/").pop()
        return `${f.functionName || "(anonymous)"}@${url}:${f.location.lineNumber + 1}:${f.location.columnNumber + 1}`
      })
      .join(" < ")
    const data = m.params.data
    const what = data?.description?.split("\n")[0] ?? data?.className ?? String(data?.value)
    const key = `${frames}  ## ${what}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
    if (++seen >= limit) {
      write()
      session.post("Debugger.setPauseOnExceptions", { state: "none" })
    }
  }
  session.post("Debugger.resume")
})
session.post("Debugger.enable", () => session.post("Debugger.setPauseOnExceptions", { state: "all" }))
process.on("exit", write)
