import { type Database, type DatabaseOptions, open, type RangeOptions, type RootDatabase } from "lmdb"
import { bytesKey } from "../domain/mapKeys.js"
import { type StateValueMetadata, type WriteOp, writesModule } from "../domain/WriteSet.js"
import type { CommittedTransaction, TransactionSummary, VersionedEvent } from "./Ledger.js"
import type { AccountSequence, LedgerBackend, LedgerHead, PreparedBlock } from "./LedgerBackend.js"
import {
  accountKeyPrefix,
  accountSequenceKey,
  bytesEqualPrefix,
  eventIndexKey,
  IN_STATE_VALUES,
  indexEntry,
  indexKey,
  longKeyIndexKey,
  MAX_RAW_STATE_KEY,
  readU64be,
  storedStateKey,
  summaryKey,
  summaryKeyEncoder,
  u64be,
  versionOfIndexEntry
} from "./lmdbKeys.js"
import {
  decodeBlock,
  decodeHead,
  decodeStateValue,
  decodeStateValueMetadata,
  decodeSummaryValue,
  decodeTransactionRecord,
  gasFactsOfRecord,
  onChainDataOfRecord,
  encodeBlock,
  encodeHead,
  encodeStateValue,
  encodeSummaryValue,
  encodeTransactionRecordWithOffsets,
  eventAt,
  headerOfTransactionRecord,
  LATEST_RECORD_OFFSET,
  opAt,
  type SummaryValue,
  stateValueStart,
  writeSetOfTransactionRecord
} from "./lmdbRecords.js"
import { checkLmdbFile } from "./checkLmdbFile.js"
import { knownRecord } from "./knownRecords.js"
import { lockDataDir } from "./dataDirLock.js"
import { recordDictionary } from "./recordDictionary.js"
import { snapshotBound } from "./snapshotBound.js"
import { pageOf } from "./statePageOf.js"
import { writeOpValue } from "./writeOpValue.js"

export interface LmdbBackendOptions {
  /** Directory of the store; created when missing. */
  readonly path: string
  /**
   * fsync every commit before it returns (default true). Off only for throwaway stores (benches):
   * a crash may then lose recent commits, though never half of one.
   */
  readonly sync?: boolean | undefined
  /**
   * When a commit counts as done (with `sync` on): `"flushed"` (the default) once its fsync
   * returned, so nothing is announced (head, readers, the API) before it is on disk; `"committed"`
   * once it is visible, the fsync following on lmdb-js's write thread (its `overlappingSync`), for
   * a store that can be fetched again (a follower's): a kill -9 still loses nothing (the pages are
   * in the kernel, and lmdb-js opens the latest commit while the boot id is the same), a power loss
   * can lose the last commits but never leaves half of one (lmdb-js then opens the last flushed one).
   * Measured with lmdb-js 3.5.6, such a commit resolved no sooner than a flushed one
   * (docs/scale-out.md, "Durability"): what it promises is not yet what it gives. Its writer marks
   * a batch committed only after `mdb_txn_commit` returns, and under `overlappingSync` that call
   * makes the commit visible and then fsyncs it on the same thread.
   * `"written"`: never flushed (LMDB's `MDB_NOSYNC`), the commit otherwise made as a flushed one
   * (on lmdb-js's write thread, resolved once visible): a kill -9 loses nothing (the kernel holds
   * the pages), a power loss or a kernel crash may leave the store unreadable — for a chain thrown
   * away after use (the local chain's `--no-fsync`). Unlike `sync: false`, commits stay off the
   * caller's thread.
   */
  readonly durability?: "flushed" | "committed" | "written" | undefined
  /** Largest size the map may grow to, bytes (default 64 GiB; sparse, costs nothing until used). */
  readonly mapSize?: number | undefined
  /**
   * Take the data directory's lock (default true): one process per store (`dataDirLock.ts`). Off
   * for readers inside the process that holds it (the view workers).
   */
  readonly lock?: boolean | undefined
  /**
   * The oldest a read snapshot of this handle may get before a read renews it, ms (default
   * `MAX_SNAPSHOT_AGE_MS`, see `snapshotBound.ts`). Tests set 0 (renew at every look) or Infinity.
   */
  readonly maxSnapshotAgeMs?: number | undefined
  /**
   * Write a block ahead (default true, with `sync` on): its puts are queued to lmdb-js's write
   * thread, which applies and commits them, instead of applied on the caller's thread inside the
   * write transaction (see `commitMany`). False: every commit is written inside its transaction,
   * as one that prunes always is.
   */
  readonly writeAhead?: boolean | undefined
}

const HEAD_KEY = Buffer.from("head")
/** `meta` entry: the number the next new state key gets (u64 BE; absent = 0). */
const NEXT_KEY_ID = Buffer.from("next_key_id")
/** `meta` entry counting the truncations over the store's life (u64 BE; absent = 0). */
const TRUNCATIONS_KEY = Buffer.from("truncations")
/** `meta` entry: the highest version a rewind left as garbage (u64 BE; absent = none; see `truncateAfter`). */
const GARBAGE_KEY = Buffer.from("garbage_top")
/**
 * `meta` entries of the record of module writes (`code_writes`, see `codeVersionAt`): the first
 * version it covers (u64 BE) and the last (the head's latest version when it was last written). A
 * store made before the record, or written by code that did not keep it (the two differ from the
 * head then), is recorded from the version after its head on.
 */
const CODE_FROM_KEY = Buffer.from("code_from")
const CODE_THROUGH_KEY = Buffer.from("code_through")
/** `meta` entry: the newest `code_writes` entry (u64 BE; absent = none), so the head's readers need no range read. */
const CODE_LAST_KEY = Buffer.from("code_last")
/** A `code_writes` entry's value: the key (the version) is the record. */
const CODE_WRITE_MARK = Buffer.from([1])
const U64_MAX = (1n << 64n) - 1n
/**
 * Transaction records at least this long (uncompressed: genesis, module publications) keep their
 * values in `state_values` as well, so that a read at an older version does not decompress them.
 */
const LARGE_RECORD = 16 * 1024
/** Appended puts (keys above every key of the table): LMDB then fills its pages instead of halving them. */
const APPEND = { append: true } as const
/** Plain puts (keys above may exist: a rewind's garbage, see `truncateAfter`). */
const OVERWRITE = {} as const
type PutFlags = typeof APPEND | typeof OVERWRITE

/** lmdb-js's queued `put` with `putSync`'s options. */
type AsyncPut = (key: Buffer, value: Buffer, options: PutFlags) => Promise<boolean>

/** One put of a block written ahead (`commitMany`). */
interface WriteAhead {
  readonly db: Database<Buffer, Buffer>
  readonly key: Buffer
  readonly value: Buffer
  readonly flags: PutFlags
}

/** Values at least this long are kept by `stateGet` once copied (see `large`). */
const LARGE_VALUE = 4096
/** The most bytes of such values kept per store. */
const LARGE_CACHE_BYTES = 8 * 1024 * 1024

/**
 * The state index (format 5): one LMDB key per state key (its number), its writes as sorted
 * fixed-size duplicates (`indexEntry`, 12 bytes each, no per-entry node). A key written at every
 * block (an idle chain writes seven) then grows by 12 bytes per write in pages of its own, where
 * one entry per write with the version in the key (format 4) took ~55 bytes: LMDB splits a page
 * in the middle when a write lands inside it, and each key's newest write did.
 */
const INDEX_TABLE = { name: "state_index", dupSort: true, dupFixed: true } as const
const INDEX_ENTRY_BYTES = 12

/** Reads of a key's values in a sorted-duplicates table, from a value on (lmdb-js `getValues`). */
interface IndexValueReads {
  getValues(key: Buffer, options?: { readonly start?: Buffer; readonly limit?: number }): Iterable<Buffer>
}

/** The named databases of the store; the layout is described in src/ledger/README.md. */
interface Tables {
  readonly meta: Database<Buffer, Buffer>
  readonly latest: Database<Buffer, Buffer>
  readonly index: Database<Buffer, Buffer>
  readonly values: Database<Buffer, Buffer>
  readonly txns: Database<Buffer, Buffer>
  readonly hashes: Database<Buffer, Buffer>
  readonly blocks: Database<Buffer, Buffer>
  readonly blockEnds: Database<Buffer, Buffer>
  readonly summaries: Database<Buffer, Buffer>
  readonly accountSeqs: Database<Buffer, Buffer>
  readonly events: Database<Buffer, Buffer>
  readonly longKeys: Database<Buffer, Buffer>
  /** The versions whose write set wrote a module (key: version u64 BE; see `codeVersionAt`). */
  readonly codeWrites: Database<Buffer, Buffer>
}

/** The range reads of the summaries read handle: keys as versions, values decoded in place. */
interface SummaryRangeReads {
  getRange(options: RangeOptions): Iterable<{ readonly key: bigint; readonly value: SummaryValue }>
}

const summaryOf = (sender: Uint8Array, version: bigint, value: SummaryValue): TransactionSummary => ({
  sender,
  version,
  hash: value.hash,
  replayProtector: value.replayProtector
})

/** An event index value: version (8 BE) ‖ where the event starts in that version's record (u32 BE). */
const encodeIndexedEvent = (version: bigint, offset: number): Buffer => {
  const out = Buffer.allocUnsafe(12)
  out.writeBigUInt64BE(version, 0)
  out.writeUInt32BE(offset, 8)
  return out
}

const view = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength)

/**
 * lmdb returns fresh Buffers (copies out of the map); callers get plain Uint8Arrays over the same
 * memory, so values compare and behave like every other byte array (Buffer#slice does not copy).
 */
const plain = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

/**
 * The LMDB store. One environment, one named database per table, binary keys and values. Reads are
 * synchronous (LMDB's memory map); a commit is one synchronous write transaction, so a crash leaves
 * either the whole block or none of it.
 */
export const openLmdbBackend = (options: LmdbBackendOptions): LedgerBackend => {
  // Before anything is mapped: a damaged file is an error here, not a SIGBUS on a later read.
  checkLmdbFile(options.path)
  const unlock = options.lock === false ? () => {} : lockDataDir(options.path)
  let root: RootDatabase<Buffer, Buffer>
  try {
    root = open({
      path: options.path,
      keyEncoding: "binary",
      encoding: "binary",
      maxDbs: 16,
      mapSize: options.mapSize ?? 64 * 1024 ** 3,
      // Always a directory (lmdb-js would take a path with an extension, `data.v2`, as a file).
      noSubdir: false,
      overlappingSync: options.sync !== false && options.durability === "committed",
      noSync: options.sync === false || options.durability === "written"
    })
  } catch (e) {
    unlock()
    throw e
  }
  const table = (name: string, extra: Partial<DatabaseOptions> = {}): Database<Buffer, Buffer> =>
    root.openDB<Buffer, Buffer>({
      name,
      keyEncoding: "binary",
      encoding: "binary",
      ...extra
    })
  // Range reads of the summary index go through a second handle on the same table whose value
  // decoder reads lmdb's shared buffer in place: the binary handle copies every entry's value into a
  // fresh Buffer first, which cost more than decoding it. Never written through.
  // Its keys are read as their version alone (`summaryKeyEncoder`; no `keyEncoding`, so lmdb-js
  // uses the encoder while the table keeps its plain byte order). `encoder`/`keyEncoder` are typed
  // on root options only; lmdb-js takes them per database as well.
  const summaryReadOptions: DatabaseOptions & {
    readonly name: string
    readonly encoder: object
    readonly keyEncoder: object
  } = {
    name: "summaries",
    keyEncoder: summaryKeyEncoder,
    encoding: "binary",
    encoder: {
      encode: () => {
        throw new Error("the summaries read handle is read-only")
      },
      decode: decodeSummaryValue,
      // The decoder copies what it keeps, so lmdb may pass its reused buffer.
      needsStableBuffer: false
    }
  }
  const summaryReads = root.openDB(summaryReadOptions) as unknown as SummaryRangeReads
  // The state index's entries are read through a handle that can seek among a key's values:
  // lmdb-js writes a value range's start with the encoder's `writeKey` (it has none for plain
  // binary). Each entry is copied out (12 bytes): the writer removes it by its exact bytes.
  const indexReadOptions: DatabaseOptions & { readonly name: string; readonly encoder: object } = {
    ...INDEX_TABLE,
    encoder: {
      encode: () => {
        throw new Error("the state index read handle is read-only")
      },
      writeKey: (key: Uint8Array, target: Uint8Array, at: number) => {
        target.set(key, at)
        return at + key.length
      },
      // `b` may be lmdb's shared buffer (its `length` set to the value's): copy the entry's 12 bytes.
      decode: (b: Uint8Array) => Buffer.from(new Uint8Array(b.buffer, b.byteOffset, INDEX_ENTRY_BYTES)),
      needsStableBuffer: false
    }
  }
  const indexReads = root.openDB(indexReadOptions) as unknown as IndexValueReads
  const t: Tables = {
    meta: table("meta"),
    latest: table("state_latest"),
    index: table(INDEX_TABLE.name, INDEX_TABLE),
    values: table("state_values"),
    // Transaction records (write sets with their values, events, the signed transaction) are
    // LZ4-compressed by lmdb-js (native, in the put and the get), with a dictionary of the
    // framework's keys and type tags (recordDictionary.ts): BCS repeats addresses (0x1 is 31 zero
    // bytes) and type names, so a transfer's records shrink to about a third.
    txns: table("txns", {
      compression: { threshold: 64, dictionary: recordDictionary() }
    } as Partial<DatabaseOptions>),
    hashes: table("txn_hashes"),
    blocks: table("blocks"),
    blockEnds: table("block_ends"),
    summaries: table("summaries"),
    accountSeqs: table("account_seqs"),
    events: table("events"),
    longKeys: table("long_keys"),
    codeWrites: table("code_writes")
  }

  const stored = t.meta.getBinary(HEAD_KEY)
  let head: LedgerHead | undefined
  try {
    head = stored === undefined ? undefined : decodeHead(plain(stored))
  } catch (e) {
    // A store this code cannot read (another format): release it, so the caller may open another.
    void root.close()
    unlock()
    throw e
  }

  const block = (height: bigint) => {
    const b = t.blocks.getBinary(u64be(height))
    return b === undefined ? undefined : decodeBlock(height, plain(b))
  }

  const blockOfVersion = (version: bigint) => {
    for (const { value } of t.blockEnds.getRange({
      start: u64be(version),
      limit: 1
    })) {
      const b = block(readU64be(value))
      return b !== undefined && b.firstVersion <= version ? b : undefined
    }
    return undefined
  }

  /** Set by `close` (a garbage collection slice scheduled after it does nothing). */
  let closed = false

  /** The newest `code_writes` entry at or below `version`, if any (a range read). */
  function newestCodeWrite(version: bigint): bigint | undefined {
    for (const key of t.codeWrites.getKeys({ start: u64be(version), reverse: true, limit: 1 })) return readU64be(key)
    return undefined
  }

  // The record of module writes: a store without one (or with one that stops before its head)
  // is recorded from the next version on (see `CODE_FROM_KEY`). Only the writer (which holds the
  // data directory's lock) sets it; readers in other threads or processes read it as it is.
  if (options.lock !== false) {
    const from = t.meta.getBinary(CODE_FROM_KEY)
    const through = t.meta.getBinary(CODE_THROUGH_KEY)
    const recorded =
      from !== undefined && (head === undefined || (through !== undefined && readU64be(through) === head.latestVersion))
    const last = t.meta.getBinary(CODE_LAST_KEY)
    const lastRecord = newestCodeWrite(U64_MAX)
    const lastAgrees = last === undefined ? lastRecord === undefined : readU64be(last) === lastRecord
    if (!recorded || !lastAgrees)
      root.transactionSync(() => {
        if (!recorded) {
          t.meta.putSync(CODE_FROM_KEY, u64be(head === undefined ? 0n : head.latestVersion + 1n))
          if (head !== undefined) t.meta.putSync(CODE_THROUGH_KEY, u64be(head.latestVersion))
        }
        if (lastRecord === undefined) t.meta.removeSync(CODE_LAST_KEY)
        else t.meta.putSync(CODE_LAST_KEY, u64be(lastRecord))
      })
  }

  /**
   * `LedgerBackend.codeVersionAt`: the newest `code_writes` entry at or below `version` and at or
   * above `code_from`, else `code_from - 1` (the modules as the record began); undefined below
   * `code_from` or above `code_through` (the record does not cover the version).
   */
  const codeVersionAt = (version: bigint): bigint | undefined => {
    snapshot.beforeRead()
    const from = t.meta.getBinaryFast(CODE_FROM_KEY)?.readBigUInt64BE(0)
    if (from === undefined || version < from) return undefined
    const through = t.meta.getBinaryFast(CODE_THROUGH_KEY)?.readBigUInt64BE(0)
    if (through === undefined || through < version) return undefined
    // The newest module write overall (`code_last`) answers a reader at or above it (the head's)
    // with a point read; an older reader looks among the writes below its version.
    const last = t.meta.getBinaryFast(CODE_LAST_KEY)?.readBigUInt64BE(0)
    const written = last === undefined || last <= version ? last : newestCodeWrite(version)
    return written !== undefined && written >= from ? written : from - 1n
  }

  let nextKeyId = (() => {
    const b = t.meta.getBinary(NEXT_KEY_ID)
    return b === undefined ? 0n : readU64be(b)
  })()

  /**
   * The puts of a block being written ahead (`commitMany`), recorded while its records are encoded
   * and queued only once all of them are; undefined: each put is applied at once (inside a write
   * transaction).
   */
  let writingAhead: WriteAhead[] | undefined
  const put = (db: Database<Buffer, Buffer>, key: Buffer, value: Buffer, flags: PutFlags = OVERWRITE): void => {
    if (writingAhead !== undefined) writingAhead.push({ db, key, value, flags })
    else db.putSync(key, value, flags)
  }

  /**
   * The write of `keyBytes` at `version`, whose op starts at `opOffset` in the version's record:
   * the latest table gets the value (a new key gets the next key number), the index a pointer to
   * the record. The value itself is stored once more only in `state_latest`, updated in place.
   * Without `opOffset` (a large record) the value goes to `state_values` and the index says so.
   */
  const writeState = (keyBytes: Uint8Array, version: bigint, op: WriteOp, opOffset: number | undefined): void => {
    const value = writeOpValue(op)
    const metadata = "metadata" in op ? op.metadata : undefined
    const key = storedStateKey(keyBytes)
    // The map's key: the key bytes' own (`bytesKey`: a cached state key's string, already hashed),
    // or, for a long key stored hashed, its stored form's (0xff first: no state key starts so).
    const bulkKey =
      bulkLatest === undefined
        ? undefined
        : keyBytes.length <= MAX_RAW_STATE_KEY
          ? bytesKey(keyBytes)
          : key.toString("latin1")
    const pending = bulkKey === undefined ? undefined : bulkLatest!.get(bulkKey)
    const previous = pending === undefined ? t.latest.getBinaryFast(key) : undefined
    let id: bigint
    if (pending !== undefined) id = pending.id
    else if (previous === undefined) {
      id = nextKeyId++
      // A long access path is stored hashed: keep its bytes where an account listing finds them
      // (copied: a put written ahead reads its value later, and the caller's array is not ours).
      if (keyBytes.length > MAX_RAW_STATE_KEY && keyBytes[0] === 0)
        put(t.longKeys, longKeyIndexKey(keyBytes), Buffer.from(keyBytes))
    } else id = previous.readBigUInt64BE(8)
    put(t.index, u64be(id), indexEntry(version, opOffset ?? IN_STATE_VALUES))
    // A large transaction's values are kept apart, so that an older read does not decompress it.
    if (opOffset === undefined) put(t.values, indexKey(id, version), encodeStateValue(value, undefined, metadata))
    // In bulk, encoded once per key, at the end.
    if (bulkKey !== undefined) bulkLatest!.set(bulkKey, { stored: key, id, version, value, metadata })
    else put(t.latest, key, encodeStateValue(value, { version, id }, metadata))
  }

  /**
   * While blocks are written in one write transaction (every commit, a loaded chain): each key's
   * newest `state_latest` record, put once at the end (`flushLatest`) instead of at every write (a
   * transfer's keys are written again by most later transfers). Whatever reads `state_latest`
   * inside the transaction (pruning, a rewind's discard) flushes first.
   */
  let bulkLatest:
    | Map<
        string,
        {
          readonly stored: Buffer
          readonly id: bigint
          readonly version: bigint
          readonly value: Uint8Array | undefined
          readonly metadata: StateValueMetadata | undefined
        }
      >
    | undefined
  const flushLatest = (): void => {
    if (bulkLatest === undefined) return
    for (const { stored, id, version, value, metadata } of bulkLatest.values())
      put(t.latest, stored, encodeStateValue(value, { version, id }, metadata))
    bulkLatest.clear()
  }

  /** The key number `state_latest` holds for a key (undefined: never written). */
  const idOf = (keyBytes: Uint8Array): bigint | undefined => {
    const latest = t.latest.getBinaryFast(storedStateKey(keyBytes))
    return latest === undefined ? undefined : latest.readBigUInt64BE(8)
  }

  /**
   * The state index's entries of key `id` (`indexEntry`), newest first, from its newest write at
   * or below `atOrBelow` (all of them without it), at most `limit`.
   */
  const indexEntries = (id: bigint, atOrBelow: bigint | undefined, limit?: number): Iterable<Buffer> =>
    indexReads.getValues(u64be(id), {
      ...(atOrBelow === undefined ? {} : { start: indexEntry(atOrBelow, 0) }),
      ...(limit === undefined ? {} : { limit })
    })

  /** Removes the index entry of key `id`'s write at `version`, if there is one. */
  const removeIndexEntry = (id: bigint, version: bigint): void => {
    for (const entry of indexEntries(id, version, 1))
      if (versionOfIndexEntry(entry) === version) t.index.removeSync(u64be(id), entry)
  }

  /** Deletes the index entries (and retained values) of key `id` older than `version`; how many. */
  const dropOlder = (id: bigint, version: bigint): number => {
    if (version === 0n) return 0
    let n = 0
    for (const older of Array.from(indexEntries(id, version - 1n))) {
      t.index.removeSync(u64be(id), older)
      t.values.removeSync(indexKey(id, versionOfIndexEntry(older)))
      n++
    }
    return n
  }

  /**
   * Deletes up to `budget` entries below the head's window; runs inside a write transaction.
   * Transactions go from the oldest up. Before a transaction's record goes, each value it wrote is
   * either dropped (a newer write at or below the oldest version hides it: its index entry goes)
   * or, when it is still what the oldest version reads, copied to `state_values` (its index entry
   * stays). A write at or below the oldest version hides the key's older writes: they go when the
   * writing transaction is pruned, or, for the transaction at the oldest version itself (kept),
   * here at every call (nothing left to delete after the first).
   */
  const pruneIn = (h: LedgerHead, budget: number): number => {
    let done = 0
    const take = <V>(it: Iterable<V>): V[] => Array.from(it)
    const atOldest = t.txns.getBinary(u64be(h.oldestVersion))
    if (atOldest !== undefined && h.oldestVersion > 0n)
      for (const entry of writeSetOfTransactionRecord(plain(atOldest)).entries) {
        const id = idOf(entry.keyBytes)
        if (id !== undefined) done += dropOlder(id, h.oldestVersion)
      }
    if (done < budget)
      for (const { key, value } of take(t.txns.getRange({ end: u64be(h.oldestVersion), limit: budget - done }))) {
        const version = readU64be(key)
        const { hash, sender, replayProtector, eventKeys } = headerOfTransactionRecord(value)
        t.hashes.removeSync(view(hash))
        if (sender !== undefined) {
          t.summaries.removeSync(summaryKey(sender, version))
          if (replayProtector?._tag === "SequenceNumber")
            t.accountSeqs.removeSync(accountSequenceKey(sender, replayProtector.sequenceNumber))
        }
        for (const e of eventKeys) t.events.removeSync(eventIndexKey(e.address, e.creationNumber, e.sequenceNumber))
        for (const entry of writeSetOfTransactionRecord(value).entries) {
          const id = idOf(entry.keyBytes)
          if (id === undefined) continue
          done += dropOlder(id, version)
          let visible = false
          for (const newest of indexEntries(id, h.oldestVersion, 1)) visible = versionOfIndexEntry(newest) === version
          if (visible) {
            const op = entry.op
            t.values.putSync(
              indexKey(id, version),
              encodeStateValue(writeOpValue(op), undefined, "metadata" in op ? op.metadata : undefined)
            )
          } else removeIndexEntry(id, version)
        }
        t.txns.removeSync(key)
        done++
      }
    if (done < budget)
      for (const { key, value } of take(t.blocks.getRange({ end: u64be(h.oldestHeight), limit: budget - done }))) {
        t.blockEnds.removeSync(u64be(decodeBlock(0n, value).lastVersion))
        t.blocks.removeSync(key)
        done++
      }
    return done
  }

  /** The block's records and its head, inside the caller's write transaction. */
  const writeBlock = (p: PreparedBlock, pruneBudget: number): void => {
    // Versions a rewind discarded are cleared first; while garbage is left above, no appends.
    const append = discardUnder(p) ? OVERWRITE : APPEND
    const keysBefore = nextKeyId
    let codeLast: Buffer | undefined
    const records: Array<{ readonly tx: CommittedTransaction; readonly eventOffsets: ReadonlyArray<number> }> = []
    for (let i = 0; i < p.transactions.length; i++) {
      const tx = p.transactions[i]!
      const versionKey = u64be(tx.version)
      const record = knownRecord(tx) ?? encodeTransactionRecordWithOffsets(tx, p.outputEncodings?.[i])
      records.push({ tx, eventOffsets: record.eventOffsets })
      put(t.txns, versionKey, view(record.bytes), append)
      // A copy (in Node's pool), not a view: the 32-byte hash lives in V8's heap, where asking for its
      // `buffer` would move it into a backing store of its own (an allocation a transaction).
      put(t.hashes, Buffer.from(tx.hash), versionKey)
      if (writesModule(tx.writeSet)) {
        put(t.codeWrites, versionKey, CODE_WRITE_MARK)
        codeLast = versionKey
      }
      const large = record.bytes.length >= LARGE_RECORD
      // Loops, not callbacks made per transaction (docs/architecture.md, "Hot loops live in functions made once").
      const entries = tx.writeSet.entries
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i]!
        writeState(entry.keyBytes, tx.version, entry.op, large ? undefined : record.opOffsets[i]!)
      }
    }
    if (nextKeyId !== keysBefore) put(t.meta, NEXT_KEY_ID, u64be(nextKeyId))
    for (const s of p.summaries) put(t.summaries, summaryKey(s.sender, s.version), encodeSummaryValue(s))
    for (const s of p.accountSequences)
      put(t.accountSeqs, accountSequenceKey(s.sender, s.sequenceNumber), u64be(s.version))
    // The handle events (`p.events`, in the same order), indexed by their place in their record.
    for (const { tx, eventOffsets } of records)
      for (let i = 0; i < tx.events.length; i++) {
        const e = tx.events[i]!
        if (e._tag === "V1")
          put(
            t.events,
            eventIndexKey(e.key.accountAddress, e.key.creationNumber, e.sequenceNumber),
            encodeIndexedEvent(tx.version, eventOffsets[i]!)
          )
      }
    put(t.blocks, u64be(p.block.height), encodeBlock(p.block), append)
    put(t.blockEnds, u64be(p.block.lastVersion), u64be(p.block.height), append)
    put(t.meta, HEAD_KEY, view(encodeHead(p.head)))
    put(t.meta, CODE_THROUGH_KEY, u64be(p.head.latestVersion))
    if (codeLast !== undefined) put(t.meta, CODE_LAST_KEY, codeLast)
    if (pruneBudget > 0) {
      // Pruning reads `state_latest` (key numbers): what is pending goes in first.
      flushLatest()
      pruneIn(p.head, pruneBudget)
    }
  }

  /**
   * Asynchronous write transactions not yet finished: closing waits for them (`close`), since the
   * store opened again meanwhile would not see them, or wait forever for their write lock.
   */
  let writesInFlight = 0
  const inFlight = <A>(write: Promise<A>): Promise<A> => {
    writesInFlight++
    return write.finally(() => {
      writesInFlight--
    })
  }

  /**
   * One block in one write transaction. With fsync on (the default), committed on lmdb-js's write
   * thread: the commit and its fsync (milliseconds) do not block the caller; the Promise resolves
   * once the block is on disk, and only then does `head` move, so no reader is told of a block
   * before it is durable and visible. With sync off (throwaway stores) there is no fsync to move:
   * synchronous, as a test expects of it.
   */
  const commit = (p: PreparedBlock, pruneBudget: number): void | Promise<void> => commitMany([p], pruneBudget)

  /**
   * `commit` of consecutive blocks in one write transaction (one fsync; a follower catching up).
   *
   * Written ahead (the usual case: no pruning in this commit, no rewind's garbage to clear): the
   * blocks' records are encoded here and every put recorded; only once all are (an encoding that
   * throws leaves nothing queued) are they queued to lmdb-js's write thread, in this one synchronous
   * stretch, which lmdb-js commits as one transaction (it batches the writes of an event turn into
   * one; a `transactionSync` could split a batch only between two turns' writes, never inside this
   * loop). The B-tree updates and the records' compression then run there, not on the caller's
   * thread (issue 22: under load they were ~8 % of the event loop's time, in one stretch of ~15 ms a
   * block). The reads the encoding makes (a key's number in `state_latest`) see every earlier
   * block: commits are one at a time, each durable (and this handle's snapshot renewed) before the
   * next begins (`makeLedgerService`), and the block's own new keys are in `bulkLatest`.
   * Pruning and a rewind's discard read and delete inside the transaction: those commits run in
   * lmdb-js's `transaction` callback, their puts applied on this thread as before.
   */
  const commitMany = (ps: ReadonlyArray<PreparedBlock>, pruneBudget: number): void | Promise<void> => {
    if (ps.length === 0) return
    const write = () => {
      // Each key's `state_latest` record once per commit, not once per write: a block of transfers
      // writes the same accounts, stores and supply again and again (issue 22).
      bulkLatest = new Map()
      try {
        for (const [i, p] of ps.entries()) writeBlock(p, i === ps.length - 1 ? pruneBudget : 0)
        flushLatest()
      } finally {
        bulkLatest = undefined
      }
    }
    const last = ps[ps.length - 1]!.head
    if (options.sync === false) {
      root.transactionSync(write)
      head = last
      return
    }
    const durable = (): void => {
      // This thread's read transaction may predate the commit: the next read sees the block.
      root.resetReadTxn()
      snapshot.renewed()
      head = last
    }
    if (options.writeAhead === false || pruneBudget > 0 || garbageTop !== undefined)
      return inFlight(root.transaction(write).then(durable))
    const puts: WriteAhead[] = []
    writingAhead = puts
    try {
      write()
    } finally {
      writingAhead = undefined
    }
    let committed: Promise<boolean> | undefined
    // lmdb-js's `put` takes the same options as `putSync` (append), though its types name only versions.
    for (const { db, key, value, flags } of puts)
      committed = (db as unknown as { readonly put: AsyncPut }).put(key, value, flags)
    return inFlight(committed!.then(durable))
  }

  /**
   * Large latest values already copied out, by stored key: the same bytes at the same version are
   * handed out again instead of copied (the gas schedule, 24 KB on devnet, is read by every
   * transaction; its reader then recognises it by identity). Values are never mutated by readers
   * (the memory store hands out its stored arrays too). Bounded by `LARGE_CACHE_BYTES`.
   */
  const large = new Map<string, { readonly version: bigint; readonly value: Uint8Array }>()
  let largeBytes = 0
  const largeValue = (key: Buffer, version: bigint, record: Buffer, start: number): Uint8Array => {
    const k = key.toString("latin1")
    const hit = large.get(k)
    if (hit !== undefined && hit.version === version) return hit.value
    const value = new Uint8Array(record.subarray(start, record.length))
    if (hit !== undefined) {
      large.delete(k)
      largeBytes -= hit.value.length
    }
    // Oldest first out (insertion order) until the new value fits.
    for (const [oldKey, old] of large) {
      if (largeBytes + value.length <= LARGE_CACHE_BYTES) break
      large.delete(oldKey)
      largeBytes -= old.value.length
    }
    if (value.length <= LARGE_CACHE_BYTES) {
      large.set(k, { version, value })
      largeBytes += value.length
    }
    return value
  }

  /**
   * The write of key `id` newest at or below `version` (the latest table's entry is newer): one
   * forward seek in the index, then the op in its transaction's record, or the value kept in
   * `state_values` (a large record's, or one still read at the oldest version when its record was
   * pruned). Undefined when the key was not written at or below `version`.
   */
  const olderWrite = (
    id: bigint,
    version: bigint
  ):
    | { readonly version: bigint; readonly op: WriteOp | undefined; readonly retained: Uint8Array | undefined }
    | undefined => {
    for (const entry of indexEntries(id, version, 1)) {
      const at = versionOfIndexEntry(entry)
      const k = indexKey(id, at)
      const offset = entry.readUInt32BE(8)
      if (offset === IN_STATE_VALUES) {
        const kept = t.values.getBinary(k)
        return kept === undefined ? undefined : { version: at, op: undefined, retained: plain(kept) }
      }
      // Decompressed into lmdb's reused buffer (no copy of the record): the op's value is copied out.
      const record = t.txns.getBinaryFast(u64be(at))
      if (record !== undefined) {
        const op = opAt(record, offset)
        return { version: at, op: "data" in op ? { ...op, data: new Uint8Array(op.data) } : op, retained: undefined }
      }
      const kept = t.values.getBinary(k)
      return kept === undefined ? undefined : { version: at, op: undefined, retained: plain(kept) }
    }
    return undefined
  }

  const readTruncations = (): number => {
    const b = t.meta.getBinary(TRUNCATIONS_KEY)
    return b === undefined ? 0 : Number(readU64be(b))
  }
  let truncations = readTruncations()

  /**
   * Rewinds are logical (`truncateAfter`): the head moves back in one small write, and what the
   * versions above it held (their records, every index entry, the state they wrote) stays as
   * garbage until removed: by the commit that writes those versions again (in its own write
   * transaction, before its block: `discardRange`) and by `collectGarbage`, which the ledger
   * service runs in slices after a rewind, from the top down. `garbageTop` is the highest version
   * that may hold garbage (persisted as `garbage_top`; absent = none): versions in
   * (head.latestVersion, garbageTop] are the discarded ones.
   *
   * Reads never see it, because:
   * - every entry that names a version (index, hashes, summaries, sequence and event indexes, block
   *   ends) and names one above the head is garbage: reads bounded by the head skip it (the
   *   service bounds versions and heights; `versionOfHash`, `accountSequences` and `events`
   *   filter here); entries at or below the head are the live chain's;
   * - a key's `state_latest` entry is its newest live write when its version is at or below the
   *   head; above the head, reads at the head or below go to the index (seek to `id ‖ ~V`, which
   *   passes over the garbage above V), so its value is never used;
   * - garbage at a version is removed before (or when) the head moves past it again.
   */
  let garbageTop: bigint | undefined = (() => {
    const b = t.meta.getBinary(GARBAGE_KEY)
    return b === undefined ? undefined : readU64be(b)
  })()

  /**
   * The live head's latest version when a rewind left garbage above it, else undefined (nothing
   * to filter). Read from the store, not from this handle's state: a reader in another thread or
   * process (view workers, API workers) shares the store with the writer.
   */
  const liveTopWithGarbage = (): bigint | undefined => {
    if (t.meta.getBinaryFast(GARBAGE_KEY) === undefined) return undefined
    const b = t.meta.getBinaryFast(HEAD_KEY)
    // The head: format u8 ‖ chain id u8 ‖ latest version (u64 LE) ‖ … (lmdbRecords.encodeHead).
    return b === undefined ? undefined : b.readBigUInt64LE(2)
  }

  /** Removes `table[key]` when it names `version` (the live chain may have written the key again). */
  const removeNaming = (table: Database<Buffer, Buffer>, key: Buffer, version: bigint): void => {
    const v = table.getBinaryFast(key)
    if (v !== undefined && v.length >= 8 && v.readBigUInt64BE(0) === version) table.removeSync(key)
  }

  /**
   * Removes the discarded versions `lo..hi` (all above the head, at or below `garbageTop`), inside
   * the caller's write transaction: their records and index entries, the blocks that start among
   * them (heights above `liveHeight`), and, for each key they wrote whose `state_latest` entry
   * names one of them, that entry (replaced by the key's newest write left, or removed). `live`:
   * the live head's version once this step is done; a newest write left above it is garbage too,
   * so the entry only needs its version (a deletion record: never read as a value above the head),
   * not its value (which would cost decompressing its record). `fromTop`: the blocks are looked
   * for from the highest height down (the collection's slices take the top of the garbage).
   */
  const discardRange = (lo: bigint, hi: bigint, liveHeight: bigint, live: bigint, fromTop: boolean): void => {
    const touched = new Map<string, { readonly stored: Buffer; readonly keyBytes: Uint8Array; readonly id: bigint }>()
    for (const { key, value } of Array.from(t.txns.getRange({ start: u64be(lo), end: u64be(hi + 1n) }))) {
      const version = readU64be(key)
      const record = plain(value)
      const { hash, sender, replayProtector, eventKeys } = headerOfTransactionRecord(record)
      removeNaming(t.hashes, view(hash), version)
      if (sender !== undefined) {
        t.summaries.removeSync(summaryKey(sender, version))
        if (replayProtector?._tag === "SequenceNumber")
          removeNaming(t.accountSeqs, accountSequenceKey(sender, replayProtector.sequenceNumber), version)
      }
      for (const e of eventKeys)
        removeNaming(t.events, eventIndexKey(e.address, e.creationNumber, e.sequenceNumber), version)
      // Only a large record's writes have their values in `state_values` (a pruned record's kept
      // values lie below the window, never above the head).
      const large = record.length >= LARGE_RECORD
      for (const entry of writeSetOfTransactionRecord(record).entries) {
        const stored = storedStateKey(entry.keyBytes)
        const latest = t.latest.getBinaryFast(stored)
        if (latest === undefined) continue
        const id = latest.readBigUInt64BE(8)
        if (large) t.values.removeSync(indexKey(id, version))
        removeIndexEntry(id, version)
        touched.set(stored.toString("latin1"), { stored, keyBytes: entry.keyBytes, id })
      }
      t.txns.removeSync(key)
    }
    for (const k of Array.from(t.blockEnds.getKeys({ start: u64be(lo), end: u64be(hi + 1n) })))
      t.blockEnds.removeSync(k)
    const blocks = fromTop
      ? t.blocks.getRange({ start: u64be(U64_MAX), end: u64be(liveHeight), reverse: true })
      : t.blocks.getRange({ start: u64be(liveHeight + 1n) })
    for (const { key, value } of Array.from(blocks)) {
      const first = readU64be(value, 0)
      if (fromTop ? first < lo : first > hi) break
      if (first >= lo && first <= hi) t.blocks.removeSync(key)
    }
    for (const { stored, keyBytes, id } of touched.values()) {
      const latest = t.latest.getBinary(stored)
      if (latest === undefined) continue
      const at = latest.readBigUInt64BE(0)
      if (at < lo || at > hi) continue
      let newest: bigint | undefined
      for (const entry of indexEntries(id, undefined, 1)) newest = versionOfIndexEntry(entry)
      if (newest !== undefined && newest > live) {
        t.latest.putSync(stored, encodeStateValue(undefined, { version: newest, id }, undefined))
        continue
      }
      const survivor = newest === undefined ? undefined : olderWrite(id, newest)
      if (survivor === undefined) {
        t.latest.removeSync(stored)
        if (keyBytes.length > MAX_RAW_STATE_KEY && keyBytes[0] === 0) t.longKeys.removeSync(longKeyIndexKey(keyBytes))
        continue
      }
      const op = survivor.op
      const value = op !== undefined ? writeOpValue(op) : decodeStateValue(survivor.retained!, 0)
      const metadata =
        op !== undefined
          ? value !== undefined && "metadata" in op
            ? op.metadata
            : undefined
          : decodeStateValueMetadata(survivor.retained!, 0)
      t.latest.putSync(stored, encodeStateValue(value, { version: survivor.version, id }, metadata))
    }
  }

  /** Garbage gone: the marker too, and what is left above the live head (blocks of a straddling range). */
  const garbageCleared = (liveVersion: bigint, liveHeight: bigint): void => {
    for (const k of Array.from(t.blocks.getKeys({ start: u64be(liveHeight + 1n) }))) t.blocks.removeSync(k)
    for (const k of Array.from(t.blockEnds.getKeys({ start: u64be(liveVersion + 1n) }))) t.blockEnds.removeSync(k)
    t.meta.removeSync(GARBAGE_KEY)
  }

  /**
   * Before a block is written over discarded versions (inside its write transaction): removes
   * the garbage of the versions it takes. Returns whether garbage is left above it (then the
   * block is not written with the append flag: keys above it exist).
   */
  const discardUnder = (p: PreparedBlock): boolean => {
    const top = garbageTop
    if (top === undefined) return false
    flushLatest()
    const lo = p.block.firstVersion
    const hi = p.block.lastVersion < top ? p.block.lastVersion : top
    if (lo <= hi) discardRange(lo, hi, p.block.height - 1n, p.block.lastVersion, false)
    if (p.block.lastVersion >= top) {
      garbageCleared(p.block.lastVersion, p.block.height)
      garbageTop = undefined
      return false
    }
    return true
  }

  /**
   * Removes the garbage of at most `budget` discarded versions, the highest first, in one write
   * transaction (durable off the event loop when `sync`); resolves to how many versions were
   * removed (0: none left).
   */
  const collectGarbage = (budget: number): number | Promise<number> => {
    const h = head
    const top = garbageTop
    if (closed || h === undefined || top === undefined || budget <= 0) return 0
    if (top <= h.latestVersion) {
      // The live chain passed the garbage (cannot happen: commits remove what they take): just the marker.
      root.transactionSync(() => garbageCleared(h.latestVersion, h.latestHeight))
      garbageTop = undefined
      return 0
    }
    const span = BigInt(budget)
    const lo = top - span + 1n > h.latestVersion ? top - span + 1n : h.latestVersion + 1n
    const step = () => {
      discardRange(lo, top, h.latestHeight, h.latestVersion, true)
      if (lo - 1n <= h.latestVersion) garbageCleared(h.latestVersion, h.latestHeight)
      else t.meta.putSync(GARBAGE_KEY, u64be(lo - 1n))
    }
    const done = () => {
      garbageTop = lo - 1n <= h.latestVersion ? undefined : lo - 1n
      return Number(top - lo + 1n)
    }
    if (options.sync === false) {
      root.transactionSync(step)
      return done()
    }
    return inFlight(root.transaction(step).then(done))
  }

  /**
   * Forgets every version above `target.latestVersion`, logically: one write transaction (fsync'd
   * unless `sync` is off) moves the head back and marks the versions above it as garbage (see
   * above), then writes `append` (blocks prepared on `target`, each removing the garbage it
   * writes over) in the same transaction: a crash leaves the store as before or as after.
   */
  const truncateAfter = (target: LedgerHead, append: ReadonlyArray<PreparedBlock> = []): void => {
    // An empty store (a fork's before its first block) has nothing to forget: `target` stands in.
    const h = head ?? (append.length > 0 ? target : undefined)
    if (h === undefined || (target.latestVersion >= h.latestVersion && append.length === 0)) return
    const next: LedgerHead = {
      ...target,
      oldestVersion: h.oldestVersion > target.oldestVersion ? h.oldestVersion : target.oldestVersion,
      oldestHeight: h.oldestHeight > target.oldestHeight ? h.oldestHeight : target.oldestHeight
    }
    const before = garbageTop
    const above = before !== undefined && before > h.latestVersion ? before : h.latestVersion
    const top = above > target.latestVersion ? above : undefined
    try {
      root.transactionSync(() => {
        if (top !== undefined) t.meta.putSync(GARBAGE_KEY, u64be(top))
        garbageTop = top
        t.meta.putSync(HEAD_KEY, view(encodeHead(next)))
        t.meta.putSync(TRUNCATIONS_KEY, u64be(BigInt(truncations + 1)))
        // The forgotten versions' module writes go now (few: publications), not with their garbage.
        for (const key of Array.from(t.codeWrites.getKeys({ start: u64be(target.latestVersion + 1n) })))
          t.codeWrites.removeSync(key)
        t.meta.putSync(CODE_THROUGH_KEY, u64be(target.latestVersion))
        const last = newestCodeWrite(target.latestVersion)
        if (last === undefined) t.meta.removeSync(CODE_LAST_KEY)
        else t.meta.putSync(CODE_LAST_KEY, u64be(last))
        if (append.length > 1) bulkLatest = new Map()
        try {
          for (const p of append) writeBlock(p, 0)
          flushLatest()
        } finally {
          bulkLatest = undefined
        }
      })
    } catch (e) {
      garbageTop = before
      throw e
    }
    root.resetReadTxn()
    large.clear()
    largeBytes = 0
    truncations++
    head = append.length === 0 ? next : append[append.length - 1]!.head
  }

  /**
   * lmdb-js keeps one read snapshot per handle until its next timer tick; a reader in another
   * thread than the writer renews it to see blocks committed meanwhile, and `snapshot` renews it
   * in a long stretch of reads (see `snapshotBound.ts`: a snapshot held that long makes the
   * writer's commits take new pages instead of freed ones).
   */
  const refreshReads = (): void => {
    root.resetReadTxn()
    // Another thread may have truncated the store: re-read the head and forget copied values.
    const now = readTruncations()
    if (now !== truncations) {
      truncations = now
      large.clear()
      largeBytes = 0
      const stored = t.meta.getBinary(HEAD_KEY)
      if (stored !== undefined) head = decodeHead(plain(stored))
    }
  }
  const snapshot = snapshotBound(refreshReads, options.maxSnapshotAgeMs)

  const stateGet: LedgerBackend["stateGet"] = (keyBytes, version) => {
    if (keyBytes.length === 0) return undefined // LMDB has no empty keys, and no StateKey is empty
    snapshot.beforeRead()
    const key = storedStateKey(keyBytes)
    // Hot path: one point read in the `latest` table, into lmdb's reused buffer (valid until the
    // next read, so the value is copied out before anything else touches the database).
    const latest = t.latest.getBinaryFast(key)
    if (latest === undefined) return undefined
    const latestVersion = latest.readBigUInt64BE(0)
    if (latestVersion <= version) {
      // Flags 0 and 1 inline (the hot path); 2 (metadata first) through the record decoder.
      const flag = latest[LATEST_RECORD_OFFSET]
      const start =
        flag === 1 ? LATEST_RECORD_OFFSET + 1 : flag === 0 ? -1 : stateValueStart(latest, LATEST_RECORD_OFFSET)
      return {
        value:
          start < 0
            ? undefined
            : latest.length - start >= LARGE_VALUE
              ? largeValue(key, latestVersion, latest, start)
              : new Uint8Array(latest.subarray(start, latest.length)),
        version: latestVersion
      }
    }
    const older = olderWrite(latest.readBigUInt64BE(8), version)
    if (older === undefined) return undefined
    return {
      value: older.op !== undefined ? writeOpValue(older.op) : decodeStateValue(older.retained!, 0),
      version: older.version
    }
  }

  /** `stateGet`'s version without copying the value out (lmdb's reused buffer is only read). */
  const stateVersion = (keyBytes: Uint8Array, version: bigint): bigint | undefined => {
    if (keyBytes.length === 0) return undefined
    snapshot.beforeRead()
    const latest = t.latest.getBinaryFast(storedStateKey(keyBytes))
    if (latest === undefined) return undefined
    const latestVersion = latest.readBigUInt64BE(0)
    // Flags 1 and 2 hold a value.
    if (latestVersion <= version) return latest[LATEST_RECORD_OFFSET] === 0 ? undefined : latestVersion
    const found = stateGet(keyBytes, version)
    return found?.value === undefined ? undefined : found.version
  }

  /** The metadata recorded with `stateGet`'s value (undefined: none, a deletion, or absent). */
  const stateMetadata = (keyBytes: Uint8Array, version: bigint): StateValueMetadata | undefined => {
    if (keyBytes.length === 0) return undefined
    snapshot.beforeRead()
    const key = storedStateKey(keyBytes)
    const latest = t.latest.getBinaryFast(key)
    if (latest === undefined) return undefined
    if (latest.readBigUInt64BE(0) <= version) return decodeStateValueMetadata(latest, LATEST_RECORD_OFFSET)
    const older = olderWrite(latest.readBigUInt64BE(8), version)
    if (older === undefined) return undefined
    if (older.op === undefined) return decodeStateValueMetadata(older.retained!, 0)
    // A deletion's metadata is not kept (as a deletion record holds none).
    return writeOpValue(older.op) !== undefined && "metadata" in older.op ? older.op.metadata : undefined
  }

  /** An account's access-path keys from `start` (inclusive), in byte order: raw keys and long ones merged. */
  function* accountKeys(address: Uint8Array, start: Uint8Array | undefined): Generator<Uint8Array> {
    const prefix = accountKeyPrefix(address)
    const from = start !== undefined && Buffer.compare(view(start), prefix) > 0 ? view(start) : prefix
    const long = longKeysOf(prefix, from)
    let li = 0
    for (const key of t.latest.getKeys({ start: from })) {
      if (!bytesEqualPrefix(key, prefix)) break
      while (li < long.length && Buffer.compare(long[li]!, key) < 0) yield plain(long[li++]!)
      yield plain(key)
    }
    while (li < long.length) yield plain(long[li++]!)
  }

  /** The account's long keys at or after `from` (rare: keys over 1 KiB), as whole keys. */
  const longKeysOf = (prefix: Buffer, from: Buffer): Buffer[] => {
    const out: Buffer[] = []
    for (const { value } of t.longKeys.getRange({ start: prefix })) {
      if (!bytesEqualPrefix(value, prefix)) break
      if (Buffer.compare(value, from) >= 0) out.push(value)
    }
    return out
  }

  return {
    head: () => head,
    stateGet,
    refreshReads: () => {
      refreshReads()
      snapshot.renewed()
    },
    // No read after the reset (`refreshReads` reads the truncation count, which takes a snapshot
    // at once): the next read's caller refreshes first where another thread may have truncated.
    releaseReads: () => {
      root.resetReadTxn()
      snapshot.renewed()
    },
    truncateAfter,
    collectGarbage,
    truncations: () => truncations,
    stateVersion,
    stateMetadata,
    transaction: (version) => {
      snapshot.beforeRead()
      const b = t.txns.getBinary(u64be(version))
      return b === undefined ? undefined : decodeTransactionRecord(plain(b), version)
    },
    transactionGasFacts: (version) => {
      snapshot.beforeRead()
      // Fast: read in place from the reused buffer; nothing of it is kept.
      const b = t.txns.getBinaryFast(u64be(version))
      return b === undefined ? undefined : gasFactsOfRecord(plain(b))
    },
    transactionOnChainBcs: (version) => {
      snapshot.beforeRead()
      // Fast: the buffer is reused by the next read, and the answer is a copy of its parts.
      const b = t.txns.getBinaryFast(u64be(version))
      return b === undefined ? undefined : onChainDataOfRecord(plain(b), version)
    },
    versionOfHash: (hash) => {
      snapshot.beforeRead()
      const b = t.hashes.getBinary(view(hash))
      if (b === undefined) return undefined
      const version = readU64be(b)
      // Above the live head: a rewind's garbage (see `truncateAfter`).
      const live = liveTopWithGarbage()
      return live !== undefined && version > live ? undefined : version
    },
    block: (height) => {
      snapshot.beforeRead()
      return block(height)
    },
    blockOfVersion: (version) => {
      snapshot.beforeRead()
      return blockOfVersion(version)
    },
    summariesForward: (sender, from, to, limit) => {
      snapshot.beforeRead()
      const out: TransactionSummary[] = []
      const owner = new Uint8Array(sender) // one copy shared by the page's summaries
      for (const { key, value } of summaryReads.getRange({
        start: summaryKey(sender, from),
        end: summaryKey(sender, to + 1n),
        limit
      }))
        out.push(summaryOf(owner, key, value))
      return out
    },
    summariesBackward: (sender, from, to, limit) => {
      snapshot.beforeRead()
      const out: TransactionSummary[] = []
      const owner = new Uint8Array(sender) // one copy shared by the page's summaries
      // Reverse ranges exclude `end`: the key just below (sender, from) keeps `from` in.
      const end = from === 0n ? view(sender) : summaryKey(sender, from - 1n)
      for (const { key, value } of summaryReads.getRange({
        start: summaryKey(sender, to),
        end,
        reverse: true,
        limit
      }))
        out.push(summaryOf(owner, key, value))
      return out
    },
    accountSequences: (sender, fromSequenceNumber, limit) => {
      snapshot.beforeRead()
      const out: AccountSequence[] = []
      if (!(limit > 0)) return out
      const live = liveTopWithGarbage()
      const top = live ?? U64_MAX
      // Without garbage (see `truncateAfter`) every entry counts: the range stops at `limit`.
      for (const { key, value } of t.accountSeqs.getRange({
        start: accountSequenceKey(sender, fromSequenceNumber),
        limit: live === undefined ? limit : undefined
      })) {
        if (!bytesEqualPrefix(key, sender)) break
        const version = readU64be(value)
        if (version > top) continue
        out.push({ sender: new Uint8Array(sender), sequenceNumber: readU64be(key, 32), version })
        if (out.length >= limit) break
      }
      return out
    },
    events: (address, creationNumber, from, to, limit, descending) => {
      snapshot.beforeRead()
      const out: VersionedEvent[] = []
      if (!(limit > 0)) return out
      const stream = eventIndexKey(address, creationNumber, 0n).subarray(0, 40)
      const live = liveTopWithGarbage()
      const top = live ?? U64_MAX
      // Without garbage (see `truncateAfter`) every entry counts: the range stops at `limit`.
      const rangeLimit = live === undefined ? limit : undefined
      const range = descending
        ? t.events.getRange({ start: eventIndexKey(address, creationNumber, to), reverse: true, limit: rangeLimit })
        : t.events.getRange({ start: eventIndexKey(address, creationNumber, from), limit: rangeLimit })
      for (const { key, value } of range) {
        if (out.length >= limit) break
        if (!bytesEqualPrefix(key, stream)) break
        const sequenceNumber = readU64be(key, 40)
        if (sequenceNumber < from || sequenceNumber > to) break
        const version = readU64be(value)
        if (version > top) continue
        const offset = value.readUInt32BE(8)
        const record = t.txns.getBinary(u64be(version))
        if (record === undefined) break // pruned meanwhile
        const event = eventAt(plain(record), offset)
        if (event._tag !== "V1") throw new Error("the event index points at a module event")
        out.push({ version, event })
      }
      return out
    },
    statePage: (version, query) =>
      pageOf(accountKeys(query.address, query.start), query, (keyBytes) => stateGet(keyBytes, version)),
    commit,
    commitMany,
    codeVersionAt,
    pruneStep: (budget) => {
      const h = head
      if (h === undefined || budget <= 0) return 0
      let done = 0
      root.transactionSync(() => {
        done = pruneIn(h, budget)
      })
      return done
    },
    close: () => {
      closed = true
      if (writesInFlight === 0) {
        void root.close()
        unlock()
        return
      }
      // lmdb-js's close waits for the writes still on its write thread: the directory's lock is
      // released, and the store may be opened again, only after them (LedgerBackend.close).
      return root.close().then(unlock, (e: unknown) => {
        unlock()
        throw e
      })
    }
  }
}
