import { describe, expect, it } from "vitest"
import { Bcs } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ExecutionStatus } from "../../src/domain/ExecutionStatus.js"
import { isSuccessStatus } from "../../src/domain/ExecutionStatus.js"
import { executionStatusCodec } from "../../src/domain/ExecutionStatusCodec.js"
import { transactionInfoCodec, transactionInfoHash } from "../../src/domain/TransactionInfoCodec.js"
import { hashWithPrefix } from "../../src/domain/hash.js"

const coin = { address: addressFromNumber(1), name: "coin" }

describe("ExecutionStatus BCS", () => {
  it("writes the variants in the reference's order, the abort info included", () => {
    const enc = (s: ExecutionStatus) => Array.from(Bcs.encode(executionStatusCodec, s))
    expect(enc({ _tag: "Success" })).toEqual([0])
    expect(enc({ _tag: "OutOfGas" })).toEqual([1])
    const moduleId = [...addressFromNumber(1), 4, ...Buffer.from("coin")]
    expect(
      enc({ _tag: "MoveAbort", location: { _tag: "Module", module: coin }, code: 0x10006n, info: undefined })
    ).toEqual([2, 0, ...moduleId, 6, 0, 1, 0, 0, 0, 0, 0, 0])
    expect(
      enc({
        _tag: "MoveAbort",
        location: { _tag: "Script" },
        code: 1n,
        info: { reasonName: "E", description: "d" }
      })
    ).toEqual([2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 69, 1, 100])
    expect(enc({ _tag: "ExecutionFailure", location: { _tag: "Script" }, function: 3, codeOffset: 258 })).toEqual([
      3, 1, 3, 0, 2, 1
    ])
    expect(enc({ _tag: "MiscellaneousError", statusCode: undefined })).toEqual([4, 0])
    expect(enc({ _tag: "MiscellaneousError", statusCode: 4016n })).toEqual([4, 1, 0xb0, 0x0f, 0, 0, 0, 0, 0, 0])
  })

  it("only Success is a success", () => {
    expect(isSuccessStatus({ _tag: "Success" })).toBe(true)
    expect(isSuccessStatus({ _tag: "OutOfGas" })).toBe(false)
  })
})

describe("TransactionInfo", () => {
  it("is enum V0 with its fields in the reference's order, hashed as APTOS::TransactionInfo", () => {
    const h = (n: number) => new Uint8Array(32).fill(n)
    const info = {
      gasUsed: 5n,
      status: { _tag: "Success" } as ExecutionStatus,
      transactionHash: h(1),
      eventRootHash: h(2),
      stateChangeHash: h(3),
      stateCheckpointHash: undefined,
      auxiliaryInfoHash: h(4)
    }
    const bytes = Bcs.encode(transactionInfoCodec, info)
    expect(Array.from(bytes)).toEqual([0, 5, 0, 0, 0, 0, 0, 0, 0, 0, ...h(1), ...h(2), ...h(3), 0, 1, ...h(4)])
    expect(transactionInfoHash(info)).toEqual(hashWithPrefix("TransactionInfo", bytes))
  })
})
