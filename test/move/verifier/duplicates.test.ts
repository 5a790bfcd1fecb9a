/**
 * The duplicates pass (`duplicates.ts`): a table holding one entry twice is DUPLICATE_ELEMENT, in a
 * module and in a script (whose pseudo module's appended entries do not count).
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { deserializeScript } from "../../../src/move/binary/deserialize.js"
import { primitiveTokens as P } from "../../../src/move/binary/SignatureToken.js"
import { verifyNoDuplicates } from "../../../src/move/verifier/duplicates.js"
import { verifyScript } from "../../../src/move/verifier/index.js"
import { counterModule, transferScript } from "../../execution/bytecode.js"
import { bytesConstant } from "../../support/moveAssembly.js"
import { frameworkOf, moduleFrom, resolverOf, USER } from "./support.js"

describe("duplicates", () => {
  const m = moduleFrom(counterModule(USER))

  it("an identifier, address, constant, signature or module handle twice is refused", () => {
    expect(verifyNoDuplicates(m)).toBeUndefined()
    expect(verifyNoDuplicates({ ...m, identifiers: [...m.identifiers, m.identifiers[0]!] })).toMatchObject({
      status: "DUPLICATE_ELEMENT"
    })
    expect(
      verifyNoDuplicates({ ...m, addressIdentifiers: [...m.addressIdentifiers, m.addressIdentifiers[0]!] })
    ).toMatchObject({ status: "DUPLICATE_ELEMENT" })
    expect(verifyNoDuplicates({ ...m, constantPool: [bytesConstant("a"), bytesConstant("a")] })).toMatchObject({
      status: "DUPLICATE_ELEMENT"
    })
    expect(verifyNoDuplicates({ ...m, constantPool: [bytesConstant("a"), bytesConstant("b")] })).toBeUndefined()
    expect(verifyNoDuplicates({ ...m, signatures: [...m.signatures, [P.U64], [P.U64]] })).toMatchObject({
      status: "DUPLICATE_ELEMENT"
    })
    expect(verifyNoDuplicates({ ...m, moduleHandles: [...m.moduleHandles, m.moduleHandles[0]!] })).toMatchObject({
      status: "DUPLICATE_ELEMENT"
    })
  })

  it("a script is judged by its own tables: its pseudo module's `main` and empty signature do not count", () => {
    const script = Result.getOrThrow(deserializeScript(transferScript))
    expect(script.signatures.some((s) => s.length === 0)).toBe(true)
    const resolve = resolverOf(frameworkOf("devnet"))
    expect(
      verifyScript({ ...script, identifiers: [...script.identifiers.slice(0, -1), "main"] }, resolve)?.status
    ).not.toBe("DUPLICATE_ELEMENT")
    expect(verifyScript(script, resolve)).toBeUndefined()
    expect(verifyScript({ ...script, signatures: [...script.signatures, [P.U8], [P.U8]] }, resolve)).toMatchObject({
      status: "DUPLICATE_ELEMENT"
    })
  })
})
