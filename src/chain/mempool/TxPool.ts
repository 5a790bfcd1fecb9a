/**
 * The transaction pool: a pure data structure (no Effect, no I/O, no validation), after reth's
 * `TxPool` and the reference's `TransactionStore` (mempool/src/core_mempool/transaction_store.rs).
 *
 *   insert ──► per sender: ┌ sequence-number txns, by sequence number ┐
 *                          │   ready  = the run contiguous from the   │──► best(limit): ready txns,
 *                          │            sender's on-chain number      │    higher gas price first,
 *                          │   parked = after a gap (promoted when    │    then arrival; one sender's
 *                          │            the gap fills: readiness is   │    run in sequence order
 *                          │            derived, never stored)        │
 *                          └ orderless txns, by nonce: always ready   ┘
 *   byHash ◄── hash index        onCommitted / remove / gc ──► entries leave every index
 *
 * The caller validates (signature, prologue) before inserting and tells the pool the sender's
 * on-chain sequence number; the pool keeps the highest one it has seen per sender, so a commit
 * it was told about is never undone by a stale read.
 */
import type { ReplayProtector } from "../../domain/Transaction.js"
import type { SignatureCheck } from "../../execution/verifySignature.js"
import type { MempoolConfigShape } from "./MempoolConfig.js"
import { pooledTransaction } from "./pooledTransaction.js"

/**
 * One pooled transaction and what the pool derives from it once, at insertion. The transaction is
 * kept as its bytes, not decoded (`pooledTransaction.ts` decodes it again where it is needed: the
 * block that executes it, an answer about it).
 */
export interface PoolEntry {
  /** The signed transaction's BCS bytes, as submitted. */
  readonly signedBcs: Uint8Array
  /** The signature check admission made, handed to each decoded copy (`pooledTransaction`). */
  readonly signatureCheck: SignatureCheck | undefined
  readonly hash: Uint8Array
  /** Lowercase hex of `hash` (the by-hash index key). */
  readonly hashKey: string
  /** Lowercase hex of the sender's address. */
  readonly senderKey: string
  readonly replay: ReplayProtector
  readonly gasUnitPrice: bigint
  readonly maxGasAmount: bigint
  readonly expirationSecs: bigint
  /** Estimated bytes held (the BCS length of the signed transaction). */
  readonly bytes: number
  /** Milliseconds (the pool's clock) when it was inserted; the system TTL counts from here. */
  readonly insertedAtMs: number
  /** Order of arrival, set by the pool. */
  readonly arrival: number
}

/**
 * An entry's pool key, for the per-block maps over entries (made once: docs/architecture.md, "Hot
 * loops live in functions made once").
 */
export const hashKeyOf = (e: PoolEntry): string => e.hashKey

/** What `insert` needs; the pool assigns `arrival`. */
export type NewEntry = Omit<PoolEntry, "arrival">

/**
 * The outcome of an insertion, in the reference's `MempoolStatusCode` terms (the API maps them:
 * InvalidSeqNumber → 400 `sequence_number_too_old`, InvalidUpdate → 400
 * `invalid_transaction_update`, MempoolIsFull / TooManyTransactions → 507 `mempool_is_full`).
 */
export type InsertResult =
  | { readonly _tag: "Accepted"; readonly entry: PoolEntry; readonly ready: boolean }
  | { readonly _tag: "InvalidSeqNumber"; readonly message: string }
  | { readonly _tag: "InvalidUpdate"; readonly message: string }
  | { readonly _tag: "MempoolIsFull"; readonly message: string }
  | { readonly _tag: "TooManyTransactions"; readonly message: string }

/** A sender's committed progress after a block: its next sequence number, as the chain now says. */
export interface CommittedSender {
  readonly senderKey: string
  readonly nextSequenceNumber: bigint
}

/**
 * The pooled transactions a block in flight took (executed, its commit not yet durable): what the
 * next block must not take again (`best`). The pool itself changes only once the block is committed.
 */
export interface BlockInFlightTxns {
  /** The block's committed and discarded transactions (hash keys). */
  readonly hashKeys: ReadonlySet<string>
  /** Each sender's next sequence number after the block. */
  readonly nextSequenceNumbers: ReadonlyMap<string, bigint>
}

class SenderTxns {
  /** The highest on-chain sequence number the pool was told about. */
  accountSequence = 0n
  /**
   * Where `readyUpTo` last found the ready run's end: every sequence number from
   * `accountSequence` up to it is pooled (a removal below it lowers it), so the next search starts
   * there instead of walking the whole run again — under load a sender has dozens pooled, and each
   * insertion asked twice.
   */
  readyHint = 0n
  readonly bySequence = new Map<bigint, PoolEntry>()
  readonly byNonce = new Map<bigint, PoolEntry>()
  get size(): number {
    return this.bySequence.size + this.byNonce.size
  }
}

/**
 * The entry as the pool stores it, every field written out in one literal: `{ ...entry, arrival }`
 * gave each stored entry a hidden class of its own (V8 made a new map, descriptor array and
 * property array per object: ~5,500 of each with a 6,000-transfer pool, session 40), which cost
 * memory and made every property read of pool entries megamorphic.
 */
const pooled = (e: NewEntry, arrival: number): PoolEntry => ({
  signedBcs: e.signedBcs,
  signatureCheck: e.signatureCheck,
  hash: e.hash,
  hashKey: e.hashKey,
  senderKey: e.senderKey,
  replay: e.replay,
  gasUnitPrice: e.gasUnitPrice,
  maxGasAmount: e.maxGasAmount,
  expirationSecs: e.expirationSecs,
  bytes: e.bytes,
  insertedAtMs: e.insertedAtMs,
  arrival
})

const replayKey = (r: ReplayProtector): bigint => (r._tag === "SequenceNumber" ? r.sequenceNumber : r.nonce)

/** Max-heap order for `best`: higher gas price first, then earlier arrival. */
const before = (a: PoolEntry, b: PoolEntry): boolean =>
  a.gasUnitPrice !== b.gasUnitPrice ? a.gasUnitPrice > b.gasUnitPrice : a.arrival < b.arrival

// `best`'s heap of lanes, by functions made once: a block asks for its transactions every few
// milliseconds under load (docs/architecture.md, "Hot loops live in functions made once").
const headOf = (l: Lane): PoolEntry => l.entries[l.next]!
/** Moves the lane at `start` down `heap` (a binary max-heap by each lane's next entry, `before`). */
const siftDown = (heap: Lane[], start: number): void => {
  let i = start
  for (;;) {
    const l = 2 * i + 1
    const r = l + 1
    let m = i
    if (l < heap.length && before(headOf(heap[l]!), headOf(heap[m]!))) m = l
    if (r < heap.length && before(headOf(heap[r]!), headOf(heap[m]!))) m = r
    if (m === i) return
    const t = heap[i]!
    heap[i] = heap[m]!
    heap[m] = t
    i = m
  }
}

/** One lane of ready transactions (a sender's sequence run, or one orderless transaction). */
interface Lane {
  readonly entries: ReadonlyArray<PoolEntry>
  next: number
}

export class TxPool {
  private readonly senders = new Map<string, SenderTxns>()
  private readonly hashes = new Map<string, PoolEntry>()
  private totalBytes = 0
  private arrivals = 0
  /**
   * No pooled transaction expires before these (the chain's seconds; the pool's milliseconds of
   * insertion): `gc` runs after every block, and under load the pool holds thousands, so it scans
   * them only once one may be due. Lowered by insertions, recomputed by each scan; a removal may
   * leave them low, which costs at most one early scan.
   */
  private earliestExpirationSecs: bigint | undefined
  private earliestInsertedAtMs = Number.POSITIVE_INFINITY

  constructor(readonly config: MempoolConfigShape) {}

  /** Transactions held. */
  get size(): number {
    return this.hashes.size
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.totalBytes
  }

  byHash(hashKey: string): PoolEntry | undefined {
    return this.hashes.get(hashKey)
  }

  /** The highest on-chain sequence number the pool knows for the sender (undefined: none pending). */
  accountSequence(senderKey: string): bigint | undefined {
    return this.senders.get(senderKey)?.accountSequence
  }

  /**
   * Inserts a validated transaction. `accountSequence` is the sender's on-chain sequence number
   * (ignored for orderless transactions). The same transaction again is accepted (idempotent);
   * the same sender and sequence number (or nonce) with another payload, expiry or max gas is
   * `InvalidUpdate`; a higher gas price replaces the pooled one, a lower one is refused.
   */
  insert(entry: NewEntry, accountSequence: bigint): InsertResult {
    const { senderKey, replay } = entry
    const known = this.senders.get(senderKey)
    if (known !== undefined && accountSequence > known.accountSequence) {
      // Whatever the pool holds below the sender's on-chain number has been committed (or can never be).
      known.accountSequence = accountSequence
      this.dropCommittedBelow(known)
    }
    const sender = this.senders.get(senderKey)
    const knownSequence = sender === undefined ? accountSequence : sender.accountSequence
    const key = replayKey(replay)
    const current =
      sender === undefined
        ? undefined
        : (replay._tag === "SequenceNumber" ? sender.bySequence : sender.byNonce).get(key)
    let replacing: PoolEntry | undefined
    if (current !== undefined) {
      const update = compareUpdate(current, entry)
      if (update === "same") return { _tag: "Accepted", entry: current, ready: this.isReady(sender!, current) }
      if (update !== "higher") return { _tag: "InvalidUpdate", message: update }
      replacing = current
    }
    if (replay._tag === "SequenceNumber" && replay.sequenceNumber < knownSequence)
      return {
        _tag: "InvalidSeqNumber",
        message: `transaction sequence number is ${replay.sequenceNumber}, current sequence number is  ${knownSequence}`
      }
    if (replacing !== undefined) this.removeEntry(replacing)
    const target = this.senders.get(senderKey) ?? new SenderTxns()
    target.accountSequence = knownSequence
    const wouldBeReady = replay._tag === "Nonce" || this.readyUpTo(target) >= replay.sequenceNumber
    if (this.isFull(entry.bytes) && !(wouldBeReady && this.evictParked(entry.bytes)))
      return {
        _tag: "MempoolIsFull",
        message: `Mempool is full. Mempool size: ${this.hashes.size}, Capacity: ${this.config.capacity}`
      }
    if (replay._tag === "SequenceNumber") {
      if (target.bySequence.size >= this.config.capacityPerUser)
        return {
          _tag: "TooManyTransactions",
          message: `Mempool over capacity for account. Number of seq number transactions from account: ${target.bySequence.size} Capacity per account: ${this.config.capacityPerUser}`
        }
    } else if (target.byNonce.size >= this.config.orderlessCapacityPerUser)
      return {
        _tag: "TooManyTransactions",
        message: `Mempool over capacity for account. Number of orderless transactions from account: ${target.byNonce.size} Capacity per account: ${this.config.orderlessCapacityPerUser}`
      }
    const stored = pooled(entry, this.arrivals++)
    this.noteExpiry(stored)
    ;(replay._tag === "SequenceNumber" ? target.bySequence : target.byNonce).set(key, stored)
    this.senders.set(senderKey, target)
    this.hashes.set(stored.hashKey, stored)
    this.totalBytes += stored.bytes
    return { _tag: "Accepted", entry: stored, ready: this.isReady(target, stored) }
  }

  /**
   * Up to `limit` ready transactions (and at most `maxBytes` of them), in block order: the
   * highest gas price first, then the earliest arrival; a sender's sequence-number transactions
   * always in sequence order. Nothing is removed: the pool learns what was included from
   * `onCommitted` and `remove`. `after`: a block executed but not yet committed — its transactions
   * are left out and its senders' runs start after it, as if the pool had been told of it.
   */
  best(limit: number, maxBytes = Number.POSITIVE_INFINITY, after?: BlockInFlightTxns): ReadonlyArray<PoolEntry> {
    const lanes: Lane[] = []
    for (const [senderKey, sender] of this.senders) {
      if (sender.bySequence.size > 0) {
        const run: PoolEntry[] = []
        const next = after?.nextSequenceNumbers.get(senderKey)
        const from = next !== undefined && next > sender.accountSequence ? next : sender.accountSequence
        for (let s = from; run.length < limit; s++) {
          const e = sender.bySequence.get(s)
          if (e === undefined || after?.hashKeys.has(e.hashKey) === true) break
          run.push(e)
        }
        if (run.length > 0) lanes.push({ entries: run, next: 0 })
      }
      for (const e of sender.byNonce.values())
        if (after?.hashKeys.has(e.hashKey) !== true) lanes.push({ entries: [e], next: 0 })
    }
    // A binary max-heap of lanes keyed by their next entry.
    const heap = lanes
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i)
    const out: PoolEntry[] = []
    let bytes = 0
    while (heap.length > 0 && out.length < limit) {
      const lane = heap[0]!
      const e = headOf(lane)
      if (bytes + e.bytes > maxBytes && out.length > 0) break
      out.push(e)
      bytes += e.bytes
      lane.next++
      if (lane.next >= lane.entries.length) {
        const last = heap.pop()!
        if (heap.length > 0) {
          heap[0] = last
          siftDown(heap, 0)
        }
      } else siftDown(heap, 0)
    }
    return out
  }

  /**
   * The first sequence number after the sender's contiguous run starting at `onChain` (or at what
   * the pool knows, if higher): the number a client sending its next transaction should use.
   */
  nextSequenceNumber(senderKey: string, onChain: bigint): bigint {
    const sender = this.senders.get(senderKey)
    if (sender === undefined) return onChain
    let s = sender.accountSequence > onChain ? sender.accountSequence : onChain
    while (sender.bySequence.has(s)) s++
    return s
  }

  /** Whether any transaction is ready now (a block would not be empty). */
  hasReady(): boolean {
    for (const sender of this.senders.values())
      if (sender.byNonce.size > 0 || sender.bySequence.has(sender.accountSequence)) return true
    return false
  }

  /**
   * After a block: each sender's new on-chain sequence number (every pooled transaction below it
   * is gone, committed or not) and the hashes the block committed (orderless ones leave by hash).
   * Transactions behind a filled gap become ready by themselves. Returns the entries removed.
   */
  onCommitted(senders: ReadonlyArray<CommittedSender>, committedHashes: Iterable<string>): ReadonlyArray<PoolEntry> {
    const removed: PoolEntry[] = []
    for (const hashKey of committedHashes) {
      const e = this.hashes.get(hashKey)
      if (e !== undefined) {
        this.removeEntry(e)
        removed.push(e)
      }
    }
    for (const { senderKey, nextSequenceNumber } of senders) {
      const sender = this.senders.get(senderKey)
      if (sender === undefined) continue
      if (nextSequenceNumber > sender.accountSequence) sender.accountSequence = nextSequenceNumber
      removed.push(...this.dropCommittedBelow(sender))
    }
    return removed
  }

  /**
   * Whether the pooled transaction `hashKey` would go in a block now: an orderless one, or one in
   * its sender's run from the on-chain sequence number (not parked behind a gap). False when the
   * pool does not hold it.
   */
  isReadyNow(hashKey: string): boolean {
    const e = this.hashes.get(hashKey)
    const sender = e === undefined ? undefined : this.senders.get(e.senderKey)
    return e !== undefined && sender !== undefined && this.isReady(sender, e)
  }

  /** Removes one transaction (a discarded one); later ones of its sender wait for the gap to fill. */
  remove(hashKey: string): PoolEntry | undefined {
    const e = this.hashes.get(hashKey)
    if (e !== undefined) this.removeEntry(e)
    return e
  }

  /**
   * Drops what can never commit: transactions whose expiry is not after `nowSecs` (the chain's
   * time: the prologue refuses `now >= expiration`), and those older than the system TTL. Not those
   * in `taken` (by hash key): a block being made took them, and they leave the pool with its
   * announcement, committed or discarded — dropping one now would announce it dropped, then
   * committed.
   */
  gc(nowSecs: bigint, nowMs: number, taken?: ReadonlySet<string>): ReadonlyArray<PoolEntry> {
    const ttlMs = this.config.systemTtlSecs * 1000
    const due =
      (this.earliestExpirationSecs !== undefined && this.earliestExpirationSecs <= nowSecs) ||
      nowMs - this.earliestInsertedAtMs >= ttlMs
    if (!due) return []
    const removed: PoolEntry[] = []
    this.forgetExpiries()
    for (const e of this.hashes.values())
      if ((e.expirationSecs <= nowSecs || nowMs - e.insertedAtMs >= ttlMs) && taken?.has(e.hashKey) !== true)
        removed.push(e)
      else this.noteExpiry(e)
    for (const e of removed) this.removeEntry(e)
    return removed
  }

  /**
   * Empties the pool, forgetting what it knew of senders' sequence numbers too (after the ledger
   * went back, those may be ahead of the chain). Returns what it held, in arrival order.
   */
  clear(): ReadonlyArray<PoolEntry> {
    const all = this.entries()
    this.senders.clear()
    this.hashes.clear()
    this.totalBytes = 0
    this.forgetExpiries()
    return all
  }

  /** Every pooled entry, in arrival order (for tests and inspection). */
  entries(): ReadonlyArray<PoolEntry> {
    return [...this.hashes.values()].sort((a, b) => a.arrival - b.arrival)
  }

  private isFull(extraBytes: number): boolean {
    return this.hashes.size >= this.config.capacity || this.totalBytes + extraBytes > this.config.capacityBytes
  }

  /** The first sequence number after the sender's ready run (= accountSequence when none is ready). */
  private readyUpTo(sender: SenderTxns): bigint {
    let s = sender.readyHint > sender.accountSequence ? sender.readyHint : sender.accountSequence
    while (sender.bySequence.has(s)) s++
    sender.readyHint = s
    return s
  }

  private isReady(sender: SenderTxns, e: PoolEntry): boolean {
    return e.replay._tag === "Nonce" || e.replay.sequenceNumber < this.readyUpTo(sender)
  }

  /**
   * Makes room for a ready transaction by evicting parked ones (those after a gap, which cannot
   * be included until the gap fills), newest sequence numbers first, as the reference's parking
   * lot eviction does. Returns whether there is room now.
   */
  private evictParked(extraBytes: number): boolean {
    for (const sender of [...this.senders.values()]) {
      if (!this.isFull(extraBytes)) return true
      const readyEnd = this.readyUpTo(sender)
      const parked = [...sender.bySequence.values()]
        .filter((e) => e.replay._tag === "SequenceNumber" && e.replay.sequenceNumber > readyEnd)
        .sort((a, b) => (replayKey(b.replay) > replayKey(a.replay) ? 1 : -1))
      for (const e of parked) {
        if (!this.isFull(extraBytes)) return true
        this.removeEntry(e)
      }
    }
    return !this.isFull(extraBytes)
  }

  private dropCommittedBelow(sender: SenderTxns): PoolEntry[] {
    const removed: PoolEntry[] = []
    for (const [seq, e] of sender.bySequence)
      if (seq < sender.accountSequence) {
        removed.push(e)
        this.removeEntry(e)
      }
    return removed
  }

  /** Lowers the earliest expiry and insertion to `e`'s where they are later. */
  private noteExpiry(e: PoolEntry): void {
    if (this.earliestExpirationSecs === undefined || e.expirationSecs < this.earliestExpirationSecs)
      this.earliestExpirationSecs = e.expirationSecs
    if (e.insertedAtMs < this.earliestInsertedAtMs) this.earliestInsertedAtMs = e.insertedAtMs
  }

  private forgetExpiries(): void {
    this.earliestExpirationSecs = undefined
    this.earliestInsertedAtMs = Number.POSITIVE_INFINITY
  }

  private removeEntry(e: PoolEntry): void {
    const sender = this.senders.get(e.senderKey)
    if (sender === undefined || this.hashes.get(e.hashKey) !== e) return
    const key = replayKey(e.replay)
    if (e.replay._tag === "SequenceNumber") {
      sender.bySequence.delete(key)
      if (key < sender.readyHint) sender.readyHint = key
    } else sender.byNonce.delete(key)
    this.hashes.delete(e.hashKey)
    this.totalBytes -= e.bytes
    if (sender.size === 0) this.senders.delete(e.senderKey)
  }
}

/**
 * How a resubmission with the same sender and replay protector relates to the pooled one (the
 * reference's order of checks): "same" = idempotent,
 * "higher" = a gas price upgrade, or the InvalidUpdate message.
 */
const compareUpdate = (current: PoolEntry, next: NewEntry): string => {
  const a = pooledTransaction(current).rawTransaction
  const b = pooledTransaction(next).rawTransaction
  if (!deepEqual(a.payload, b.payload)) return "Transaction already in mempool with a different payload"
  if (a.expirationTimestampSecs !== b.expirationTimestampSecs)
    return "Transaction already in mempool with a different expiration timestamp"
  if (a.maxGasAmount !== b.maxGasAmount) return "Transaction already in mempool with a different max gas amount"
  if (a.gasUnitPrice < b.gasUnitPrice) return "higher"
  if (a.gasUnitPrice > b.gasUnitPrice) return "Transaction already in mempool with a higher gas price"
  return "same"
}

/** Structural equality of two payloads decoded from BCS (equal bytes give equal trees). */
const deepEqual = (x: unknown, y: unknown): boolean => {
  // Iterative: payload trees are shallow, but depth is never taken on trust.
  const stack: Array<readonly [unknown, unknown]> = [[x, y]]
  while (stack.length > 0) {
    const [a, b] = stack.pop()!
    if (a === b) continue
    if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false
    if (a instanceof Uint8Array || b instanceof Uint8Array) {
      if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
      continue
    }
    if (Array.isArray(a) !== Array.isArray(b)) return false
    const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined)
    const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined)
    if (ka.length !== kb.length) return false
    for (const k of ka) stack.push([(a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]])
  }
  return true
}
