import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { BinaryCursor } from "../../../src/move/binary/BinaryCursor.js"
import { BinaryFailure } from "../../../src/move/binary/BinaryError.js"
import type { CompiledModule, CompiledScript } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule, deserializeScript } from "../../../src/move/binary/deserialize.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { readSignatureToken } from "../../../src/move/binary/readSignatureToken.js"
import { serializeModule, serializeScript } from "../../../src/move/binary/serialize.js"
import { primitiveTokens } from "../../../src/move/binary/SignatureToken.js"
import { hasGenesis } from "../../support/genesis.js"
import { everyInstruction, genesisModuleBytes, moduleWithEveryOpcode, parse } from "./support.js"

const devnet = genesisModuleBytes("devnet")
const hasMainnet = hasGenesis("mainnet")
const mainnet = hasMainnet ? genesisModuleBytes("mainnet") : []
const moduleName = (m: CompiledModule): string => m.identifiers[m.moduleHandles[m.selfModuleHandleIndex]!.name]!
const guidBytes = devnet.find((b) => moduleName(parse(b)) === "guid")!

const errorKind = (bytes: Uint8Array, opts?: { maxVersion?: number }): string => {
  const r = deserializeModule(bytes, opts)
  return Result.isFailure(r) ? r.failure.kind : "ok"
}

const concat = (...parts: ReadonlyArray<ArrayLike<number>>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

/** Offsets of each table header's kind byte (all uleb fields of the headers here are 1–3 bytes). */
const headerKindOffsets = (bytes: Uint8Array): number[] => {
  const out: number[] = []
  let o = 9
  for (let i = 0; i < bytes[8]!; i++) {
    out.push(o++)
    while (bytes[o++]! & 0x80);
    while (bytes[o++]! & 0x80);
  }
  return out
}

const reserialize = (m: CompiledModule): string => errorKind(serializeModule(m))

describe("deserializeModule header checks", () => {
  it("rejects a bad magic", () => {
    const b = guidBytes.slice()
    b[0] = 0
    expect(errorKind(b)).toBe("BadMagic")
    expect(errorKind(new Uint8Array())).toBe("BadMagic")
    const r = deserializeModule(b)
    expect(Result.isFailure(r) && [r.failure._tag, r.failure.message, r.failure.offset]).toEqual([
      "BinaryError",
      "bad magic",
      0
    ])
  })

  it("strips the Aptos mask and bounds the version", () => {
    expect(parse(devnet[0]!).version).toBe(10)
    if (hasMainnet) expect(parse(mainnet[0]!).version).toBe(5)
    const withVersion = (word: number) => {
      const b = guidBytes.slice()
      new DataView(b.buffer).setUint32(4, word, true)
      return b
    }
    expect(errorKind(withVersion(4))).toBe("UnknownVersion")
    expect(errorKind(withVersion(0x0a00000b))).toBe("UnknownVersion")
    expect(errorKind(withVersion(0))).toBe("UnknownVersion")
    expect(errorKind(guidBytes, { maxVersion: 9 })).toBe("UnknownVersion")
    // The same module without the mask still reads as v10 (the mask is optional on input).
    expect(errorKind(withVersion(10))).toBe("ok")
  })

  it("rejects duplicate, unknown and misplaced tables", () => {
    const kinds = headerKindOffsets(guidBytes)
    const dup = guidBytes.slice()
    dup[kinds[1]!] = dup[kinds[0]!]!
    expect(errorKind(dup)).toBe("DuplicateTable")
    const unknown = guidBytes.slice()
    unknown[kinds[0]!] = 0x09
    expect(errorKind(unknown)).toBe("UnknownTableType")
    const gap = guidBytes.slice()
    gap[kinds[1]! + 1] = gap[kinds[1]! + 1]! + 1 // second table's offset moves: no longer tiles
    expect(["BadHeaderTable", "Malformed"]).toContain(errorKind(gap))
  })

  it("ignores bytes after the trailer (as the reference), rejects truncation and non-canonical uleb128", () => {
    const withTail = deserializeModule(concat(guidBytes, [0, 0xff, 0x80]))
    expect(Result.isSuccess(withTail) && serializeModule(withTail.success)).toEqual(guidBytes)
    expect(errorKind(guidBytes.subarray(0, guidBytes.length - 1))).not.toBe("ok")
    // The trailer is the self-handle index 0; encode it as the non-canonical 0x80 0x00.
    const last = guidBytes.length - 1
    expect(guidBytes[last]).toBe(parse(guidBytes).selfModuleHandleIndex)
    expect(errorKind(concat(guidBytes.subarray(0, last), [0x80 | guidBytes[last]!, 0x00]))).toBe("Malformed")
  })
})

describe("signature tokens", () => {
  const read = (bytes: number[], version = 10) => {
    const c = new BinaryCursor(Uint8Array.from(bytes), 0, bytes.length, version)
    try {
      return readSignatureToken(c)
    } catch (e) {
      return e instanceof BinaryFailure ? e.kind : "threw"
    }
  }

  it("accepts nesting up to 256 constructors and refuses deeper, without recursion", () => {
    let tok = read([...new Array(256).fill(0x0a), 0x01])
    for (let i = 0; i < 256; i++) tok = (tok as { element: any }).element
    expect(tok).toBe(primitiveTokens.Bool)
    expect(read([...new Array(257).fill(0x0a), 0x01])).toBe("LimitExceeded")
    expect(read(new Array(1_000_000).fill(0x06))).toBe("LimitExceeded")
  })

  it("reads generic structs and function types", () => {
    expect(read([0x0b, 0x03, 0x02, 0x03, 0x09, 0x01])).toEqual({
      _tag: "StructInstantiation",
      handle: 3,
      typeArgs: [primitiveTokens.U64, { _tag: "TypeParameter", index: 1 }]
    })
    expect(read([0x10, 0x03, 0x02, 0x01, 0x02, 0x0c, 0x06, 0x03])).toEqual({
      _tag: "Function",
      args: [primitiveTokens.U8, primitiveTokens.Signer],
      results: [{ _tag: "Reference", to: primitiveTokens.U64 }],
      abilities: 3
    })
    expect(read([0x0b, 0x00, 0x00])).toBe("Malformed")
  })

  it("gates types by version", () => {
    expect(read([0x0d], 5)).toBe("FeatureNotInVersion")
    expect(read([0x0d], 6)).toBe(primitiveTokens.U16)
    expect(read([0x10, 0, 0, 0], 7)).toBe("FeatureNotInVersion")
    expect(read([0x14], 8)).toBe("FeatureNotInVersion")
    expect(read([0x14], 9)).toBe(primitiveTokens.I64)
    expect(read([0x17])).toBe("UnknownSerializedType")
    expect(read([0x10, 0x10, 0, 0])).toBe("LimitExceeded")
  })
})

describe("instructions", () => {
  it("round-trips a module using all 104 opcodes with extreme operands", () => {
    const m = moduleWithEveryOpcode()
    expect(everyInstruction().length).toBe(104)
    const bytes = serializeModule(m)
    const back = Result.getOrThrow(deserializeModule(bytes))
    expect(back).toEqual(m)
    expect(serializeModule(back)).toEqual(bytes)
  })

  it("refuses opcodes newer than the module's version", () => {
    const m = moduleWithEveryOpcode()
    expect(reserialize({ ...m, version: 9 })).toBe("FeatureNotInVersion") // AbortMsg is v10
  })

  it("checks branch targets, locals and table indices", () => {
    const base = moduleWithEveryOpcode()
    const target = base.functionDefs.findIndex((d) => d.code?.code.length === 104)
    const withCode = (code: CompiledModule["functionDefs"][number]["code"]) => ({
      ...base,
      functionDefs: base.functionDefs.map((d, i) => (i === target ? { ...d, code } : d))
    })
    const locals = base.functionDefs[target]!.code!.locals
    expect(reserialize(withCode({ locals, code: [{ op: Opcode.Branch, offset: 1 }] }))).toBe("IndexOutOfBounds")
    expect(reserialize(withCode({ locals, code: [{ op: Opcode.CopyLoc, index: 255 }] }))).toBe("IndexOutOfBounds")
    expect(reserialize(withCode({ locals, code: [{ op: Opcode.LdConst, index: 60_000 }] }))).toBe("IndexOutOfBounds")
    expect(reserialize(withCode({ locals: 60_000, code: [{ op: Opcode.Ret }] }))).toBe("IndexOutOfBounds")
    expect(reserialize({ ...base, selfModuleHandleIndex: base.moduleHandles.length })).toBe("IndexOutOfBounds")
  })
})

describe("function handles", () => {
  it("round-trips access specifiers and every function attribute kind", () => {
    const m = moduleWithEveryOpcode()
    const fh = m.functionHandles.map((h, i) =>
      i !== 0
        ? h
        : {
            ...h,
            accessSpecifiers: [
              {
                kind: "Reads" as const,
                negated: false,
                resource: { _tag: "Any" as const },
                address: { _tag: "Any" as const }
              },
              {
                kind: "Writes" as const,
                negated: true,
                resource: { _tag: "ResourceInstantiation" as const, structHandle: 0, typeArgs: 0 },
                address: { _tag: "Parameter" as const, local: 1, functionInstantiation: 0 }
              },
              {
                kind: "Reads" as const,
                negated: false,
                resource: { _tag: "DeclaredInModule" as const, module: 0 },
                address: { _tag: "Literal" as const, address: 0 }
              },
              {
                kind: "Writes" as const,
                negated: false,
                resource: { _tag: "DeclaredAtAddress" as const, address: 0 },
                address: { _tag: "Parameter" as const, local: 0, functionInstantiation: undefined }
              },
              {
                kind: "Reads" as const,
                negated: false,
                resource: { _tag: "Resource" as const, structHandle: 0 },
                address: { _tag: "Any" as const }
              }
            ],
            attributes: [
              { _tag: "Persistent" as const },
              { _tag: "ModuleLock" as const },
              { _tag: "Pack" as const },
              { _tag: "PackVariant" as const, index: 1 },
              { _tag: "Unpack" as const },
              { _tag: "UnpackVariant" as const, index: 2 },
              { _tag: "TestVariant" as const, index: 3 },
              { _tag: "BorrowFieldImmutable" as const, index: 4 },
              { _tag: "BorrowFieldMutable" as const, index: 65_535 }
            ]
          }
    )
    const withSpecs = { ...m, functionHandles: fh }
    expect(Result.getOrThrow(deserializeModule(serializeModule(withSpecs)))).toEqual(withSpecs)
  })

  it("refuses types newer than the module's version", () => {
    if (hasMainnet) {
      const v5 = parse(mainnet[0]!)
      expect(reserialize({ ...v5, signatures: [...v5.signatures, [primitiveTokens.U16]] })).toBe("FeatureNotInVersion")
    }
    const fnType = { _tag: "Function" as const, args: [], results: [], abilities: 0 }
    const v7 = { ...parse(guidBytes), version: 7 }
    expect(reserialize(v7)).toBe("ok")
    expect(reserialize({ ...v7, signatures: [...v7.signatures, [fnType]] })).toBe("FeatureNotInVersion")
  })
})

describe("deserializeScript", () => {
  const script: CompiledScript = {
    version: 10,
    moduleHandles: [{ address: 0, name: 0 }],
    structHandles: [],
    functionHandles: [],
    functionInstantiations: [],
    signatures: [[], [primitiveTokens.Signer, primitiveTokens.U64]],
    identifiers: ["coin"],
    addressIdentifiers: [new Uint8Array(32).fill(1)],
    constantPool: [{ type: primitiveTokens.U64, data: new Uint8Array(8) }],
    metadata: [],
    typeParameters: [0x3],
    parameters: 1,
    accessSpecifiers: undefined,
    code: { locals: 0, code: [{ op: Opcode.LdConst, index: 0 }, { op: Opcode.Pop }, { op: Opcode.Ret }] }
  }

  it("round-trips a script at v10 and v5", () => {
    for (const version of [10, 5]) {
      const s = { ...script, version }
      const bytes = serializeScript(s)
      expect(Result.getOrThrow(deserializeScript(bytes))).toEqual(s)
      expect(serializeScript(Result.getOrThrow(deserializeScript(bytes)))).toEqual(bytes)
    }
  })

  it("refuses module tables in a script and a module read as a script", () => {
    const r = deserializeScript(guidBytes)
    expect(Result.isFailure(r) && r.failure.kind).toBe("Malformed")
    expect(errorKind(serializeScript(script))).not.toBe("ok")
  })
})
