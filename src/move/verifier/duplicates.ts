/**
 * No table of a module or script holds one entry twice (the rest of the reference's duplication
 * check; handles, definitions, fields, variants and friends are checked with what relies on them:
 * `typeSafetyHandles.ts`, `structDefinitions.ts`, `friends.ts`): identifiers, addresses, constants,
 * signatures, module handles, instantiations, field and variant handles (DUPLICATE_ELEMENT).
 *
 * Why: a compiler writes each entry once; a module with two is hand-made, and the reference refuses
 * it at publish. Run on a script's own tables (its pseudo module appends a module name, `main` and
 * an empty signature that may repeat the script's).
 */
import { toHex } from "../../bcs/index.js"
import type { CommonTables, CompiledModule } from "../binary/CompiledModule.js"
import type { VerifyFailure } from "./VerifyFailure.js"

/** The first entry of `table` whose key repeats an earlier one's, as `what #i`. */
const repeated = <A>(what: string, table: ReadonlyArray<A>, key: (a: A) => string): VerifyFailure | undefined => {
  const seen = new Set<string>()
  for (const [i, a] of table.entries()) {
    const k = key(a)
    if (seen.has(k)) return { status: "DUPLICATE_ELEMENT", message: `${what} ${i} repeats an earlier one` }
    seen.add(k)
  }
  return undefined
}

const json = (a: unknown): string => JSON.stringify(a, (_, v) => (v instanceof Uint8Array ? toHex(v) : v))

type ModuleOnly = Pick<
  CompiledModule,
  | "fieldHandles"
  | "fieldInstantiations"
  | "structDefInstantiations"
  | "variantFieldHandles"
  | "variantFieldInstantiations"
  | "structVariantHandles"
  | "structVariantInstantiations"
>

export const verifyNoDuplicates = (t: CommonTables & Partial<ModuleOnly>): VerifyFailure | undefined =>
  repeated("identifier", t.identifiers, (s) => s) ??
  repeated("address", t.addressIdentifiers, toHex) ??
  repeated("constant", t.constantPool, json) ??
  repeated("signature", t.signatures, json) ??
  repeated("module handle", t.moduleHandles, json) ??
  repeated("function instantiation", t.functionInstantiations, json) ??
  repeated("field handle", t.fieldHandles ?? [], json) ??
  repeated("field instantiation", t.fieldInstantiations ?? [], json) ??
  repeated("struct instantiation", t.structDefInstantiations ?? [], json) ??
  repeated("variant field handle", t.variantFieldHandles ?? [], json) ??
  repeated("variant field instantiation", t.variantFieldInstantiations ?? [], json) ??
  repeated("struct variant handle", t.structVariantHandles ?? [], json) ??
  repeated("struct variant instantiation", t.structVariantInstantiations ?? [], json)
