/**
 * BCS codecs for the genesis payload: `ChangeSet` {write_set, events} and `WriteSetPayload`
 * (0 Direct(ChangeSet), 1 Script{execute_as, script}).
 */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import { ADDRESS_LENGTH } from "./AccountAddress.js"
import type { ContractEvent } from "./ContractEvent.js"
import { readContractEvent, writeContractEvent } from "./ContractEventCodec.js"
import { readScript, writeScript } from "./ScriptCodec.js"
import type { ChangeSet, WriteSetPayload } from "./Transaction.js"
import { readWriteSet, writeWriteSet } from "./WriteSetCodec.js"

export const writeChangeSet = (w: BcsWriter, c: ChangeSet): void => {
  writeWriteSet(w, c.writeSet)
  w.uleb128(c.events.length)
  for (const e of c.events) writeContractEvent(w, e)
}

export const readChangeSet = (r: BcsReader): ChangeSet => {
  const writeSet = readWriteSet(r)
  const n = r.length(3)
  const events: ContractEvent[] = new Array(n)
  for (let i = 0; i < n; i++) events[i] = readContractEvent(r)
  return { writeSet, events }
}

export const writeWriteSetPayload = (w: BcsWriter, p: WriteSetPayload): void => {
  if (p._tag === "Direct") {
    w.u8(0)
    writeChangeSet(w, p.changeSet)
  } else {
    w.u8(1).fixed(p.executeAs)
    writeScript(w, p.script)
  }
}

export const readWriteSetPayload = (r: BcsReader): WriteSetPayload => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag === 0) return { _tag: "Direct", changeSet: readChangeSet(r) }
  if (tag === 1) return { _tag: "Script", executeAs: r.fixed(ADDRESS_LENGTH), script: readScript(r) }
  r.offset = start
  return r.fail(`invalid WriteSetPayload variant ${tag}`)
}

export const changeSetCodec: Codec<ChangeSet> = Bcs.codec(writeChangeSet, readChangeSet)
export const writeSetPayloadCodec: Codec<WriteSetPayload> = Bcs.codec(writeWriteSetPayload, readWriteSetPayload)
