/**
 * BCS of a `StateValue`, what `POST /v1/experimental/state_values/raw` answers and what a fork
 * reads from its source: enum 0 `V0(bytes)` (a value written without metadata: a legacy slot),
 * 1 `WithMetadata { data: bytes, metadata: StateValueMetadata }` (storage deposits and creation
 * time, which refunds on deletion need).
 */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import type { StateValueMetadata } from "./WriteSet.js"
import { readStateValueMetadata, writeStateValueMetadata } from "./WriteSetCodec.js"

export interface StateValue {
  readonly data: Uint8Array
  /** undefined = `V0` (no metadata). */
  readonly metadata: StateValueMetadata | undefined
}

export const writeStateValue = (w: BcsWriter, v: StateValue): void => {
  if (v.metadata === undefined) w.u8(0).bytesWithLength(v.data)
  else {
    w.u8(1).bytesWithLength(v.data)
    writeStateValueMetadata(w, v.metadata)
  }
}

export const readStateValue = (r: BcsReader): StateValue => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag === 0) return { data: r.bytesWithLength(), metadata: undefined }
  if (tag === 1) return { data: r.bytesWithLength(), metadata: readStateValueMetadata(r) }
  r.offset = start
  return r.fail(`invalid StateValue variant ${tag}`)
}

export const stateValueCodec: Codec<StateValue> = Bcs.codec(writeStateValue, readStateValue)
