/**
 * BCS codecs for StateValueMetadata, WriteOp and WriteSet (enum V0 = map StateKey → WriteOp).
 * Each decoded entry keeps the exact bytes of its key (`keyBytes`), the key's identity in stores.
 */
import { type BcsReader, BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import type { StateKey } from "./StateKey.js"
import { readStateKey, writeStateKey } from "./StateKeyCodec.js"
import type { StateValueMetadata, WriteOp, WriteSet, WriteSetEntry } from "./WriteSet.js"
import { sortInPlace } from "./sortInPlace.js"

export const writeStateValueMetadata = (w: BcsWriter, m: StateValueMetadata): void => {
  if (m._tag === "V0") w.u8(0).u64(m.deposit).u64(m.creationTimeUsecs)
  else w.u8(1).u64(m.slotDeposit).u64(m.bytesDeposit).u64(m.creationTimeUsecs)
}

export const readStateValueMetadata = (r: BcsReader): StateValueMetadata => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag === 0) return { _tag: "V0", deposit: r.u64(), creationTimeUsecs: r.u64() }
  if (tag === 1) return { _tag: "V1", slotDeposit: r.u64(), bytesDeposit: r.u64(), creationTimeUsecs: r.u64() }
  r.offset = start
  return r.fail(`invalid StateValueMetadata variant ${tag}`)
}

export const writeWriteOp = (w: BcsWriter, op: WriteOp): void => {
  switch (op._tag) {
    case "Creation":
      w.u8(0).bytesWithLength(op.data)
      return
    case "Modification":
      w.u8(1).bytesWithLength(op.data)
      return
    case "Deletion":
      w.u8(2)
      return
    case "CreationWithMetadata":
      w.u8(3).bytesWithLength(op.data)
      writeStateValueMetadata(w, op.metadata)
      return
    case "ModificationWithMetadata":
      w.u8(4).bytesWithLength(op.data)
      writeStateValueMetadata(w, op.metadata)
      return
    case "DeletionWithMetadata":
      w.u8(5)
      writeStateValueMetadata(w, op.metadata)
      return
  }
}

export const readWriteOp = (r: BcsReader): WriteOp => {
  const start = r.offset
  const tag = r.uleb128()
  switch (tag) {
    case 0:
      return { _tag: "Creation", data: r.bytesWithLength() }
    case 1:
      return { _tag: "Modification", data: r.bytesWithLength() }
    case 2:
      return { _tag: "Deletion" }
    case 3:
      return { _tag: "CreationWithMetadata", data: r.bytesWithLength(), metadata: readStateValueMetadata(r) }
    case 4:
      return { _tag: "ModificationWithMetadata", data: r.bytesWithLength(), metadata: readStateValueMetadata(r) }
    case 5:
      return { _tag: "DeletionWithMetadata", metadata: readStateValueMetadata(r) }
    default:
      r.offset = start
      return r.fail(`invalid WriteOp variant ${tag}`)
  }
}

/** An entry with its key bytes computed (what `writeWriteSet` writes for the key). */
export const makeWriteSetEntry = (key: StateKey, op: WriteOp): WriteSetEntry => {
  const w = new BcsWriter(96)
  writeStateKey(w, key)
  return { key, keyBytes: w.toBytes(), op }
}

/** Compares key bytes lexicographically: the BCS map order of a write set. */
export const compareKeyBytes = (a: Uint8Array, b: Uint8Array): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/** Sorts `items` in place by `bytesOf` (compareKeyBytes order; `sortInPlace`: no work array for a few). */
export const sortByKeyBytes = <T>(items: T[], bytesOf: (item: T) => Uint8Array): T[] =>
  sortInPlace(items, (x, y) => compareKeyBytes(bytesOf(x), bytesOf(y)))

const compareEntries = (x: WriteSetEntry, y: WriteSetEntry): number => compareKeyBytes(x.keyBytes, y.keyBytes)

/** Sorts write-set entries in place into BCS map order (by key bytes; `sortInPlace`). */
export const sortEntries = (entries: WriteSetEntry[]): WriteSetEntry[] => sortInPlace(entries, compareEntries)

/** Sorts entries into BCS map order (by key bytes). */
export const sortWriteSet = (ws: WriteSet): WriteSet => ({
  entries: [...ws.entries].sort((x, y) => compareKeyBytes(x.keyBytes, y.keyBytes))
})

/** Writes entries in the order given; BCS maps need them sorted by key bytes (see `sortWriteSet`). */
export const writeWriteSet = (w: BcsWriter, ws: WriteSet): void => {
  w.u8(0)
  w.uleb128(ws.entries.length)
  for (const e of ws.entries) {
    w.fixed(e.keyBytes)
    writeWriteOp(w, e.op)
  }
}

export const readWriteSet = (r: BcsReader): WriteSet => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag !== 0) {
    r.offset = start
    r.fail(`invalid WriteSet variant ${tag}`)
  }
  // Smallest entry: a Raw key (1 + 1 byte) and a Deletion (1 byte).
  const n = r.length(3)
  const entries: WriteSetEntry[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const keyStart = r.offset
    const key = readStateKey(r)
    const keyBytes = r.bytes.subarray(keyStart, r.offset)
    entries[i] = { key, keyBytes, op: readWriteOp(r) }
  }
  return { entries }
}

export const stateValueMetadataCodec: Codec<StateValueMetadata> = Bcs.codec(
  writeStateValueMetadata,
  readStateValueMetadata
)
export const writeOpCodec: Codec<WriteOp> = Bcs.codec(writeWriteOp, readWriteOp)
export const writeSetCodec: Codec<WriteSet> = Bcs.codec(writeWriteSet, readWriteSet)
