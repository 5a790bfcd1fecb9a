/**
 * Transaction arguments from hostile bytes: whatever the bytes, an entry call or a script answers a
 * VM error (FAILED_TO_DESERIALIZE_ARGUMENT, ...) or a Move abort, or runs; it never throws and
 * never answers an invariant violation.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import { validatorTxnEnabled } from "../../../src/move/vm/natives/consensus_config.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import type { SessionId } from "../../../src/move/vm/SessionId.js"
import { genesisState } from "./genesisState.js"
import { transferScriptBytes } from "./transferScript.js"

const ONE = addressFromNumber(1)
const CORE = addressFromNumber(0xa550c18)
const devnet = genesisState("devnet")
const vm = new MoveVm()
const id: SessionId = { _tag: "Txn", sender: CORE, sequenceNumber: 0n, scriptHash: new Uint8Array() }
const metadataTag: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "fungible_asset", name: "Metadata", typeArgs: [] }
}
const bytes = fc.uint8Array({ maxLength: 80 })
const acceptable = new Set([
  "FAILED_TO_DESERIALIZE_ARGUMENT",
  "NUMBER_OF_ARGUMENTS_MISMATCH",
  "NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH",
  "OUT_OF_GAS"
])

describe("transaction arguments from arbitrary bytes", () => {
  it("entry functions with Object<T>, String and u64 arguments never throw", () => {
    const calls: ReadonlyArray<{ module: string; fn: string; tyArgs: TypeTag[]; arity: number }> = [
      { module: "primary_fungible_store", fn: "transfer", tyArgs: [metadataTag], arity: 3 },
      { module: "aptos_account", fn: "transfer", tyArgs: [], arity: 2 },
      { module: "account", fn: "set_originating_address", tyArgs: [], arity: 0 }
    ]
    fc.assert(
      fc.property(fc.constantFrom(...calls), fc.array(bytes, { maxLength: 4 }), (c, args) => {
        const o = vm.session(devnet.view, { id }).execute(
          {
            module: { address: ONE, name: c.module },
            function: c.fn,
            tyArgs: c.tyArgs,
            signers: [CORE],
            args
          },
          { mode: "entry" }
        )
        if (o._tag === "Error")
          expect(
            acceptable.has(o.error.status) || o.error.status === "EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION"
          ).toBe(true)
      }),
      { numRuns: 150 }
    )
  })

  it("a script with serialized arguments of any bytes never throws", () => {
    fc.assert(
      fc.property(bytes, bytes, (a, b) => {
        const o = vm.session(devnet.view, { id }).executeScript(
          {
            code: transferScriptBytes,
            typeArgs: [],
            args: [
              { _tag: "Serialized", value: a },
              { _tag: "Serialized", value: b }
            ]
          },
          [CORE]
        )
        if (o._tag === "Error") expect(acceptable.has(o.error.status)).toBe(true)
      }),
      { numRuns: 150 }
    )
  })

  it("script bytes that are not a script answer CODE_DESERIALIZATION_ERROR", () => {
    fc.assert(
      fc.property(bytes, (code) => {
        const o = vm.session(devnet.view, { id }).executeScript({ code, typeArgs: [], args: [] }, [CORE])
        expect(o._tag === "Error" && o.error.status).toBe("CODE_DESERIALIZATION_ERROR")
      }),
      { numRuns: 100 }
    )
  })

  it("the consensus config parser answers a boolean for any bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (b) => typeof validatorTxnEnabled(b) === "boolean"))
  })
})
