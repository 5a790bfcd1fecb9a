/**
 * Test helper for the verifier's tests: the code the reference accepted, which every pass must
 * accept too (both genesis frameworks; the SDK's modules and scripts; the modules and scripts the
 * tests assemble by hand), read as modules (a script through `scriptAsModule`), and a refusal as
 * one line naming where it is.
 */
import { Result } from "effect"
import { toHex } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule, deserializeScript } from "../../../src/move/binary/deserialize.js"
import { serializeModule } from "../../../src/move/binary/serialize.js"
import { moduleIdOf } from "../../../src/move/verifier/dependencies.js"
import type { VerifyFailure } from "../../../src/move/verifier/VerifyFailure.js"
import { scriptAsModule } from "../../../src/move/vm/scriptModule.js"
import { changeFeatureFlagsScript } from "../../controls/scripts.js"
import { counterModule, transferScript, twoSignerTransferScript } from "../../execution/bytecode.js"
import { faCoinModule } from "../../explorer/faCoinModule.js"
import { diceModule } from "../../fork/diceModule.js"
import { coinTypeModule } from "../../indexer/processors/support/coinModule.js"
import { type GenesisName, loadGenesisBytes } from "../../support/genesis.js"
import { sdkBytecode, sdkFixtures } from "../../support/sdkBytecode.js"
import { testModuleBytes } from "../vm/testModule.js"
import { transferScriptBytes } from "../vm/transferScript.js"

export const moduleFrom = (bytes: Uint8Array): CompiledModule => Result.getOrThrow(deserializeModule(bytes))
export const scriptModuleFrom = (bytes: Uint8Array): CompiledModule =>
  scriptAsModule(Result.getOrThrow(deserializeScript(bytes)))

/** Through the writer and the reader, as publishing sees it; undefined when either refuses it. */
export const reread = (m: CompiledModule): CompiledModule | undefined => {
  let bytes: Uint8Array
  try {
    bytes = serializeModule(m)
  } catch {
    return undefined
  }
  const r = deserializeModule(bytes)
  return Result.isSuccess(r) ? r.success : undefined
}

/** The address the hand-assembled test modules are published at here. */
export const USER = addressFromNumber(0xbeef)

/** `module::function@offset: STATUS message`. */
export const describeRefusal = (m: CompiledModule, f: VerifyFailure): string => {
  const def = f.functionDef === undefined ? undefined : m.functionDefs[f.functionDef]
  const fn = def === undefined ? "" : `::${m.identifiers[m.functionHandles[def.function]!.name]}`
  return `${m.identifiers[m.moduleHandles[m.selfModuleHandleIndex]!.name]}${fn}@${f.offset}: ${f.status} ${f.message}`
}

const frameworks = new Map<GenesisName, ReadonlyArray<CompiledModule>>()

/** Every module of a genesis framework, decoded once per test file. */
export const frameworkOf = (net: GenesisName): ReadonlyArray<CompiledModule> => {
  let modules = frameworks.get(net)
  if (modules === undefined) {
    modules = Result.getOrThrow(listGenesisModules(loadGenesisBytes(net))).map((r) => moduleFrom(r.bytes))
    frameworks.set(net, modules)
  }
  return modules
}

/** `0x…::name` of a module. */
export const keyOf = (m: CompiledModule): string => moduleIdOf(m, m.selfModuleHandleIndex)

/** A resolver over `modules` (the dependency pass's view of the chain). */
export const resolverOf = (modules: ReadonlyArray<CompiledModule>) => {
  const byKey = new Map(modules.map((m) => [keyOf(m), m]))
  return (address: Uint8Array, name: string) => byKey.get(`${toHex(address)}::${name}`)
}

/** The SDK's and the tests' own modules and scripts, by name (scripts already turned modules). */
export const ownBytecode = (): ReadonlyArray<{
  readonly name: string
  readonly kind: "module" | "script"
  readonly bytes: Uint8Array
}> => [
  ...sdkFixtures.flatMap((f) =>
    f.kind === "metadata" ? [] : [{ name: `SDK ${f.name}`, kind: f.kind, bytes: sdkBytecode(f.name) }]
  ),
  { name: "counterModule", kind: "module", bytes: counterModule(USER) },
  { name: "diceModule", kind: "module", bytes: diceModule(USER) },
  { name: "faCoinModule", kind: "module", bytes: faCoinModule(USER) },
  { name: "coinTypeModule", kind: "module", bytes: coinTypeModule(USER, "coins", "Coin") },
  { name: "vm testModule", kind: "module", bytes: testModuleBytes },
  { name: "transferScript", kind: "script", bytes: transferScript },
  { name: "twoSignerTransferScript", kind: "script", bytes: twoSignerTransferScript },
  { name: "vm transferScript", kind: "script", bytes: transferScriptBytes },
  { name: "changeFeatureFlagsScript", kind: "script", bytes: changeFeatureFlagsScript }
]
