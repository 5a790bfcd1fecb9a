import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Bcs, type Codec } from "../../src/bcs/index.js"
import { changeSetCodec, writeSetPayloadCodec } from "../../src/domain/ChangeSetCodec.js"
import { contractEventCodec } from "../../src/domain/ContractEventCodec.js"
import { executionStatusCodec } from "../../src/domain/ExecutionStatusCodec.js"
import { transactionInfoCodec } from "../../src/domain/TransactionInfoCodec.js"
import {
  entryFunctionCodec,
  rawTransactionCodec,
  signedTransactionCodec,
  transactionPayloadCodec
} from "../../src/domain/PayloadCodec.js"
import { scriptCodec, transactionArgumentCodec } from "../../src/domain/ScriptCodec.js"
import { accessPathKindCodec, stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import {
  accountAuthenticatorCodec,
  transactionAuthenticatorCodec
} from "../../src/domain/TransactionAuthenticatorCodec.js"
import { transactionCodec } from "../../src/domain/TransactionCodec.js"
import { moduleIdCodec, structTagCodec, typeTagCodec } from "../../src/domain/TypeTagCodec.js"
import { stateValueMetadataCodec, writeOpCodec, writeSetCodec } from "../../src/domain/WriteSetCodec.js"
import * as A from "./arbitraries.js"

interface Case<T> {
  readonly name: string
  readonly codec: Codec<T>
  readonly arb: fc.Arbitrary<T>
}
const c = <T>(name: string, codec: Codec<T>, arb: fc.Arbitrary<T>): Case<unknown> =>
  ({ name, codec, arb }) as unknown as Case<unknown>

const cases: ReadonlyArray<Case<unknown>> = [
  c("TypeTag", typeTagCodec, A.typeTag(8)),
  c("StructTag", structTagCodec, A.structTag(8)),
  c("ModuleId", moduleIdCodec, A.moduleId),
  c("AccessPath", accessPathKindCodec, A.accessPath),
  c("StateKey", stateKeyCodec, A.stateKey),
  c("StateValueMetadata", stateValueMetadataCodec, A.stateValueMetadata),
  c("WriteOp", writeOpCodec, A.writeOp),
  c("WriteSet", writeSetCodec, A.writeSet),
  c("ContractEvent", contractEventCodec, A.contractEvent),
  c(
    "ChangeSet",
    changeSetCodec,
    fc.record({ writeSet: A.writeSet, events: fc.array(A.contractEvent, { maxLength: 3 }) })
  ),
  c("WriteSetPayload", writeSetPayloadCodec, A.writeSetPayload),
  c("TransactionArgument", transactionArgumentCodec, A.transactionArgument),
  c("Script", scriptCodec, A.script),
  c("EntryFunction", entryFunctionCodec, A.entryFunction),
  c("TransactionPayload", transactionPayloadCodec, A.payload),
  c("RawTransaction", rawTransactionCodec, A.rawTransaction),
  c("AccountAuthenticator", accountAuthenticatorCodec, A.accountAuthenticator),
  c("TransactionAuthenticator", transactionAuthenticatorCodec, A.transactionAuthenticator),
  c("SignedTransaction", signedTransactionCodec, A.signedTransaction),
  c("Transaction", transactionCodec, A.transaction),
  c("ExecutionStatus", executionStatusCodec, A.executionStatus),
  c("TransactionInfo", transactionInfoCodec, A.transactionInfo)
]

/** Every failure must be one of our typed decode errors (a real offset), never a stray exception. */
const expectTypedOutcome = (r: Result.Result<unknown, { offset: number; reason: string }>) => {
  if (Result.isFailure(r)) {
    expect(r.failure.offset, r.failure.reason).toBeGreaterThanOrEqual(0)
  }
}

describe.each(cases)("$name codec", ({ codec, arb }) => {
  it("round-trips: decode(encode(x)) = x and re-encodes to the same bytes", () => {
    fc.assert(
      fc.property(arb, (x) => {
        const bytes = Bcs.encode(codec, x)
        const decoded = Bcs.decode(codec, bytes)
        if (Result.isFailure(decoded)) throw decoded.failure
        expect(decoded.success).toEqual(x)
        expect(Bcs.encode(codec, decoded.success)).toEqual(bytes)
      }),
      { numRuns: 150 }
    )
  })

  it("rejects every strict prefix and trailing bytes", () => {
    fc.assert(
      fc.property(arb, (x) => {
        const bytes = Bcs.encode(codec, x)
        for (let n = 0; n < bytes.length; n++)
          expect(Result.isFailure(Bcs.decode(codec, bytes.subarray(0, n)))).toBe(true)
        const longer = new Uint8Array(bytes.length + 1)
        longer.set(bytes)
        expect(Result.isFailure(Bcs.decode(codec, longer))).toBe(true)
      }),
      { numRuns: 30 }
    )
  })

  it("never throws on garbage or on mutated encodings", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => expectTypedOutcome(Bcs.decode(codec, bytes))),
      {
        numRuns: 300
      }
    )
    fc.assert(
      fc.property(arb, fc.nat(), fc.integer({ min: 0, max: 255 }), (x, at, value) => {
        const bytes = Bcs.encode(codec, x)
        if (bytes.length === 0) return
        bytes[at % bytes.length] = value
        expectTypedOutcome(Bcs.decode(codec, bytes))
      }),
      { numRuns: 300 }
    )
  })
})

describe("hostile length prefixes", () => {
  it("a claimed huge count fails before anything is allocated", () => {
    // WriteSet V0 claiming 2^31 entries, a vector<u8> claiming 2^28 bytes, an event list of 2^21.
    const uleb = (n: number) => {
      const out: number[] = []
      while (n >= 0x80) {
        out.push((n & 0x7f) | 0x80)
        n = Math.floor(n / 128)
      }
      out.push(n)
      return out
    }
    const writeSet = Uint8Array.from([0, ...uleb(2 ** 31), 2, 0, 2])
    const ws = Bcs.decode(writeSetCodec, writeSet)
    expect(Result.isFailure(ws) && ws.failure.reason).toMatch(/exceeds/)
    const op = Bcs.decode(writeOpCodec, Uint8Array.from([0, ...uleb(2 ** 28), 1, 2, 3]))
    expect(Result.isFailure(op) && op.failure.reason).toMatch(/exceeds/)
    const cs = Bcs.decode(changeSetCodec, Uint8Array.from([0, 0, ...uleb(2 ** 21)]))
    expect(Result.isFailure(cs) && cs.failure.reason).toMatch(/exceeds/)
  })
})
