import { type Database, type DatabaseOptions, open, type RangeOptions, type RootDatabase } from "lmdb"
import { readContractEvent, writeContractEvent } from "../domain/ContractEventCodec.js"
import { BcsReader, BcsWriter } from "../bcs/index.js"
import type { StateValueMetadata, WriteOp } from "../domain/WriteSet.js"
import type { TransactionSummary, VersionedEvent } from "./Ledger.js"
import type { AccountSequence, LedgerBackend, LedgerHead, PreparedBlock } from "./LedgerBackend.js"
import {
  accountKeyPrefix,
  accountSequenceKey,
  bytesEqualPrefix,
  eventIndexKey,
  historyKey,
  longKeyIndexKey,
  MAX_RAW_STATE_KEY,
  readU64be,
  staleKey,
  storedStateKey,
  summaryKey,
  summaryKeyEncoder,
  u64be,
  versionOfHistoryKey
} from "./lmdbKeys.js"
import {
  decodeBlock,
  decodeHead,
  decodeStateValue,
  decodeStateValueMetadata,
  decodeSummaryValue,
  decodeTransactionRecord,
  encodeBlock,
  encodeHead,
  encodeStateValue,
  encodeSummaryValue,
  encodeTransactionRecord,
  type SummaryValue,
  stateValueStart,
  headerOfTransactionRecord
} from "./lmdbRecords.js"
import { checkLmdbFile } from "./checkLmdbFile.js"
import { lockDataDir } from "./dataDirLock.js"
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
  /** Largest size the map may grow to, bytes (default 64 GiB; sparse, costs nothing until used). */
  readonly mapSize?: number | undefined
  /**
   * Take the data directory's lock (default true): one process per store (`dataDirLock.ts`). Off
   * for readers inside the process that holds it (the view workers).
   */
  readonly lock?: boolean | undefined
}

const HEAD_KEY = Buffer.from("head")

/** Values at least this long are kept by `stateGet` once copied (see `large`). */
const LARGE_VALUE = 4096
/** The most bytes of such values kept per store. */
const LARGE_CACHE_BYTES = 8 * 1024 * 1024

/** The named databases of the store; the layout is described in src/ledger/README.md. */
interface Tables {
  readonly meta: Database<Buffer, Buffer>
  readonly latest: Database<Buffer, Buffer>
  readonly history: Database<Buffer, Buffer>
  readonly stale: Database<Buffer, Buffer>
  readonly txns: Database<Buffer, Buffer>
  readonly hashes: Database<Buffer, Buffer>
  readonly blocks: Database<Buffer, Buffer>
  readonly blockEnds: Database<Buffer, Buffer>
  readonly summaries: Database<Buffer, Buffer>
  readonly accountSeqs: Database<Buffer, Buffer>
  readonly events: Database<Buffer, Buffer>
  readonly longKeys: Database<Buffer, Buffer>
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

/** An event index value: version (8 BE) ‖ BCS(ContractEvent). */
const encodeIndexedEvent = (e: VersionedEvent): Uint8Array => {
  const w = new BcsWriter(128)
  w.fixed(u64be(e.version))
  writeContractEvent(w, e.event)
  return w.toBytes()
}

const decodeIndexedEvent = (bytes: Uint8Array): VersionedEvent => {
  const r = new BcsReader(bytes)
  const version = readU64be(r.fixed(8))
  const event = readContractEvent(r)
  r.expectEnd()
  if (event._tag !== "V1") throw new Error("the event index holds a module event")
  return { version, event }
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
      overlappingSync: false,
      noSync: options.sync === false
    })
  } catch (e) {
    unlock()
    throw e
  }
  const table = (name: string): Database<Buffer, Buffer> =>
    root.openDB<Buffer, Buffer>({
      name,
      keyEncoding: "binary",
      encoding: "binary"
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
  const t: Tables = {
    meta: table("meta"),
    latest: table("state_latest"),
    history: table("state_history"),
    stale: table("state_stale"),
    txns: table("txns"),
    hashes: table("txn_hashes"),
    blocks: table("blocks"),
    blockEnds: table("block_ends"),
    summaries: table("summaries"),
    accountSeqs: table("account_seqs"),
    events: table("events"),
    longKeys: table("long_keys")
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

  const writeState = (keyBytes: Uint8Array, version: bigint, op: WriteOp): void => {
    const value = writeOpValue(op)
    const metadata = "metadata" in op ? op.metadata : undefined
    const key = storedStateKey(keyBytes)
    const previous = t.latest.getBinary(key)
    // A long access path is stored hashed: keep its bytes where an account listing finds them.
    if (previous === undefined && keyBytes.length > MAX_RAW_STATE_KEY && keyBytes[0] === 0)
      t.longKeys.putSync(longKeyIndexKey(keyBytes), view(keyBytes))
    if (previous !== undefined) {
      const previousVersion = readU64be(previous)
      // The previous entry is hidden from `version` on; the pruner deletes it once that is below the window.
      if (previousVersion < version) t.stale.putSync(staleKey(version, previousVersion, key), Buffer.alloc(0))
    }
    t.history.putSync(historyKey(key, version), encodeStateValue(value, undefined, metadata))
    t.latest.putSync(key, encodeStateValue(value, version, metadata))
  }

  /** Deletes up to `budget` entries below the head's window; runs inside a write transaction. */
  const pruneIn = (h: LedgerHead, budget: number): number => {
    let done = 0
    const take = <V>(it: Iterable<V>): V[] => Array.from(it)
    if (done < budget)
      for (const { key, value } of take(t.txns.getRange({ end: u64be(h.oldestVersion), limit: budget - done }))) {
        const { hash, sender, replayProtector, eventKeys } = headerOfTransactionRecord(value)
        t.hashes.removeSync(view(hash))
        if (sender !== undefined) {
          t.summaries.removeSync(summaryKey(sender, readU64be(key)))
          if (replayProtector?._tag === "SequenceNumber")
            t.accountSeqs.removeSync(accountSequenceKey(sender, replayProtector.sequenceNumber))
        }
        for (const e of eventKeys) t.events.removeSync(eventIndexKey(e.address, e.creationNumber, e.sequenceNumber))
        t.txns.removeSync(key)
        done++
      }
    if (done < budget)
      for (const { key } of take(
        t.stale.getRange({
          end: u64be(h.oldestVersion + 1n),
          limit: budget - done
        })
      )) {
        const version = readU64be(key, 8)
        t.history.removeSync(historyKey(key.subarray(16), version))
        t.stale.removeSync(key)
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
    for (const tx of p.transactions) {
      const versionKey = u64be(tx.version)
      t.txns.putSync(versionKey, view(encodeTransactionRecord(tx)))
      t.hashes.putSync(view(tx.hash), versionKey)
      for (const entry of tx.writeSet.entries) writeState(entry.keyBytes, tx.version, entry.op)
    }
    for (const s of p.summaries) t.summaries.putSync(summaryKey(s.sender, s.version), encodeSummaryValue(s))
    for (const s of p.accountSequences)
      t.accountSeqs.putSync(accountSequenceKey(s.sender, s.sequenceNumber), u64be(s.version))
    for (const e of p.events)
      t.events.putSync(
        eventIndexKey(e.event.key.accountAddress, e.event.key.creationNumber, e.event.sequenceNumber),
        view(encodeIndexedEvent(e))
      )
    t.blocks.putSync(u64be(p.block.height), encodeBlock(p.block))
    t.blockEnds.putSync(u64be(p.block.lastVersion), u64be(p.block.height))
    t.meta.putSync(HEAD_KEY, view(encodeHead(p.head)))
    if (pruneBudget > 0) pruneIn(p.head, pruneBudget)
  }

  /**
   * One block in one write transaction. With fsync on (the default), committed on lmdb-js's write
   * thread (`transaction`): the puts run here, on the event loop, but the commit and its fsync
   * (milliseconds) do not block it; the Promise resolves once the block is on disk, and only then
   * does `head` move, so no reader is told of a block before it is durable and visible. With sync
   * off (throwaway stores) there is no fsync to move: synchronous, as a test expects of it.
   */
  const commit = (p: PreparedBlock, pruneBudget: number): void | Promise<void> => {
    if (options.sync === false) {
      root.transactionSync(() => writeBlock(p, pruneBudget))
      head = p.head
      return
    }
    return root
      .transaction(() => writeBlock(p, pruneBudget))
      .then(() => {
        // This thread's read transaction may predate the commit: the next read sees the block.
        root.resetReadTxn()
        head = p.head
      })
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

  const stateGet: LedgerBackend["stateGet"] = (keyBytes, version) => {
    if (keyBytes.length === 0) return undefined // LMDB has no empty keys, and no StateKey is empty
    const key = storedStateKey(keyBytes)
    // Hot path: one point read in the `latest` table, into lmdb's reused buffer (valid until the
    // next read, so the value is copied out before anything else touches the database).
    const latest = t.latest.getBinaryFast(key)
    if (latest === undefined) return undefined
    const latestVersion = latest.readBigUInt64BE(0)
    if (latestVersion <= version) {
      // Flags 0 and 1 inline (the hot path); 2 (metadata first) through the record decoder.
      const flag = latest[8]
      const start = flag === 1 ? 9 : flag === 0 ? -1 : stateValueStart(latest, 8)
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
    for (const { key: k, value } of t.history.getRange({
      start: historyKey(key, version),
      limit: 1
    })) {
      if (k.length !== key.length + 8 || !bytesEqualPrefix(k, key)) return undefined
      return {
        value: decodeStateValue(plain(value), 0),
        version: versionOfHistoryKey(k, key.length)
      }
    }
    return undefined
  }

  /** `stateGet`'s version without copying the value out (lmdb's reused buffer is only read). */
  const stateVersion = (keyBytes: Uint8Array, version: bigint): bigint | undefined => {
    if (keyBytes.length === 0) return undefined
    const latest = t.latest.getBinaryFast(storedStateKey(keyBytes))
    if (latest === undefined) return undefined
    const latestVersion = latest.readBigUInt64BE(0)
    if (latestVersion <= version) return latest[8] === 0 ? undefined : latestVersion // flags 1 and 2 hold a value
    const found = stateGet(keyBytes, version)
    return found?.value === undefined ? undefined : found.version
  }

  /** The metadata recorded with `stateGet`'s value (undefined: none, a deletion, or absent). */
  const stateMetadata = (keyBytes: Uint8Array, version: bigint): StateValueMetadata | undefined => {
    if (keyBytes.length === 0) return undefined
    const key = storedStateKey(keyBytes)
    const latest = t.latest.getBinaryFast(key)
    if (latest === undefined) return undefined
    if (latest.readBigUInt64BE(0) <= version) return decodeStateValueMetadata(latest, 8)
    for (const { key: k, value } of t.history.getRange({
      start: historyKey(key, version),
      limit: 1
    })) {
      if (k.length !== key.length + 8 || !bytesEqualPrefix(k, key)) return undefined
      return decodeStateValueMetadata(value, 0)
    }
    return undefined
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
    // lmdb-js keeps one read transaction per thread until its next timer tick; a reader in another
    // thread than the writer renews it to see blocks committed meanwhile.
    refreshReads: () => root.resetReadTxn(),
    stateVersion,
    stateMetadata,
    transaction: (version) => {
      const b = t.txns.getBinary(u64be(version))
      return b === undefined ? undefined : decodeTransactionRecord(plain(b), version)
    },
    versionOfHash: (hash) => {
      const b = t.hashes.getBinary(view(hash))
      return b === undefined ? undefined : readU64be(b)
    },
    block,
    blockOfVersion,
    summariesForward: (sender, from, to, limit) => {
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
      const out: AccountSequence[] = []
      if (!(limit > 0)) return out
      for (const { key, value } of t.accountSeqs.getRange({
        start: accountSequenceKey(sender, fromSequenceNumber),
        limit
      })) {
        if (!bytesEqualPrefix(key, sender)) break
        out.push({ sender: new Uint8Array(sender), sequenceNumber: readU64be(key, 32), version: readU64be(value) })
      }
      return out
    },
    events: (address, creationNumber, from, to, limit, descending) => {
      const out: VersionedEvent[] = []
      if (!(limit > 0)) return out
      const stream = eventIndexKey(address, creationNumber, 0n).subarray(0, 40)
      const range = descending
        ? t.events.getRange({ start: eventIndexKey(address, creationNumber, to), reverse: true, limit })
        : t.events.getRange({ start: eventIndexKey(address, creationNumber, from), limit })
      for (const { key, value } of range) {
        if (!bytesEqualPrefix(key, stream)) break
        const sequenceNumber = readU64be(key, 40)
        if (sequenceNumber < from || sequenceNumber > to) break
        out.push(decodeIndexedEvent(plain(value)))
      }
      return out
    },
    statePage: (version, query) =>
      pageOf(accountKeys(query.address, query.start), query, (keyBytes) => stateGet(keyBytes, version)),
    commit,
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
      void root.close()
      unlock()
    }
  }
}
