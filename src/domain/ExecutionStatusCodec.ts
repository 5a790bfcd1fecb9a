/** BCS codecs for `ExecutionStatus` and `AbortLocation`, in the reference's variant order. */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import type { AbortLocation, ExecutionStatus } from "./ExecutionStatus.js"
import { readModuleId, writeModuleId } from "./TypeTagCodec.js"

export const writeAbortLocation = (w: BcsWriter, l: AbortLocation): void => {
  if (l._tag === "Module") {
    w.u8(0)
    writeModuleId(w, l.module)
  } else w.u8(1)
}

export const readAbortLocation = (r: BcsReader): AbortLocation => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag === 0) return { _tag: "Module", module: readModuleId(r) }
  if (tag === 1) return { _tag: "Script" }
  r.offset = start
  return r.fail(`invalid AbortLocation variant ${tag}`)
}

export const writeExecutionStatus = (w: BcsWriter, s: ExecutionStatus): void => {
  switch (s._tag) {
    case "Success":
      w.u8(0)
      return
    case "OutOfGas":
      w.u8(1)
      return
    case "MoveAbort":
      w.u8(2)
      writeAbortLocation(w, s.location)
      w.u64(s.code)
      if (s.info === undefined) w.u8(0)
      else w.u8(1).string(s.info.reasonName).string(s.info.description)
      return
    case "ExecutionFailure":
      w.u8(3)
      writeAbortLocation(w, s.location)
      w.u16(s.function).u16(s.codeOffset)
      return
    case "MiscellaneousError":
      w.u8(4)
      if (s.statusCode === undefined) w.u8(0)
      else w.u8(1).u64(s.statusCode)
      return
  }
}

export const readExecutionStatus = (r: BcsReader): ExecutionStatus => {
  const start = r.offset
  const tag = r.uleb128()
  switch (tag) {
    case 0:
      return { _tag: "Success" }
    case 1:
      return { _tag: "OutOfGas" }
    case 2: {
      const location = readAbortLocation(r)
      const code = r.u64()
      const info = r.optionTag() ? { reasonName: r.string(), description: r.string() } : undefined
      return { _tag: "MoveAbort", location, code, info }
    }
    case 3:
      return { _tag: "ExecutionFailure", location: readAbortLocation(r), function: r.u16(), codeOffset: r.u16() }
    case 4:
      return { _tag: "MiscellaneousError", statusCode: r.optionTag() ? r.u64() : undefined }
    default:
      r.offset = start
      return r.fail(`invalid ExecutionStatus variant ${tag}`)
  }
}

export const abortLocationCodec: Codec<AbortLocation> = Bcs.codec(writeAbortLocation, readAbortLocation)
export const executionStatusCodec: Codec<ExecutionStatus> = Bcs.codec(writeExecutionStatus, readExecutionStatus)
