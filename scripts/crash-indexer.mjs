#!/usr/bin/env node
/**
 * Kill -9 during indexing, again and again (issue 19, "How it will be judged"): starts the built
 * `movenode` local chain (indexer on, SQLite in the data directory) with free ports, keeps
 * transfers flowing from its pre-funded accounts (the indexer commits a batch per block or so),
 * SIGKILLs the process at a random moment, restarts it on the same directory, waits until the
 * index has caught up with the ledger and checks that the index matches the ledger exactly:
 *
 *   - every processor_status row reports the ledger's version (all in one transaction: never apart);
 *   - user_transactions holds exactly the ledger's user transactions (same versions, senders,
 *     sequence numbers: none missing, none doubled, none from a lost block), compared page by page
 *     with GET /v1/transactions;
 *   - account_transactions has a row for each user transaction's sender at its version, and
 *     fungible_asset_activities one gas-fee row per user transaction (when those processors run);
 *   - every pre-funded account's APT balance in current_fungible_asset_balances equals the
 *     ledger's (GET /v1/accounts/{a}/balance/0x1::aptos_coin::AptosCoin), when that processor runs.
 *
 *   node scripts/crash-indexer.mjs [--runs 50] [--data-dir DIR] [--min-ms 300] [--max-ms 1500] [--no-fsync]
 *
 * `--no-fsync` runs the chain so (its ledger and its index never flushed: a killed process still loses nothing).
 *
 * Prints one JSON line per run and a summary line; exits 1 on the first mismatch.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { aptTransfer, cliArgs, failRun as fail, fetchJson as json, loadDist, localSigners, sleep, spawnMovenode } from "./lib.mjs"

const lib = await loadDist()
const { toHex } = lib

const { arg, num, has } = cliArgs()
const RUNS = num("runs", 50)
const MIN_MS = num("min-ms", 300)
const MAX_MS = num("max-ms", 1500)
const ACCOUNTS = 4
const keepDir = arg("data-dir", undefined)
const dataDir = keepDir ?? mkdtempSync(join(tmpdir(), "movenode-crash-indexer-"))
const accounts = localSigners(lib, ACCOUNTS)
const long = (a) => `0x${toHex(a)}`

const start = (fresh) =>
  spawnMovenode(
    ["--data-dir", dataDir, ...(fresh ? ["--fresh"] : []), ...(has("no-fsync") ? ["--no-fsync"] : []),
      "--quiet", "--accounts", String(ACCOUNTS),
      "--listen", "127.0.0.1:0", "--faucet-listen", "off", "--ready-listen", "off", "--graphql-listen", "127.0.0.1:0"],
    { graphql: true }
  )

const gql = async (node, query, variables) => {
  const { body } = await json(node.graphql, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) })
  if (body.errors !== undefined) fail(`GraphQL error: ${JSON.stringify(body.errors).slice(0, 500)}`)
  return body.data
}

const transferBytes = (from, seq, to) => aptTransfer(lib, from, to, 1n, BigInt(Math.floor(Date.now() / 1000) + 600), { sequenceNumber: seq })

/** Transfers from every account, one in flight per account, until `stop()`. */
const load = (node) => {
  let running = true
  const loop = async (i) => {
    const from = accounts[i]
    while (running) {
      try {
        const info = await json(`${node.api}/accounts/${long(from.address)}`)
        const seq = BigInt(info.body.sequence_number)
        const t = transferBytes(from, seq, accounts[(i + 1) % ACCOUNTS].address)
        const r = await fetch(`${node.api}/transactions`, { method: "POST", headers: { "content-type": "application/x.aptos.signed_transaction+bcs" }, body: t.bytes })
        await r.arrayBuffer()
        if (r.status === 202) await fetch(`${node.api}/transactions/wait_by_hash/${t.hash}`).then((x) => x.arrayBuffer())
      } catch {
        return // the process was killed
      }
    }
  }
  const loops = accounts.map((_, i) => loop(i))
  return () => {
    running = false
    return Promise.allSettled(loops)
  }
}

/** The index against the ledger, after catching up. */
const verify = async (node) => {
  const ledger = (await json(`${node.api}`)).body
  const version = Number(ledger.ledger_version)
  const deadline = Date.now() + 120_000
  for (;;) {
    const status = (await gql(node, "{ processor_status { processor last_success_version } }")).processor_status
    const versions = new Set(status.map((s) => s.last_success_version))
    if (versions.size !== 1) fail(`processor_status rows disagree: ${JSON.stringify(status)}`)
    const indexed = [...versions][0]
    if (indexed >= version) break
    if (Date.now() > deadline) fail(`the index did not catch up: ${indexed} < ${version}`)
    await sleep(50)
  }
  // The ledger's user transactions, page by page.
  const fromLedger = []
  for (let startAt = 0; startAt <= version; startAt += 100) {
    const page = (await json(`${node.api}/transactions?start=${startAt}&limit=100`)).body
    for (const t of page)
      if (t.type === "user_transaction" && Number(t.version) <= version)
        fromLedger.push({ version: Number(t.version), sender: t.sender, sequence_number: Number(t.sequence_number) })
  }
  const fromIndex = []
  for (let offset = 0; ; offset += 100) {
    const page = (await gql(node, "query q($o: Int, $v: bigint) { user_transactions(where: {version: {_lte: $v}}, order_by: {version: asc}, limit: 100, offset: $o) { version sender sequence_number } }", { o: offset, v: version })).user_transactions
    fromIndex.push(...page)
    if (page.length < 100) break
  }
  const norm = (a) => `0x${a.replace(/^0x/, "").padStart(64, "0")}`
  const a = JSON.stringify(fromLedger.map((t) => [t.version, norm(t.sender), t.sequence_number]))
  const b = JSON.stringify(fromIndex.map((t) => [t.version, norm(t.sender), t.sequence_number]))
  if (a !== b) fail(`user_transactions differ from the ledger (${fromLedger.length} in the ledger, ${fromIndex.length} indexed)`)
  const counts = await gql(node, "query q($v: bigint) { gas: fungible_asset_activities_aggregate(where: {is_gas_fee: {_eq: true}, transaction_version: {_lte: $v}}) { aggregate { count } } senders: account_transactions_aggregate(where: {transaction_version: {_lte: $v}, user_transaction: {version: {_gte: 0}}}) { aggregate { count(columns: [transaction_version], distinct: true) } } }", { v: version })
  const gasRows = counts.gas.aggregate.count
  if (gasRows !== 0 && gasRows !== fromLedger.length) fail(`${gasRows} gas-fee activities for ${fromLedger.length} user transactions`)
  const touched = counts.senders.aggregate.count
  if (touched !== 0 && touched !== fromLedger.length) fail(`account_transactions covers ${touched} of ${fromLedger.length} user transactions`)
  let balancesChecked = 0
  for (const acc of accounts) {
    const owner = long(acc.address)
    const rows = (await gql(node, 'query q($o: String) { current_fungible_asset_balances(where: {owner_address: {_eq: $o}, asset_type: {_eq: "0x1::aptos_coin::AptosCoin"}}) { amount } }', { o: owner })).current_fungible_asset_balances
    if (rows.length === 0) continue
    const onChain = (await json(`${node.api}/accounts/${owner}/balance/0x1::aptos_coin::AptosCoin`)).body
    if (String(rows[0].amount) !== String(onChain) && BigInt(Math.round(rows[0].amount)) !== BigInt(onChain))
      fail(`balance of ${owner}: indexed ${rows[0].amount}, ledger ${onChain}`)
    balancesChecked++
  }
  return { version, userTransactions: fromLedger.length, gasRows, balancesChecked }
}

const main = async () => {
  let fresh = keepDir === undefined
  let last
  for (let run = 1; run <= RUNS; run++) {
    const node = await start(fresh)
    fresh = false
    const checked = await verify(node)
    if (last !== undefined && checked.userTransactions < last.userTransactions) fail("user transactions went missing across a restart")
    last = checked
    const stop = load(node)
    const ms = MIN_MS + Math.floor(Math.random() * (MAX_MS - MIN_MS))
    await sleep(ms)
    node.kill("SIGKILL")
    await stop()
    await new Promise((r) => (node.exitCode !== null || node.signalCode !== null ? r() : node.once("exit", r)))
    console.log(JSON.stringify({ run, killedAfterMs: ms, ...checked }))
  }
  const node = await start(false)
  const final = await verify(node)
  node.kill("SIGTERM")
  await new Promise((r) => node.once("exit", r))
  console.log(JSON.stringify({ ok: true, runs: RUNS, ...final }))
  if (keepDir === undefined) rmSync(dataDir, { recursive: true, force: true })
}
await main()
