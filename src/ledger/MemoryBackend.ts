import type { AccountAddress } from "../domain/AccountAddress.js"
import type { BlockInfo, CommittedTransaction, TransactionSummary } from "./Ledger.js"
import type { LedgerBackend, LedgerHead, PreparedBlock } from "./LedgerBackend.js"
import { writeOpValue } from "./writeOpValue.js"

/** Map keys for byte strings: latin1 is a 1:1 byte↔char mapping, cheap to build and compare. */
const keyOf = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")

/** All versions of one state key, ascending; `values[i]` undefined = deleted at `versions[i]`. */
interface History {
  versions: bigint[]
  values: Array<Uint8Array | undefined>
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
          const list = summaries.get(keyOf(t.transaction.signed.rawTransaction.sender))
          if (list !== undefined && list[0]?.version === v) list.shift()
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

  const commit = (p: PreparedBlock, pruneBudget: number): void => {
    for (const t of p.transactions) {
      transactions.set(t.version, t)
      byHash.set(keyOf(t.hash), t.version)
      for (const entry of t.writeSet.entries) {
        const k = keyOf(entry.keyBytes)
        let h = state.get(k)
        if (h === undefined) state.set(k, (h = { versions: [], values: [] }))
        const value = writeOpValue(entry.op)
        if (h.versions[h.versions.length - 1] === t.version) h.values[h.values.length - 1] = value
        else {
          if (h.versions.length > 0) stale.push({ since: t.version, key: k })
          h.versions.push(t.version)
          h.values.push(value)
        }
      }
    }
    for (const s of p.summaries) {
      const k = keyOf(s.sender)
      const list = summaries.get(k)
      if (list === undefined) summaries.set(k, [s])
      else list.push(s)
    }
    if (blocks.length === 0) firstHeight = p.block.height
    blocks.push(p.block)
    head = p.head
    pruneStep(pruneBudget)
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
    commit,
    pruneStep,
    close: () => {}
  }
}
