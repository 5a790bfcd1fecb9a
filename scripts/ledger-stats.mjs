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
import { statSync } from "node:fs"
import { join } from "node:path"
import { open } from "lmdb"

export const ledgerStats = (dir) => {
  const root = open({ path: dir, keyEncoding: "binary", encoding: "binary", maxDbs: 32, readOnly: true, noSubdir: false })
  try {
    const tables = []
    // The main database's keys are the names of the named databases.
    const names = [...root.getKeys({})].map((k) => Buffer.from(k).toString("latin1").replace(/\0$/, ""))
    let treePages = 0
    for (const name of names) {
      const db = root.openDB({ name, keyEncoding: "binary", encoding: "binary" })
      const s = db.getStats()
      let keyBytes = 0
      let valueBytes = 0
      let largest = 0
      for (const { key, value } of db.getRange({})) {
        keyBytes += key.length
        valueBytes += value.length
        if (value.length > largest) largest = value.length
      }
      const pages = s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages
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
