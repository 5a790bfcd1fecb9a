#!/usr/bin/env node
// Load test of movenode's HTTP API against a bare `node:http` server (a small JSON body with the
// same seven ledger headers), each in its own process, driven by `wrk -t1` on loopback. For every
// endpoint the two are measured alternately (`--rounds` times, best of each kept) and the ratio
// of the two is printed.
//
// Default (real node): `npm run build`, then a setup step (scripts/bench-populate.mjs) imports the
// devnet genesis into a fresh LMDB data dir and commits user transactions of one sender; then
// the command `npm start` runs (the bundle dist/bin/movenode.js) serves that dir. Also measured: cold start to the first 200 on `GET /v1`
// (fresh and existing data dir), resident memory after the load run, and devnet genesis import.
//
// `--double`: the HTTP layer alone over a fixed in-memory Node double (src/http compiled with tsc
// into a temporary directory); `--httpapi` (with `--double`) adds gas and balance served through
// Effect's HttpApiBuilder, the design the lean listener replaced.
//
//   node scripts/bench-http.mjs [--double] [--duration 5s] [--rounds 3] [--connections 32]
//     [--only gas,balance,module,summaries,account,resource,view,encode] [--pin] [--no-build] [--blocks 40]
//     [--per-block 25] [--genesis genesis/devnet.blob] [--skip-load] [--skip-cold]
//     [--node-config FILE]   (a movenode --config file for the measured node, e.g. the page cache off)
//     [--log file|pipe]      (the request log's cost: the node with and without it, and the bare server)
//     [--log-control]        (with --log: both nodes quiet, the comparison's own spread)
//     [--pairs K]            (with --log: K pairs of processes, one after the other; the median over them)
//
// Every child is stopped by its PID (SIGTERM, then SIGKILL after 5 s); every wait is bounded.
import { execFileSync, spawn } from "node:child_process"
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer, get } from "node:http"
import { cpus, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { cpuSecs, freePort, median, memoryKb, requireCommand, root } from "./lib.mjs"

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? dflt : process.argv[i + 1]
}
const has = (name) => process.argv.includes(`--${name}`)

const LEDGER_HEADERS = [
  ["X-SERVICE-CHAIN-ID", "4"],
  ["X-SERVICE-LEDGER-VERSION", "1000"],
  ["X-SERVICE-LEDGER-OLDEST-VERSION", "100"],
  ["X-SERVICE-LEDGER-TIMESTAMPUSEC", "1700000000000000"],
  ["X-SERVICE-EPOCH", "2"],
  ["X-SERVICE-BLOCK-HEIGHT", "50"],
  ["X-SERVICE-OLDEST-BLOCK-HEIGHT", "5"]
]

const WRK_TIMEOUT_MS = 120_000
const READY_TIMEOUT_MS = 30_000

/** wrk's latency text (`812.00us`, `1.20ms`, `2.01s`) in milliseconds. */
const toMs = (text) => {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text)
  if (m === null) return Number.NaN
  const v = Number(m[1])
  return m[2] === "us" ? v / 1000 : m[2] === "ms" ? v : m[2] === "s" ? v * 1000 : v * 60_000
}

// ---- child roles (`--serve <role> <port> [build]`) ----------------------------------------------

/**
 * The bare server. `BARE_SPIN_US=<µs>` (for `--serve bare <port>` run by hand) adds that much
 * synchronous work per request: how the CPU per request grows with the server's own work when wrk
 * shares the machine (docs/benchmarks.md, "the cliff"). The bench itself never sets it.
 */
const serveBare = (port) => {
  const body = `{"deprioritized_gas_estimate":100,"gas_estimate":100,"prioritized_gas_estimate":150}`
  const headers = LEDGER_HEADERS.flat().concat("content-type", "application/json", "content-length", String(body.length))
  const spinMs = Number(process.env.BARE_SPIN_US ?? 0) / 1000
  const spin = () => {
    const end = performance.now() + spinMs
    while (performance.now() < end);
  }
  createServer((req, res) => {
    const reply = () => {
      if (spinMs > 0) spin()
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
    encodeSubmission: () => ok(new Uint8Array(200).fill(1)),
    reads: {
      accounts: {
        account: () =>
          ok({ sequenceNumber: 0n, authenticationKey: one, json: `{"sequence_number":"0","authentication_key":"0x${"0".repeat(63)}1"}`, bcs: one })
      },
      resources: {
        resource: () =>
          ok({ json: Buffer.from(JSON.stringify({ type: "0x1::account::Account", data: { sequence_number: "0", authentication_key: "0x01" } })), bcs: one })
      }
    }
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
  // Not a dependency of the package (it requires Node.js >= 22.19): only this comparison uses it.
  const { NodeHttpServer } = await import("@effect/platform-node").catch(() => {
    throw new Error("--httpapi needs @effect/platform-node: npm install --no-save @effect/platform-node")
  })
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

/** Endpoints; `{sender}` is filled with the populated sender in real-node mode. */
const endpoints = (real, sender) => [
  { name: "gas", target: 0.6, path: "/v1/estimate_gas_price" },
  { name: "balance", target: 0.5, path: `/v1/accounts/${real ? "0xa550c18" : "0x1"}/balance/0x1::aptos_coin::AptosCoin` },
  { name: "module", target: 0.55, path: `/v1/accounts/0x1/module/${real ? "coin" : "guid"}` },
  { name: "summaries", target: 0.4, path: `/v1/accounts/${sender}/transaction_summaries?limit=25` },
  { name: "account", target: 0.5, path: `/v1/accounts/${real ? "0xa550c18" : "0x1"}` },
  { name: "resource", target: 0.4, path: `/v1/accounts/${real ? "0xa550c18" : "0x1"}/resource/0x1::account::Account` },
  {
    name: "view",
    target: 0.25,
    p99Ms: 10,
    path: "/v1/view",
    body: JSON.stringify({
      function: "0x1::coin::balance",
      type_arguments: ["0x1::aptos_coin::AptosCoin"],
      arguments: [real ? "0xa550c18" : "0x1"]
    })
  },
  {
    name: "encode",
    target: 0.3,
    path: "/v1/transactions/encode_submission",
    body: JSON.stringify({
      sender: real ? "0xa550c18" : "0x1",
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

/**
 * One wrk run. With `pid`, also the server's CPU time per request (user + system, µs): steadier
 * than req/s on a shared machine, since time the server spends descheduled does not count.
 */
const wrk = (url, script, duration, connections, pid) => {
  const args = ["-t1", `-c${connections}`, `-d${duration}`, "--latency"]
  if (script !== undefined) args.push("-s", script)
  const cpu0 = pid === undefined ? Number.NaN : cpuSecs(pid)
  const out = pin
    ? execFileSync("taskset", ["-c", "0", "wrk", ...args, url], { encoding: "utf8", timeout: WRK_TIMEOUT_MS })
    : execFileSync("wrk", [...args, url], { encoding: "utf8", timeout: WRK_TIMEOUT_MS })
  const cpu = pid === undefined ? Number.NaN : cpuSecs(pid) - cpu0
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? "0")
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? "0")
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "?"
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? "0")
  const p99ms = toMs(p99)
  return { rps, p99, p99ms, non2xx, cpuUs: (cpu * 1e6) / requests }
}

const withPin = (argv) => (pin ? ["taskset", "-c", "1", ...argv] : argv)

/** A `--serve` child of this script, resolved once it reports ready over IPC. */
const startRole = (role, port, build) =>
  new Promise((ok, fail) => {
    const [cmd, ...args] = withPin([process.execPath, fileURLToPath(import.meta.url), "--serve", role, String(port), build ?? ""])
    const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit", "ipc"] })
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      fail(new Error(`${role} server not ready in ${READY_TIMEOUT_MS} ms`))
    }, READY_TIMEOUT_MS)
    child.once("message", () => {
      clearTimeout(timer)
      ok(child)
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      fail(new Error(`${role} server exited with ${code}`))
    })
  })

/** Stops a child by its PID: SIGTERM, SIGKILL after 5 s; resolves when it has exited. */
const stop = (child) =>
  new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) return ok()
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000)
    child.once("exit", () => {
      clearTimeout(timer)
      ok()
    })
    child.kill("SIGTERM")
  })

const status = (port, path) =>
  new Promise((ok) => {
    const req = get({ host: "127.0.0.1", port, path, agent: false, timeout: 1000 }, (res) => {
      res.resume()
      res.once("end", () => ok(res.statusCode))
    })
    req.once("timeout", () => req.destroy())
    req.once("error", () => ok(0))
  })

/**
 * `--log-control` (with `--log`): the "logged" process runs `--quiet` too — two identical processes
 * compared as the log's cost is, to read how far the comparison moves when nothing differs.
 */
const LOG_CONTROL = has("log-control")

/** `--node-config FILE`: a movenode config file for the measured node (e.g. `{"node":{"summaryPageCache":0}}`). */
const NODE_CONFIG = arg("node-config", undefined)

/**
 * The Node.js flags and the script `npm start` runs the node with (`node [FLAGS] SCRIPT …` in
 * package.json's start script, which starts the local chain; this script then runs `SCRIPT run`,
 * the read-only node over a genesis), so the measured node is the one the README starts.
 */
const { NODE_FLAGS, NODE_SCRIPT } = (() => {
  const start = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start
  const m = /\bnode\s+((?:--\S+\s+)*)(\S+\.js)\b/.exec(start)
  if (m === null) throw new Error(`cannot read the node command from the start script: ${start}`)
  return { NODE_FLAGS: m[1].trim().split(/\s+/).filter((w) => w !== ""), NODE_SCRIPT: m[2] }
})()

/**
 * Spawns `node [NODE_FLAGS] NODE_SCRIPT run` and polls `GET /v1` every 5 ms until it answers 200: the
 * time from spawn to that answer is the cold start. Bounded by READY_TIMEOUT_MS.
 */
const startNode = async (genesis, dataDir, port, logTo = undefined) => {
  const t0 = performance.now()
  const [cmd, ...args] = withPin([
    process.execPath, ...NODE_FLAGS, join(root, NODE_SCRIPT), "run", "--genesis", genesis, "--data-dir", dataDir, "--listen", `127.0.0.1:${port}`,
    ...(logTo === undefined || LOG_CONTROL ? ["--quiet"] : []),
    ...(NODE_CONFIG === undefined ? [] : ["--config", resolve(NODE_CONFIG)])
  ])
  // With the request log on (`--log`): stdout to a file (`logTo`), or to a pipe this script drains.
  const out = logTo === undefined ? "inherit" : logTo === "pipe" ? "pipe" : openSync(logTo, "w")
  const child = spawn(cmd, args, { stdio: ["ignore", out, "inherit"] })
  if (out === "pipe") child.stdout.resume()
  if (typeof out === "number") closeSync(out)
  let exited = false
  child.once("exit", () => {
    exited = true
  })
  while (!exited && performance.now() - t0 < READY_TIMEOUT_MS) {
    if ((await status(port, "/v1")) === 200) return { child, coldMs: performance.now() - t0 }
    await new Promise((r) => setTimeout(r, 5))
  }
  await stop(child)
  throw new Error(`movenode ${exited ? "exited" : "not ready"} before answering GET /v1`)
}

/** VmRSS / VmHWM / RssAnon / RssFile of a process, in MB. */
const memoryOf = (pid) => {
  const kb = memoryKb(pid)
  const mb = (name) => Math.round((kb[name] ?? Number.NaN) / 102.4) / 10
  return { VmRSS: mb("VmRSS"), VmHWM: mb("VmHWM"), RssAnon: mb("RssAnon"), RssFile: mb("RssFile") }
}

const fmt = (ms) => `${ms.toFixed(0)} ms`

/** Interleaved rounds, best of each: on a shared machine the best run is the least disturbed. */
const loadRows = (list, bare, ours, options, dir, logged = undefined) => {
  const [barePort, barePid] = bare
  const [ourPort, ourPid] = ours
  const { duration, connections, rounds } = options
  const rows = []
  for (const e of list) {
    let script
    if (e.body !== undefined) {
      script = join(dir, `${e.name}.lua`)
      writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(e.body)}\nwrk.headers["Content-Type"] = "application/json"\n`)
    }
    wrk(`http://127.0.0.1:${barePort}${e.path}`, script, "1s", connections) // warm-up (JIT)
    wrk(`http://127.0.0.1:${ourPort}${e.path}`, script, "1s", connections)
    if (logged !== undefined) wrk(`http://127.0.0.1:${logged[0]}${e.path}`, script, "1s", connections)
    let b = { rps: 0 }
    let m = { rps: 0 }
    let l = { rps: 0 }
    let bCpu = Number.POSITIVE_INFINITY
    let mCpu = Number.POSITIVE_INFINITY
    let lCpu = Number.POSITIVE_INFINITY
    /** logged/quiet of each round (the two measured back to back), for the median beside the best-of. */
    const roundRatios = []
    for (let round = 0; round < rounds; round++) {
      const rb = wrk(`http://127.0.0.1:${barePort}${e.path}`, script, duration, connections, barePid)
      const measureQuiet = () => wrk(`http://127.0.0.1:${ourPort}${e.path}`, script, duration, connections, ourPid)
      const measureLogged = () => wrk(`http://127.0.0.1:${logged[0]}${e.path}`, script, duration, connections, logged[1])
      // With the log measured too, the two take turns at going first: the machine's speed drifts
      // between minutes, and a fixed order would hand the drift to one of them.
      let rm
      if (logged === undefined) rm = measureQuiet()
      else {
        let rl
        if (round % 2 === 0) {
          rm = measureQuiet()
          rl = measureLogged()
        } else {
          rl = measureLogged()
          rm = measureQuiet()
        }
        if (rl.rps > l.rps) l = rl
        lCpu = Math.min(lCpu, rl.cpuUs)
        roundRatios.push(rl.rps / rm.rps)
      }
      if (rb.rps > b.rps) b = rb
      if (rm.rps > m.rps) m = rm
      bCpu = Math.min(bCpu, rb.cpuUs)
      mCpu = Math.min(mCpu, rm.cpuUs)
    }
    if (logged !== undefined) {
      rows.push({
        endpoint: e.name,
        bare_rps: Math.round(b.rps),
        quiet_rps: Math.round(m.rps),
        logged_rps: Math.round(l.rps),
        logged_p99: l.p99,
        "logged/quiet": `${((l.rps / m.rps) * 100).toFixed(0)}%`,
        "median of rounds": `${(median(roundRatios) * 100).toFixed(0)}%`,
        bare_cpu_us: Number(bCpu.toFixed(1)),
        quiet_cpu_us: Number(mCpu.toFixed(1)),
        logged_cpu_us: Number(lCpu.toFixed(1)),
        "log cost (cpu)": `${(((lCpu - mCpu) / mCpu) * 100).toFixed(0)}%`,
        non2xx: m.non2xx + l.non2xx
      })
      continue
    }
    const ratio = m.rps / b.rps
    const p99ok = e.p99Ms === undefined || m.p99ms < e.p99Ms
    rows.push({
      endpoint: e.name,
      bare_rps: Math.round(b.rps),
      bare_p99: b.p99,
      movenode_rps: Math.round(m.rps),
      movenode_p99: m.p99,
      ratio: `${(ratio * 100).toFixed(0)}%`,
      bare_cpu_us: Number(bCpu.toFixed(1)),
      movenode_cpu_us: Number(mCpu.toFixed(1)),
      cpu_ratio: `${((bCpu / mCpu) * 100).toFixed(0)}%`,
      target: `${Math.round(e.target * 100)}%${e.p99Ms === undefined ? "" : `, p99<${e.p99Ms}ms`}`,
      ok: ratio >= e.target && p99ok && m.non2xx === 0 ? "yes" : "NO",
      non2xx: m.non2xx
    })
  }
  return rows
}

const options = () => ({
  duration: arg("duration", "5s"),
  connections: arg("connections", "32"),
  rounds: Math.min(Math.max(Number(arg("rounds", "3")), 1), 20),
  only: arg("only", undefined)?.split(",")
})

const mainDouble = async () => {
  const opts = options()
  const dir = mkdtempSync(join(tmpdir(), "movenode-bench-"))
  const children = []
  try {
    const build = join(dir, "build")
    execFileSync(
      process.execPath,
      [join(root, "node_modules/typescript/bin/tsc"), "--ignoreConfig", "--module", "nodenext", "--moduleResolution", "nodenext",
        "--target", "es2022", "--skipLibCheck", "--strict", "--types", "node", "--rootDir", join(root, "src"), "--outDir", build,
        join(root, "src/http/index.ts")],
      { stdio: "inherit", timeout: 300_000 }
    )
    symlinkSync(join(root, "node_modules"), join(build, "node_modules"))
    const [barePort, ourPort] = [await freePort(), await freePort()]
    const bare = await startRole("bare", barePort)
    children.push(bare)
    const ours = await startRole("movenode", ourPort, build)
    children.push(ours)
    const list = endpoints(false, "0x1").filter((e) => opts.only === undefined || opts.only.includes(e.name))
    const rows = []
    if (has("httpapi")) {
      const apiPort = await freePort()
      const api = await startRole("httpapi", apiPort, build)
      children.push(api)
      for (const r of loadRows(list.filter((e) => e.name === "gas" || e.name === "balance"), [barePort, bare.pid], [apiPort, api.pid], opts, dir))
        rows.push({ ...r, endpoint: `${r.endpoint} (HttpApiBuilder)` })
    }
    rows.push(...loadRows(list, [barePort, bare.pid], [ourPort, ours.pid], opts, dir))
    console.log(`HTTP layer over the in-memory double; wrk -t1 -c${opts.connections} -d${opts.duration}, best of ${opts.rounds} interleaved rounds${pin ? ", wrk on CPU 0, servers on CPU 1" : ""}`)
    console.table(rows)
  } finally {
    for (const child of children) await stop(child)
    rmSync(dir, { recursive: true, force: true })
  }
}

const mainReal = async () => {
  const opts = options()
  const genesis = resolve(arg("genesis", join(root, "genesis/devnet.blob")))
  const blocks = arg("blocks", "40")
  const perBlock = arg("per-block", "25")
  if (!has("no-build")) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", timeout: 300_000 })
  const dir = mkdtempSync(join(tmpdir(), "movenode-bench-"))
  const children = []
  try {
    // Setup: genesis import + user transactions of one sender (0xcafe), in its own process.
    const dataDir = join(dir, "data")
    const scratch = join(dir, "scratch")
    mkdirSync(scratch)
    const setup = JSON.parse(
      execFileSync(process.execPath, [join(root, "scripts/bench-populate.mjs"), genesis, dataDir, scratch, blocks, perBlock, "51966"], {
        encoding: "utf8",
        timeout: 300_000
      })
    )
    rmSync(scratch, { recursive: true, force: true })
    console.log(
      `setup: devnet genesis import ${fmt(setup.importMs)} (cold process), warm ${setup.importWarmMs.map(fmt).join(", ")}; ` +
        `${setup.transactions} user transactions of ${setup.sender} in ${blocks} blocks committed in ${fmt(setup.commitMs)}`
    )

    if (!has("skip-cold")) {
      // Cold start: spawn → first 200 on GET /v1, 3 times each on a fresh and on the populated dir.
      const fresh = []
      const existing = []
      for (let i = 0; i < 3; i++) {
        const port = await freePort()
        const n = await startNode(genesis, join(dir, `fresh-${i}`), port)
        fresh.push(n.coldMs)
        await stop(n.child)
        rmSync(join(dir, `fresh-${i}`), { recursive: true, force: true })
      }
      for (let i = 0; i < 3; i++) {
        const port = await freePort()
        const n = await startNode(genesis, dataDir, port)
        existing.push(n.coldMs)
        await stop(n.child)
      }
      console.log(
        `cold start to first 200 on GET /v1 (target < 2000 ms): fresh data dir ${fresh.map(fmt).join(", ")} (median ${fmt(median(fresh))}); ` +
          `existing ${existing.map(fmt).join(", ")} (median ${fmt(median(existing))})`
      )
    }

    if (has("log")) {
      // The request log's cost: the same node with and without it (a copy of the data dir each),
      // and the bare server, interleaved in the same rounds.
      const logTo = arg("log", "file") === "pipe" ? "pipe" : join(dir, "requests.log")
      const loggedDir = join(dir, "data-logged")
      cpSync(dataDir, loggedDir, { recursive: true })
      const barePort = await freePort()
      const bare = await startRole("bare", barePort)
      children.push(bare)
      const list = endpoints(true, setup.sender).filter((e) => opts.only === undefined || opts.only.includes(e.name))
      // `--pairs K`: K pairs of processes, one pair after the other. Two identical processes can
      // differ by ~10 % (each compiles its own code: `--log-control`), as much as the bound being
      // measured, so one pair cannot settle it; the median over pairs can.
      const pairs = Math.max(1, Math.floor(Number(arg("pairs", "1"))) || 1)
      const rows = []
      let logBytes = 0
      for (let pair = 0; pair < pairs; pair++) {
        const [quietPort, loggedPort] = [await freePort(), await freePort()]
        const quiet = await startNode(genesis, dataDir, quietPort)
        children.push(quiet.child)
        const logged = await startNode(genesis, loggedDir, loggedPort, logTo)
        children.push(logged.child)
        for (const row of loadRows(list, [barePort, bare.pid], [quietPort, quiet.child.pid], opts, dir, [loggedPort, logged.child.pid]))
          rows.push({ pair: pair + 1, ...row })
        await stop(quiet.child)
        await stop(logged.child)
        if (logTo !== "pipe") logBytes += statSync(logTo).size
      }
      console.log(`request log: movenode --quiet vs ${LOG_CONTROL ? "a second movenode --quiet (--log-control)" : `movenode logging to ${logTo === "pipe" ? "a pipe (drained by this script)" : "a file"}`}; wrk -t1 -c${opts.connections} -d${opts.duration}, ${pairs} pair(s) of processes, each best of ${opts.rounds} interleaved rounds (bare, then quiet and logged in turns), and the median of the rounds' logged/quiet`)
      console.table(rows)
      if (pairs > 1) {
        const pct = (text) => Number.parseFloat(text)
        console.table(
          list.map((e) => {
            const mine = rows.filter((r) => r.endpoint === e.name)
            return {
              endpoint: e.name,
              pairs: mine.length,
              "logged/quiet, median of pairs": `${median(mine.map((r) => pct(r["logged/quiet"])))}%`,
              "logged/quiet, each pair": mine.map((r) => r["logged/quiet"]).join(" "),
              "cpu µs per request, logged − quiet (median)": Number(median(mine.map((r) => r.logged_cpu_us - r.quiet_cpu_us)).toFixed(1))
            }
          })
        )
      }
      if (logTo !== "pipe") console.log(`log files: ${logBytes} bytes`)
      return
    }

    if (!has("skip-load")) {
      const [barePort, ourPort] = [await freePort(), await freePort()]
      const bare = await startRole("bare", barePort)
      children.push(bare)
      const node = await startNode(genesis, dataDir, ourPort)
      children.push(node.child)
      const before = memoryOf(node.child.pid)
      const list = endpoints(true, setup.sender).filter((e) => opts.only === undefined || opts.only.includes(e.name))
      const rows = loadRows(list, [barePort, bare.pid], [ourPort, node.child.pid], opts, dir)
      const after = memoryOf(node.child.pid)
      console.log(`node command (from npm start): node ${NODE_FLAGS.join(" ")}${NODE_FLAGS.length > 0 ? " " : ""}${NODE_SCRIPT}; config: ${NODE_CONFIG === undefined ? "(defaults)" : readFileSync(NODE_CONFIG, "utf8").trim()}; CPUs: ${cpus().length}`)
      console.log(`real node (LMDB, devnet genesis + ${setup.transactions} user txns); wrk -t1 -c${opts.connections} -d${opts.duration}, best of ${opts.rounds} interleaved rounds${pin ? ", wrk on CPU 0, servers on CPU 1" : ""}`)
      console.table(rows)
      console.log(`memory (MB, /proc/${node.child.pid}/status; target VmRSS < 150): after start ${JSON.stringify(before)}; after the load run ${JSON.stringify(after)}`)
    }
  } finally {
    for (const child of children) await stop(child)
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === "--serve") {
  const [role, port, build] = process.argv.slice(3)
  if (role === "bare") serveBare(Number(port))
  else if (role === "httpapi") await serveHttpApi(Number(port), build)
  else await serveMovenode(Number(port), build)
} else if (has("double")) {
  requireCommand("wrk")
  await mainDouble()
} else {
  requireCommand("wrk")
  await mainReal()
}
