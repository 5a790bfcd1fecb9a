#!/usr/bin/env node
/**
 * What SQLite alone costs the index (docs/benchmarks.md, "Session 44"): re-inserts the real rows of
 * the last `--versions` user transactions of a kept index (`user_transactions`, `signatures`,
 * `account_transactions`, `events`, `fungible_asset_activities`) into a new file with the same
 * tables and indexes, `--batch` versions a transaction, as the store writes them (multi-row INSERTs
 * of up to 30,000 parameters, WAL, `synchronous = NORMAL`), and prints the CPU a version took. The
 * rows are read into memory first; only the inserts and commits are timed.
 *
 *   node scripts/bench-index-inserts.mjs --index DIR/indexer/index.sqlite [--versions 20000] [--batch 500]
 *        [--variant base|noidx|mem|rowid|blob|single] [--drop INDEX,INDEX]
 *
 * Variants (what each asks): `noidx` without any secondary index; `--drop` without the named ones;
 * `mem` the rollback journal in memory instead of WAL (no crash safety); `rowid` the integer-keyed
 * tables `WITHOUT ROWID`; `blob` every `0x` + 64-hex address as its 32 bytes; `single` one row per
 * statement. A kept index comes from `bench-indexer.mjs graphql --keep DIR` or a loaded local chain's
 * data directory. Run variants alternately: the machine's drift is larger than most differences.
 */
import { rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "libsql"
import { cliArgs } from "./lib.mjs"

const { arg, num } = cliArgs()
const source = arg("index")
if (source === undefined) throw new Error("--index FILE: a kept index (DIR/indexer/index.sqlite)")
const versions = num("versions", 20_000)
const batch = num("batch", 500)
const variant = arg("variant", "base")
const dropped = new Set((arg("drop", "") ?? "").split(",").filter((s) => s !== ""))
const MAX_PARAMS = 30_000

const TABLES = ["account_transactions", "events", "fungible_asset_activities", "signatures", "user_transactions"]
const versionColumn = (t) => (t === "user_transactions" ? "version" : "transaction_version")

const src = new Database(source, { readonly: true })
src.defaultSafeIntegers(true)
const last = src.prepare("SELECT max(version) AS v FROM user_transactions").get().v
const from = last - BigInt(versions)
const ddl = src
  .prepare(
    `SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN (${TABLES.map((t) => `'${t}'`).join(",")}) AND sql IS NOT NULL`
  )
  .all()
const columns = {}
const rows = {}
for (const t of TABLES) {
  columns[t] = src
    .prepare(`SELECT * FROM "${t}" LIMIT 1`)
    .columns()
    .map((c) => c.name)
  rows[t] = src
    .prepare(`SELECT * FROM "${t}" WHERE ${versionColumn(t)} > ? ORDER BY ${versionColumn(t)}`)
    .raw(true)
    .all(from)
}
src.close()
if (variant === "blob") {
  const address = /^0x[0-9a-f]{64}$/
  for (const t of TABLES)
    for (const row of rows[t])
      for (let i = 0; i < row.length; i++)
        if (typeof row[i] === "string" && address.test(row[i])) row[i] = Buffer.from(row[i].slice(2), "hex")
}

const path = join(tmpdir(), `movenode-bench-index-inserts-${process.pid}.sqlite`)
const removeFiles = () => {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true })
}
removeFiles()
const db = new Database(path)
db.defaultSafeIntegers(true)
db.pragma(variant === "mem" ? "journal_mode = MEMORY" : "journal_mode = WAL")
db.pragma("synchronous = NORMAL")
db.pragma(`journal_size_limit = ${24 << 20}`)
db.pragma("wal_autocheckpoint = 4000")
for (const d of ddl) {
  if (d.type === "index" && (variant === "noidx" || dropped.has(d.name))) continue
  const rowid = variant === "rowid" && d.type === "table" && !/WITHOUT ROWID/.test(d.sql) && d.name !== "user_transactions"
  db.exec(rowid ? `${d.sql} WITHOUT ROWID` : d.sql)
}

const statements = new Map()
const statement = (t, n) => {
  const key = `${t}/${n}`
  let s = statements.get(key)
  if (s === undefined) {
    const one = `(${columns[t].map(() => "?").join(",")})`
    s = db.prepare(
      `INSERT INTO "${t}" (${columns[t].map((c) => `"${c}"`).join(",")}) VALUES ${Array(n).fill(one).join(",")}`
    )
    statements.set(key, s)
  }
  return s
}
const insert = (t, list) => {
  if (variant === "single") {
    for (const r of list) statement(t, 1).run(r)
    return
  }
  const per = Math.floor(MAX_PARAMS / columns[t].length)
  for (let i = 0; i < list.length; i += per) {
    const chunk = list.slice(i, i + per)
    statement(t, chunk.length).run(chunk.flat())
  }
}

const next = Object.fromEntries(TABLES.map((t) => [t, 0]))
const at = Object.fromEntries(TABLES.map((t) => [t, columns[t].indexOf(versionColumn(t))]))
const cpu0 = process.cpuUsage()
const wall0 = performance.now()
for (let v = from + 1n; v <= last; v += BigInt(batch)) {
  const end = v + BigInt(batch)
  db.exec("BEGIN")
  for (const t of TABLES) {
    const list = []
    const all = rows[t]
    while (next[t] < all.length && all[next[t]][at[t]] < end) list.push(all[next[t]++])
    if (list.length > 0) insert(t, list)
  }
  db.exec("COMMIT")
}
const cpu = process.cpuUsage(cpu0)
const wallMs = performance.now() - wall0
db.close()
removeFiles()
console.log(
  JSON.stringify({
    variant,
    dropped: [...dropped],
    versions,
    batch,
    rows: Object.fromEntries(TABLES.map((t) => [t, rows[t].length])),
    cpuUsPerVersion: Number(((cpu.user + cpu.system) / versions).toFixed(2)),
    wallUsPerVersion: Number(((wallMs * 1000) / versions).toFixed(2))
  })
)
