/**
 * Conformance of the bytecode verifier (src/move/verifier) against code nobody here wrote: every
 * module of the devnet (bytecode v10) and mainnet (v5) genesis framework, each verified against
 * the other modules of its genesis, and the TypeScript SDK's own modules and scripts. The
 * reference's verifier accepted all of it, so a refusal here is a fault of ours.
 */
import { Result } from "effect"
import { expect, it } from "vitest"
import { toHex } from "../../../src/bcs/index.js"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule, deserializeScript } from "../../../src/move/binary/deserialize.js"
import { describeFailure, verifyModule, verifyScript } from "../../../src/move/verifier/index.js"
import { transferScript, twoSignerTransferScript } from "../../execution/bytecode.js"
import { ALL_GENESIS, describeEachGenesis, loadGenesisBytes } from "../../support/genesis.js"
import { SDK_PUBLISHER_ADDRESS, sdkBytecode, sdkFixtures } from "../../support/sdkBytecode.js"

const keyOf = (m: CompiledModule): string => {
  const h = m.moduleHandles[m.selfModuleHandleIndex]!
  return `${toHex(m.addressIdentifiers[h.address]!)}::${m.identifiers[h.name]!}`
}

const resolverOf = (modules: ReadonlyArray<CompiledModule>) => {
  const byKey = new Map(modules.map((m) => [keyOf(m), m]))
  return (address: Uint8Array, name: string) => byKey.get(`${toHex(address)}::${name}`)
}

describeEachGenesis(ALL_GENESIS, "%s genesis: the verifier accepts the framework", (net) => {
  const modules = Result.getOrThrow(listGenesisModules(loadGenesisBytes(net))).map((r) =>
    Result.getOrThrow(deserializeModule(r.bytes))
  )
  const resolve = resolverOf(modules)

  it("every module verifies against the others", () => {
    const refused = modules.flatMap((m) => {
      const f = verifyModule(m, resolve)
      return f === undefined ? [] : [`${keyOf(m)}: ${f.status} ${describeFailure(m, f)}`]
    })
    expect(refused).toEqual([])
  })

  it("the SDK's modules and scripts verify against this framework", () => {
    const refused: string[] = []
    const own: CompiledModule[] = []
    for (const f of sdkFixtures.filter((x) => x.kind === "module"))
      own.push(Result.getOrThrow(deserializeModule(sdkBytecode(f.name, SDK_PUBLISHER_ADDRESS))))
    // The SDK's packages may use each other (published together or one after another).
    const withOwn = resolverOf([...modules, ...own])
    for (const m of own) {
      const f = verifyModule(m, withOwn)
      // A module built for the newest framework may name what the older mainnet genesis lacks.
      if (f !== undefined && !(net === "mainnet" && f.status === "LINKER_ERROR")) refused.push(`${keyOf(m)}: ${f.status} ${f.message}`)
    }
    for (const f of sdkFixtures.filter((x) => x.kind === "script")) {
      const s = Result.getOrThrow(deserializeScript(sdkBytecode(f.name, SDK_PUBLISHER_ADDRESS)))
      const why = verifyScript(s, withOwn)
      if (why !== undefined && !(net === "mainnet" && (why.status === "LINKER_ERROR" || why.status === "LOOKUP_FAILED")))
        refused.push(`script ${f.name}: ${why.status} ${why.message}`)
    }
    for (const [name, bytes] of [["transferScript", transferScript], ["twoSignerTransferScript", twoSignerTransferScript]] as const) {
      const why = verifyScript(Result.getOrThrow(deserializeScript(bytes)), resolve)
      if (why !== undefined) refused.push(`${name}: ${why.status} ${why.message}`)
    }
    expect(refused).toEqual([])
  })
})
