/**
 * Test helper: a Move script assembled by hand (no compiler here), as test/execution/bytecode.ts
 * does: `main(framework: &signer, enable: vector<u64>, disable: vector<u64>)` =
 * `0x1::features::change_feature_flags_for_next_epoch(framework, enable, disable)`, which only
 * 0x1 may call (what a governance proposal's script does).
 */
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { Opcode } from "../../src/move/binary/Opcode.js"
import { serializeScript } from "../../src/move/binary/serialize.js"
import { primitiveTokens as P, type SignatureToken } from "../../src/move/binary/SignatureToken.js"
import { functionHandle, ix, op, scriptOf, signerRef } from "../support/moveAssembly.js"

const u64s: SignatureToken = { _tag: "Vector", element: P.U64 }

export const changeFeatureFlagsScript: Uint8Array = serializeScript(
  scriptOf({
    moduleHandles: [{ address: 0, name: 0 }],
    functionHandles: [functionHandle(0, 1, 1, 0)],
    signatures: [[], [signerRef, u64s, u64s]],
    identifiers: ["features", "change_feature_flags_for_next_epoch"],
    addressIdentifiers: [addressFromNumber(1)],
    parameters: 1,
    code: {
      locals: 0,
      code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), ix(Opcode.MoveLoc, 2), ix(Opcode.Call, 0), op(Opcode.Ret)]
    }
  })
)
