/**
 * Every Move script and module the TypeScript SDK's tests and examples submit reads with our
 * deserializer, and writes back to the same bytes. One of them, `MULTI_SIGNER_SCRIPT_ARGUMENT_TEST`
 * (its transactionArguments e2e test), carries 278 bytes after the script's code unit (two more copies
 * of a code body, from a template substitution in the SDK); the reference's deserializer stops after
 * the trailer and never looks at them, so neither do we (it was CODE_DESERIALIZATION_ERROR here).
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { deserializeModule, deserializeScript } from "../../../src/move/binary/deserialize.js"
import { serializeModule, serializeScript } from "../../../src/move/binary/serialize.js"
import { SDK_PUBLISHER_ADDRESS, sdkBytecode, sdkFixtures } from "../../support/sdkBytecode.js"

describe("the TypeScript SDK's bytecode fixtures", () => {
  const code = sdkFixtures.filter((f) => f.kind !== "metadata")

  it.each(code.map((f) => [f.name, f] as const))("%s deserializes and writes back", (name, f) => {
    const bytes = sdkBytecode(name, SDK_PUBLISHER_ADDRESS)
    if (f.kind === "script") {
      const script = Result.getOrThrow(deserializeScript(bytes))
      const written = serializeScript(script)
      if (name === "MULTI_SIGNER_SCRIPT_ARGUMENT_TEST") {
        expect([written.length, bytes.length]).toEqual([445, 723])
        expect(bytes.subarray(0, written.length)).toEqual(written)
      } else expect(written).toEqual(bytes)
    } else {
      expect(serializeModule(Result.getOrThrow(deserializeModule(bytes)))).toEqual(bytes)
    }
  })

  it("covers the SDK's scripts and modules (v6 and v7 bytecode)", () => {
    expect(code.map((f) => f.kind).sort()).toEqual([...new Array(5).fill("module"), ...new Array(7).fill("script")])
    const versions = new Set(code.map((f) => sdkBytecode(f.name)[4]))
    expect([...versions].sort()).toEqual([6, 7])
  })

  it("reads the multi-signer argument script's signature: 5 signers, then every argument kind", () => {
    const script = Result.getOrThrow(deserializeScript(sdkBytecode("MULTI_SIGNER_SCRIPT_ARGUMENT_TEST")))
    const params = script.signatures[script.parameters]!.map((t) => t._tag)
    expect(params).toEqual([
      ...new Array(5).fill("Reference"),
      ...new Array(5).fill("Address"),
      "Bool",
      "U8",
      "U16",
      "U32",
      "U64",
      "U128",
      "U256",
      "Address",
      "Struct",
      "StructInstantiation",
      "Vector"
    ])
  })

  it("accepts `<SELF>_<n>` identifiers (compiler v2 scripts) and still refuses look-alikes", () => {
    const script = Result.getOrThrow(deserializeScript(sdkBytecode("addPermissionDelegationScriptBytecode")))
    expect(script.identifiers[0]).toBe("<SELF>_0")
    const withName = (name: string): string => {
      const bytes = serializeScript({ ...script, identifiers: [name, ...script.identifiers.slice(1)] })
      const r = deserializeScript(bytes)
      return Result.isSuccess(r) ? "ok" : r.failure.kind
    }
    expect(withName("<SELF>_123")).toBe("ok")
    expect(withName("<SELF>")).toBe("ok")
    for (const bad of ["<SELF>_", "<SELF>_1a", "<SELF>x", "<SELF_0", "<self>_0"])
      expect(withName(bad)).toBe("Malformed")
  })
})
