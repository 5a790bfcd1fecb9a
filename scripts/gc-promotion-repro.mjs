#!/usr/bin/env node
// Diagnostic, not a benchmark: the smallest server that shows the event loop's old space growing
// under load (docs/benchmarks.md, "Memory under load, session 3"). A bare `node:http` server answers
// each POST after a round trip through `--mode`:
//   sync       answered in the same turn
//   immediate  answered from setImmediate
//   channel    answered through a MessageChannel on this thread
//   worker     answered by a worker thread (the shape of movenode's view path)
// `--keep-mb N` first allocates about N MB of long-lived objects (movenode's event loop holds
// ~25 MB: Effect, the node's caches). Run it under `node --trace-gc` and load it, for example:
//
//   node --trace-gc scripts/gc-promotion-repro.mjs --mode channel --keep-mb 20 --port 18081 &
//   wrk -t1 -c32 -d4s http://127.0.0.1:18081/
//
// (any method; a POST body, such as the view bench's, is read and parsed as movenode would)
//
// and read the main isolate's `Scavenge A (B) -> C (D) MB` lines: a C that rises scavenge after
// scavenge is surviving young garbage being promoted. Stops by itself after `--seconds` (default 60).
import { createServer } from "node:http"
import { isMainThread, parentPort, Worker } from "node:worker_threads"

const ANSWER = { json: ["18446744073709551615"], gasUsed: 20 }

if (!isMainThread) {
  parentPort.on("message", (m) => parentPort.postMessage({ id: m.id, answer: ANSWER }))
} else {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`)
    return i < 0 ? dflt : process.argv[i + 1]
  }
  const mode = arg("mode", "worker")
  const keepMb = Number(arg("keep-mb", "0"))
  const port = Number(arg("port", "18081"))
  const seconds = Number(arg("seconds", "60"))
  // ~70 bytes an object: N MB of small, long-lived objects.
  globalThis.keep = Array.from({ length: Math.floor((keepMb * 1024 * 1024) / 70) }, (_, i) => ({ i, s: `x${i}` }))

  const jobs = new Map()
  let next = 1
  const settle = (m) => {
    const done = jobs.get(m.id)
    jobs.delete(m.id)
    done(m)
  }
  /** A round trip through `port` (a Worker or a MessagePort: both post and emit "message"). */
  const sendOver = (port) => {
    port.on("message", settle)
    port.unref()
    return (body, done) => {
      const id = next++
      port.postMessage({ id, body })
      jobs.set(id, done)
    }
  }
  let post
  if (mode === "worker") {
    post = sendOver(new Worker(new URL(import.meta.url)))
  } else if (mode === "channel") {
    const { port1, port2 } = new MessageChannel()
    port2.on("message", (m) => port2.postMessage({ id: m.id, answer: ANSWER }))
    port2.unref()
    post = sendOver(port1)
  } else if (mode === "immediate") {
    post = (_body, done) => setImmediate(() => done({ answer: ANSWER }))
  } else if (mode === "sync") {
    post = (_body, done) => done({ answer: ANSWER })
  } else {
    process.stderr.write(`unknown --mode ${mode}\n`)
    process.exit(2)
  }

  const server = createServer((req, res) => {
    const chunks = []
    req.on("data", (c) => chunks.push(c))
    req.on("end", () => {
      let body
      try {
        body = JSON.parse(Buffer.concat(chunks).toString() || "null")
      } catch {
        body = null
      }
      post(body, (m) => {
        const text = JSON.stringify(m.answer.json)
        res.writeHead(200, ["content-type", "application/json", "content-length", String(text.length)])
        res.end(text)
      })
    })
  }).listen(port, "127.0.0.1")
  setTimeout(() => server.close(() => process.exit(0)), seconds * 1000).unref()
  setTimeout(() => process.exit(0), seconds * 1000 + 2000).unref()
}
