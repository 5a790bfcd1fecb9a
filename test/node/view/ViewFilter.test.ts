import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Result } from "effect"
import fc from "fast-check"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { ApiError } from "../../../src/domain/ApiError.js"
import { LedgerMemory } from "../../../src/ledger/index.js"
import type { ViewRequest } from "../../../src/node/Views.js"
import { makeNodeConfig, nodeConfigLayer } from "../../../src/node/NodeConfig.js"
import { parseViewFilterJson, type ViewFilter, viewAllowed } from "../../../src/node/view/ViewFilter.js"
import { ViewsVmLayer } from "../../../src/node/view/ViewsVm.js"
import { Views } from "../../../src/node/Views.js"
import { devnetGenesis } from "../fixtures.js"

const ONE = addressFromNumber(1)
const APT = "0x1::aptos_coin::AptosCoin"
const balance = { address: ONE, module: "coin", functionName: "balance" }

const layerWith = (filter: ViewFilter) =>
  ViewsVmLayer.pipe(
    Layer.provide(
      Layer.merge(
        LedgerMemory.layer({ genesis: devnetGenesis }),
        nodeConfigLayer(makeNodeConfig({ viewFilter: filter }))
      )
    )
  )

const json = (fn: string, tyArgs: string[], args: unknown[]): ViewRequest => ({
  _tag: "Json",
  body: { function: fn, type_arguments: tyArgs, arguments: args }
})

const run = (request: ViewRequest) =>
  Effect.gen(function* () {
    const exit = yield* Effect.exit((yield* Views).view(request, undefined))
    if (Exit.isSuccess(exit)) return { ok: exit.value.value.json }
    const e = exit.cause.reasons.find((r) => r._tag === "Fail")
    if (e === undefined || e._tag !== "Fail") throw new Error("expected a typed failure")
    return { error: e.error as ApiError }
  })

describe("the view filter (api.view_filter)", () => {
  it.effect("an allowlist admits only its functions; the rest are 403 invalid_input without ledger info", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual((yield* run(json("0x1::coin::balance", [APT], ["0xa550c18"]))).ok, [
        "18446744073709551615"
      ])
      const denied = (yield* run(json("0x1::chain_id::get", [], []))).error!
      assert.strictEqual(denied.status, 403)
      assert.strictEqual(denied.code, "invalid_input")
      assert.strictEqual(denied.message, `Function ${"0".repeat(63)}1::chain_id::get is not allowed`)
      assert.isUndefined(denied.ledger)
      assert.isUndefined(denied.vmErrorCode)
    }).pipe(Effect.provide(layerWith({ _tag: "Allowlist", functions: [balance] })))
  )

  it.effect("a blocklist refuses its functions; argument errors are reported before the filter, as the reference", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual((yield* run(json("0x1::chain_id::get", [], []))).ok, [243])
      const denied = (yield* run(json("0x1::coin::balance", [APT], ["0xa550c18"]))).error!
      assert.strictEqual(denied.status, 403)
      const badArgument = (yield* run(json("0x1::coin::balance", [APT], [1]))).error!
      assert.strictEqual(badArgument.status, 400)
      assert.isDefined(badArgument.ledger)
      // The BCS body is filtered too.
      const bcs = (yield* run({ _tag: "Bcs", body: bcsBalance() })).error!
      assert.strictEqual(bcs.status, 403)
    }).pipe(Effect.provide(layerWith({ _tag: "Blocklist", functions: [balance] })))
  )

  it("matches address, module and function exactly; no filter allows everything", () => {
    const m = { address: ONE, name: "coin" }
    assert.isTrue(viewAllowed(undefined, m, "anything"))
    assert.isTrue(viewAllowed({ _tag: "Allowlist", functions: [balance] }, m, "balance"))
    assert.isFalse(viewAllowed({ _tag: "Allowlist", functions: [balance] }, m, "name"))
    assert.isFalse(
      viewAllowed(
        { _tag: "Allowlist", functions: [balance] },
        { address: addressFromNumber(2), name: "coin" },
        "balance"
      )
    )
    assert.isFalse(viewAllowed({ _tag: "Allowlist", functions: [] }, m, "balance"))
    assert.isTrue(viewAllowed({ _tag: "Blocklist", functions: [] }, m, "balance"))
  })

  it("is read from the config file's reference-shaped JSON; anything else is a clear error", () => {
    const ok = parseViewFilterJson({ allowlist: [{ address: "0x1", module: "coin", function_name: "balance" }] })
    assert.isTrue(Result.isSuccess(ok))
    if (Result.isSuccess(ok)) assert.deepStrictEqual(ok.success, { _tag: "Allowlist", functions: [balance] })
    for (const [bad, message] of [
      [[], "viewFilter must be"],
      [{ allowlist: [], blocklist: [] }, "viewFilter must be"],
      [{ blocklist: {} }, "viewFilter.blocklist must be an array"],
      [{ blocklist: [{ address: "0xzz", module: "coin", function_name: "x" }] }, "viewFilter.blocklist[0].address"],
      [{ blocklist: [{ address: "0x1", module: "co in", function_name: "x" }] }, "viewFilter.blocklist[0].module"],
      [{ blocklist: [{ address: "0x1", module: "coin" }] }, "viewFilter.blocklist[0].function_name"]
    ] as const) {
      const r = parseViewFilterJson(bad)
      assert.isTrue(Result.isFailure(r))
      if (Result.isFailure(r)) assert.include(r.failure, message)
    }
    fc.assert(fc.property(fc.jsonValue(), (u) => void parseViewFilterJson(u)))
  })
})

/** BCS `ViewFunction` for coin::balance<AptosCoin>(0xa550c18). */
const bcsBalance = (): Uint8Array => {
  const bytes: number[] = [...ONE, 4, ...Buffer.from("coin"), 7, ...Buffer.from("balance"), 1, 7, ...ONE]
  bytes.push(10, ...Buffer.from("aptos_coin"), 9, ...Buffer.from("AptosCoin"), 0)
  bytes.push(1, 32, ...addressFromNumber(0xa550c18))
  return new Uint8Array(bytes)
}
