/**
 * The reference verifier's dependency check: what a module or script says about the modules it
 * uses must be what those modules are. Every table here is the caller's own view of its
 * dependencies (a function handle carries the caller's copy of the callee's signature, a struct
 * handle its copy of the struct's abilities), and the interpreter trusts those copies: without this
 * check a module could declare `0x1::coin::deposit` to take its own struct, or call a private or
 * friend function of the framework. Checked, as the reference checks them:
 *
 *  - every module handle names a module that exists (LINKER_ERROR: the reference loads the
 *    dependencies before it verifies against them, and that load is what fails);
 *  - every struct handle of another module names a struct that module defines (LOOKUP_FAILED),
 *    declaring no ability the definition lacks, the same number of type parameters, each
 *    constrained at least as much as defined and phantom only where the definition is (TYPE_MISMATCH);
 *  - every function handle of another module names a function the caller may call — public, or
 *    friend with the caller among the callee's friends (LOOKUP_FAILED otherwise) — with the same
 *    type parameters (constrained at least as much) and the same parameter and return types,
 *    struct types compared by their defining module and name (TYPE_MISMATCH).
 *
 * A script has no module of its own (`self` undefined): it may call public functions only.
 */
import { toHex } from "../../bcs/index.js"
import type { CommonTables, CompiledModule, SignatureToken } from "../binary/CompiledModule.js"
import { Visibility } from "../binary/CompiledModule.js"
import type { VerifyFailure } from "./VerifyFailure.js"

/** A module by address and name as the checked code will see it (the bundle, else state); undefined when absent. */
export type ModuleResolver = (address: Uint8Array, name: string) => CompiledModule | undefined

/** A module handle's module as `<address hex>::<name>`: the same string from any table naming it. */
export const moduleIdOf = (t: CommonTables, handle: number): string => idOfModuleHandle(t, t.moduleHandles[handle]!)

/** The same id for a module handle of `t` outside its handle table (a friend declaration). */
export const idOfModuleHandle = (t: CommonTables, h: { readonly address: number; readonly name: number }): string =>
  moduleIdFrom(t.addressIdentifiers[h.address]!, t.identifiers[h.name]!)

/** The same id from an address and a module name. */
export const moduleIdFrom = (address: Uint8Array, name: string): string => `${toHex(address)}::${name}`

/** Struct handles name the same struct when their modules and names are equal (each read in its own tables). */
const sameStruct = (a: CommonTables, ai: number, b: CommonTables, bi: number): boolean => {
  const x = a.structHandles[ai]!
  const y = b.structHandles[bi]!
  return a.identifiers[x.name] === b.identifiers[y.name] && moduleIdOf(a, x.module) === moduleIdOf(b, y.module)
}

const sameTypes = (
  a: CommonTables,
  xs: ReadonlyArray<SignatureToken>,
  b: CommonTables,
  ys: ReadonlyArray<SignatureToken>
): boolean => xs.length === ys.length && xs.every((x, i) => sameType(a, x, b, ys[i]!))

const sameType = (a: CommonTables, x: SignatureToken, b: CommonTables, y: SignatureToken): boolean => {
  switch (x._tag) {
    case "Reference":
    case "MutableReference":
      return y._tag === x._tag && sameType(a, x.to, b, y.to)
    case "Vector":
      return y._tag === "Vector" && sameType(a, x.element, b, y.element)
    case "Struct":
      return y._tag === "Struct" && sameStruct(a, x.handle, b, y.handle)
    case "StructInstantiation":
      return (
        y._tag === "StructInstantiation" &&
        sameStruct(a, x.handle, b, y.handle) &&
        sameTypes(a, x.typeArgs, b, y.typeArgs)
      )
    case "TypeParameter":
      return y._tag === "TypeParameter" && x.index === y.index
    case "Function":
      return (
        y._tag === "Function" &&
        x.abilities === y.abilities &&
        sameTypes(a, x.args, b, y.args) &&
        sameTypes(a, x.results, b, y.results)
      )
    default:
      return y._tag === x._tag
  }
}

/** `a ⊆ b` for ability sets. */
const subset = (a: number, b: number): boolean => (a & ~b) === 0

/** One dependency's definitions by name. */
interface Definitions {
  readonly module: CompiledModule
  readonly structs: Map<string, number>
  readonly functions: Map<string, { readonly handle: number; readonly visibility: number }>
  readonly friends: Set<string>
}

const definitionsOf = (module: CompiledModule): Definitions => {
  const structs = new Map<string, number>()
  for (const d of module.structDefs)
    structs.set(module.identifiers[module.structHandles[d.structHandle]!.name]!, d.structHandle)
  const functions = new Map<string, { readonly handle: number; readonly visibility: number }>()
  for (const d of module.functionDefs)
    functions.set(module.identifiers[module.functionHandles[d.function]!.name]!, {
      handle: d.function,
      visibility: d.visibility
    })
  const friends = new Set<string>()
  for (const f of module.friendDecls)
    friends.add(`${toHex(module.addressIdentifiers[f.address]!)}::${module.identifiers[f.name]!}`)
  return { module, structs, functions, friends }
}

/**
 * Checks `m`'s handles of other modules against `resolve`'s modules. `self`: the handle of `m`
 * itself (`selfModuleHandleIndex`; for a script turned module by `scriptAsModule`, its pseudo
 * module, with `script` true: a script is nobody's friend).
 */
export const verifyDependencies = (
  m: CommonTables,
  self: number,
  resolve: ModuleResolver,
  script = false
): VerifyFailure | undefined => {
  const selfId = script ? undefined : moduleIdOf(m, self)
  const deps = new Map<number, Definitions>()
  for (let i = 0; i < m.moduleHandles.length; i++) {
    if (i === self) continue
    const h = m.moduleHandles[i]!
    const module = resolve(m.addressIdentifiers[h.address]!, m.identifiers[h.name]!)
    if (module === undefined) return { status: "LINKER_ERROR", message: `module ${moduleIdOf(m, i)} not found` }
    deps.set(i, definitionsOf(module))
  }
  for (let i = 0; i < m.structHandles.length; i++) {
    const h = m.structHandles[i]!
    const dep = deps.get(h.module)
    if (dep === undefined) continue
    const name = m.identifiers[h.name]!
    const defined = dep.structs.get(name)
    if (defined === undefined)
      return { status: "LOOKUP_FAILED", message: `struct ${moduleIdOf(m, h.module)}::${name} not found` }
    const d = dep.module.structHandles[defined]!
    const compatible =
      subset(h.abilities, d.abilities) &&
      h.typeParameters.length === d.typeParameters.length &&
      h.typeParameters.every(
        (p, k) =>
          (!p.isPhantom || d.typeParameters[k]!.isPhantom) && subset(d.typeParameters[k]!.constraints, p.constraints)
      )
    if (!compatible)
      return {
        status: "TYPE_MISMATCH",
        message: `struct ${moduleIdOf(m, h.module)}::${name}: abilities or type parameters differ from its definition`
      }
  }
  for (let i = 0; i < m.functionHandles.length; i++) {
    const h = m.functionHandles[i]!
    const dep = deps.get(h.module)
    if (dep === undefined) continue
    const name = m.identifiers[h.name]!
    const where = `${moduleIdOf(m, h.module)}::${name}`
    const defined = dep.functions.get(name)
    const callable =
      defined !== undefined &&
      (defined.visibility === Visibility.Public ||
        (defined.visibility === Visibility.Friend && selfId !== undefined && dep.friends.has(selfId)))
    if (!callable) return { status: "LOOKUP_FAILED", message: `function ${where} not found or not visible here` }
    const d = dep.module.functionHandles[defined.handle]!
    const compatible =
      h.typeParameters.length === d.typeParameters.length &&
      h.typeParameters.every((c, k) => subset(d.typeParameters[k]!, c)) &&
      sameTypes(m, m.signatures[h.parameters]!, dep.module, dep.module.signatures[d.parameters]!) &&
      sameTypes(m, m.signatures[h.returns]!, dep.module, dep.module.signatures[d.returns]!)
    if (!compatible)
      return { status: "TYPE_MISMATCH", message: `function ${where}: the signature differs from its definition` }
  }
  return undefined
}
