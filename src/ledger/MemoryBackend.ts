import type { AccountAddress } from "../domain/AccountAddress.js"
import { type StateValueMetadata, writesModule } from "../domain/WriteSet.js"
import type { BlockInfo, CommittedTransaction, TransactionSummary, VersionedEvent } from "./Ledger.js"
import type { AccountSequence, LedgerBackend, LedgerHead, PreparedBlock } from "./LedgerBackend.js"
import { pageOf } from "./statePageOf.js"
import { writeOpValue } from "./writeOpValue.js"

/** Map keys for byte strings: latin1 is a 1:1 byte↔char mapping, cheap to build and compare. */
const keyOf = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")

/**
 * All versions of one state key, ascending; `values[i]` undefined = deleted at `versions[i]`;
 * `metadata[i]` what the write recorded with the value (undefined: none).
 */
interface History {
  versions: bigint[]
  values: Array<Uint8Array | undefined>
  metadata: Array<StateValueMetadata | undefined>
}

/** Index of the last element whose version is ≤ `target` in `xs` (ascending by version), or -1. */
const floorIndexBy = <A>(xs: ReadonlyArray<A>, target: bigint, versionOf: (a: A) => bigint): number => {
  let lo = 0
  let hi = xs.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (versionOf(xs[mid]!) <= target) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

const floorIndex = (versions: ReadonlyArray<bigint>, target: bigint): number => floorIndexBy(versions, target, (v) => v)
const summaryVersion = (s: TransactionSummary): bigint => s.version
const sequenceOf = (s: AccountSequence): bigint => s.sequenceNumber
const eventSequence = (e: VersionedEvent): bigint => e.event.sequenceNumber

/** Index of the first string ≥ `key` in the sorted `keys` (latin1 strings compare as their bytes). */
const lowerBound = (keys: ReadonlyArray<string>, key: string): number => {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (keys[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** An account's access paths start with 0x00 ‖ address: the first 33 bytes of their key. */
const ACCOUNT_PREFIX = 33

const accountOfKey = (keyBytes: Uint8Array): string | undefined =>
  keyBytes.length > ACCOUNT_PREFIX && keyBytes[0] === 0 ? keyOf(keyBytes.subarray(0, ACCOUNT_PREFIX)) : undefined

const accountPrefix = (address: AccountAddress): string => "\u0000" + keyOf(address)

const streamOf = (address: AccountAddress, creationNumber: bigint): string => `${keyOf(address)}/${creationNumber}`

/**
 * The in-memory store, on decoded objects: for tests and ephemeral nodes. Same semantics as the
 * LMDB store (the shared `makeLedgerService` does all checking); a commit is atomic because it
 * runs to completion synchronously before anything can observe it.
 */
export const makeMemoryBackend = (): LedgerBackend => {
  let head: LedgerHead | undefined
  const state = new Map<string, History>()
  const transactions = new Map<bigint, CommittedTransaction>()
  const byHash = new Map<string, bigint>()
  const blocks: BlockInfo[] = [] // blocks[i] has height firstHeight + i
  let firstHeight = 0n
  const summaries = new Map<string, TransactionSummary[]>()
  /** sender → its sequence-number transactions, ascending (sequence numbers grow with versions). */
  const sequences = new Map<string, AccountSequence[]>()
  /** address/creation number → the stream's events, ascending by sequence number. */
  const eventStreams = new Map<string, VersionedEvent[]>()
  /** account prefix → its access-path keys ever written (latin1), sorted: the listing index. */
  const accountKeys = new Map<string, string[]>()
  let prunedBelowVersion = 0n
  /** Keys whose older entry was hidden at `since`, in commit order: the pruner's work list. */
  const stale: Array<{ readonly since: bigint; readonly key: string }> = []
  let staleHead = 0

  const blockIndexOfVersion = (version: bigint): number => {
    let lo = 0
    let hi = blocks.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const b = blocks[mid]!
      if (version < b.firstVersion) hi = mid - 1
      else if (version > b.lastVersion) lo = mid + 1
      else return mid
    }
    return -1
  }

  const pruneStep = (budget: number): number => {
    if (head === undefined || budget <= 0) return 0
    const oldest = head.oldestVersion
    let done = 0
    while (done < budget && prunedBelowVersion < oldest) {
      const v = prunedBelowVersion
      const t = transactions.get(v)
      if (t !== undefined) {
        transactions.delete(v)
        byHash.delete(keyOf(t.hash))
        if (t.transaction._tag === "UserTransaction") {
          const sender = keyOf(t.transaction.signed.rawTransaction.sender)
          const list = summaries.get(sender)
          if (list !== undefined && list[0]?.version === v) list.shift()
          const seqs = sequences.get(sender)
          if (seqs !== undefined && seqs[0]?.version === v) seqs.shift()
        }
        for (const e of t.events)
          if (e._tag === "V1") {
            const stream = eventStreams.get(streamOf(e.key.accountAddress, e.key.creationNumber))
            if (stream !== undefined && stream[0]?.version === v) stream.shift()
          }
        done++
      }
      prunedBelowVersion = v + 1n
    }
    while (done < budget && staleHead < stale.length && stale[staleHead]!.since <= oldest) {
      // Drop the versions of this key hidden at `oldest`: all but the newest one ≤ oldest.
      const h = state.get(stale[staleHead++]!.key)
      const keep = h === undefined ? -1 : floorIndex(h.versions, oldest)
      if (keep > 0) {
        h!.versions.splice(0, keep)
        h!.values.splice(0, keep)
        h!.metadata.splice(0, keep)
      }
      done++
    }
    if (staleHead > 1024 && staleHead * 2 > stale.length) {
      stale.splice(0, staleHead)
      staleHead = 0
    }
    while (done < budget && blocks.length > 0 && firstHeight < head.oldestHeight) {
      blocks.shift()
      firstHeight++
      done++
    }
    return done
  }

  /** The versions whose write set wrote a module, ascending (`codeVersionAt`). */
  const codeWrites: bigint[] = []

  const commit = (p: PreparedBlock, pruneBudget: number): void => {
    for (const t of p.transactions) {
      transactions.set(t.version, t)
      byHash.set(keyOf(t.hash), t.version)
      if (writesModule(t.writeSet)) codeWrites.push(t.version)
      for (const entry of t.writeSet.entries) {
        const k = keyOf(entry.keyBytes)
        let h = state.get(k)
        if (h === undefined) {
          state.set(k, (h = { versions: [], values: [], metadata: [] }))
          const account = accountOfKey(entry.keyBytes)
          if (account !== undefined) {
            const keys = accountKeys.get(account)
            if (keys === undefined) accountKeys.set(account, [k])
            else keys.splice(lowerBound(keys, k), 0, k)
          }
        }
        const value = writeOpValue(entry.op)
        const metadata = value !== undefined && "metadata" in entry.op ? entry.op.metadata : undefined
        if (h.versions[h.versions.length - 1] === t.version) {
          h.values[h.values.length - 1] = value
          h.metadata[h.metadata.length - 1] = metadata
        } else {
          if (h.versions.length > 0) stale.push({ since: t.version, key: k })
          h.versions.push(t.version)
          h.values.push(value)
          h.metadata.push(metadata)
        }
      }
    }
    for (const s of p.summaries) {
      const k = keyOf(s.sender)
      const list = summaries.get(k)
      if (list === undefined) summaries.set(k, [s])
      else list.push(s)
    }
    for (const s of p.accountSequences) {
      const k = keyOf(s.sender)
      const list = sequences.get(k)
      if (list === undefined) sequences.set(k, [s])
      else list.push(s)
    }
    for (const e of p.events) {
      const k = streamOf(e.event.key.accountAddress, e.event.key.creationNumber)
      const list = eventStreams.get(k)
      if (list === undefined) eventStreams.set(k, [e])
      else list.push(e)
    }
    if (blocks.length === 0) firstHeight = p.block.height
    blocks.push(p.block)
    head = p.head
    pruneStep(pruneBudget)
  }

  let truncations = 0

  /**
   * Forgets every version above `target.latestVersion`: synchronous, so as atomic as `commit`.
   * Each dropped transaction names what it added (its hash, summary, sequence number, handle
   * events, the state keys it wrote), so the work is proportional to what is dropped.
   */
  const truncateAfter = (target: LedgerHead, append: ReadonlyArray<PreparedBlock> = []): void => {
    // An empty store (a fork's before its first block) has nothing to forget: the blocks are its first.
    if (head !== undefined && target.latestVersion < head.latestVersion) truncateOnly(target)
    else if (append.length > 0) truncations++
    for (const p of append) commit(p, 0)
  }

  /** Drops the versions above `target.latestVersion` (there are some). */
  const truncateOnly = (target: LedgerHead): void => {
    if (head === undefined) return
    const keep = target.latestVersion
    for (let v = head.latestVersion; v > keep; v--) {
      const t = transactions.get(v)
      if (t === undefined) continue
      transactions.delete(v)
      byHash.delete(keyOf(t.hash))
      if (t.transaction._tag === "UserTransaction") {
        const sender = keyOf(t.transaction.signed.rawTransaction.sender)
        const list = summaries.get(sender)
        while (list !== undefined && list.length > 0 && list[list.length - 1]!.version > keep) list.pop()
        const seqs = sequences.get(sender)
        while (seqs !== undefined && seqs.length > 0 && seqs[seqs.length - 1]!.version > keep) seqs.pop()
      }
      for (const e of t.events)
        if (e._tag === "V1") {
          const stream = eventStreams.get(streamOf(e.key.accountAddress, e.key.creationNumber))
          while (stream !== undefined && stream.length > 0 && stream[stream.length - 1]!.version > keep) stream.pop()
        }
      for (const entry of t.writeSet.entries) {
        const k = keyOf(entry.keyBytes)
        const h = state.get(k)
        if (h === undefined) continue
        let n = h.versions.length
        while (n > 0 && h.versions[n - 1]! > keep) n--
        h.versions.length = n
        h.values.length = n
        h.metadata.length = n
        if (n === 0) {
          state.delete(k)
          const account = accountOfKey(entry.keyBytes)
          const keys = account === undefined ? undefined : accountKeys.get(account)
          if (keys !== undefined) {
            const at = lowerBound(keys, k)
            if (keys[at] === k) keys.splice(at, 1)
          }
        }
      }
    }
    while (codeWrites.length > 0 && codeWrites[codeWrites.length - 1]! > keep) codeWrites.pop()
    // The stale list is in commit order: what the dropped versions hid is at its end.
    while (stale.length > staleHead && stale[stale.length - 1]!.since > keep) stale.pop()
    while (blocks.length > 0 && blocks[blocks.length - 1]!.height > target.latestHeight) blocks.pop()
    head = {
      ...target,
      oldestVersion: head.oldestVersion > target.oldestVersion ? head.oldestVersion : target.oldestVersion,
      oldestHeight: head.oldestHeight > target.oldestHeight ? head.oldestHeight : target.oldestHeight
    }
    truncations++
  }

  const summariesOf = (sender: AccountAddress): ReadonlyArray<TransactionSummary> => summaries.get(keyOf(sender)) ?? []

  return {
    head: () => head,
    stateGet: (keyBytes, version) => {
      const h = state.get(keyOf(keyBytes))
      if (h === undefined) return undefined
      const i = floorIndex(h.versions, version)
      return i < 0 ? undefined : { value: h.values[i], version: h.versions[i]! }
    },
    stateMetadata: (keyBytes, version) => {
      const h = state.get(keyOf(keyBytes))
      if (h === undefined) return undefined
      const i = floorIndex(h.versions, version)
      return i < 0 ? undefined : h.metadata[i]
    },
    transaction: (version) => transactions.get(version),
    versionOfHash: (hash) => byHash.get(keyOf(hash)),
    block: (height) => (height < firstHeight ? undefined : blocks[Number(height - firstHeight)]),
    blockOfVersion: (version) => blocks[blockIndexOfVersion(version)],
    summariesForward: (sender, from, to, limit) => {
      const list = summariesOf(sender)
      const out: TransactionSummary[] = []
      for (let i = floorIndexBy(list, from - 1n, summaryVersion) + 1; i < list.length && out.length < limit; i++) {
        if (list[i]!.version > to) break
        out.push(list[i]!)
      }
      return out
    },
    summariesBackward: (sender, from, to, limit) => {
      const list = summariesOf(sender)
      const out: TransactionSummary[] = []
      for (let i = floorIndexBy(list, to, summaryVersion); i >= 0 && out.length < limit; i--) {
        if (list[i]!.version < from) break
        out.push(list[i]!)
      }
      return out
    },
    accountSequences: (sender, fromSequenceNumber, limit) => {
      const list = sequences.get(keyOf(sender)) ?? []
      const from = floorIndexBy(list, fromSequenceNumber - 1n, sequenceOf) + 1
      return list.slice(from, from + Math.max(0, limit))
    },
    events: (address, creationNumber, from, to, limit, descending) => {
      const list = eventStreams.get(streamOf(address, creationNumber)) ?? []
      const out: VersionedEvent[] = []
      if (descending) {
        for (let i = floorIndexBy(list, to, eventSequence); i >= 0 && out.length < limit; i--) {
          if (list[i]!.event.sequenceNumber < from) break
          out.push(list[i]!)
        }
      } else
        for (let i = floorIndexBy(list, from - 1n, eventSequence) + 1; i < list.length && out.length < limit; i++) {
          if (list[i]!.event.sequenceNumber > to) break
          out.push(list[i]!)
        }
      return out
    },
    statePage: (version, query) => {
      const keys = accountKeys.get(accountPrefix(query.address)) ?? []
      const start = query.start === undefined ? 0 : lowerBound(keys, keyOf(query.start))
      function* candidates() {
        for (let i = start; i < keys.length; i++) yield new Uint8Array(Buffer.from(keys[i]!, "latin1"))
      }
      return pageOf(candidates(), query, (keyBytes) => {
        const h = state.get(keyOf(keyBytes))!
        const at = floorIndex(h.versions, version)
        return at < 0 ? undefined : { value: h.values[at], version: h.versions[at]! }
      })
    },
    commit,
    pruneStep,
    truncateAfter,
    truncations: () => truncations,
    // Every version is recorded (the store begins empty): before the first module write, -1.
    codeVersionAt: (version) => codeWrites[floorIndex(codeWrites, version)] ?? -1n,
    close: () => {}
  }
}
