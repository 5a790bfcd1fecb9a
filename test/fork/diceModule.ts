/**
 * Test helper: a module assembled by hand (bytecode v7, the project's serializer) that draws
 * randomness, so a test can run a `#[randomness]` entry function without a compiler:
 * `<address>::dice` with `struct Roll has key { value: u64 }` and
 * `#[randomness] entry fun roll(s: &signer) { move_to(s, Roll { value: 0x1::randomness::u64_integer() }) }`
 * (private, as the compiler requires of `#[randomness]`; the attribute in `aptos::metadata_v1`).
 */
import { BcsWriter } from "../../src/bcs/index.js"
import type { AccountAddress } from "../../src/domain/AccountAddress.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { Opcode } from "../../src/move/binary/Opcode.js"
import { serializeModule } from "../../src/move/binary/serialize.js"
import { primitiveTokens as P } from "../../src/move/binary/SignatureToken.js"
import { AttributeKind } from "../../src/move/metadata/ModuleMetadata.js"
import { functionHandle, ix, moduleOf, op, signerRef } from "../support/moveAssembly.js"

/** `RuntimeModuleMetadataV1 { error_map: {}, struct_attributes: {}, fun_attributes: { roll: [randomness] } }`. */
const metadataV1 = (): Uint8Array =>
  new BcsWriter(32)
    .uleb128(0)
    .uleb128(0)
    .uleb128(1)
    .string("roll")
    .uleb128(1)
    .u8(AttributeKind.Randomness)
    .uleb128(0)
    .toBytes()

export const diceModule = (address: AccountAddress): Uint8Array =>
  serializeModule(
    moduleOf({
      moduleHandles: [
        { address: 0, name: 0 },
        { address: 1, name: 4 }
      ],
      structHandles: [{ module: 0, name: 1, abilities: 0x8, typeParameters: [] }],
      functionHandles: [
        functionHandle(0, 2, 1, 0), // roll(&signer)
        functionHandle(1, 5, 0, 2) // 0x1::randomness::u64_integer(): u64
      ],
      signatures: [[], [signerRef], [P.U64]],
      identifiers: ["dice", "Roll", "roll", "value", "randomness", "u64_integer"],
      addressIdentifiers: [address, addressFromNumber(1)],
      metadata: [{ key: new TextEncoder().encode("aptos::metadata_v1"), value: metadataV1() }],
      structDefs: [{ structHandle: 0, fieldInformation: { _tag: "Declared", fields: [{ name: 3, type: P.U64 }] } }],
      functionDefs: [
        {
          function: 0,
          visibility: 0,
          isEntry: true,
          acquiresGlobalResources: [],
          code: {
            locals: 0,
            code: [ix(Opcode.MoveLoc, 0), ix(Opcode.Call, 1), ix(Opcode.Pack, 0), ix(Opcode.MoveTo, 0), op(Opcode.Ret)]
          }
        }
      ]
    })
  )
