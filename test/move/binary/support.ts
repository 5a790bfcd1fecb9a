/** Shared test data: the genesis modules' bytes and models, and a module exercising every opcode. */
import { Result } from "effect"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import type { Instruction } from "../../../src/move/binary/Instruction.js"
import { OPCODE_MAX } from "../../../src/move/binary/Opcode.js"
import { opcodeInfo } from "../../../src/move/binary/opcodeInfo.js"
import { loadGenesisBytes } from "../../support/genesis.js"

export const genesisModuleBytes = (net: "devnet" | "mainnet"): ReadonlyArray<Uint8Array> =>
  Result.getOrThrow(listGenesisModules(loadGenesisBytes(net))).map((r) => r.bytes)

export const parse = (bytes: Uint8Array): CompiledModule => Result.getOrThrow(deserializeModule(bytes))

const U64_MAX = (1n << 64n) - 1n

/** One instruction per opcode, with extreme immediates and index 0 for every table operand. */
export const everyInstruction = (): Instruction[] => {
  const out: Instruction[] = []
  for (let op = 1; op <= OPCODE_MAX; op++) {
    const o = op as any
    switch (opcodeInfo[op]!.operand) {
      case "none":
        out.push({ op: o })
        break
      case "branch":
        out.push({ op: o, offset: 0 })
        break
      case "u8":
        out.push({ op: o, value: 255 })
        break
      case "u16":
        out.push({ op: o, value: 65_535 })
        break
      case "u32":
        out.push({ op: o, value: 0xffff_ffff })
        break
      case "u64":
        out.push({ op: o, value: U64_MAX })
        break
      case "u128":
        out.push({ op: o, value: (1n << 128n) - 1n })
        break
      case "u256":
        out.push({ op: o, value: (1n << 256n) - 1n })
        break
      case "i8":
        out.push({ op: o, value: -128 })
        break
      case "i16":
        out.push({ op: o, value: -32_768 })
        break
      case "i32":
        out.push({ op: o, value: -(2 ** 31) })
        break
      case "i64":
        out.push({ op: o, value: -(1n << 63n) })
        break
      case "i128":
        out.push({ op: o, value: -(1n << 127n) })
        break
      case "i256":
        out.push({ op: o, value: -(1n << 255n) })
        break
      case "vecCount":
        out.push({ op: o, index: 0, count: U64_MAX })
        break
      case "closure":
      case "closureGeneric":
        out.push({ op: o, index: 0, mask: U64_MAX })
        break
      default:
        out.push({ op: o, index: 0 })
    }
  }
  return out
}

/**
 * A devnet module whose every operand table is non-empty (missing instantiation tables are filled
 * with a valid entry), with its first function that has a local replaced by `everyInstruction()`.
 */
export const moduleWithEveryOpcode = (): CompiledModule => {
  const candidates = genesisModuleBytes("devnet")
    .map(parse)
    .filter(
      (m) =>
        m.constantPool.length > 0 &&
        m.fieldHandles.length > 0 &&
        m.functionInstantiations.length > 0 &&
        m.structDefInstantiations.length > 0 &&
        m.variantFieldHandles.length > 0 &&
        m.structVariantHandles.length > 0
    )
  const m = candidates[0]!
  const inst = { handle: 0, typeParameters: 0 }
  const localCount = (i: number): number => {
    const d = m.functionDefs[i]!
    const h = m.functionHandles[d.function]!
    return d.code === undefined ? 0 : m.signatures[h.parameters]!.length + m.signatures[d.code.locals]!.length
  }
  const target = m.functionDefs.findIndex((_, i) => localCount(i) > 0)
  const functionDefs = m.functionDefs.map((d, i) =>
    i === target ? { ...d, code: { locals: d.code!.locals, code: everyInstruction() } } : d
  )
  return {
    ...m,
    fieldInstantiations: m.fieldInstantiations.length > 0 ? m.fieldInstantiations : [inst],
    variantFieldInstantiations: m.variantFieldInstantiations.length > 0 ? m.variantFieldInstantiations : [inst],
    structVariantInstantiations: m.structVariantInstantiations.length > 0 ? m.structVariantInstantiations : [inst],
    functionDefs
  }
}
