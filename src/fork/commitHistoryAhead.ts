/**
 * Keys every block reads that no earlier block did: `0x1::block::CommitHistory` is a ring of
 * `max_capacity` table items (`TableWithLength<u32, NewBlockEvent>`), and each block prologue
 * upserts the slot at `next_idx`, reading the source's old value there first. So a fork's every
 * block would miss one key (and a fork without its source could make no block once past what was
 * fetched). The slots ahead of `next_idx` are fetched in advance instead: a window at start, topped
 * up after each committed block, in the background.
 */
import { Bcs, BcsReader, BcsWriter } from "../bcs/index.js"
import { addressFromNumber } from "../domain/AccountAddress.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"

const ONE = addressFromNumber(1)

export const COMMIT_HISTORY_KEY = Bcs.encode(stateKeyCodec, {
  _tag: "AccessPath",
  address: ONE,
  path: { _tag: "Resource", struct: { address: ONE, module: "block", name: "CommitHistory", typeArgs: [] } }
})

interface CommitHistory {
  readonly capacity: number
  readonly next: number
  readonly handle: Uint8Array
  readonly length: bigint
}

/** `{max_capacity: u32, next_idx: u32, table: TableWithLength {inner: Table {handle}, length: u64}}`. */
const decodeCommitHistory = (bytes: Uint8Array | undefined): CommitHistory | undefined => {
  if (bytes === undefined) return undefined
  try {
    const r = new BcsReader(bytes)
    const capacity = r.u32()
    const next = r.u32()
    const handle = r.fixed(32)
    const length = r.u64()
    return capacity === 0 ? undefined : { capacity, next, handle, length }
  } catch {
    return undefined
  }
}

const slotKey = (handle: Uint8Array, idx: number) =>
  Bcs.encode(stateKeyCodec, { _tag: "TableItem", handle, key: new BcsWriter(4).u32(idx).toBytes() })

/**
 * The state keys of the `count` ring slots from `next_idx` on, per the CommitHistory bytes of the
 * state the next blocks run on (local writes included): [] when absent or undecodable.
 */
export const commitHistorySlotsAhead = (bytes: Uint8Array | undefined, count: number): ReadonlyArray<Uint8Array> => {
  const h = decodeCommitHistory(bytes)
  if (h === undefined) return []
  const keys: Uint8Array[] = []
  for (let i = 0; i < Math.min(count, h.capacity); i++) keys.push(slotKey(h.handle, (h.next + i) % h.capacity))
  return keys
}

/**
 * The slots the source has no value in, known from its CommitHistory at V without asking: the ring
 * is filled in order (`upsert` at `next_idx`, which only moves forward), so while `length` is below
 * `max_capacity` the slots from `length` on were never written. A young source (a local chain) thus
 * costs no request per block; a full ring (a long-lived network) costs one per block, ahead of need.
 */
export const commitHistorySlotsAbsentAtSource = (sourceBytes: Uint8Array | undefined): ReadonlyArray<Uint8Array> => {
  const h = decodeCommitHistory(sourceBytes)
  if (h === undefined || h.length >= BigInt(h.capacity)) return []
  const keys: Uint8Array[] = []
  for (let idx = Number(h.length); idx < h.capacity && keys.length < 100_000; idx++) keys.push(slotKey(h.handle, idx))
  return keys
}
