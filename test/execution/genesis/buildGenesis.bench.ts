/**
 * Building a local chain's genesis (chain id 4, one validator, devnet's framework):
 * cold = a fresh VM (modules decoded and linked again, what a process start pays), as a local chain
 * builds it (`localGenesisVm`: the validator's constant key is not verified again) and with the
 * proof of possession verified (a plain `MoveVm`: one BLS12-381 pairing check); warm = the same VM
 * again. A fresh process pays more than "cold" (code not yet optimised): docs/genesis.md.
 *
 *   nice npx vitest bench --run test/execution/genesis/buildGenesis.bench.ts
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { Result } from "effect"
import { test } from "vitest"
import { decodeGenesisTransaction } from "../../../src/domain/Genesis.js"
import {
  buildGenesis,
  frameworkOfGenesis,
  genesisParamsOf,
  localGenesisParams,
  localGenesisVm
} from "../../../src/execution/genesis/index.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { genesisState } from "../../move/vm/genesisState.js"
import { loadGenesisBytes } from "../../support/genesis.js"

const decoded = decodeGenesisTransaction(loadGenesisBytes("devnet"))
if (Result.isFailure(decoded)) throw new Error(decoded.failure.message)
const framework = frameworkOfGenesis(decoded.success)
const params = localGenesisParams(genesisParamsOf(new MoveVm(), genesisState("devnet").view), {
  rootPublicKey: ed25519.getPublicKey(new Uint8Array(32).fill(9))
})
const warm = localGenesisVm()
buildGenesis(framework, params, warm)
const build = (vm: MoveVm) => {
  if (buildGenesis(framework, params, vm)._tag !== "Built") throw new Error("failed")
}

test("local genesis build", async ({ bench }) => {
  await bench.compare(
    bench("cold (localGenesisVm)", () => build(localGenesisVm())),
    bench("cold, proof of possession verified (new MoveVm)", () => build(new MoveVm())),
    bench("warm (same VM)", () => build(warm)),
    { time: 4_000, iterations: 5 }
  )
})
