#!/usr/bin/env node
/**
 * Where an LMDB ledger's bytes go (docs/benchmarks.md, "Ledger bytes per transfer"): for each
 * table, its entries, the bytes of its keys and values as stored (a compressed table's values
 * compressed: `txns` since format 4), and the pages its B-tree holds (branch, leaf, overflow),
 * plus the pages below the file's high-water mark that no table holds (free) and the file's size. Read-only; opens the
 * store without the data directory's lock, so run it on a stopped node's directory (or a copy).
 *
 *   node scripts/ledger-stats.mjs DIR [--json]
 *
 * DIR is the ledger directory (holding data.mdb): `<data-dir>/ledger` for `movenode local`, the
 * data dir itself for `movenode run`.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs"
import { join } from "node:path"
import { open } from "lmdb"

/**
 * The pages of the sub-databases a sorted-duplicates table keeps for its keys with many values
 * (LMDB's own counts leave them out): its B-tree walked in the file, each key's sub-database
 * record (MDB_db) read for its page counts. `db` is the table's record in the main database.
 * Layout of lmdb-js's LMDB: page header 24 bytes (number, txnid, pad, flags u16 at 18, lower
 * u16 at 20), node pointers after it (relative to the header's end); a node: lo, hi, flags,
 * key size (u16 each), key, data. Read inside the caller's read transaction (same snapshot).
 */
const subDatabasePages = (dir, pageSize, db) => {
  const fd = openSync(join(dir, "data.mdb"), "r")
  try {
    const page = Buffer.alloc(pageSize)
    let pages = 0
    const walk = (pgno) => {
      readSync(fd, page, 0, pageSize, pgno * pageSize)
      const flags = page.readUInt16LE(18)
      const n = page.readUInt16LE(20) >> 1
      const nodes = Array.from({ length: n }, (_, i) => page.readUInt16LE(24 + 2 * i) + 24)
      if (flags & 0x01) {
        const children = nodes.map((o) => page.readUInt16LE(o) + page.readUInt16LE(o + 2) * 0x10000 + page.readUInt16LE(o + 4) * 2 ** 32)
        for (const child of children) walk(child)
      } else if ((flags & 0x02) && !(flags & 0x20))
        for (const o of nodes) {
          // F_SUBDATA | F_DUPDATA: the data is the key's sub-database record.
          if ((page.readUInt16LE(o + 4) & 0x06) !== 0x06) continue
          const sub = o + 8 + page.readUInt16LE(o + 6)
          pages += Number(page.readBigUInt64LE(sub + 8) + page.readBigUInt64LE(sub + 16) + page.readBigUInt64LE(sub + 24))
        }
    }
    const depth = db.readUInt16LE(6)
    if (depth > 0) walk(Number(db.readBigUInt64LE(40)))
    return pages
  } finally {
    closeSync(fd)
  }
}

export const ledgerStats = (dir) => {
  const root = open({ path: dir, keyEncoding: "binary", encoding: "binary", maxDbs: 32, readOnly: true, noSubdir: false })
  try {
    const tables = []
    // The main database's keys are the names of the named databases.
    const names = [...root.getKeys({})].map((k) => Buffer.from(k).toString("latin1").replace(/\0$/, ""))
    let treePages = 0
    for (const name of names) {
      // A sorted-duplicates table (`state_index` since format 5) is opened as one; its keys counted once.
      const record = root.getBinary(Buffer.from(`${name}\0`, "latin1"))
      const dupSort = record !== undefined && (record.readUInt16LE(4) & 0x04) !== 0
      const db = root.openDB({ name, keyEncoding: "binary", encoding: "binary", ...(dupSort ? { dupSort: true } : {}) })
      const s = db.getStats()
      let keyBytes = 0
      let valueBytes = 0
      let largest = 0
      let previous
      for (const { key, value } of db.getRange({})) {
        if (!dupSort || previous === undefined || Buffer.compare(previous, key) !== 0) keyBytes += key.length
        previous = dupSort ? Buffer.from(key) : undefined
        valueBytes += value.length
        if (value.length > largest) largest = value.length
      }
      const subPages = dupSort ? subDatabasePages(dir, s.pageSize, record) : 0
      const pages = s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages + subPages
      treePages += pages
      tables.push({
        table: name,
        entries: s.entryCount,
        keyBytes,
        valueBytes,
        largestValue: largest,
        branchPages: s.treeBranchPageCount,
        leafPages: s.treeLeafPageCount,
        overflowPages: s.overflowPages,
        ...(dupSort ? { subDatabasePages: subPages } : {}),
        pageBytes: pages * s.pageSize
      })
    }
    const any = root.getStats()
    const pageSize = any.root.pageSize
    const mainPages = any.root.treeBranchPageCount + any.root.treeLeafPageCount + any.root.overflowPages
    const freeTreePages = any.free.treeBranchPageCount + any.free.treeLeafPageCount + any.free.overflowPages
    const usedPages = any.lastPageNumber + 1
    const fileBytes = statSync(join(dir, "data.mdb")).size
    return {
      pageSize,
      fileBytes,
      usedPages,
      usedBytes: usedPages * pageSize,
      tables,
      tablePages: treePages,
      mainPages,
      freeListRecords: any.free.entryCount,
      freeListTreePages: freeTreePages,
      // Pages below the high-water mark that no tree holds: free (or held for a reader) for reuse.
      unreferencedPages: usedPages - treePages - mainPages - freeTreePages - 2
    }
  } finally {
    root.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2]
  if (dir === undefined) {
    console.error("usage: node scripts/ledger-stats.mjs LEDGER_DIR [--json]")
    process.exit(2)
  }
  const s = ledgerStats(dir)
  if (process.argv.includes("--json")) console.log(JSON.stringify(s))
  else {
    console.log(`file ${s.fileBytes} bytes; ${s.usedPages} pages of ${s.pageSize} used; free list: ${s.freeListRecords} records; unreferenced pages ${s.unreferencedPages}`)
    console.table(s.tables)
  }
}
