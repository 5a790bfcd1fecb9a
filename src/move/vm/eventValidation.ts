import * as Result from "effect/Result"
import type { CommonTables, CompiledModule, CompiledScript, FunctionHandle } from "../binary/CompiledModule.js"
import { Opcode } from "../binary/Opcode.js"
import { decodeModuleMetadata } from "../metadata/decodeMetadata.js"
import { AttributeKind } from "../metadata/ModuleMetadata.js"

/**
 * Where `0x1::event::emit<T>` may be called, as the reference checks it
 * (aptos-vm `verifier/event_validation.rs` at publish and script load, and the
 * `write_module_event_to_store` native at run time): only from the module that defines `T`, and
 * `T` must carry the `#[event]` attribute; never from a script.
 */

const isOne = (a: Uint8Array): boolean => a[31] === 1 && a.every((b, i) => i === 31 || b === 0)

/** The handle names `0x1::event::emit`. */
const isEventEmit = (t: CommonTables, h: FunctionHandle): boolean => {
  const mh = t.moduleHandles[h.module]
  return (
    mh !== undefined &&
    t.identifiers[h.name] === "emit" &&
    t.identifiers[mh.name] === "event" &&
    isOne(t.addressIdentifiers[mh.address] ?? new Uint8Array(32))
  )
}

/**
 * A script that names `0x1::event::emit` (called or packed into a closure) is refused before it
 * runs: INVALID_OPERATION_IN_SCRIPT.
 */
export const scriptNamesEventEmit = (script: CompiledScript): boolean =>
  script.functionHandles.some((h) => isEventEmit(script, h))

/** Struct names carrying `#[event]`; an error when one carries it twice. */
const eventStructs = (m: CompiledModule): Set<string> | string => {
  const meta = decodeModuleMetadata(m)
  const out = new Set<string>()
  if (Result.isFailure(meta)) return out
  for (const [name, attrs] of meta.success.structAttributes)
    for (const a of attrs)
      if (a.kind === AttributeKind.Event) {
        if (out.has(name)) return "Found duplicate event attribute"
        out.add(name)
      }
  return out
}

/**
 * The reference's `validate_module_events` for one module of a publish bundle (`old`: the module it
 * replaces): every `0x1::event::emit<T>` call (`CallGeneric`, `PackClosureGeneric`) has `T` a struct
 * of this module with `#[event]`, and no `#[event]` attribute of the old module is dropped. The
 * message of EVENT_METADATA_VALIDATION_ERROR, or undefined.
 */
export const moduleEventsError = (m: CompiledModule, old: CompiledModule | undefined): string | undefined => {
  const mismatch = (s: string) => `metadata and code bundle mismatch: ${s}`
  const events = eventStructs(m)
  if (typeof events === "string") return mismatch(events)
  for (const f of m.functionDefs) {
    for (const ins of f.code?.code ?? []) {
      if (ins.op !== Opcode.CallGeneric && ins.op !== Opcode.PackClosureGeneric) continue
      const inst = m.functionInstantiations[(ins as { index: number }).index]
      const handle = inst === undefined ? undefined : m.functionHandles[inst.handle]
      if (inst === undefined || handle === undefined || !isEventEmit(m, handle)) continue
      const param = m.signatures[inst.typeParameters]?.[0]
      if (param === undefined) return mismatch("Missing parameter for 0x1::event::emit function")
      if (param._tag !== "Struct" && param._tag !== "StructInstantiation")
        return mismatch("Passed in a non-struct parameter into 0x1::event::emit.")
      const sh = m.structHandles[param.handle]!
      const name = m.identifiers[sh.name]!
      if (sh.module !== m.selfModuleHandleIndex)
        return mismatch(`${name} passed to 0x1::event::emit function is not defined in the same module`)
      if (!events.has(name))
        return mismatch(
          `Missing #[event] attribute on ${name}. The #[event] attribute is required for all structs passed into 0x1::event::emit.`
        )
    }
  }
  if (old !== undefined) {
    const before = eventStructs(old)
    if (typeof before === "string") return mismatch(before)
    for (const name of before) if (!events.has(name)) return mismatch("Invalid change in event attributes")
  }
  return undefined
}
