/**
 * Where `0x1::event::emit` may be called (the reference's event_validation.rs and the
 * `write_module_event_to_store` native): a published module only with its own `#[event]` structs and
 * without dropping an `#[event]` attribute its previous version had; never from a script (refused
 * before it runs: INVALID_OPERATION_IN_SCRIPT); at run time, only from the module defining the
 * event type. The devnet framework passes every check.
 */
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule, deserializeScript } from "../../../src/move/binary/deserialize.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { serializeScript } from "../../../src/move/binary/serialize.js"
import { moduleEventsError, scriptNamesEventEmit } from "../../../src/move/vm/eventValidation.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import type { SessionId } from "../../../src/move/vm/SessionId.js"
import { sdkFixtures } from "../../support/sdkBytecode.js"
import { genesisState } from "./genesisState.js"
import { transferScript, transferScriptBytes } from "./transferScript.js"

const ONE = addressFromNumber(1)
const CORE = addressFromNumber(0xa550c18)
const devnet = genesisState("devnet")
const module = (name: string): CompiledModule => {
  const r = deserializeModule(devnet.view.module(ONE, name)!.bytes)
  if (r._tag === "Failure") throw new Error(r.failure.message)
  return r.success
}
const frameworkModules = devnet.entries.flatMap((e) => {
  if (!("data" in e.op) || e.keyBytes[0] !== 0) return []
  const r = deserializeModule(e.op.data)
  return r._tag === "Success" ? [r.success] : []
})

/** The instantiation index of the first `event::emit<T>` call in `m`. */
const firstEmit = (m: CompiledModule): number => {
  for (const f of m.functionDefs)
    for (const ins of f.code?.code ?? []) {
      if (ins.op !== Opcode.CallGeneric) continue
      const inst = m.functionInstantiations[(ins as { index: number }).index]!
      const h = m.functionHandles[inst.handle]!
      if (m.identifiers[h.name] === "emit" && m.identifiers[m.moduleHandles[h.module]!.name] === "event")
        return (ins as { index: number }).index
    }
  throw new Error("no emit call")
}
/** `m` with its first emit call's type argument replaced. */
const emitting = (m: CompiledModule, token: CompiledModule["signatures"][number][number]): CompiledModule => {
  const inst = m.functionInstantiations[firstEmit(m)]!
  const signatures = m.signatures.map((s, i) => (i === inst.typeParameters ? [token] : s))
  return { ...m, signatures }
}

describe("moduleEventsError (publish)", () => {
  it("every devnet framework module passes, against itself as its previous version too", () => {
    expect(frameworkModules.length).toBeGreaterThan(150)
    const failing = frameworkModules.filter((m) => moduleEventsError(m, m) !== undefined)
    expect(failing.map((m) => m.identifiers[m.moduleHandles[m.selfModuleHandleIndex]!.name])).toEqual([])
  })

  const fa = module("fungible_asset")
  it("an emitted struct without #[event] (the metadata dropped)", () => {
    expect(moduleEventsError({ ...fa, metadata: [] }, undefined)).toMatch(
      /^metadata and code bundle mismatch: Missing #\[event\] attribute on \w+\./
    )
  })

  it("a struct of another module, or not a struct", () => {
    const foreign = fa.structHandles.findIndex((h) => h.module !== fa.selfModuleHandleIndex)
    expect(foreign).toBeGreaterThanOrEqual(0)
    expect(moduleEventsError(emitting(fa, { _tag: "Struct", handle: foreign }), undefined)).toMatch(
      /passed to 0x1::event::emit function is not defined in the same module$/
    )
    expect(moduleEventsError(emitting(fa, { _tag: "U64" }), undefined)).toMatch(/non-struct parameter/)
  })

  it("an upgrade dropping an #[event] attribute", () => {
    const noEmits = { ...fa, functionDefs: [], metadata: [] }
    expect(moduleEventsError(noEmits, undefined)).toBeUndefined()
    expect(moduleEventsError(noEmits, fa)).toBe("metadata and code bundle mismatch: Invalid change in event attributes")
  })
})

describe("scripts and event::emit", () => {
  const withEmit = serializeScript({
    ...transferScript,
    moduleHandles: [...transferScript.moduleHandles, { address: 0, name: 2 }],
    identifiers: [...transferScript.identifiers, "event", "emit"],
    functionHandles: [
      ...transferScript.functionHandles,
      {
        module: 1,
        name: 3,
        parameters: 1,
        returns: 1,
        typeParameters: [6],
        accessSpecifiers: undefined,
        attributes: []
      }
    ]
  })

  it("a script naming 0x1::event::emit is refused before it runs: INVALID_OPERATION_IN_SCRIPT", () => {
    const decoded = deserializeScript(withEmit)
    expect(decoded._tag === "Success" && scriptNamesEventEmit(decoded.success)).toBe(true)
    const id: SessionId = { _tag: "Txn", sender: CORE, sequenceNumber: 0n, scriptHash: new Uint8Array() }
    const args = [
      { _tag: "Address", value: addressFromNumber(0xb0b) },
      { _tag: "U64", value: 1n }
    ] as const
    const vm = new MoveVm()
    const refused = vm.session(devnet.view, { id }).executeScript({ code: withEmit, typeArgs: [], args }, [CORE])
    expect(refused._tag === "Error" && refused.error.status).toBe("INVALID_OPERATION_IN_SCRIPT")
    // The same script without the handle runs (its transfer emits the framework's own events).
    const ran = vm.session(devnet.view, { id }).executeScript({ code: transferScriptBytes, typeArgs: [], args }, [CORE])
    expect(ran._tag).toBe("Success")
  })

  it("none of the SDK's scripts names it", () => {
    const scripts = sdkFixtures.filter((f) => f.kind === "script")
    expect(scripts.length).toBeGreaterThan(5)
    for (const f of scripts) {
      const d = deserializeScript(Uint8Array.from(Buffer.from(f.hex.replaceAll("{ADDRESS}", "00".repeat(32)), "hex")))
      expect(d._tag === "Success" && scriptNamesEventEmit(d.success)).toBe(false)
    }
  })
})

describe("write_module_event_to_store (run time)", () => {
  it('event::emit called with no module above it is refused (the reference\'s "Scripts cannot emit events")', () => {
    const o = new MoveVm().call(devnet.view, {
      module: { address: ONE, name: "event" },
      function: "emit",
      tyArgs: [{ _tag: "struct", struct: { address: ONE, module: "fungible_asset", name: "Deposit", typeArgs: [] } }],
      args: [new BcsWriter().fixed(new Uint8Array(32)).u64(5n).toBytes()]
    })
    expect(o._tag === "Error" && o.error.status).toBe("UNKNOWN_INVARIANT_VIOLATION_ERROR")
  })
})
