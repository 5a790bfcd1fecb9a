import * as Result from "effect/Result"
import type { ChangeSet } from "../domain/Transaction.js"
import type { StateValueMetadata, WriteOp, WriteSetEntry } from "../domain/WriteSet.js"
import { compareKeyBytes, sortEntries } from "../domain/WriteSetCodec.js"
import { bytesKey } from "../domain/mapKeys.js"

const metadataOf = (op: WriteOp): StateValueMetadata | undefined => ("metadata" in op ? op.metadata : undefined)
const isCreation = (op: WriteOp): boolean => op._tag === "Creation" || op._tag === "CreationWithMetadata"
const isModification = (op: WriteOp): boolean => op._tag === "Modification" || op._tag === "ModificationWithMetadata"
const isDeletion = (op: WriteOp): boolean => op._tag === "Deletion" || op._tag === "DeletionWithMetadata"

const creation = (data: Uint8Array, m: StateValueMetadata | undefined): WriteOp =>
  m === undefined ? { _tag: "Creation", data } : { _tag: "CreationWithMetadata", data, metadata: m }
const modification = (data: Uint8Array, m: StateValueMetadata | undefined): WriteOp =>
  m === undefined ? { _tag: "Modification", data } : { _tag: "ModificationWithMetadata", data, metadata: m }
const deletion = (m: StateValueMetadata | undefined): WriteOp =>
  m === undefined ? { _tag: "Deletion" } : { _tag: "DeletionWithMetadata", metadata: m }

/**
 * One write op for `first` then `second` on the same key (the reference's `WriteOp::squash`), or
 * `null` when they cancel (created then deleted). The first op's metadata is kept (it records the
 * slot's deposit). Impossible sequences (creating what exists, changing what was deleted) fail.
 */
export const squashWriteOp = (first: WriteOp, second: WriteOp): WriteOp | null | string => {
  const m = metadataOf(first)
  if (isCreation(first)) {
    if (isModification(second)) return creation((second as { data: Uint8Array }).data, m)
    if (isDeletion(second)) return null
  } else if (isModification(first)) {
    if (isModification(second)) return modification((second as { data: Uint8Array }).data, m)
    if (isDeletion(second)) return deletion(m)
  } else if (isCreation(second)) return modification((second as { data: Uint8Array }).data, m)
  return `cannot apply ${second._tag} after ${first._tag}`
}

/**
 * `second` applied after `first` (both relative to their own base: `second` was computed over a
 * view with `first` on top): one change set whose write set is in BCS key order and whose events
 * are `first`'s then `second`'s. Fails on an impossible sequence of ops on a key.
 */
export const squashChangeSets = (first: ChangeSet, second: ChangeSet): Result.Result<ChangeSet, string> => {
  if (second.writeSet.entries.length === 0)
    return Result.succeed({ writeSet: first.writeSet, events: [...first.events, ...second.events] })
  const a = first.writeSet.entries
  const b = second.writeSet.entries
  const entries = ascending(a) && ascending(b) ? mergeSorted(a, b) : mergeByKey(a, b)
  if (typeof entries === "string") return Result.fail(entries)
  return Result.succeed({ writeSet: { entries }, events: [...first.events, ...second.events] })
}

/** Whether the entries are in strictly ascending key order (as a session's and a squash's are). */
const ascending = (entries: ReadonlyArray<WriteSetEntry>): boolean => {
  for (let i = 1; i < entries.length; i++)
    if (compareKeyBytes(entries[i - 1]!.keyBytes, entries[i]!.keyBytes) >= 0) return false
  return true
}

/** The squash of two sorted write sets as one pass over both (no map, no sort: issue 22). */
const mergeSorted = (a: ReadonlyArray<WriteSetEntry>, b: ReadonlyArray<WriteSetEntry>): WriteSetEntry[] | string => {
  const out: WriteSetEntry[] = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const x = a[i]!
    const y = b[j]!
    const c = compareKeyBytes(x.keyBytes, y.keyBytes)
    if (c < 0) {
      out.push(x)
      i++
    } else if (c > 0) {
      out.push(y)
      j++
    } else {
      const op = squashWriteOp(x.op, y.op)
      if (typeof op === "string") return op
      if (op !== null) out.push({ key: y.key, keyBytes: y.keyBytes, op })
      i++
      j++
    }
  }
  for (; i < a.length; i++) out.push(a[i]!)
  for (; j < b.length; j++) out.push(b[j]!)
  return out
}

/** The same for write sets in any order: by key, then sorted. */
const mergeByKey = (a: ReadonlyArray<WriteSetEntry>, b: ReadonlyArray<WriteSetEntry>): WriteSetEntry[] | string => {
  const byKey = new Map<string, WriteSetEntry | null>()
  for (const e of a) byKey.set(bytesKey(e.keyBytes), e)
  for (const e of b) {
    const k = bytesKey(e.keyBytes)
    const prior = byKey.get(k)
    if (prior === undefined || prior === null) {
      byKey.set(k, e)
      continue
    }
    const op = squashWriteOp(prior.op, e.op)
    if (typeof op === "string") return op
    byKey.set(k, op === null ? null : { key: e.key, keyBytes: e.keyBytes, op })
  }
  const entries: WriteSetEntry[] = []
  for (const e of byKey.values()) if (e !== null) entries.push(e)
  return sortEntries(entries)
}
