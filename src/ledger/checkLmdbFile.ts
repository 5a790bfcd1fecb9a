import { closeSync, fstatSync, openSync, readSync } from "node:fs"
import { join } from "node:path"

/**
 * A damaged store is a clear error at open, never a signal. LMDB maps `data.mdb` into memory and
 * trusts it: a file truncated below the pages its meta says are in use makes the first read past
 * the end a SIGBUS, and zeroed meta pages a SIGSEGV or garbage. So before mapping, the two meta pages
 * are read with plain I/O and checked: LMDB's magic, a known version, a sane page size, and a file at
 * least as long as the newest meta's last page.
 *
 * Meta page layout (64-bit builds, checked against files lmdb-js writes): a 16-byte page header,
 * then `mm_magic` u32 at 16+8 (0xBEEFC0DE), `mm_version` u32, `mm_address`, `mm_mapsize`, two
 * 48-byte `MDB_db` records (the first's leading u32 holds the page size), `mm_last_pg` u64 at 144,
 * `mm_txnid` u64 at 152. Meta page 1 starts one page in.
 */

const MAGIC = 0xbeefc0de
const MAGIC_AT = 24
const VERSION_AT = 28
const PAGE_SIZE_AT = 48
const LAST_PAGE_AT = 144
const TXNID_AT = 152
const META_BYTES = 160

export class DamagedStore extends Error {
  readonly _tag = "DamagedStore"
}

interface Meta {
  readonly pageSize: number
  readonly lastPage: bigint
  readonly txnid: bigint
}

const readMeta = (b: Buffer): Meta | undefined => {
  if (b.length < META_BYTES || b.readUInt32LE(MAGIC_AT) !== MAGIC) return undefined
  const version = b.readUInt32LE(VERSION_AT)
  const pageSize = b.readUInt32LE(PAGE_SIZE_AT)
  if (version < 1 || version > 999 || pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    return undefined
  return { pageSize, lastPage: b.readBigUInt64LE(LAST_PAGE_AT), txnid: b.readBigUInt64LE(TXNID_AT) }
}

const readAt = (fd: number, at: number, n: number): Buffer => {
  const b = Buffer.alloc(n)
  const got = readSync(fd, b, 0, n, at)
  return b.subarray(0, got)
}

/**
 * Checks `<dir>/data.mdb` before LMDB maps it: nothing to check when it is missing or empty (LMDB
 * creates a new store); otherwise throws `DamagedStore` saying what is wrong.
 */
export const checkLmdbFile = (dir: string): void => {
  const file = join(dir, "data.mdb")
  let fd: number
  try {
    fd = openSync(file, "r")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return
    throw e
  }
  try {
    const size = fstatSync(fd).size
    if (size === 0) return
    const damaged = (why: string) =>
      new DamagedStore(
        `the store ${file} is damaged: ${why}; restore it from a backup, or move the data directory away to start from genesis`
      )
    const first = readMeta(readAt(fd, 0, META_BYTES))
    const pageSize = first?.pageSize ?? 4096
    if (size < 2 * pageSize) throw damaged(`it has ${size} bytes, fewer than its two meta pages`)
    const second = readMeta(readAt(fd, pageSize, META_BYTES))
    if (first === undefined && second === undefined)
      throw damaged("neither meta page holds LMDB's header (the file is zeroed or not an LMDB store)")
    // LMDB uses the meta with the newer transaction id.
    const meta = first === undefined ? second! : second === undefined || first.txnid >= second.txnid ? first : second
    const needed = (meta.lastPage + 1n) * BigInt(meta.pageSize)
    // The length compared is read after the meta: another process may be writing the store (a
    // front process opens it read-only while the node commits), and LMDB writes a commit's pages
    // before its meta, so the file is at least as long as any meta already readable says. The
    // length read before the meta missed the pages of a commit made in between, and a live store
    // looked truncated (about one check in 300 beside a busy writer; a front process refused to
    // serve reads once, session 49).
    const length = fstatSync(fd).size
    if (BigInt(length) < needed)
      throw damaged(`it has ${length} bytes, but its pages in use end at byte ${needed} (truncated)`)
  } finally {
    closeSync(fd)
  }
}
