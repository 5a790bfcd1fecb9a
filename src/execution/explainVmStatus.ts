/**
 * The API's `vm_status` string for a transaction's status, worded as the reference's
 * `explain_vm_status` (api/types `convert.rs`) words it:
 * - "Executed successfully", "Out of gas";
 * - "Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): <description>" with the aborting
 *   module's error map, "Move abort in 0x1::coin: 0x10006" without it, "Move abort: code 0x…" in a
 *   script;
 * - "Execution failed in 0x1::m::f at code offset N" (the function named by its index, as the
 *   reference looks it up: a function handle index), "…::<#N function>" if there is none;
 * - a miscellaneous error prints its status name.
 * Simulation appends "\nExecution failed with message: …" when the VM status carried a message.
 */
import { addressToShortString } from "../domain/AccountAddress.js"
import type { ModuleId } from "../domain/TypeTag.js"
import type { AbortLocation, ExecutionStatus } from "../domain/ExecutionStatus.js"
import { statusName } from "../move/vm/StatusCode.js"
import type { VmStatus } from "./VmStatus.js"

/** The name of function handle `index` of `module`, if the module exists and has one. */
export type FunctionNameLookup = (module: ModuleId, index: number) => string | undefined

const moduleString = (m: ModuleId): string => `${addressToShortString(m.address)}::${m.name}`
const moduleOf = (l: AbortLocation): ModuleId | undefined => (l._tag === "Module" ? l.module : undefined)

export const explainExecutionStatus = (s: ExecutionStatus, functionName?: FunctionNameLookup): string => {
  switch (s._tag) {
    case "Success":
      return "Executed successfully"
    case "OutOfGas":
      return "Out of gas"
    case "MoveAbort": {
      const code = `0x${s.code.toString(16)}`
      const m = moduleOf(s.location)
      if (m === undefined) return `Move abort: code ${code}`
      return s.info === undefined
        ? `Move abort in ${moduleString(m)}: ${code}`
        : `Move abort in ${moduleString(m)}: ${s.info.reasonName}(${code}): ${s.info.description}`
    }
    case "ExecutionFailure": {
      let where: string
      const m = moduleOf(s.location)
      if (m === undefined) where = "script"
      else {
        const name = functionName?.(m, s.function)
        where = `${moduleString(m)}::${name ?? `<#${s.function} function>`}`
      }
      return `Execution failed in ${where} at code offset ${s.codeOffset}`
    }
    case "MiscellaneousError":
      if (s.statusCode === undefined) return "Execution failed with miscellaneous error and no status code"
      return statusName(Number(s.statusCode)) ?? "UNKNOWN_STATUS"
  }
}

/** The simulate endpoint's suffix: the VM status's message, when it has one. */
export const simulationMessageSuffix = (s: VmStatus): string =>
  (s._tag === "Error" || s._tag === "ExecutionFailure") && s.message !== undefined
    ? `\nExecution failed with message: ${s.message}`
    : ""
