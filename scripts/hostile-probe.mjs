#!/usr/bin/env node
// The hostile-client probe of issue 11, replayed against the movenode command (the bundle `npm
// start` runs) on a fresh data dir and a free port, then a mixed-load soak. Prints what it measured.
//
//   npm run build && node scripts/hostile-probe.mjs [--soak 60] [--silent 200] [--garbage 2000]
//     [--genesis ../shared/genesis/devnet.blob] [--concurrency 16]
//
// Reproducers: 8 MB view bodies (800,000 nested arrays; 4,000,000 flat numbers) and an 8 MB
// encode_submission body, each timed, with health checks and normal views in flight; the 497 KB
// vector<u8> view; 417 (bogus Expect) and 400 (HTTP/1.1 without Host); `--garbage` clients that
// send a malformed request and never close their side, and `--silent` ones that send nothing (408
// after the 30 s request timeout): the server's file descriptors are counted (/proc/PID/fd) before,
// while held and after. Soak: views, encode_submission, module, ledger info and health checks
// mixed, with a hostile body every second; statuses counted, resident memory sampled.
// The node is stopped by its PID (SIGTERM, then SIGKILL after 15 s).
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer, connect } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { memoryKb, root, sleep, startMovenode, stopMovenode, waitForNode } from "./lib.mjs"

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? dflt : process.argv[i + 1]
}
const SOAK_S = Number(arg("soak", "60"))
const SILENT = Number(arg("silent", "200"))
const GARBAGE = Number(arg("garbage", "2000"))
const CONCURRENCY = Number(arg("concurrency", "16"))
const genesis = resolve(arg("genesis", join(root, "..", "shared", "genesis", "devnet.blob")))
const bin = join(root, "dist", "bin", "movenode.js")
if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`)

/** A port free right now (bound to 0 and released). */
const port = await new Promise((resolvePort) => {
  const probe = createServer()
  probe.listen(0, "127.0.0.1", () => {
    const p = probe.address().port
    probe.close(() => resolvePort(p))
  })
})
const dataDir = mkdtempSync(join(tmpdir(), "movenode-probe-"))
const node = startMovenode(["run", "--genesis", genesis, "--data-dir", dataDir, "--listen", `127.0.0.1:${port}`, "--quiet"], {
  stderr: "pipe"
})
let stderr = ""
node.stderr.on("data", (d) => (stderr += d))
const stopNode = () => stopMovenode(node)
// Up when GET /v1 answers (60 s at most).
try {
  await waitForNode(node, `http://127.0.0.1:${port}/v1`, { intervalMs: 100, timeoutMs: 60_000, output: () => stderr })
} catch (e) {
  await stopNode()
  throw e
}
const base = `http://127.0.0.1:${port}/v1`
const fds = () => readdirSync(`/proc/${node.pid}/fd`).length
const rssMb = () => {
  const kb = memoryKb(node.pid).VmRSS
  return kb === undefined ? -1 : Math.round(kb / 1024)
}
const report = {}

const post = async (path, body, headers = {}) => {
  const t = performance.now()
  const r = await fetch(base + path, { method: "POST", body, headers: { "content-type": "application/json", ...headers } })
  const text = await r.text()
  return { status: r.status, bytes: text.length, ms: Math.round(performance.now() - t), text }
}
const get = async (path, timeoutMs = 5000) => {
  const t = performance.now()
  try {
    const r = await fetch(base + path, { signal: AbortSignal.timeout(timeoutMs) })
    await r.arrayBuffer()
    return { status: r.status, ms: performance.now() - t }
  } catch {
    return { status: 0, ms: performance.now() - t }
  }
}
const VIEW_NAME = '{"function":"0x1::coin::name","type_arguments":["0x1::aptos_coin::AptosCoin"],"arguments":[]}'
const VIEW_BALANCE = '{"function":"0x1::coin::balance","type_arguments":["0x1::aptos_coin::AptosCoin"],"arguments":["0xa550c18"]}'
const ENCODE = JSON.stringify({
  sender: "0xa550c18",
  sequence_number: "0",
  max_gas_amount: "2000",
  gas_unit_price: "100",
  expiration_timestamp_secs: "1900000000",
  payload: { type: "entry_function_payload", function: "0x1::aptos_account::transfer", type_arguments: [], arguments: ["0x1", "1"] }
})
const nested = Array(800_000).fill("[[[[1]]]]").join(",")
const HOSTILE = {
  view8mbNested: ["/view", `{"function":"0x1::coin::name","type_arguments":["0x1::aptos_coin::AptosCoin"],"arguments":[${nested}]}`],
  view8mbFlat: ["/view", `{"function":"0x1::coin::name","type_arguments":["0x1::aptos_coin::AptosCoin"],"arguments":[${Array(4_000_000).fill("1").join(",")}]}`],
  encode8mb: [
    "/transactions/encode_submission",
    `{"sender":"0x1","sequence_number":"0","max_gas_amount":"1","gas_unit_price":"1","expiration_timestamp_secs":"1","payload":{"type":"entry_function_payload","function":"0x1::aptos_account::transfer","type_arguments":[],"arguments":[${nested}]}}`
  ]
}

try {
  await get("/")
  await post("/view", VIEW_NAME) // starts the view workers
  report.baseline = { fds: fds(), rssMb: rssMb() }

  // 1-2. The 8 MB bodies, each alone, then two clients repeating the encode body while health checks run.
  report.bodies = {}
  for (const [name, [path, body]] of Object.entries(HOSTILE)) {
    const r = await post(path, body)
    report.bodies[name] = { bodyMb: +(body.length / 2 ** 20).toFixed(1), status: r.status, responseBytes: r.bytes, ms: r.ms }
  }
  {
    let stop = false
    const hostileLoop = async () => {
      const seen = []
      while (!stop) seen.push((await post(...HOSTILE.encode8mb)).status)
      return seen
    }
    const healthLoop = async () => {
      const out = []
      while (!stop) {
        out.push(await get("/-/healthy", 1000))
        await sleep(100)
      }
      return out
    }
    const viewLoop = async () => {
      const out = []
      while (!stop) {
        const r = await post("/view", VIEW_NAME)
        out.push(r.status === 200 && r.text === '["Aptos Coin"]' ? r.ms : -1)
      }
      return out
    }
    const loops = [hostileLoop(), hostileLoop(), healthLoop(), viewLoop()]
    await sleep(10_000)
    stop = true
    const [a, b, health, views] = await Promise.all(loops)
    report.concurrent = {
      hostileRequests: a.length + b.length,
      hostileStatuses: [...new Set([...a, ...b])],
      healthChecks: health.length,
      healthFailedOrOver1s: health.filter((h) => h.status !== 200 || h.ms > 1000).length,
      healthMaxMs: Math.round(Math.max(...health.map((h) => h.ms))),
      views: views.length,
      viewsWrong: views.filter((v) => v < 0).length,
      viewMaxMs: Math.max(...views),
      rssMb: rssMb()
    }
  }

  // 4. The 497 KB vector<u8> argument.
  {
    const r = await post(
      "/view",
      JSON.stringify({
        function: "0x1::delegation_pool::get_expected_stake_pool_address",
        type_arguments: [],
        arguments: ["0x1", `0x${"ab".repeat(497_265)}`]
      })
    )
    report.vector497kb = { status: r.status, ms: r.ms, body: r.text.slice(0, 120) }
  }

  // 5. 417 and 400 without Host, raw.
  const raw = (text) =>
    new Promise((resolveRaw) => {
      const s = connect({ port, host: "127.0.0.1" })
      let got = ""
      s.on("data", (d) => (got += d))
      s.on("close", () => resolveRaw(got))
      s.on("error", () => resolveRaw(got))
      s.write(text)
    })
  const statusAndBody = (t) => `${t.split("\r\n")[0]} ${t.slice(t.indexOf("\r\n\r\n") + 4)}`
  report.expect417 = statusAndBody(await raw("POST /v1/view HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Length: 2\r\n\r\n"))
  report.noHost400 = statusAndBody(await raw("GET /v1 HTTP/1.1\r\n\r\n"))

  // 3. Refused clients that never close their side.
  const holdOpen = (send) =>
    new Promise((resolveHold) => {
      const s = connect({ port, host: "127.0.0.1", allowHalfOpen: true })
      s.on("error", () => resolveHold(s))
      s.on("connect", () => {
        if (send !== undefined) s.write(send)
        resolveHold(s)
      })
    })
  {
    const before = fds()
    const clients = []
    for (let i = 0; i < GARBAGE; i++) clients.push(await holdOpen("GARBAGE\r\n\r\n"))
    const held = fds()
    const t = performance.now()
    let after = fds()
    while (after > before + 5 && performance.now() - t < 10_000) {
      await sleep(50)
      after = fds()
    }
    report.garbageClients = { clients: GARBAGE, fdsBefore: before, fdsRightAfterSending: held, fdsAfter: after, msToBaseline: Math.round(performance.now() - t) }
    for (const c of clients) c.destroy()
  }
  {
    await sleep(500)
    const before = fds()
    const clients = []
    for (let i = 0; i < SILENT; i++) clients.push(await holdOpen(undefined))
    const held = fds()
    const t = performance.now()
    let after = fds()
    while (after > before + 5 && performance.now() - t < 45_000) {
      await sleep(100)
      after = fds()
    }
    report.silentClients = { clients: SILENT, fdsBefore: before, fdsWhileHeld: held, fdsAfter: after, sBeforeBaseline: +((performance.now() - t) / 1000).toFixed(1) }
    for (const c of clients) c.destroy()
  }

  // Soak.
  {
    const statuses = {}
    const rss = []
    let stop = false
    const count = (s) => (statuses[s] = (statuses[s] ?? 0) + 1)
    const mix = [
      () => post("/view", VIEW_NAME),
      () => post("/view", VIEW_BALANCE),
      () => post("/transactions/encode_submission", ENCODE),
      () => get("/accounts/0x1/module/coin"),
      () => get("/"),
      () => get("/-/healthy"),
      () => get("/estimate_gas_price")
    ]
    const worker = async (i) => {
      let n = i
      while (!stop) {
        const r = await mix[n++ % mix.length]()
        count(r.status)
      }
    }
    const hostile = async () => {
      const names = Object.keys(HOSTILE)
      let n = 0
      while (!stop) {
        const r = await post(...HOSTILE[names[n++ % names.length]])
        count(`hostile ${r.status}`)
        await sleep(1000)
      }
    }
    const sampler = async () => {
      while (!stop) {
        rss.push(rssMb())
        await sleep(5000)
      }
    }
    const t = performance.now()
    const all = [...Array.from({ length: CONCURRENCY }, (_, i) => worker(i)), hostile(), sampler()]
    await sleep(SOAK_S * 1000)
    stop = true
    await Promise.all(all)
    const total = Object.entries(statuses).reduce((n, [k, v]) => (k.startsWith("hostile") ? n : n + v), 0)
    report.soak = {
      seconds: Math.round((performance.now() - t) / 1000),
      requests: total,
      perSecond: Math.round(total / ((performance.now() - t) / 1000)),
      statuses,
      fivexx: Object.entries(statuses).filter(([k]) => /(^| )5\d\d$/.test(k)).reduce((n, [, v]) => n + v, 0),
      rssMbSamples: rss,
      fdsAfter: fds()
    }
  }
} finally {
  await stopNode()
  rmSync(dataDir, { recursive: true, force: true })
}
console.log(JSON.stringify(report, null, 2))
