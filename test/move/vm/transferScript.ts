/**
 * Test helper: a hand-assembled script (bytecode v6, through the real serializer)
 * `fun main(sender: &signer, to: address, amount: u64) { 0x1::aptos_account::transfer(sender, to, amount) }`.
 */
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { CompiledScript } from "../../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { serializeScript } from "../../../src/move/binary/serialize.js"
import { primitiveTokens as P } from "../../../src/move/binary/SignatureToken.js"
import { functionHandle, ix, op, scriptOf, signerRef } from "../../support/moveAssembly.js"

export const transferScript: CompiledScript = scriptOf({
  version: 6,
  moduleHandles: [{ address: 0, name: 0 }],
  functionHandles: [functionHandle(0, 1, 0, 1)],
  signatures: [[signerRef, P.Address, P.U64], []],
  identifiers: ["aptos_account", "transfer"],
  addressIdentifiers: [addressFromNumber(1)],
  parameters: 0,
  code: {
    locals: 1,
    code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), ix(Opcode.MoveLoc, 2), ix(Opcode.Call, 0), op(Opcode.Ret)]
  }
})

export const transferScriptBytes: Uint8Array = serializeScript(transferScript)
