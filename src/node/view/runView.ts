import * as Result from "effect/Result"
import { toHex } from "../../bcs/index.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import type { ModuleId } from "../../domain/TypeTag.js"
import { bcsToJson } from "../../move/json/bcsToJson.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { resolveLayout } from "../../move/layout/resolveLayout.js"
import type { CallOptions, CallOutcome, MoveVm } from "../../move/vm/MoveVm.js"
import type { StateView } from "../../move/vm/StateView.js"
import { K, type Type, typeToTag } from "../../move/vm/Type.js"
import { StatusCodes } from "../../move/vm/StatusCode.js"
import { convertArguments } from "../encode/convertArguments.js"
import type { ViewAnswer } from "../Views.js"
import type { BcsViewCall, JsonViewCall } from "./parseViewRequest.js"
import { type ViewFilter, viewAllowed } from "./ViewFilter.js"
import { boundedPrefix } from "../../domain/boundedText.js"

/** How a view failed, in the API's terms (the caller adds the ledger info). */
export interface ViewFailure {
  readonly status: 400 | 403 | 500
  readonly code: "invalid_input" | "internal_error"
  readonly message: string
  readonly vmErrorCode: bigint | undefined
  /** Answered without the ledger info (and so without ledger headers): the view filter's 403. */
  readonly withoutLedger?: boolean
}

const invalid = (message: string, vmErrorCode?: number): ViewFailure => ({
  status: 400,
  code: "invalid_input",
  message,
  vmErrorCode: vmErrorCode === undefined ? undefined : BigInt(vmErrorCode)
})

/** Names come from the request (valid identifiers of any length): quoted by a bounded prefix. */
const moduleName = (m: ModuleId): string => `${addressToShortString(m.address)}::${boundedPrefix(m.name)}`

/**
 * The message of a failed call, as the reference renders it: aborts through the module's error map
 * ("Move abort in 0x1::coin: ECOIN_STORE_NOT_PUBLISHED(0x60005): …"), checks made before running
 * as a `PartialVMError`, runtime failures with their status. `vm_error_code` is null for the
 * pre-execution checks (the reference's golden) and the status code otherwise (ABORTED for aborts).
 */
export const describeFailure = (o: Exclude<CallOutcome, { _tag: "Success" }>): ViewFailure => {
  if (o._tag === "Abort") {
    const hex = `0x${o.code.toString(16)}`
    const where = o.location === undefined ? undefined : moduleName(o.location)
    const message =
      where === undefined
        ? `Move abort: code ${hex}`
        : o.info !== undefined
          ? `Move abort in ${where}: ${o.info.name}(${hex}): ${o.info.description}`
          : `Move abort in ${where}: ${hex}${o.message !== undefined ? `: ${o.message}` : ""}`
    return invalid(message, StatusCodes.ABORTED)
  }
  const e = o.error
  switch (e.status) {
    case "INVALID_MAIN_FUNCTION_SIGNATURE":
    case "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH":
    case "CONSTRAINT_NOT_SATISFIED":
    case "NUMBER_OF_ARGUMENTS_MISMATCH":
    case "FAILED_TO_DESERIALIZE_ARGUMENT":
    case "LINKER_ERROR":
    case "FUNCTION_RESOLUTION_FAILURE":
    case "TYPE_RESOLUTION_FAILURE":
      return invalid(`PartialVMError with status ${e.status} and message ${e.detail}`)
    default: {
      const where = e.location === undefined ? "" : ` in ${moduleName(e.location)}`
      return invalid(`VMError with status ${e.status}${where} and message ${e.detail}`, e.code)
    }
  }
}

/** Reads the return values as JSON, by each return type's layout. */
const renderJson = (
  modules: ModuleSource,
  returnTypes: ReadonlyArray<Type>,
  values: ReadonlyArray<Uint8Array>
): Result.Result<ReadonlyArray<unknown>, string> => {
  const out: unknown[] = []
  for (let i = 0; i < values.length; i++) {
    const t = returnTypes[i]!
    const tag = typeToTag(t.k === K.Ref || t.k === K.MutRef ? (t as { to: Type }).to : t)
    const layout = resolveLayout(modules, tag)
    if (Result.isFailure(layout)) return Result.fail(layout.failure.message)
    const json = bcsToJson(layout.success, values[i]!)
    if (Result.isFailure(json)) return Result.fail(json.failure.message)
    out.push(json.success)
  }
  return Result.succeed(out)
}

/**
 * Runs a view call (either body form) against `view`; synchronous, bounded by `maxGas`, the memory
 * quota and a wall-clock deadline (`limits`, default `DEFAULT_VIEW_DEADLINE_MS`).
 */
export const runView = (
  vm: MoveVm,
  view: StateView,
  modules: ModuleSource,
  call: JsonViewCall | BcsViewCall,
  maxGas: bigint,
  limits: Pick<CallOptions, "deadlineMs" | "now"> & { readonly filter?: ViewFilter | undefined } = {}
): Result.Result<ViewAnswer, ViewFailure> => {
  let args: ReadonlyArray<Uint8Array>
  if (call._tag === "Json") {
    const unit = modules(call.module.address, call.module.name)
    if (unit === undefined) return Result.fail(invalid(`Module ${moduleName(call.module)} not found`))
    // By name through the VM's loaded module (a map lookup, not a scan of the definitions).
    const def = vm.resolveFunction(view, call.module, call.function)?.def
    if (def === undefined)
      return Result.fail(
        invalid(`could not find view function by ${moduleName(call.module)}::${boundedPrefix(call.function)}`)
      )
    const handle = unit.functionHandles[def.function]!
    if (handle.typeParameters.length !== call.tyArgs.length)
      return Result.fail(
        invalid(
          `expected ${handle.typeParameters.length} type arguments for view function ${boundedPrefix(call.function)}, but got ${call.tyArgs.length}`
        )
      )
    const converted = convertArguments(unit, unit.signatures[handle.parameters]!, call.tyArgs, call.args, modules)
    if (Result.isFailure(converted)) return Result.fail(invalid(converted.failure))
    args = converted.success
  } else args = call.args
  // As the reference: after the arguments converted, before the VM runs.
  if (!viewAllowed(limits.filter, call.module, call.function))
    return Result.fail({
      status: 403,
      code: "invalid_input",
      message: `Function ${toHex(call.module.address)}::${boundedPrefix(call.module.name)}::${boundedPrefix(call.function)} is not allowed`,
      vmErrorCode: undefined,
      withoutLedger: true
    })
  const outcome = vm.call(
    view,
    { module: call.module, function: call.function, tyArgs: call.tyArgs, args },
    { maxGas, view: true, deadlineMs: limits.deadlineMs, now: limits.now }
  )
  if (outcome._tag !== "Success") return Result.fail(describeFailure(outcome))
  const json = renderJson(modules, outcome.returnTypes, outcome.values)
  if (Result.isFailure(json))
    return Result.fail({ status: 400, code: "internal_error", message: json.failure, vmErrorCode: undefined })
  return Result.succeed({ bcsValues: outcome.values, json: json.success, gasUsed: outcome.gasUsed })
}
