/**
 * The bytecode verifier: what the reference's `move-bytecode-verifier` checks before a module is
 * published or a script is run, so that the interpreter may trust the code it runs. The
 * interpreter checks no types at run time; without these passes a module could hand its own
 * struct to a framework function expecting a `Coin<AptosCoin>` (minting APT), or call the
 * framework's private and friend functions.
 *
 *  - `duplicates.ts` (first, on a module's or a script's own tables): no table holds one entry
 *    twice; `friends.ts` (modules): friends only at the module's own address, each once, never
 *    itself;
 *  - `limits.ts`: the reference's limits on declarations (type parameters, parameters and results,
 *    each type's size and depth);
 *  - `signatures.ts`: references only at the top of a function's parameters, returns and locals
 *    (never in a field), declared type parameters, instantiations meeting their constraints;
 *  - `constants.ts`: constants of primitive or vector type, their bytes one value of it;
 *  - `structDefinitions.ts`: a struct declares only abilities its fields allow, contains nothing
 *    of itself, has a field, and names each field and variant once;
 *  - `instantiationLoops.ts`: no generic function instantiates itself, through calls within the
 *    module, with ever larger types;
 *  - `controlFlow.ts`: bodies are not empty and never fall through their end, have at most 1,024
 *    blocks, and their loops are reducible and nested at most five deep (`controlFlowLoops.ts`);
 *  - `typeSafety.ts` (with `typeSafetyStackUsage.ts`, `typeSafetyTokens.ts`, `typeSafetyHandles.ts`,
 *    `abilities.ts`): stack usage per basic block, every instruction's operand types, the
 *    abilities copy, drop and key where values are copied, dropped or stored, instantiations and
 *    their constraints, and this module's handles and definitions (each once, its own);
 *  - `localsSafety.ts`: no local is used after it is moved, and no value without drop is
 *    overwritten or left in a local at return (available / unavailable / maybe, joined over the
 *    control-flow graph, `controlFlowGraph.ts`);
 *  - `referenceSafety.ts` (with `referenceSafetyState.ts`, `referenceSafetyBorrowGraph.ts`): the
 *    borrow checker — no value is moved, overwritten, read or written while a reference that
 *    conflicts lives, no reference outlives what it borrows; work metered per module;
 *    `referenceSafetyAcquires.ts`: the `acquires` annotations;
 *  - `dependencies.ts`: what the code declares about the modules it uses (function signatures and
 *    visibility, struct abilities and type parameters) is what those modules define — type
 *    safety checks calls against the declarations, this pass the declarations against the truth;
 *  - `moduleCycles.ts`: no module depends on itself through its dependencies, nor is its own
 *    friend through its friends, and no dependency is a friend;
 *
 * Bounds (every index in range, branch targets inside their body) are the deserializer's
 * (`binary/checkBounds.ts`). docs/verifier.md lists what the reference checks and this does not.
 */
import type { CompiledModule, CompiledScript } from "../binary/CompiledModule.js"
import { scriptAsModule } from "../vm/scriptModule.js"
import { sharedModuleDecoder } from "../vm/sharedModuleDecoder.js"
import type { StateView } from "../vm/StateView.js"
import { verifyConstants } from "./constants.js"
import { verifyControlFlow } from "./controlFlow.js"
import { type ModuleResolver, verifyDependencies } from "./dependencies.js"
import { verifyNoDuplicates } from "./duplicates.js"
import { verifyFriends } from "./friends.js"
import { verifyInstantiationLoops } from "./instantiationLoops.js"
import { verifyLimits } from "./limits.js"
import { verifyLocalsSafety } from "./localsSafety.js"
import { verifyNoCycles } from "./moduleCycles.js"
import { verifyReferenceSafety } from "./referenceSafety.js"
import { verifyAcquires } from "./referenceSafetyAcquires.js"
import { verifySignatures } from "./signatures.js"
import { verifyStructDefinitions } from "./structDefinitions.js"
import { verifyTypeSafety } from "./typeSafety.js"
import type { VerifyFailure } from "./VerifyFailure.js"

export type { ModuleResolver } from "./dependencies.js"
export type { VerifyFailure } from "./VerifyFailure.js"

/**
 * A module about to be published; `resolve` finds its dependencies (the bundle first, then state).
 * The module's own passes first, then its dependencies, in the reference's order.
 */
export const verifyModule = (m: CompiledModule, resolve: ModuleResolver): VerifyFailure | undefined =>
  guarded(
    () =>
      verifyNoDuplicates(m) ??
      verifyFriends(m) ??
      verifyCode(m, false) ??
      verifyDependencies(m, m.selfModuleHandleIndex, resolve) ??
      verifyNoCycles(m, resolve)
  )

/** A script about to run; `resolve` finds the modules it uses. */
export const verifyScript = (script: CompiledScript, resolve: ModuleResolver): VerifyFailure | undefined =>
  guarded(() => {
    const duplicate = verifyNoDuplicates(script)
    if (duplicate !== undefined) return duplicate
    const m = scriptAsModule(script)
    // scriptAsModule appends the script's pseudo module as the last module handle.
    return verifyCode(m, true) ?? verifyDependencies(m, m.moduleHandles.length - 1, resolve, true)
  })

/**
 * A pass that throws (a fault of ours on code no test had) refuses the code rather than failing
 * the transaction's execution: a refusal is a failed transaction that pays its gas, while a throw
 * would be caught further up as a discard, which pays nothing and could be sent again and again.
 * A fork's unfetched state still reaches its miss log (logged before the read throws).
 */
const guarded = (verify: () => VerifyFailure | undefined): VerifyFailure | undefined => {
  try {
    return verify()
  } catch (e) {
    return {
      status: "VERIFIER_INVARIANT_VIOLATION",
      message: `the verifier failed: ${e instanceof Error ? e.message : String(e)}`
    }
  }
}

/**
 * The passes over the code itself, each relying on the ones before it (reference safety runs only
 * on code that is well typed and safe in its locals).
 */
const verifyCode = (m: CompiledModule, isScript: boolean): VerifyFailure | undefined =>
  verifyLimits(m) ??
  verifySignatures(m) ??
  verifyConstants(m) ??
  verifyStructDefinitions(m) ??
  verifyInstantiationLoops(m) ??
  verifyControlFlow(m, isScript) ??
  verifyTypeSafety(m) ??
  verifyLocalsSafety(m) ??
  verifyReferenceSafety(m) ??
  verifyAcquires(m)

/**
 * Modules as the VM's state view holds them, decoded once per thread (`sharedModuleDecoder`); a
 * module that does not decode is absent (the loader refuses it the same way).
 */
export const resolverOverState =
  (view: Pick<StateView, "module">): ModuleResolver =>
  (address, name) => {
    const stored = view.module(address, name)
    if (stored === undefined) return undefined
    const decoded = sharedModuleDecoder(stored.bytes)
    return typeof decoded === "string" ? undefined : decoded
  }

/** The failure as a VM status detail: the status's reason, and where. */
export const describeFailure = (m: CompiledModule, f: VerifyFailure): string => {
  if (f.functionDef === undefined) return f.message
  const def = m.functionDefs[f.functionDef]
  const name = def === undefined ? `#${f.functionDef}` : m.identifiers[m.functionHandles[def.function]!.name]!
  return `${f.message} (in ${name}${f.offset === undefined ? "" : ` at code offset ${f.offset}`})`
}
