import { Result } from "effect"
import { test } from "vitest"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { verifyConstants } from "../../../src/move/verifier/constants.js"
import { verifyControlFlow } from "../../../src/move/verifier/controlFlow.js"
import { verifyDependencies } from "../../../src/move/verifier/dependencies.js"
import { verifyModule } from "../../../src/move/verifier/index.js"
import { verifyInstantiationLoops } from "../../../src/move/verifier/instantiationLoops.js"
import { verifyLimits } from "../../../src/move/verifier/limits.js"
import { verifyLocalsSafety } from "../../../src/move/verifier/localsSafety.js"
import { verifyNoCycles } from "../../../src/move/verifier/moduleCycles.js"
import { verifyReferenceSafety } from "../../../src/move/verifier/referenceSafety.js"
import { verifyTypeSafety } from "../../../src/move/verifier/typeSafety.js"
import { loadGenesisBytes } from "../../support/genesis.js"
import { frameworkOf, resolverOf } from "./support.js"

// Run: npx vitest bench --run test/move/verifier/verifier.bench.ts
// One iteration verifies all 190 devnet framework modules (0.69 MB of bytecode): what publishing
// the whole framework again would cost; a user's package is a few modules. Against deserializing
// the same modules (test/move/binary/deserialize.bench.ts), which every publish does anyway.

const modules = frameworkOf("devnet")
const bytes = Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet"))).map((r) => r.bytes)
const resolve = resolverOf(modules)

test("190 devnet framework modules per iteration", { timeout: 300_000 }, async ({ bench }) => {
  await bench.compare(
    bench("deserializeModule, all 190", () => {
      for (const b of bytes) deserializeModule(b)
    }),
    bench("verifyModule (every pass), all 190", () => {
      for (const m of modules) verifyModule(m, resolve)
    }),
    bench("type safety, all 190", () => {
      for (const m of modules) verifyTypeSafety(m)
    }),
    bench("locals safety, all 190", () => {
      for (const m of modules) verifyLocalsSafety(m)
    }),
    bench("reference safety, all 190", () => {
      for (const m of modules) verifyReferenceSafety(m)
    }),
    bench("dependencies, all 190", () => {
      for (const m of modules) verifyDependencies(m, m.selfModuleHandleIndex, resolve)
    }),
    bench("control flow and loops, all 190", () => {
      for (const m of modules) verifyControlFlow(m)
    }),
    bench("limits, constants, instantiation loops, all 190", () => {
      for (const m of modules) verifyLimits(m) ?? verifyConstants(m) ?? verifyInstantiationLoops(m)
    }),
    bench("module cycles (dependencies and friends), all 190", () => {
      for (const m of modules) verifyNoCycles(m, resolve)
    }),
    { time: 500, iterations: 10 }
  )
})
