/** The TransactionEncoder layer over an in-memory ledger at devnet genesis: statuses, codes, ledger headers. */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { toHex } from "../../../src/bcs/index.js"
import type { ApiError } from "../../../src/domain/ApiError.js"
import { LedgerMemory } from "../../../src/ledger/index.js"
import { TransactionEncoderLive } from "../../../src/node/encode/TransactionEncoderLive.js"
import { TransactionEncoder } from "../../../src/node/TransactionEncoder.js"
import { loadGenesisBytes } from "../../support/genesis.js"
import { sdkSigningMessage } from "./sdkOracle.js"

const layer = TransactionEncoderLive.pipe(Layer.provide(LedgerMemory.layer({ genesis: loadGenesisBytes("devnet") })))

const body = (payload: unknown, extra: Record<string, unknown> = {}) => ({
  sender: "0xa11ce",
  sequence_number: "7",
  max_gas_amount: "2000",
  gas_unit_price: "100",
  expiration_timestamp_secs: "1900000000",
  payload,
  ...extra
})
const transfer = {
  type: "entry_function_payload",
  function: "0x1::aptos_account::transfer",
  type_arguments: [],
  arguments: ["0xb0b", "1000"]
}

const fail = (b: unknown): Effect.Effect<ApiError, unknown, TransactionEncoder> =>
  Effect.gen(function* () {
    const encoder = yield* TransactionEncoder
    return yield* Effect.flip(encoder.encodeSubmission(b))
  })

describe("TransactionEncoderLive", () => {
  it.effect("answers the signing message with the ledger info, chain id from the ledger", () =>
    Effect.gen(function* () {
      const encoder = yield* TransactionEncoder
      const { ledger, value } = yield* encoder.encodeSubmission(body(transfer))
      assert.strictEqual(ledger.ledgerVersion, 0n)
      const expected = sdkSigningMessage({
        sender: "0xa11ce",
        sequenceNumber: 7n,
        maxGasAmount: 2000n,
        gasUnitPrice: 100n,
        expirationTimestampSecs: 1900000000n,
        chainId: ledger.chainId,
        function: "0x1::aptos_account::transfer",
        typeArguments: [],
        parameters: ["address", "u64"],
        typeParameterCount: 0,
        arguments: ["0x" + "b0b".padStart(64, "0"), "1000"]
      })
      assert.strictEqual(toHex(value), toHex(expected))
    }).pipe(Effect.provide(layer))
  )

  it.effect("body parse errors: 400 web_framework_error without ledger", () =>
    Effect.gen(function* () {
      const e = yield* fail({ ...body(transfer), sender: "0xnope" })
      assert.strictEqual(e.status, 400)
      assert.strictEqual(e.code, "web_framework_error")
      assert.isUndefined(e.ledger)
    }).pipe(Effect.provide(layer))
  )

  it.effect("verify errors: 400 invalid_input without ledger", () =>
    Effect.gen(function* () {
      const e = yield* fail(body({ type: "module_bundle_payload" }))
      assert.strictEqual(e.status, 400)
      assert.strictEqual(e.code, "invalid_input")
      assert.strictEqual(e.message, "'UserTransactionRequest' invalid: Module bundle payload has been removed")
      assert.isUndefined(e.ledger)
    }).pipe(Effect.provide(layer))
  )

  it.effect("conversion errors: 400 invalid_input with ledger, the reference's message", () =>
    Effect.gen(function* () {
      const e = yield* fail(body({ ...transfer, arguments: [] }))
      assert.strictEqual(e.status, 400)
      assert.strictEqual(e.code, "invalid_input")
      assert.strictEqual(
        e.message,
        "The given transaction is invalid: Failed to parse transaction payload: expected 2 arguments [string<address>, string<u64>], but got 0 ([])"
      )
      assert.isDefined(e.ledger)
      const missing = yield* fail(body({ ...transfer, function: "0x1::invalid::f" }))
      assert.strictEqual(
        missing.message,
        'The given transaction is invalid: Failed to parse transaction payload: Module ModuleId { address: 0x1, name: Identifier("invalid") } can\'t be found'
      )
      assert.isDefined(missing.ledger)
    }).pipe(Effect.provide(layer))
  )
})
