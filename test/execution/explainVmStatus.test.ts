import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { explainExecutionStatus, simulationMessageSuffix } from "../../src/execution/explainVmStatus.js"
import { transactionStatusOf } from "../../src/execution/TransactionOutput.js"

const coin = { _tag: "Module" as const, module: { address: addressFromNumber(1), name: "coin" } }
const script = { _tag: "Script" as const }

describe("explainExecutionStatus: the reference's wording", () => {
  it("success, out of gas, aborts with and without the error map, scripts", () => {
    expect(explainExecutionStatus({ _tag: "Success" })).toBe("Executed successfully")
    expect(explainExecutionStatus({ _tag: "OutOfGas" })).toBe("Out of gas")
    expect(
      explainExecutionStatus({
        _tag: "MoveAbort",
        location: coin,
        code: 0x10006n,
        info: { reasonName: "EINSUFFICIENT_BALANCE", description: "Not enough coins to complete transaction" }
      })
    ).toBe("Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): Not enough coins to complete transaction")
    expect(explainExecutionStatus({ _tag: "MoveAbort", location: coin, code: 0x10006n, info: undefined })).toBe(
      "Move abort in 0x1::coin: 0x10006"
    )
    expect(explainExecutionStatus({ _tag: "MoveAbort", location: script, code: 3n, info: undefined })).toBe(
      "Move abort: code 0x3"
    )
  })

  it("execution failures name the function when it can, and misc errors print the status name", () => {
    const f = { _tag: "ExecutionFailure" as const, location: coin, function: 4, codeOffset: 12 }
    expect(explainExecutionStatus(f, () => "transfer")).toBe(
      "Execution failed in 0x1::coin::transfer at code offset 12"
    )
    expect(explainExecutionStatus(f, () => undefined)).toBe(
      "Execution failed in 0x1::coin::<#4 function> at code offset 12"
    )
    expect(explainExecutionStatus({ ...f, location: script })).toBe("Execution failed in script at code offset 12")
    expect(explainExecutionStatus({ _tag: "MiscellaneousError", statusCode: 3n })).toBe("SEQUENCE_NUMBER_TOO_OLD")
    expect(explainExecutionStatus({ _tag: "MiscellaneousError", statusCode: undefined })).toBe(
      "Execution failed with miscellaneous error and no status code"
    )
  })

  it("simulation appends an error's message", () => {
    expect(simulationMessageSuffix({ _tag: "Error", status: "LINKER_ERROR", message: "m not found" })).toBe(
      "\nExecution failed with message: m not found"
    )
    expect(simulationMessageSuffix({ _tag: "Executed" })).toBe("")
  })
})

describe("transactionStatusOf: keep or discard", () => {
  it("keeps aborts, out of gas and runtime failures; discards validation and invariant statuses", () => {
    expect(transactionStatusOf({ _tag: "Executed" }, false)).toEqual({ _tag: "Keep", status: { _tag: "Success" } })
    expect(transactionStatusOf({ _tag: "Error", status: "OUT_OF_GAS", message: undefined }, false).status).toEqual({
      _tag: "OutOfGas"
    })
    expect(transactionStatusOf({ _tag: "Error", status: "SEQUENCE_NUMBER_TOO_OLD", message: undefined }, true)).toEqual(
      {
        _tag: "Discard",
        status: "SEQUENCE_NUMBER_TOO_OLD"
      }
    )
    expect(
      transactionStatusOf(
        { _tag: "Error", status: "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION", message: undefined },
        false
      )
    ).toEqual({ _tag: "Discard", status: "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION" })
    expect(
      transactionStatusOf(
        { _tag: "Error", status: "UNEXPECTED_ERROR_FROM_KNOWN_MOVE_FUNCTION", message: undefined },
        true
      )
    ).toEqual({
      _tag: "Keep",
      status: { _tag: "MiscellaneousError", statusCode: 2015n }
    })
    expect(
      transactionStatusOf({ _tag: "Error", status: "NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH", message: undefined }, true)
    ).toEqual({
      _tag: "Keep",
      status: { _tag: "MiscellaneousError", statusCode: 1101n }
    })
    expect(transactionStatusOf({ _tag: "Error", status: "IO_LIMIT_REACHED", message: undefined }, true).status).toEqual(
      {
        _tag: "MiscellaneousError",
        statusCode: 4031n
      }
    )
    expect(transactionStatusOf({ _tag: "Error", status: "ARITHMETIC_ERROR", message: undefined }, true).status).toEqual(
      {
        _tag: "ExecutionFailure",
        location: script,
        function: 0,
        codeOffset: 0
      }
    )
  })
})
