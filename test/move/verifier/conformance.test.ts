/**
 * Conformance of the bytecode verifier (src/move/verifier) against code nobody here wrote: every
 * module of the devnet (bytecode v10) and mainnet (v5) genesis frameworks, the TypeScript SDK's
 * modules and scripts, and the modules and scripts the tests assemble by hand. The reference's
 * verifier accepted all of it, so a refusal by any pass — each checked alone, so that a fault names
 * its pass, then all of them through `verifyModule`/`verifyScript` with the dependencies — is a
 * fault of ours.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule, deserializeScript } from "../../../src/move/binary/deserialize.js"
import { verifyConstants } from "../../../src/move/verifier/constants.js"
import { verifyControlFlow } from "../../../src/move/verifier/controlFlow.js"
import { describeFailure, verifyModule, verifyScript } from "../../../src/move/verifier/index.js"
import { verifyFriends } from "../../../src/move/verifier/friends.js"
import { verifyInstantiationLoops } from "../../../src/move/verifier/instantiationLoops.js"
import { verifyLimits } from "../../../src/move/verifier/limits.js"
import { verifyLocalsSafety } from "../../../src/move/verifier/localsSafety.js"
import { verifyReferenceSafety } from "../../../src/move/verifier/referenceSafety.js"
import { verifyAcquires } from "../../../src/move/verifier/referenceSafetyAcquires.js"
import { verifySignatures } from "../../../src/move/verifier/signatures.js"
import { verifyStructDefinitions } from "../../../src/move/verifier/structDefinitions.js"
import { verifyTypeSafety } from "../../../src/move/verifier/typeSafety.js"
import type { VerifyFailure } from "../../../src/move/verifier/VerifyFailure.js"
import { ALL_GENESIS, describeEachGenesis } from "../../support/genesis.js"
import {
  describeRefusal,
  frameworkOf,
  keyOf,
  moduleFrom,
  ownBytecode,
  resolverOf,
  scriptModuleFrom
} from "./support.js"

const passes: ReadonlyArray<readonly [string, (m: CompiledModule) => VerifyFailure | undefined]> = [
  ["limits", verifyLimits],
  ["signatures", verifySignatures],
  ["constants", verifyConstants],
  ["struct definitions", verifyStructDefinitions],
  ["instantiation loops", verifyInstantiationLoops],
  ["friends", verifyFriends],
  ["control flow", verifyControlFlow],
  ["type safety", verifyTypeSafety],
  ["locals safety", verifyLocalsSafety],
  ["reference safety", verifyReferenceSafety],
  ["acquires", verifyAcquires]
]

const refusals = (
  modules: ReadonlyArray<{ readonly name: string; readonly m: CompiledModule }>,
  pass: (m: CompiledModule) => VerifyFailure | undefined
) =>
  modules.flatMap(({ name, m }) => {
    const f = pass(m)
    return f === undefined ? [] : [`${name}: ${describeRefusal(m, f)}`]
  })

describeEachGenesis(ALL_GENESIS, "%s genesis: the verifier accepts the framework", (net) => {
  const modules = frameworkOf(net)
  const resolve = resolverOf(modules)

  it.each(passes)("%s: every module", (_, pass) => {
    expect(
      refusals(
        modules.map((m) => ({ name: keyOf(m), m })),
        pass
      )
    ).toEqual([])
    expect(modules.length).toBeGreaterThan(60)
  })

  it("every module verifies against the others (every pass and the dependencies)", () => {
    const refused = modules.flatMap((m) => {
      const f = verifyModule(m, resolve)
      return f === undefined ? [] : [`${keyOf(m)}: ${f.status} ${describeFailure(m, f)}`]
    })
    expect(refused).toEqual([])
  })

  it("the SDK's and the tests' modules and scripts verify against this framework, with their dependencies", () => {
    const own = ownBytecode()
    const ownModules = own.filter((o) => o.kind === "module").map((o) => Result.getOrThrow(deserializeModule(o.bytes)))
    // The SDK's packages may use each other (published together or one after another).
    const withOwn = resolverOf([...modules, ...ownModules])
    const refused: string[] = []
    for (const o of own) {
      const f =
        o.kind === "module"
          ? verifyModule(Result.getOrThrow(deserializeModule(o.bytes)), withOwn)
          : verifyScript(Result.getOrThrow(deserializeScript(o.bytes)), withOwn)
      // Code built for the newest framework may name what the older mainnet genesis lacks.
      const older = net === "mainnet" && (f?.status === "LINKER_ERROR" || f?.status === "LOOKUP_FAILED")
      if (f !== undefined && !older) refused.push(`${o.name}: ${f.status} ${f.message}`)
    }
    expect(refused).toEqual([])
  })
})

describe("every pass accepts the SDK's and the tests' own bytecode", () => {
  const own = ownBytecode().map((o) => ({
    name: o.name,
    m: o.kind === "module" ? moduleFrom(o.bytes) : scriptModuleFrom(o.bytes)
  }))

  it.each(passes)("%s", (_, pass) => {
    expect(refusals(own, pass)).toEqual([])
    expect(own.length).toBeGreaterThan(10)
  })
})
