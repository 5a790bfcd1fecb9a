#!/usr/bin/env node
// Load test of the HTTP layer: a bare `node:http` server answering a small JSON body with the same
// ledger headers, and movenode's server over a fixed in-memory Node double, each in its own
// process, driven by `wrk` on loopback. For every endpoint the bare server and ours are measured
// alternately (`--rounds` times, best of each kept), and the ratio of the two is printed.
//
//   node scripts/bench-http.mjs [--duration 5s] [--rounds 3] [--connections 32] [--only balance,view] [--httpapi] [--pin]
//
// `--httpapi` also measures gas and balance served through Effect's HttpApiBuilder (the design
// this server's lean listener replaced), for comparison.
//
// The harness compiles src/http (and what it imports) with tsc into a temporary directory first.
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { cpus, tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? dflt : process.argv[i + 1]
}

const LEDGER_HEADERS = [
  ["X-SERVICE-CHAIN-ID", "4"],
  ["X-SERVICE-LEDGER-VERSION", "1000"],
  ["X-SERVICE-LEDGER-OLDEST-VERSION", "100"],
  ["X-SERVICE-LEDGER-TIMESTAMPUSEC", "1700000000000000"],
  ["X-SERVICE-EPOCH", "2"],
  ["X-SERVICE-BLOCK-HEIGHT", "50"],
  ["X-SERVICE-OLDEST-BLOCK-HEIGHT", "5"]
]

// ---- child roles ------------------------------------------------------------------------------

const serveBare = (port) => {
  const body = `{"deprioritized_gas_estimate":100,"gas_estimate":100,"prioritized_gas_estimate":150}`
  const headers = LEDGER_HEADERS.flat().concat("content-type", "application/json", "content-length", String(body.length))
  createServer((req, res) => {
    const reply = () => {
      res.writeHead(200, headers)
      res.end(body)
    }
    if (req.method === "POST") {
      req.on("data", () => {})
      req.on("end", reply)
    } else reply()
  }).listen(port, "127.0.0.1", () => process.send?.("ready"))
}

const serveMovenode = async (port, build) => {
  const { Effect, Layer } = await import(pathToFileURL(join(build, "node_modules/effect/dist/index.js")).href)
  const http = await import(pathToFileURL(join(build, "http/index.js")).href)
  const { Node } = await import(pathToFileURL(join(build, "node/Node.js")).href)
  const { addressFromNumber } = await import(pathToFileURL(join(build, "domain/AccountAddress.js")).href)
  const ledger = {
    chainId: 4,
    epoch: 2n,
    ledgerVersion: 1000n,
    oldestLedgerVersion: 100n,
    ledgerTimestampUsec: 1_700_000_000_000_000n,
    blockHeight: 50n,
    oldestBlockHeight: 5n
  }
  const one = addressFromNumber(1)
  const summaries = Array.from({ length: 25 }, (_, i) => ({
    sender: one,
    version: 100n + BigInt(i),
    hash: new Uint8Array(32).fill(i),
    replayProtector: { _tag: "SequenceNumber", sequenceNumber: BigInt(i) }
  }))
  const moduleAnswer = { bytecode: new Uint8Array(2048).fill(7), abiJson: JSON.stringify({ address: "0x1", name: "guid", friends: [], exposed_functions: [], structs: [] }) }
  const ok = (value) => Effect.succeed({ ledger, value })
  const node = {
    ledgerInfo: Effect.succeed(ledger),
    balance: () => ok(123456789n),
    estimateGasPrice: ok({ deprioritized: 100n, regular: 100n, prioritized: 150n }),
    transactionSummaries: () => ok({ summaries, cursor: undefined }),
    module: () => ok(moduleAnswer),
    view: () => ok({ json: ["100"], bcsValues: [new Uint8Array(8)], gasUsed: 7n }),
    encodeSubmission: () => ok(new Uint8Array(200).fill(1))
  }
  const layer = http.MovenodeServer.layer({ listen: { host: "127.0.0.1", port } }).pipe(Layer.provide(Layer.succeed(Node, node)))
  Effect.runFork(Layer.launch(layer))
  setTimeout(() => process.send?.("ready"), 300)
}

/**
 * For comparison only: the same Api served through Effect's own `HttpApiBuilder` + `HttpRouter`
 * (Schema-encoded responses, no ledger headers), for the gas and balance endpoints.
 */
const serveHttpApi = async (port, build) => {
  const { Effect, Layer } = await import("effect")
  const { HttpRouter } = await import("effect/http")
  const { HttpApiBuilder } = await import("effect/http-api")
  const { NodeHttpServer } = await import("@effect/platform-node")
  const { Api } = await import(pathToFileURL(join(build, "http/Api.js")).href)
  const gas = { deprioritized_gas_estimate: 100, gas_estimate: 100, prioritized_gas_estimate: 150 }
  const no = () => Effect.die("not part of the comparison")
  const groups = [
    HttpApiBuilder.group(Api, "general", (h) => h.handleAll({ ledgerInfo: no, healthy: no, spec: no })),
    HttpApiBuilder.group(Api, "accounts", (h) =>
      h.handleAll({ transactionSummaries: no, module: no, balance: () => Effect.succeed(123456789n) })
    ),
    HttpApiBuilder.group(Api, "transactions", (h) => h.handleAll({ encodeSubmission: no, estimateGasPrice: () => Effect.succeed(gas) })),
    HttpApiBuilder.group(Api, "view", (h) => h.handleAll({ view: no }))
  ]
  const routes = HttpApiBuilder.layer(Api).pipe(Layer.provide(groups))
  const server = HttpRouter.serve(routes, { disableLogger: true }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
  )
  Effect.runFork(Layer.launch(server))
  setTimeout(() => process.send?.("ready"), 300)
}

// ---- parent -----------------------------------------------------------------------------------

const ENDPOINTS = [
  { name: "gas", target: 0.6, path: "/v1/estimate_gas_price" },
  { name: "balance", target: 0.5, path: "/v1/accounts/0x1/balance/0x1::aptos_coin::AptosCoin" },
  { name: "module", target: 0.55, path: "/v1/accounts/0x1/module/guid" },
  { name: "summaries", target: 0.4, path: "/v1/accounts/0x1/transaction_summaries?limit=25" },
  {
    name: "view",
    target: 0.25,
    path: "/v1/view",
    body: JSON.stringify({ function: "0x1::coin::balance", type_arguments: ["0x1::aptos_coin::AptosCoin"], arguments: ["0x1"] })
  },
  {
    name: "encode",
    target: 0.3,
    path: "/v1/transactions/encode_submission",
    body: JSON.stringify({
      sender: "0x1",
      sequence_number: "0",
      max_gas_amount: "2000",
      gas_unit_price: "100",
      expiration_timestamp_secs: "9999999999",
      payload: { type: "entry_function_payload", function: "0x1::aptos_account::transfer", type_arguments: [], arguments: ["0x2", "100"] }
    })
  }
]

// `--pin` (with taskset and 2+ CPUs): wrk on CPU 0, the servers on CPU 1. Steadier on a quiet
// machine; worse on a busy one, where the pinned CPU is shared with whatever else runs.
const pin = (() => {
  if (!process.argv.includes("--pin") || cpus().length < 2) return false
  try {
    execFileSync("taskset", ["-c", "0", "true"])
    return true
  } catch {
    return false
  }
})()

const wrk = (url, script, duration, connections) => {
  const args = ["-t1", `-c${connections}`, `-d${duration}`, "--latency"]
  if (script !== undefined) args.push("-s", script)
  const out = pin
    ? execFileSync("taskset", ["-c", "0", "wrk", ...args, url], { encoding: "utf8" })
    : execFileSync("wrk", [...args, url], { encoding: "utf8" })
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? "0")
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "?"
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? "0")
  return { rps, p99, non2xx }
}

const start = (role, port, build) =>
  new Promise((ok, fail) => {
    const argv = [process.execPath, fileURLToPath(import.meta.url), "--serve", role, String(port), build ?? ""]
    const [cmd, ...args] = pin ? ["taskset", "-c", "1", ...argv] : argv
    const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit", "ipc"] })
    child.once("message", () => ok(child))
    child.once("exit", (code) => fail(new Error(`${role} server exited with ${code}`)))
  })

const main = async () => {
  const duration = arg("duration", "5s")
  const connections = arg("connections", "32")
  const only = arg("only", undefined)?.split(",")
  const rounds = Number(arg("rounds", "3"))
  const dir = mkdtempSync(join(tmpdir(), "movenode-bench-"))
  const children = []
  try {
    const build = join(dir, "build")
    execFileSync(
      process.execPath,
      [join(root, "node_modules/typescript/bin/tsc"), "--ignoreConfig", "--module", "nodenext", "--moduleResolution", "nodenext",
        "--target", "es2022", "--skipLibCheck", "--strict", "--types", "node", "--rootDir", join(root, "src"), "--outDir", build,
        join(root, "src/http/index.ts")],
      { stdio: "inherit" }
    )
    symlinkSync(join(root, "node_modules"), join(build, "node_modules"))
    children.push(await start("bare", 18081))
    children.push(await start("movenode", 18082, build))
    const rows = []
    // Interleaved rounds, best of each: on a shared machine the best run is the least disturbed.
    const measure = (port, path, script) => {
      wrk(`http://127.0.0.1:${port}${path}`, script, "1s", connections) // warm-up (JIT)
      let b = { rps: 0 }
      let m = { rps: 0 }
      for (let round = 0; round < rounds; round++) {
        const rb = wrk(`http://127.0.0.1:18081${path}`, script, duration, connections)
        const rm = wrk(`http://127.0.0.1:${port}${path}`, script, duration, connections)
        if (rb.rps > b.rps) b = rb
        if (rm.rps > m.rps) m = rm
      }
      return { b, m }
    }
    const row = (name, target, { b, m }) => {
      const ratio = m.rps / b.rps
      return { endpoint: name, bare_rps: Math.round(b.rps), bare_p99: b.p99, movenode_rps: Math.round(m.rps), movenode_p99: m.p99, ratio: `${(ratio * 100).toFixed(0)}%`, target: `${Math.round(target * 100)}%`, ok: ratio >= target ? "yes" : "NO", non2xx: m.non2xx }
    }
    if (process.argv.includes("--httpapi")) {
      children.push(await start("httpapi", 18083, build))
      for (const e of ENDPOINTS.slice(0, 2))
        if (only === undefined || only.includes(e.name)) rows.push(row(`${e.name} (HttpApiBuilder)`, e.target, measure(18083, e.path)))
    }
    for (const e of ENDPOINTS) {
      if (only !== undefined && !only.includes(e.name)) continue
      let script
      if (e.body !== undefined) {
        script = join(dir, `${e.name}.lua`)
        writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(e.body)}\nwrk.headers["Content-Type"] = "application/json"\n`)
      }
      rows.push(row(e.name, e.target, measure(18082, e.path, script)))
    }
    console.log(`wrk -t1 -c${connections} -d${duration}, best of ${rounds} interleaved rounds${pin ? ", wrk on CPU 0, servers on CPU 1" : ""}`)
    console.table(rows)
  } finally {
    for (const child of children) child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === "--serve") {
  const [role, port, build] = process.argv.slice(3)
  if (role === "bare") serveBare(Number(port))
  else if (role === "httpapi") await serveHttpApi(Number(port), build)
  else await serveMovenode(Number(port), build)
} else {
  await main()
}
