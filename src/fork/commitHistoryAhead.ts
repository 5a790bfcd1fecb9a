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

/**
 * The state keys of the `count` ring slots from `next_idx` on, read from the CommitHistory bytes
 * (`{max_capacity: u32, next_idx: u32, table: {inner: {handle}, length: u64}}`); [] when the bytes
 * are absent or do not decode.
 */
export const commitHistorySlotsAhead = (bytes: Uint8Array | undefined, count: number): ReadonlyArray<Uint8Array> => {
  if (bytes === undefined) return []
  try {
    const r = new BcsReader(bytes)
    const capacity = r.u32()
    const next = r.u32()
    const handle = r.fixed(32)
    if (capacity === 0) return []
    const keys: Uint8Array[] = []
    for (let i = 0; i < Math.min(count, capacity); i++) {
      const idx = (next + i) % capacity
      keys.push(Bcs.encode(stateKeyCodec, { _tag: "TableItem", handle, key: new BcsWriter(4).u32(idx).toBytes() }))
    }
    return keys
  } catch {
    return []
  }
}
