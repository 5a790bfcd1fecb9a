/**
 * The signature pass: references only at the top of a function's parameters, returns and locals
 * (a reference packed into a struct would escape the borrow checker), declared type parameters, and
 * instantiations meeting their constraints.
 */
import { describe, expect, it } from "vitest"
import { Ability, type CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { primitiveTokens as P, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { verifySignatures } from "../../../src/move/verifier/signatures.js"
import { functionHandle, moduleOf, op } from "../../support/moveAssembly.js"
import { USER } from "./support.js"

const ref = (to: SignatureToken): SignatureToken => ({ _tag: "Reference", to })
const T0: SignatureToken = { _tag: "TypeParameter", index: 0 }
/** `W<T: copy>` (struct handle 0) and `S` without abilities (handle 1), this module's. */
const wOf = (t: SignatureToken): SignatureToken => ({ _tag: "StructInstantiation", handle: 0, typeArgs: [t] })
const S: SignatureToken = { _tag: "Struct", handle: 1 }

/** `<USER>::m` with `W<T: copy> { f: fieldOfW }`, `S { x: u64 }` and `f<T>(params): returns` with `locals`. */
const moduleWith = (o: {
  fieldOfW?: SignatureToken
  params?: SignatureToken[]
  returns?: SignatureToken[]
  locals?: SignatureToken[]
}): CompiledModule =>
  moduleOf({
    moduleHandles: [{ address: 0, name: 0 }],
    structHandles: [
      {
        module: 0,
        name: 1,
        abilities: Ability.Drop,
        typeParameters: [{ constraints: Ability.Copy, isPhantom: false }]
      },
      { module: 0, name: 2, abilities: Ability.Drop, typeParameters: [] }
    ],
    functionHandles: [functionHandle(0, 3, 0, 1, [0])],
    signatures: [o.params ?? [], o.returns ?? [], o.locals ?? []],
    identifiers: ["m", "W", "S", "f", "x"],
    addressIdentifiers: [USER],
    structDefs: [
      { structHandle: 0, fieldInformation: { _tag: "Declared", fields: [{ name: 4, type: o.fieldOfW ?? T0 }] } },
      { structHandle: 1, fieldInformation: { _tag: "Declared", fields: [{ name: 4, type: P.U64 }] } }
    ],
    functionDefs: [
      {
        function: 0,
        visibility: 1,
        isEntry: false,
        acquiresGlobalResources: [],
        code: { locals: 2, code: [op(Opcode.Abort)] }
      }
    ]
  })

const statusOf = (m: CompiledModule) => verifySignatures(m)?.status

describe("references", () => {
  it("a field holding a reference, at any depth, is refused", () => {
    expect(statusOf(moduleWith({ fieldOfW: ref(P.U64) }))).toBe("INVALID_SIGNATURE_TOKEN")
    expect(statusOf(moduleWith({ fieldOfW: { _tag: "Vector", element: ref(P.U64) } }))).toBe("INVALID_SIGNATURE_TOKEN")
  })

  it("parameters, returns and locals may be references at their top level only", () => {
    expect(
      statusOf(
        moduleWith({ params: [ref({ _tag: "Vector", element: P.U8 })], returns: [ref(P.U64)], locals: [ref(S)] })
      )
    ).toBeUndefined()
    expect(statusOf(moduleWith({ params: [{ _tag: "Vector", element: ref(P.U8) }] }))).toBe("INVALID_SIGNATURE_TOKEN")
    expect(statusOf(moduleWith({ returns: [ref(ref(P.U64))] }))).toBe("INVALID_SIGNATURE_TOKEN")
    expect(statusOf(moduleWith({ locals: [wOf(ref(P.U64))] }))).toBe("INVALID_SIGNATURE_TOKEN")
  })
})

describe("type parameters and constraints", () => {
  it("an instantiation whose argument lacks a required ability is refused; one that has it verifies", () => {
    expect(statusOf(moduleWith({ params: [wOf(S)] }))).toBe("CONSTRAINT_NOT_SATISFIED")
    expect(statusOf(moduleWith({ locals: [{ _tag: "Vector", element: wOf(S) }] }))).toBe("CONSTRAINT_NOT_SATISFIED")
    expect(statusOf(moduleWith({ params: [wOf(P.U64)] }))).toBeUndefined()
  })

  it("a function's type parameter counts with its own constraint (f<T> with T unconstrained cannot make W<T>)", () => {
    expect(statusOf(moduleWith({ params: [wOf(T0)] }))).toBe("CONSTRAINT_NOT_SATISFIED")
  })

  it("a type parameter that is not declared is refused", () => {
    expect(statusOf(moduleWith({ params: [{ _tag: "TypeParameter", index: 1 }] }))).toBe("INDEX_OUT_OF_BOUNDS")
  })
})
