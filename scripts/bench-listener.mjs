#!/usr/bin/env node
// CPU per request of movenode's request listener alone, in process: no sockets, no HTTP parser,
// no wrk. The node (LMDB over a fresh import of the devnet genesis) is built from dist/ (run
// `npm run build` first), and its listener is called with stub request/response objects, a fresh
// URL string per request (as the HTTP parser makes), 64 requests per event-loop turn. Prints the
// process CPU time per request over 3 rounds of 100,000 after a 50,000-request warm-up.
//
// This is the work the HTTP benchmark's ratios depend on: on a 2-core machine shared with wrk, a
// few µs more here cost several times that in the server (docs/benchmarks.md, "the cliff").
//
//   node scripts/bench-listener.mjs [--no-cors] [--origin] [URL ...]
//   --no-cors: the listener with CORS off (HttpConfig.cors false); --origin: requests carry an
//   Origin header (a browser's), so the echoed-origin CORS headers are added
//   default URLs: gas estimate, balance of 0xa550c18, module 0x1::coin, summaries of 0xa550c18
//   --log: the request log on, as `movenode run` writes it (RequestLog.ts) to stdout; --log-per-line:
//   the log as it was before (one process.stdout.write per request). Redirect stdout to a file or
//   a pipe (`> /tmp/requests.log`): the figures are printed on stderr.
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const lib = await import(pathToFileURL(join(root, "dist/index.js")).href)
const { Effect, Layer } = await import("effect")
const { LedgerLmdb, Node, makeRequestListener, makeRequestLog, defaultHttpConfig } = lib

const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith("--")))
const args = process.argv.slice(2).filter((a) => !a.startsWith("--"))
const urls =
  args.length > 0
    ? args
    : [
        "/v1/estimate_gas_price",
        "/v1/accounts/0xa550c18/balance/0x1::aptos_coin::AptosCoin",
        "/v1/accounts/0x1/module/coin",
        "/v1/accounts/0xa550c18/transaction_summaries?limit=25"
      ]
const dir = mkdtempSync(join(tmpdir(), "movenode-bench-listener-"))
const genesis = readFileSync(resolve(root, "genesis/devnet.blob"))
const layer = Node.layer.pipe(Layer.provide(LedgerLmdb.layer({ path: dir, genesis })))

const requestHeaders = flags.has("--origin") ? { accept: "application/json", origin: "https://wallet.example" } : { accept: "application/json" }

const measure = (listener, url) =>
  new Promise((done) => {
    let completed = 0
    let status = 0
    const res = {
      headersSent: false,
      destroyed: false,
      writeHead(s) {
        status = s
      },
      end() {
        completed++
      }
    }
    const run = async (n) => {
      for (let i = 0; i < n; i++) {
        // A fresh string per request: the parser hands each request its own URL.
        listener({ method: "GET", url: Buffer.from(url).toString("latin1"), headers: requestHeaders }, res)
        if (i % 64 === 63) await new Promise((r) => setImmediate(r))
      }
      await new Promise((r) => setTimeout(r, 5))
    }
    ;(async () => {
      await run(50_000)
      const rounds = []
      for (let k = 0; k < 3; k++) {
        const before = completed
        const t0 = process.cpuUsage()
        await run(100_000)
        const cpu = process.cpuUsage(t0)
        rounds.push((cpu.user + cpu.system) / (completed - before))
      }
      done({ url, status, rounds })
    })()
  })

try {
  await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const context = yield* Layer.build(layer)
        const node = context.mapUnsafe.get(Node.key)
        const log = flags.has("--log")
          ? makeRequestLog().line
          : flags.has("--log-per-line")
            ? (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`)
            : undefined
        const listener = makeRequestListener(node, { ...defaultHttpConfig, log, cors: flags.has("--no-cors") ? false : "any" }, undefined)
        for (const url of urls) {
          const r = yield* Effect.promise(() => measure(listener, url))
          console.error(
            `${r.url}  status ${r.status}  CPU µs/request: ${r.rounds.map((x) => x.toFixed(2)).join(", ")} (best ${Math.min(...r.rounds).toFixed(2)})`
          )
        }
      })
    )
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
