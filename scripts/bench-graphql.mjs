#!/usr/bin/env node
/**
 * GraphQL reads on a big chain (docs/benchmarks.md, "Session 8: GraphQL reads on 100,000
 * transactions"). Two steps, so the chain is built once and measured many times:
 *
 *   node scripts/bench-graphql.mjs build --dir DIR [--transactions 100000] [--accounts 64]
 *        1. the built `movenode` with --no-indexer on DIR/chain (new): pre-signed APT transfers
 *           between --accounts accounts pushed as fast as taken, until the ledger holds
 *           --transactions user transactions;
 *        2. the same chain with the indexer (SQLite, in DIR/chain): waits until it has indexed it all;
 *        3. a PostgreSQL cluster kept in DIR/pg (Debian's binaries, as the postgres user when root)
 *           and the chain with --indexer-db pointing at it: indexed again.
 *        Writes DIR/info.json (counts, timings). Takes minutes (the ledger at the node's throughput,
 *        then indexing at a few hundred versions/s on a busy 2-core machine).
 *   node scripts/bench-graphql.mjs index --dir DIR
 *        Steps 2 and 3 again on the kept ledger: after a change to the processors (their
 *        fingerprints are part of the index's key, so the node would re-index at start anyway).
 *   node scripts/bench-graphql.mjs run --dir DIR [--store sqlite|postgres|none] [--seconds 10]
 *        [--connections 16] [--soak 60] [--queries a,b]
 *        Starts the node on DIR/chain (and the kept PostgreSQL for --store postgres), then with wrk
 *        (-t1, POST bodies from a lua script): a bare node:http server (a process of its own) for
 *        scale, then each query for --seconds: req/s, p50, p99. Resident memory (VmRSS) of the node
 *        after start (index caught up) and after --soak seconds of wrk at full throughput on the
 *        first query. With --store none (no indexer) the soak reads the REST equivalent of an
 *        account-transactions page (GET /v1/accounts/A/transactions?limit=25).
 *
 * The queries are the SDK's documents, read from the installed @aptos-labs/ts-sdk (its generated
 * queries: `getAccountCoinsData`, `getAccountTransactionsCount`), and an account-transactions page
 * (`account_transactions` of one account, newest first, 25 from offset 100, with each transaction's
 * sender, function, timestamp and gas price: what a wallet's activity list asks; the SDK has no
 * page query of its own). Variables: the busiest account (the first of the --accounts).
 *
 *   node scripts/bench-graphql.mjs engine --dir DIR [--store sqlite|postgres] [--iterations 2000]
 *        The GraphQL engine alone, in this process, over the built index (no HTTP, no node): each
 *        query answered --iterations times one after another; CPU time (process.cpuUsage) and wall
 *        time per answer. The CPU figure hardly depends on the machine's load: the one to compare
 *        before/after a change to src/indexer/graphql or src/indexer/store (for PostgreSQL it is
 *        the client's share; the server's is in its own processes).
 *
 * BENCH_NODE_ARGS adds node options to the node's command line (a --cpu-prof profile, say).
 * Prints one JSON line. Fixed ports (8080/8090…): run it in a network namespace of its own.
 * The load generator (wrk) shares the machine and its 2 cores with the node.
 */
import { execFileSync, spawn } from "node:child_process"
import { chownSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import http from "node:http"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { aptTransfer, cliArgs, cpuSecs, loadDist, localSigners, memoryKb, requireCommand, root, sleep, startMovenode, stopMovenode, waitForNode } from "./lib.mjs"

const lib = await loadDist()
const sdkQueries = await import(join(root, "node_modules", "@aptos-labs", "ts-sdk", "dist", "types", "generated", "queries.js"))
const { toHex } = lib

const { argv, arg: argText, num: arg } = cliArgs()
const mode = argv[0]
const round = (x) => Math.round(x * 100) / 100
const API = "http://127.0.0.1:8080/v1"
const GRAPHQL = "http://127.0.0.1:8090/v1/graphql"
const dir = argText("dir") === undefined ? undefined : resolve(argText("dir"))
if (dir === undefined || !["build", "index", "run", "engine"].includes(mode)) {
  process.stderr.write("usage: bench-graphql.mjs build|index|run|engine --dir DIR [options] (see the header)\n")
  process.exit(2)
}
const chainDir = join(dir, "chain")
const infoPath = join(dir, "info.json")

// ---------------------------------------------------------------- node and HTTP

/**
 * The built node staged in DIR/node: this checkout's dist/, genesis/ and package.json copied there
 * (what the package ships; its node_modules linked), run from the copy. A kept index is keyed to the build that wrote it — in a
 * git checkout, the commit — and is rebuilt by any other (minutes for 100,000 transactions); from a
 * copy outside git the key is the package's version, the chain's parameters and the processors'
 * fingerprints, as for an installed package: the chain built once serves every later commit whose
 * processors are the same, and is re-indexed when they change.
 */
const stagedNode = () => {
  const staged = join(dir, "node")
  rmSync(staged, { recursive: true, force: true })
  mkdirSync(staged, { recursive: true })
  cpSync(join(root, "dist"), join(staged, "dist"), { recursive: true })
  cpSync(join(root, "genesis"), join(staged, "genesis"), { recursive: true })
  cpSync(join(root, "package.json"), join(staged, "package.json"))
  symlinkSync(join(root, "node_modules"), join(staged, "node_modules"))
  return join(staged, "dist", "bin", "movenode.js")
}
let nodeBin
const startNode = (extra) => {
  nodeBin ??= stagedNode()
  const child = startMovenode(["--data-dir", chainDir, "--quiet", ...extra], {
    bin: nodeBin,
    // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" for a profile of the node
    nodeArgs: (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "")
  })
  return { child, stop: () => stopMovenode(child) }
}
const rssMb = (pid) => Math.round(memoryKb(pid).VmRSS / 1024)

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
const request = (method, url, body, headers = {}) =>
  requestOnce(method, url, body, headers).catch((e) =>
    e.code === "ECONNRESET" ? requestOnce(method, url, body, headers) : Promise.reject(e)
  )
const requestOnce = (method, url, body, headers) =>
  new Promise((resolve, reject) => {
    const u = new URL(url)
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        agent,
        headers: body === undefined ? headers : { ...headers, "content-length": body.length }
      },
      (res) => {
        const chunks = []
        res.on("data", (c) => chunks.push(c))
        res.on("error", reject)
        res.on("end", () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8") }))
      }
    )
    req.on("error", reject)
    req.end(body)
  })
const graphql = async (query, variables) => {
  const r = await request("POST", GRAPHQL, Buffer.from(JSON.stringify({ query, variables })), {
    "content-type": "application/json"
  })
  return JSON.parse(r.text)
}
const ledgerVersion = async () => BigInt(JSON.parse((await request("GET", API)).text).ledger_version)
const indexedVersion = async () => {
  const a = await graphql('{ processor_status(where: {processor: {_eq: "fungible_asset_processor"}}) { last_success_version } }')
  return BigInt(a.data?.processor_status?.[0]?.last_success_version ?? -1)
}
/** Until the index reaches the ledger version current when called; ms taken. */
const waitIndexed = async () => {
  const t0 = performance.now()
  const target = await ledgerVersion()
  while ((await indexedVersion()) < target) await sleep(200)
  return Math.round(performance.now() - t0)
}

// ---------------------------------------------------------------- transfers

const submit = (bytes) =>
  request("POST", `${API}/transactions`, bytes, {
    "content-type": "application/x.aptos.signed_transaction+bcs",
    accept: "application/x-bcs"
  })

/**
 * Transfers pushed as fast as taken until `count` were accepted: one worker per account (so a
 * refused submission's sequence number is simply used again), 64 in flight.
 */
const pushTransfers = async (accounts, count, onProgress) => {
  const expiration = BigInt(Math.floor(Date.now() / 1000)) + 7200n
  let sent = 0
  const worker = async (w) => {
    const from = accounts[w]
    for (let k = 0; sent < count; k++) {
      const to = accounts[(w + 1 + (k % (accounts.length - 1))) % accounts.length].address
      const r = await submit(aptTransfer(lib, from, to, 1n, expiration).bytes)
      if (r.status === 202) {
        sent++
        if (sent % 5000 === 0) onProgress(sent)
      } else {
        from.next--
        await sleep(5)
      }
    }
  }
  await Promise.all(accounts.map((_, w) => worker(w)))
  return sent
}

// ---------------------------------------------------------------- PostgreSQL kept in DIR/pg

const pgBin = () => {
  const base = "/usr/lib/postgresql"
  for (const v of ["17", "16", "15", "14"]) if (existsSync(join(base, v, "bin", "initdb"))) return join(base, v, "bin")
  throw new Error("PostgreSQL's binaries (Debian's postgresql package) are not installed")
}
const PG_PORT = 54329
const pgUrl = `postgres://postgres@127.0.0.1:${PG_PORT}/postgres`
const asPostgres = (command, cmdArgs) =>
  process.getuid() === 0 ? ["runuser", ["-u", "postgres", "--", join(pgBin(), command), ...cmdArgs]] : [join(pgBin(), command), cmdArgs]
const accepts = (port) =>
  new Promise((resolve) => {
    const s = createConnection({ port, host: "127.0.0.1" })
    s.once("connect", () => (s.destroy(), resolve(true)))
    s.once("error", () => resolve(false))
  })
const startPostgres = async () => {
  const pgDir = join(dir, "pg")
  const data = join(pgDir, "data")
  if (!existsSync(data)) {
    mkdirSync(pgDir, { recursive: true })
    if (process.getuid() === 0) {
      const id = (f) => Number(execFileSync("id", [f, "postgres"]).toString().trim())
      chownSync(pgDir, id("-u"), id("-g"))
    }
    const [c, a] = asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"])
    execFileSync(c, a, { stdio: "pipe" })
  }
  // Default durability (fsync on): what a PostgreSQL server given to --indexer-db would have.
  const [c, a] = asPostgres("postgres", ["-D", data, "-p", String(PG_PORT), "-k", pgDir, "-c", "listen_addresses=127.0.0.1"])
  const child = spawn(c, a, { stdio: "ignore" })
  const deadline = Date.now() + 30_000
  while (!(await accepts(PG_PORT))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("PostgreSQL did not start")
    await sleep(100)
  }
  return async () => {
    const [sc, sa] = asPostgres("pg_ctl", ["-D", data, "stop", "-m", "fast", "-s"])
    try {
      execFileSync(sc, sa, { stdio: "pipe" })
    } catch {
      child.kill("SIGKILL")
    }
  }
}

// ---------------------------------------------------------------- queries and wrk

const accountAddress = (i) => `0x${toHex(localSigners(lib, i + 1)[i].address)}`
const queries = (owner) => ({
  getAccountCoinsData: {
    query: sdkQueries.GetAccountCoinsData,
    variables: { where_condition: { owner_address: { _eq: owner } }, offset: 0, limit: 100 }
  },
  getAccountTransactionsCount: { query: sdkQueries.GetAccountTransactionsCount, variables: { address: owner } },
  accountTransactionsPage: {
    query:
      "query AccountTransactionsPage($address: String, $limit: Int, $offset: Int) { account_transactions(where: {account_address: {_eq: $address}}, order_by: {transaction_version: desc}, limit: $limit, offset: $offset) { transaction_version user_transaction { sender entry_function_id_str timestamp gas_unit_price } } }",
    variables: { address: owner, limit: 25, offset: 100 }
  }
})

const parseLatency = (out, label) => {
  const m = new RegExp(`${label}%\\s+([\\d.]+)(us|ms|s)`).exec(out)
  return m === null ? undefined : round(Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1))
}
/**
 * wrk -t1 -cN against `url` with `body` POSTed (GET when undefined); with `pid`, the CPU time that
 * process spent per request (what does not depend on the machine's load).
 */
const wrk = (url, body, seconds, connections, pid) => {
  const script = join(tmpdir(), `bench-graphql-${process.pid}.lua`)
  writeFileSync(
    script,
    body === undefined
      ? ""
      : `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify(body))}\nwrk.headers["Content-Type"] = "application/json"\n`
  )
  const cpu0 = pid === undefined ? 0 : cpuSecs(pid) * 1000
  const out = execFileSync("wrk", ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, url], {
    encoding: "utf8"
  })
  const cpu = pid === undefined ? 0 : cpuSecs(pid) * 1000 - cpu0
  rmSync(script)
  const requests = Number(/(\d+) requests in/.exec(out)[1])
  const errors = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out)
  const socketErrors = /Socket errors:[^\n]*/.exec(out)
  return {
    reqPerSec: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1])),
    p50Ms: parseLatency(out, "50"),
    p99Ms: parseLatency(out, "99"),
    ...(pid === undefined ? {} : { cpuMsPerRequest: round(cpu / requests) }),
    ...(errors === null ? {} : { non2xx: Number(errors[1]) }),
    ...(socketErrors === null ? {} : { socketErrors: socketErrors[0] })
  }
}

// ---------------------------------------------------------------- build

const build = async () => {
  const target = arg("transactions", 100000)
  const accountCount = arg("accounts", 64)
  const info = { transactions: target, accounts: accountCount }
  mkdirSync(dir, { recursive: true })
  // 1. the ledger, no indexer (the node's full throughput)
  {
    const node = startNode(["--fresh", "--no-indexer", "--accounts", String(accountCount)])
    try {
      await waitForNode(node.child, API, { intervalMs: 20 })
      const accounts = localSigners(lib, accountCount)
      for (const a of accounts)
        a.next = BigInt(JSON.parse((await request("GET", `${API}/accounts/0x${toHex(a.address)}`)).text).sequence_number)
      const t0 = performance.now()
      const sent = await pushTransfers(accounts, target, (n) =>
        process.stderr.write(`  ${n} transfers accepted, ${Math.round(n / ((performance.now() - t0) / 1000))}/s\n`)
      )
      // every accepted transfer committed: the last sequence numbers reached
      for (;;) {
        const seqs = await Promise.all(
          accounts.map(async (a) => BigInt(JSON.parse((await request("GET", `${API}/accounts/0x${toHex(a.address)}`)).text).sequence_number))
        )
        if (seqs.every((s, i) => s === accounts[i].next)) break
        await sleep(200)
      }
      info.sent = sent
      info.ledgerSecs = Math.round((performance.now() - t0) / 1000)
      info.ledgerVersion = String(await ledgerVersion())
    } finally {
      await node.stop()
    }
  }
  await indexBoth(info)
  writeFileSync(infoPath, JSON.stringify(info, null, 2))
  console.log(JSON.stringify({ mode, dir, ...info }))
}

/** Steps 2 and 3 of the build: the ledger indexed into SQLite, then into the kept PostgreSQL. */
const indexBoth = async (info) => {
  // 2. indexed into SQLite (in the data directory)
  {
    const node = startNode([])
    try {
      await waitForNode(node.child, API, { intervalMs: 20 })
      info.sqliteIndexMs = await waitIndexed()
    } finally {
      await node.stop()
    }
  }
  // 3. indexed into PostgreSQL (kept in DIR/pg)
  {
    const stopPg = await startPostgres()
    try {
      const node = startNode(["--indexer-db", pgUrl])
      try {
        await waitForNode(node.child, API, { intervalMs: 20 })
        info.postgresIndexMs = await waitIndexed()
      } finally {
        await node.stop()
      }
    } finally {
      await stopPg()
    }
  }
}

/** `index`: the kept ledger indexed again (after a change to the processors). */
const reindex = async () => {
  const info = JSON.parse(readFileSync(infoPath, "utf8"))
  await indexBoth(info)
  writeFileSync(infoPath, JSON.stringify(info, null, 2))
  console.log(JSON.stringify({ mode, dir, ...info }))
}

// ---------------------------------------------------------------- run

const run = async () => {
  requireCommand("wrk")
  if (!existsSync(infoPath)) throw new Error(`no chain built in ${dir} (run: bench-graphql.mjs build --dir ${dir})`)
  const info = JSON.parse(readFileSync(infoPath, "utf8"))
  const store = argText("store", "sqlite")
  const seconds = arg("seconds", 10)
  const connections = arg("connections", 16)
  const soak = arg("soak", 60)
  const owner = accountAddress(0)
  const all = queries(owner)
  const chosen = (argText("queries") ?? Object.keys(all).join(",")).split(",")
  const stopPg = store === "postgres" ? await startPostgres() : undefined
  const result = { mode, store, transactions: info.sent ?? info.transactions, wrk: `-t1 -c${connections}`, seconds }
  try {
    const node = startNode(store === "none" ? ["--no-indexer"] : store === "postgres" ? ["--indexer-db", pgUrl] : [])
    try {
      const t0 = performance.now()
      await waitForNode(node.child, API, { intervalMs: 20 })
      result.readyMs = Math.round(performance.now() - t0)
      result.ledgerVersion = String(await ledgerVersion())
      if (store !== "none") result.catchUpMs = await waitIndexed()
      await sleep(1000)
      result.rssAfterStartMb = rssMb(node.child.pid)
      // the bare server, in a process of its own (wrk runs synchronously here, blocking this one)
      const bare = spawn(
        process.execPath,
        ["-e", "require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.end('{\"data\":{}}')) }).listen(18099, '127.0.0.1')"],
        { stdio: "ignore" }
      )
      while (!(await accepts(18099))) await sleep(50)
      result.bare = wrk("http://127.0.0.1:18099/", {}, seconds, connections, bare.pid)
      bare.kill()
      if (store !== "none") {
        result.answerBytes = {}
        for (const name of chosen) {
          const a = await graphql(all[name].query, all[name].variables)
          if (a.errors !== undefined) throw new Error(`${name}: ${JSON.stringify(a.errors)}`)
          result.answerBytes[name] = JSON.stringify(a).length
        }
        for (const name of chosen) result[name] = wrk(GRAPHQL, all[name], seconds, connections, node.child.pid)
        if (soak > 0)
          result.soak = { query: chosen[0], seconds: soak, ...wrk(GRAPHQL, all[chosen[0]], soak, connections, node.child.pid) }
      } else {
        const url = `${API}/accounts/${owner}/transactions?limit=25`
        result.restAccountTransactions = wrk(url, undefined, seconds, connections, node.child.pid)
        if (soak > 0)
          result.soak = {
            query: "GET /accounts/A/transactions?limit=25",
            seconds: soak,
            ...wrk(url, undefined, soak, connections, node.child.pid)
          }
      }
      result.rssAfterSoakMb = rssMb(node.child.pid)
    } finally {
      await node.stop()
    }
  } finally {
    if (stopPg !== undefined) await stopPg()
  }
  console.log(JSON.stringify(result))
}

// ---------------------------------------------------------------- engine

const engine = async () => {
  if (!existsSync(join(chainDir, "indexer")))
    throw new Error(`no chain built in ${dir} (run: bench-graphql.mjs build --dir ${dir})`)
  const { Effect } = await import("effect")
  const { makeGraphqlEngine } = await import(join(root, "dist", "indexer", "graphql", "GraphqlEngine.js"))
  const { sqliteDialect, postgresDialect } = await import(join(root, "dist", "indexer", "store", "Dialect.js"))
  const { makeSqliteClient } = await import(join(root, "dist", "indexer", "store", "sqliteClient.js"))
  const PgClient = await import("@effect/sql-pg/PgClient")
  const Reactivity = await import("effect/reactivity/Reactivity")
  const Redacted = await import("effect/Redacted")
  const store = argText("store", "sqlite")
  const iterations = arg("iterations", 2000)
  const all = queries(accountAddress(0))
  const stopPg = store === "postgres" ? await startPostgres() : undefined
  const program = Effect.gen(function* () {
    // The store's read path as IndexerStore has it (client.unsafe), without its schema check.
    const client =
      store === "postgres"
        ? yield* PgClient.make({ url: Redacted.make(pgUrl), maxConnections: 4 }).pipe(Effect.provide(Reactivity.layer))
        : (yield* makeSqliteClient(join(chainDir, "indexer", "index.sqlite"))).client
    const reader = { dialect: store === "postgres" ? postgresDialect : sqliteDialect, select: (sql, params) => client.unsafe(sql, params) }
    const gql = makeGraphqlEngine(Effect.succeed(reader))
    const built = existsSync(infoPath) ? JSON.parse(readFileSync(infoPath, "utf8")) : {}
    const out = { mode, store, transactions: built.sent, iterations }
    for (const [name, body] of Object.entries(all)) {
      const first = JSON.parse(yield* gql.answer(body))
      if (first.errors !== undefined) throw new Error(`${name}: ${JSON.stringify(first.errors)}`)
      for (let i = 0; i < Math.min(200, iterations); i++) yield* gql.answer(body)
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      for (let i = 0; i < iterations; i++) yield* gql.answer(body)
      const wall = performance.now() - t0
      const cpu = process.cpuUsage(cpu0)
      out[name] = { cpuUsPerAnswer: Math.round((cpu.user + cpu.system) / iterations), wallUsPerAnswer: Math.round((wall * 1000) / iterations) }
    }
    return out
  })
  try {
    console.log(JSON.stringify(await Effect.runPromise(Effect.scoped(program))))
  } finally {
    if (stopPg !== undefined) await stopPg()
  }
}

try {
  await (mode === "build" ? build() : mode === "index" ? reindex() : mode === "run" ? run() : engine())
} finally {
  agent.destroy()
}
