import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import fc from "fast-check"
import { BcsWriter } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { ApiError } from "../../../src/domain/ApiError.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import { writeModuleId, writeTypeTag } from "../../../src/domain/TypeTagCodec.js"
import { LedgerMemory } from "../../../src/ledger/index.js"
import type { ViewRequest } from "../../../src/node/Views.js"
import { defaultNodeConfig, nodeConfigLayer } from "../../../src/node/NodeConfig.js"
import { ViewsVmLayer } from "../../../src/node/view/ViewsVm.js"
import { Views } from "../../../src/node/Views.js"
import { devnetGenesis } from "../fixtures.js"

const layer = ViewsVmLayer.pipe(
  Layer.provide(Layer.merge(LedgerMemory.layer({ genesis: devnetGenesis }), nodeConfigLayer(defaultNodeConfig)))
)

const json = (body: unknown): ViewRequest => ({ _tag: "Json", body })

const bcsBody = (module: string, fn: string, tyArgs: TypeTag[], args: Uint8Array[]): ViewRequest => {
  const w = new BcsWriter()
  writeModuleId(w, { address: addressFromNumber(1), name: module })
  w.string(fn)
  w.uleb128(tyArgs.length)
  for (const t of tyArgs) writeTypeTag(w, t)
  w.uleb128(args.length)
  for (const a of args) w.bytesWithLength(a)
  return { _tag: "Bcs", body: w.toBytes() }
}

const view = (request: ViewRequest, version?: bigint) =>
  Effect.gen(function* () {
    return yield* (yield* Views).view(request, version)
  })
const failure = (request: ViewRequest, version?: bigint) =>
  Effect.map(Effect.exit(view(request, version)), (exit): ApiError => {
    if (Exit.isSuccess(exit)) throw new Error("expected a failure")
    const e = exit.cause.reasons.find((r) => r._tag === "Fail")
    if (e === undefined || e._tag !== "Fail") throw new Error("expected a typed failure")
    return e.error as ApiError
  })

const APT = "0x1::aptos_coin::AptosCoin"
const U64_MAX = "18446744073709551615"

describe("POST /view over the VM", () => {
  it.effect("coin::balance<AptosCoin>(0xa550c18) is u64::MAX, as JSON and BCS, with gas used", () =>
    Effect.gen(function* () {
      const { ledger, value } = yield* view(
        json({ function: "0x1::coin::balance", type_arguments: [APT], arguments: ["0xa550c18"] })
      )
      assert.strictEqual(ledger.ledgerVersion, 0n)
      assert.deepStrictEqual(value.json, [U64_MAX])
      assert.deepStrictEqual([...value.bcsValues[0]!], [255, 255, 255, 255, 255, 255, 255, 255])
      assert.isTrue(value.gasUsed > 0n)
    }).pipe(Effect.provide(layer))
  )

  it.effect("numbers, strings, Option and Object render as the reference does", () =>
    Effect.gen(function* () {
      const chain = yield* view(json({ function: "0x1::chain_id::get", type_arguments: [], arguments: [] }))
      assert.deepStrictEqual(chain.value.json, [243])
      const name = yield* view(json({ function: "0x1::coin::name", type_arguments: [APT], arguments: [] }))
      assert.deepStrictEqual(name.value.json, ["Aptos Coin"])
      const supply = yield* view(
        json({
          function: "0x1::fungible_asset::supply",
          type_arguments: ["0x1::object::ObjectCore"],
          arguments: ["0xa"]
        })
      )
      assert.deepStrictEqual(supply.value.json, [{ vec: [U64_MAX] }])
      const store = yield* view(
        json({
          function: "0x1::primary_fungible_store::primary_store",
          type_arguments: ["0x1::object::ObjectCore"],
          arguments: ["0xa550c18", "0xa"]
        })
      )
      const inner = (store.value.json[0] as { inner: string }).inner
      assert.match(inner, /^0x[0-9a-f]+$/)
    }).pipe(Effect.provide(layer))
  )

  it.effect("a BCS body gives the same values", () =>
    Effect.gen(function* () {
      const { value } = yield* view(bcsBody("chain_id", "get", [], []))
      assert.deepStrictEqual([...value.bcsValues[0]!], [243])
      const bal = yield* view(
        bcsBody(
          "coin",
          "balance",
          [
            {
              _tag: "struct",
              struct: { address: addressFromNumber(1), module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
            }
          ],
          [addressFromNumber(0xa550c18)]
        )
      )
      assert.deepStrictEqual(bal.value.json, [U64_MAX])
    }).pipe(Effect.provide(layer))
  )

  it.effect("a function without the view attribute is the reference's 400", () =>
    Effect.gen(function* () {
      const e = yield* failure(
        json({ function: "0x1::aptos_account::assert_account_exists", type_arguments: [], arguments: ["0x1"] })
      )
      assert.strictEqual(e.status, 400)
      assert.strictEqual(e.code, "invalid_input")
      assert.strictEqual(
        e.message,
        "PartialVMError with status INVALID_MAIN_FUNCTION_SIGNATURE and message function not marked as view function"
      )
      assert.isUndefined(e.vmErrorCode)
    }).pipe(Effect.provide(layer))
  )

  it.effect("a Move abort is explained through the module's error map", () =>
    Effect.gen(function* () {
      const e = yield* failure(
        json({ function: "0x1::object::owner", type_arguments: ["0x1::object::ObjectCore"], arguments: ["0xdead"] })
      )
      assert.strictEqual(e.status, 400)
      assert.match(e.message, /^Move abort in 0x1::object: EOBJECT_DOES_NOT_EXIST\(0x60002\): /)
      assert.strictEqual(e.vmErrorCode, 4016n)
      assert.strictEqual(e.ledger?.ledgerVersion, 0n)
    }).pipe(Effect.provide(layer))
  )

  it.effect("type-argument count, argument conversion and body shape are checked", () =>
    Effect.gen(function* () {
      const a = yield* failure(json({ function: "0x1::coin::balance", type_arguments: [], arguments: ["0x1"] }))
      assert.strictEqual(a.message, "expected 1 type arguments for view function balance, but got 0")
      const b = yield* failure(json({ function: "0x1::coin::balance", type_arguments: [APT], arguments: [1] }))
      assert.match(b.message, /^parse arguments\[0\] failed, expect string<address>/)
      const c = yield* failure(json({ function: "0x1::coin::balance", type_arguments: [APT] }))
      assert.strictEqual(c.code, "web_framework_error")
      const d = yield* failure(json({ function: "0x1::nope::f", type_arguments: [], arguments: [] }))
      assert.strictEqual(d.code, "invalid_input")
      const e = yield* failure({ _tag: "Bcs", body: new Uint8Array([1, 2, 3]) })
      assert.match(e.message, /^Failed to deserialize input into ViewRequest/)
    }).pipe(Effect.provide(layer))
  )

  it.effect("a ledger version above the latest is 404", () =>
    Effect.gen(function* () {
      const e = yield* failure(json({ function: "0x1::chain_id::get", type_arguments: [], arguments: [] }), 5n)
      assert.strictEqual(e.status, 404)
      assert.strictEqual(e.code, "version_not_found")
    }).pipe(Effect.provide(layer))
  )

  it.effect("hostile BCS bodies and JSON arguments fail with an ApiError, never a defect", () =>
    Effect.gen(function* () {
      const service = yield* Views
      const samples = fc.sample(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }).map((b): ViewRequest => ({ _tag: "Bcs", body: b })),
          fc
            .record({
              function: fc.constantFrom(
                "0x1::coin::balance",
                "0x1::account::exists_at",
                "0x1::fungible_asset::supply",
                "x"
              ),
              type_arguments: fc.array(fc.constantFrom(APT, "u8", "vector<u64>", "0x1::object::ObjectCore", "bad<"), {
                maxLength: 2
              }),
              arguments: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 3 })
            })
            .map((b): ViewRequest => ({ _tag: "Json", body: b }))
        ),
        300
      )
      for (const s of samples) {
        const exit = yield* Effect.exit(service.view(s, undefined))
        if (Exit.isFailure(exit)) assert.isTrue(exit.cause.reasons.every((r) => r._tag === "Fail"))
      }
    }).pipe(Effect.provide(layer))
  )
})
