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
 *        Writes DIR/info.json (counts, timings). Takes minutes (the ledger at the node's throughput).
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
 * Prints one JSON line. Fixed ports (8080/8090…): run it in a network namespace of its own.
 * The load generator (wrk) shares the machine and its 2 cores with the node.
 */
import { execFileSync, spawn } from "node:child_process"
import { createPrivateKey, sign as nodeSign } from "node:crypto"
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import http from "node:http"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { ed25519 } from "@noble/curves/ed25519.js"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const lib = await import(join(root, "dist", "index.js"))
const sdkQueries = await import(join(root, "node_modules", "@aptos-labs", "ts-sdk", "dist", "types", "generated", "queries.js"))
const { Bcs, signingMessage, signedTransactionCodec, sha3, addressFromNumber, toHex } = lib

const args = process.argv.slice(2)
const mode = args[0]
const argText = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i < 0 ? fallback : args[i + 1]
}
const arg = (name, fallback) => Number(argText(name, String(fallback)))
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const round = (x) => Math.round(x * 100) / 100
const API = "http://127.0.0.1:8080/v1"
const GRAPHQL = "http://127.0.0.1:8090/v1/graphql"
const dir = argText("dir") === undefined ? undefined : resolve(argText("dir"))
if (dir === undefined || (mode !== "build" && mode !== "run")) {
  process.stderr.write("usage: bench-graphql.mjs build|run --dir DIR [options] (see the header)\n")
  process.exit(2)
}
const chainDir = join(dir, "chain")
const infoPath = join(dir, "info.json")

// ---------------------------------------------------------------- node and HTTP

const startNode = (extra) => {
  const child = spawn(
    process.execPath,
    ["--max-semi-space-size=8", join(root, "dist", "bin", "movenode.js"), "--data-dir", chainDir, "--quiet", ...extra],
    { stdio: ["ignore", "ignore", "inherit"] }
  )
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill("SIGTERM")
    await new Promise((r) => child.once("exit", r))
  }
  return { child, stop }
}
const rssMb = (pid) => Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024)

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
const waitReady = async (child) => {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the node exited (${child.exitCode})`)
    try {
      if ((await request("GET", API)).status === 200) return
    } catch {}
    await sleep(20)
  }
}
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

// ---------------------------------------------------------------- accounts and transfers

const SEED = "movenode local chain"
const derivedKey = (label) => sha3(new TextEncoder().encode(`${SEED}/${label}`))
const authKey = (pk) => sha3(Uint8Array.from([...pk, 0]))
const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex")
const accountsOf = (n) =>
  Array.from({ length: n }, (_, i) => {
    const privateKey = derivedKey(`account/${i}`)
    const publicKey = ed25519.getPublicKey(privateKey)
    const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, privateKey]), format: "der", type: "pkcs8" })
    return { sign: (m) => new Uint8Array(nodeSign(null, m, key)), publicKey, address: authKey(publicKey), next: 0n }
  })
const ONE = addressFromNumber(1)
const transferBytes = (from, to, amount, expiration) => {
  const raw = {
    sender: from.address,
    sequenceNumber: from.next++,
    payload: {
      _tag: "EntryFunction",
      entryFunction: {
        module: { address: ONE, name: "aptos_account" },
        function: "transfer",
        typeArgs: [],
        args: [to, Bcs.encode(Bcs.u64, amount)]
      }
    },
    maxGasAmount: 20_000n,
    gasUnitPrice: 100n,
    expirationTimestampSecs: expiration,
    chainId: 4
  }
  const signed = {
    rawTransaction: raw,
    authenticator: { _tag: "Ed25519", publicKey: from.publicKey, signature: from.sign(signingMessage(raw)) }
  }
  return Bcs.encode(signedTransactionCodec, signed)
}
const submit = (bytes) =>
  request("POST", `${API}/transactions`, bytes, {
    "content-type": "application/x.aptos.signed_transaction+bcs",
    accept: "application/x-bcs"
  })

/** Transfers pushed as fast as taken (64 in flight) until `count` were accepted. */
const pushTransfers = async (accounts, count, onProgress) => {
  const expiration = BigInt(Math.floor(Date.now() / 1000)) + 7200n
  let sent = 0
  let i = 0
  const worker = async () => {
    while (sent < count) {
      const k = i++
      const from = accounts[k % accounts.length]
      const r = await submit(transferBytes(from, accounts[(k * 7 + 1) % accounts.length].address, 1n, expiration))
      if (r.status === 202) {
        sent++
        if (sent % 5000 === 0) onProgress(sent)
      } else {
        from.next--
        await sleep(5)
      }
    }
  }
  await Promise.all(Array.from({ length: 64 }, worker))
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

const accountAddress = (i) => `0x${toHex(accountsOf(i + 1)[i].address)}`
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
/** wrk -t1 -cN against `url` with `body` POSTed (GET when undefined). */
const wrk = (url, body, seconds, connections) => {
  const script = join(tmpdir(), `bench-graphql-${process.pid}.lua`)
  writeFileSync(
    script,
    body === undefined
      ? ""
      : `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify(body))}\nwrk.headers["Content-Type"] = "application/json"\n`
  )
  const out = execFileSync("wrk", ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, url], {
    encoding: "utf8"
  })
  rmSync(script)
  const errors = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out)
  const socketErrors = /Socket errors:[^\n]*/.exec(out)
  return {
    reqPerSec: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1])),
    p50Ms: parseLatency(out, "50"),
    p99Ms: parseLatency(out, "99"),
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
      await waitReady(node.child)
      const accounts = accountsOf(accountCount)
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
  // 2. indexed into SQLite (in the data directory)
  {
    const node = startNode([])
    try {
      await waitReady(node.child)
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
        await waitReady(node.child)
        info.postgresIndexMs = await waitIndexed()
      } finally {
        await node.stop()
      }
    } finally {
      await stopPg()
    }
  }
  writeFileSync(infoPath, JSON.stringify(info, null, 2))
  console.log(JSON.stringify({ mode, dir, ...info }))
}

// ---------------------------------------------------------------- run

const run = async () => {
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
      await waitReady(node.child)
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
      result.bare = wrk("http://127.0.0.1:18099/", {}, seconds, connections)
      bare.kill()
      if (store !== "none") {
        result.answerBytes = {}
        for (const name of chosen) {
          const a = await graphql(all[name].query, all[name].variables)
          if (a.errors !== undefined) throw new Error(`${name}: ${JSON.stringify(a.errors)}`)
          result.answerBytes[name] = JSON.stringify(a).length
        }
        for (const name of chosen) result[name] = wrk(GRAPHQL, all[name], seconds, connections)
        if (soak > 0) result.soak = { query: chosen[0], seconds: soak, ...wrk(GRAPHQL, all[chosen[0]], soak, connections) }
      } else {
        const url = `${API}/accounts/${owner}/transactions?limit=25`
        result.restAccountTransactions = wrk(url, undefined, seconds, connections)
        if (soak > 0) result.soak = { query: "GET /accounts/A/transactions?limit=25", seconds: soak, ...wrk(url, undefined, soak, connections) }
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

try {
  await (mode === "build" ? build() : run())
} finally {
  agent.destroy()
}
