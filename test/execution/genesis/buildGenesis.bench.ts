/**
 * Building a local chain's genesis (chain id 4, one validator, devnet's framework):
 * cold = a fresh `MoveVm` (modules decoded and linked again, what a process start pays),
 * warm = the same VM again. The proof-of-possession check runs with @noble/curves when the VM has
 * no BLS natives yet.
 *
 *   nice npx vitest bench --run test/execution/genesis/buildGenesis.bench.ts
 */
import { bls12_381 } from "@noble/curves/bls12-381.js"
import { ed25519 } from "@noble/curves/ed25519.js"
import { Result } from "effect"
import { test } from "vitest"
import { decodeGenesisTransaction } from "../../../src/domain/Genesis.js"
import {
  buildGenesis,
  frameworkOfGenesis,
  genesisParamsOf,
  localGenesisParams,
  POP_DST
} from "../../../src/execution/genesis/index.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { frameworkNatives, type NativeFunction } from "../../../src/move/vm/natives/index.js"
import { genesisState } from "../../move/vm/genesisState.js"
import { loadGenesisBytes } from "../../support/genesis.js"

const POP = "0x1::bls12381::verify_proof_of_possession_internal"
const pop: NativeFunction = (_c, _t, [pk, sig]) => {
  const bls = bls12_381.longSignatures
  const k = Uint8Array.from(pk as number[])
  return [bls.verify(Uint8Array.from(sig as number[]), bls.hash(k, POP_DST), k)]
}
const newVm = (): MoveVm => {
  if (frameworkNatives.has(POP)) return new MoveVm()
  const table = new Map(frameworkNatives)
  table.set(POP, pop)
  return new MoveVm({ natives: table })
}
const decoded = decodeGenesisTransaction(loadGenesisBytes("devnet"))
if (Result.isFailure(decoded)) throw new Error(decoded.failure.message)
const framework = frameworkOfGenesis(decoded.success)
const params = localGenesisParams(genesisParamsOf(newVm(), genesisState("devnet").view), {
  rootPublicKey: ed25519.getPublicKey(new Uint8Array(32).fill(9))
})
const warm = newVm()
buildGenesis(framework, params, warm)

test("local genesis build", async ({ bench }) => {
  await bench.compare(
    bench("cold (fresh MoveVm)", () => {
      if (buildGenesis(framework, params, newVm())._tag !== "Built") throw new Error("failed")
    }),
    bench("warm (same MoveVm)", () => {
      if (buildGenesis(framework, params, warm)._tag !== "Built") throw new Error("failed")
    }),
    { time: 4_000, iterations: 5 }
  )
})
