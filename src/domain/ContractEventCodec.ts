/** BCS codec for ContractEvent: enum 0 V1 (handle event), 1 V2 (module event). */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import { ADDRESS_LENGTH } from "./AccountAddress.js"
import type { ContractEvent } from "./ContractEvent.js"
import { readTypeTag, writeTypeTag } from "./TypeTagCodec.js"

export const writeContractEvent = (w: BcsWriter, e: ContractEvent): void => {
  if (e._tag === "V1") {
    w.u8(0).u64(e.key.creationNumber).fixed(e.key.accountAddress).u64(e.sequenceNumber)
    writeTypeTag(w, e.typeTag)
    w.bytesWithLength(e.data)
  } else {
    w.u8(1)
    writeTypeTag(w, e.typeTag)
    w.bytesWithLength(e.data)
  }
}

export const readContractEvent = (r: BcsReader): ContractEvent => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag === 0) {
    const creationNumber = r.u64()
    const accountAddress = r.fixed(ADDRESS_LENGTH)
    const sequenceNumber = r.u64()
    return {
      _tag: "V1",
      key: { creationNumber, accountAddress },
      sequenceNumber,
      typeTag: readTypeTag(r),
      data: r.bytesWithLength()
    }
  }
  if (tag === 1) return { _tag: "V2", typeTag: readTypeTag(r), data: r.bytesWithLength() }
  r.offset = start
  return r.fail(`invalid ContractEvent variant ${tag}`)
}

export const contractEventCodec: Codec<ContractEvent> = Bcs.codec(writeContractEvent, readContractEvent)
export const contractEventsCodec: Codec<ReadonlyArray<ContractEvent>> = Bcs.vector(contractEventCodec, 3)
