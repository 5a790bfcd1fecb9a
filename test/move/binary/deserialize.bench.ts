import { Result } from "effect"
import { test } from "vitest"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import { moduleAbi } from "../../../src/move/abi/moduleAbi.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { serializeModule } from "../../../src/move/binary/serialize.js"
import { loadGenesisBytes } from "../../support/genesis.js"

// Run: npx vitest bench --run test/move/binary/deserialize.bench.ts
// One iteration processes all 190 devnet framework modules (0.69 MB of bytecode).

const devnet = Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet"))).map((r) => r.bytes)
const models = devnet.map((b) => Result.getOrThrow(deserializeModule(b)))

test("190 devnet framework modules per iteration", async ({ bench }) => {
  await bench.compare(
    bench("deserializeModule, all 190", () => {
      for (const b of devnet) deserializeModule(b)
    }),
    bench("serializeModule, all 190", () => {
      for (const m of models) serializeModule(m)
    }),
    bench("moduleAbi, all 190", () => {
      for (const m of models) moduleAbi(m)
    }),
    { time: 2_000 }
  )
})
