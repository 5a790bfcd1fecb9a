/**
 * Issue 11 item 4: a view argument's size must never reach a host recursion or an argument spread.
 * `delegation_pool::get_expected_stake_pool_address(owner, seed)` appends the seed to a salt with
 * `vector::append`, whose `move_range` native spread the moved elements as call arguments: at
 * ~497 KB that overflowed the JS stack and answered 400 EXECUTION_STACK_OVERFLOW.
 */
import { assert, describe, it } from "@effect/vitest"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { Effect, Exit, Layer } from "effect"
import { LedgerMemory } from "../../../src/ledger/index.js"
import { makeNodeConfig, nodeConfigLayer } from "../../../src/node/NodeConfig.js"
import { ViewsVmLayer } from "../../../src/node/view/ViewsVm.js"
import { Views } from "../../../src/node/Views.js"
import { devnetGenesis } from "../fixtures.js"

const layer = ViewsVmLayer.pipe(
  Layer.provide(Layer.merge(LedgerMemory.layer({ genesis: devnetGenesis }), nodeConfigLayer(makeNodeConfig({}))))
)

/** `account::create_resource_address(owner, "aptos_framework::delegation_pool" ++ seed)`, computed here. */
const expectedPoolAddress = (seed: Uint8Array): string => {
  const salt = new TextEncoder().encode("aptos_framework::delegation_pool")
  const preimage = new Uint8Array(32 + salt.length + seed.length + 1)
  preimage[31] = 1 // owner 0x1
  preimage.set(salt, 32)
  preimage.set(seed, 32 + salt.length)
  preimage[preimage.length - 1] = 0xff // DERIVE_RESOURCE_ACCOUNT_SCHEME
  const hash = Buffer.from(sha3_256(preimage)).toString("hex").replace(/^0+/, "")
  return `0x${hash === "" ? "0" : hash}`
}

describe("large vector arguments", () => {
  for (const bytes of [16, 497_265, 1_000_000])
    it.effect(`a ${bytes}-byte vector<u8> seed returns its pool address`, () =>
      Effect.gen(function* () {
        const exit = yield* Effect.exit(
          (yield* Views).view(
            {
              _tag: "Json",
              body: {
                function: "0x1::delegation_pool::get_expected_stake_pool_address",
                type_arguments: [],
                arguments: ["0x1", `0x${"ab".repeat(bytes)}`]
              }
            },
            undefined
          )
        )
        assert.isTrue(Exit.isSuccess(exit), Exit.isFailure(exit) ? String(exit.cause) : "")
        if (Exit.isSuccess(exit))
          assert.deepStrictEqual(exit.value.value.json, [expectedPoolAddress(new Uint8Array(bytes).fill(0xab))])
      }).pipe(Effect.provide(layer))
    )
})
