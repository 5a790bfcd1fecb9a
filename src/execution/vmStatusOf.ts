/**
 * A VM call's failure as the reference's `VMStatus`: a Move abort keeps its location, code and
 * error-map entry; a runtime error raised inside a function is an `ExecutionFailure` at that
 * function and offset; anything else (linking, argument checks, limits) is an `Error` with its
 * status. Messages are bounded: they reach API responses.
 */
import type { VmFailure } from "../move/vm/VmFailure.js"
import { asStatusName } from "../move/vm/StatusCode.js"
import type { VmStatus } from "./VmStatus.js"

const MAX_MESSAGE = 1000

export const boundedMessage = (s: string | undefined): string | undefined =>
  s === undefined || s.length <= MAX_MESSAGE ? s : `${s.slice(0, MAX_MESSAGE)}… (${s.length} characters)`

export const vmStatusOf = (f: VmFailure): VmStatus => {
  if (f._tag === "Abort")
    return {
      _tag: "MoveAbort",
      location: f.location,
      code: f.code,
      info: f.info === undefined ? undefined : { reasonName: f.info.name, description: f.info.description },
      message: boundedMessage(f.message)
    }
  const e = f.error
  const status = asStatusName(e.status)
  if (e.location !== undefined && e.at !== undefined)
    return {
      _tag: "ExecutionFailure",
      status,
      location: e.location,
      function: e.at.functionIndex,
      codeOffset: e.at.codeOffset,
      message: boundedMessage(e.detail)
    }
  return { _tag: "Error", status, message: boundedMessage(e.detail) }
}
