/**
 * Test helper: a Move module assembled by hand (bytecode v7, the project's serializer) that only
 * declares a coin type, `<address>::<module>::<Struct> { dummy_field: bool }`, so a test can make a
 * coin with the framework's `0x1::managed_coin` (initialize, register, mint) without a compiler.
 */
import type { AccountAddress } from "../../../../src/domain/AccountAddress.js"
import { serializeModule } from "../../../../src/move/binary/serialize.js"
import { primitiveTokens as P } from "../../../../src/move/binary/SignatureToken.js"
import { moduleOf } from "../../../support/moveAssembly.js"

export const coinTypeModule = (address: AccountAddress, module: string, struct: string): Uint8Array =>
  serializeModule(
    moduleOf({
      moduleHandles: [{ address: 0, name: 0 }],
      structHandles: [{ module: 0, name: 1, abilities: 0, typeParameters: [] }],
      functionHandles: [],
      signatures: [[]],
      identifiers: [module, struct, "dummy_field"],
      addressIdentifiers: [address],
      structDefs: [{ structHandle: 0, fieldInformation: { _tag: "Declared", fields: [{ name: 2, type: P.Bool }] } }]
    })
  )
