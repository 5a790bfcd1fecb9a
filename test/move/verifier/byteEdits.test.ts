/**
 * The whole verifier on framework modules with random byte edits: whatever the deserializer reads
 * back, every pass answers (accepts or refuses with a status) and none throws — a throw would come
 * back as VERIFIER_INVARIANT_VIOLATION (`guarded` in `index.ts`), which is what this looks for.
 */
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { verifyModule } from "../../../src/move/verifier/index.js"
import { loadGenesisBytes } from "../../support/genesis.js"
import { frameworkOf, resolverOf } from "./support.js"

describe("random byte edits of framework modules", () => {
  const bytes = Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet"))).map((r) => r.bytes)
  const resolve = resolverOf(frameworkOf("devnet"))

  it("never make a pass throw", () => {
    let read = 0
    const statuses = new Set<string>()
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: bytes.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        (which, edits) => {
          const b = bytes[which]!.slice()
          for (const [at, value] of edits) b[at % b.length] = value
          const m = deserializeModule(b)
          if (Result.isFailure(m)) return
          read++
          const f = verifyModule(m.success, resolve)
          if (f !== undefined) statuses.add(f.status)
          expect(f?.status).not.toBe("VERIFIER_INVARIANT_VIOLATION")
        }
      ),
      { numRuns: Number(process.env.EDITS ?? 3000), seed: Number(process.env.EDITS_SEED ?? 0x35) }
    )
    // Enough edits survive the deserializer to reach the passes, and the passes refuse in many ways.
    expect(read).toBeGreaterThan(200)
    expect(statuses.size).toBeGreaterThan(5)
  })
})
