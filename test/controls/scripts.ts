/**
 * Test helper: a Move script assembled by hand (no compiler here), as test/execution/bytecode.ts
 * does: `main(framework: &signer, enable: vector<u64>, disable: vector<u64>)` =
 * `0x1::features::change_feature_flags_for_next_epoch(framework, enable, disable)`, which only
 * 0x1 may call (what a governance proposal's script does).
 */
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { CompiledScript, Instruction } from "../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../src/move/binary/Opcode.js"
import { serializeScript } from "../../src/move/binary/serialize.js"
import { primitiveTokens as P, type SignatureToken } from "../../src/move/binary/SignatureToken.js"

const ix = (op: Opcode, index: number): Instruction => ({ op, index }) as Instruction
const op = (o: Opcode): Instruction => ({ op: o }) as Instruction
const signerRef: SignatureToken = { _tag: "Reference", to: P.Signer }
const u64s: SignatureToken = { _tag: "Vector", element: P.U64 }

export const changeFeatureFlagsScript: Uint8Array = serializeScript({
  version: 7,
  moduleHandles: [{ address: 0, name: 0 }],
  structHandles: [],
  functionHandles: [
    {
      module: 0,
      name: 1,
      parameters: 1,
      returns: 0,
      typeParameters: [],
      accessSpecifiers: undefined,
      attributes: []
    }
  ],
  functionInstantiations: [],
  signatures: [[], [signerRef, u64s, u64s]],
  identifiers: ["features", "change_feature_flags_for_next_epoch"],
  addressIdentifiers: [addressFromNumber(1)],
  constantPool: [],
  metadata: [],
  typeParameters: [],
  parameters: 1,
  accessSpecifiers: undefined,
  code: {
    locals: 0,
    code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), ix(Opcode.MoveLoc, 2), ix(Opcode.Call, 0), op(Opcode.Ret)]
  }
} satisfies CompiledScript)
