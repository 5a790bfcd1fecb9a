/**
 * Test helper: Move scripts and a module assembled by hand (bytecode v7) and written with the
 * project's serializer, so the executor's script and publish paths run code nobody compiled:
 * - `transferScript`: `main(s: &signer, amount: u64, to: address)` =
 *   `0x1::aptos_account::transfer(s, to, amount)`;
 * - `twoSignerTransferScript`: `main(a: &signer, b: &signer, amount: u64, to: address)` transfers
 *   `amount` from each signer;
 * - `counterModule(address)`: `<address>::counter` with `struct Counter has key { value: u64 }`,
 *   `init_module(s: &signer)` storing `Counter { value: 7 }`, and
 *   `entry fun bump(s: &signer) acquires Counter` adding 1 to the signer's counter, and
 *   `entry fun remove(s: &signer) acquires Counter` deleting it (move_from, unpacked).
 */
import { BcsWriter } from "../../src/bcs/index.js"
import type { AccountAddress } from "../../src/domain/AccountAddress.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { CodeUnit } from "../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../src/move/binary/Opcode.js"
import { serializeModule, serializeScript } from "../../src/move/binary/serialize.js"
import { primitiveTokens as P, type SignatureToken } from "../../src/move/binary/SignatureToken.js"
import { functionHandle, ix, ldU64, moduleOf, op, scriptOf, signerRef } from "../support/moveAssembly.js"

/** A script calling `0x1::aptos_account::transfer(&signer, address, u64)` (handle 0) with `params`. */
const transferCallingScript = (params: SignatureToken[], code: CodeUnit): Uint8Array =>
  serializeScript(
    scriptOf({
      moduleHandles: [{ address: 0, name: 0 }],
      functionHandles: [functionHandle(0, 1, 1, 0)],
      signatures: [[], [signerRef, P.Address, P.U64], params],
      identifiers: ["aptos_account", "transfer"],
      addressIdentifiers: [addressFromNumber(1)],
      parameters: 2,
      code
    })
  )

export const transferScript: Uint8Array = transferCallingScript([signerRef, P.U64, P.Address], {
  locals: 0,
  code: [ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 2), ix(Opcode.MoveLoc, 1), ix(Opcode.Call, 0), op(Opcode.Ret)]
})

export const twoSignerTransferScript: Uint8Array = transferCallingScript([signerRef, signerRef, P.U64, P.Address], {
  locals: 0,
  code: [
    ix(Opcode.MoveLoc, 0),
    ix(Opcode.CopyLoc, 3),
    ix(Opcode.CopyLoc, 2),
    ix(Opcode.Call, 0),
    ix(Opcode.MoveLoc, 1),
    ix(Opcode.MoveLoc, 3),
    ix(Opcode.MoveLoc, 2),
    ix(Opcode.Call, 0),
    op(Opcode.Ret)
  ]
})

/**
 * `<address>::counter` (see the header); `step`: what `bump` adds (another step gives a module of the
 * same length with other behaviour); `field`: the field's name (another name of five letters gives a
 * module of the same length whose `Counter` has the same bytes and another JSON).
 */
export const counterModule = (address: AccountAddress, step = 1n, field = "value"): Uint8Array =>
  serializeModule(
    moduleOf({
      moduleHandles: [
        { address: 0, name: 0 },
        { address: 1, name: 5 }
      ],
      structHandles: [{ module: 0, name: 1, abilities: 0x8, typeParameters: [] }],
      functionHandles: [
        functionHandle(0, 2, 1, 0), // init_module(&signer)
        functionHandle(0, 3, 1, 0), // bump(&signer)
        functionHandle(1, 6, 1, 2), // 0x1::signer::address_of(&signer): address
        functionHandle(0, 7, 1, 0) // remove(&signer)
      ],
      signatures: [[], [signerRef], [P.Address], [{ _tag: "MutableReference", to: { _tag: "Struct", handle: 0 } }]],
      identifiers: ["counter", "Counter", "init_module", "bump", field, "signer", "address_of", "remove"],
      addressIdentifiers: [address, addressFromNumber(1)],
      structDefs: [{ structHandle: 0, fieldInformation: { _tag: "Declared", fields: [{ name: 4, type: P.U64 }] } }],
      functionDefs: [
        {
          function: 0,
          visibility: 0,
          isEntry: false,
          acquiresGlobalResources: [],
          code: {
            locals: 0,
            code: [ix(Opcode.MoveLoc, 0), ldU64(7n), ix(Opcode.Pack, 0), ix(Opcode.MoveTo, 0), op(Opcode.Ret)]
          }
        },
        {
          function: 1,
          visibility: 0,
          isEntry: true,
          acquiresGlobalResources: [0],
          code: {
            locals: 3, // local 1: &mut Counter
            code: [
              ix(Opcode.MoveLoc, 0),
              ix(Opcode.Call, 2),
              ix(Opcode.MutBorrowGlobal, 0),
              ix(Opcode.StLoc, 1),
              ix(Opcode.CopyLoc, 1),
              ix(Opcode.MutBorrowField, 0),
              op(Opcode.ReadRef),
              ldU64(step),
              op(Opcode.Add),
              ix(Opcode.MoveLoc, 1),
              ix(Opcode.MutBorrowField, 0),
              op(Opcode.WriteRef),
              op(Opcode.Ret)
            ]
          }
        },
        {
          function: 3,
          visibility: 0,
          isEntry: true,
          acquiresGlobalResources: [0],
          code: {
            locals: 0,
            code: [
              ix(Opcode.MoveLoc, 0),
              ix(Opcode.Call, 2),
              ix(Opcode.MoveFrom, 0),
              ix(Opcode.Unpack, 0),
              op(Opcode.Pop),
              op(Opcode.Ret)
            ]
          }
        }
      ],
      fieldHandles: [{ owner: 0, field: 0 }]
    })
  )

/**
 * BCS of a `0x1::code::PackageMetadata` for one package of `modules` (upgrade policy
 * compatible, no sources, depending on MoveStdlib at 0x1), as `publish_package_txn` takes it.
 */
export const packageMetadata = (name: string, modules: ReadonlyArray<string>): Uint8Array => {
  const w = new BcsWriter(256)
  w.string(name) // name
  w.u8(1) // upgrade_policy: compatible
  w.u64(0n) // upgrade_number
  w.string("") // source_digest
  w.bytesWithLength(new Uint8Array(0)) // manifest
  w.uleb128(modules.length)
  for (const m of modules) {
    w.string(m) // name
    w.bytesWithLength(new Uint8Array(0)) // source
    w.bytesWithLength(new Uint8Array(0)) // source_map
    w.uleb128(0) // extension: None
  }
  w.uleb128(1) // deps
  w.fixed(addressFromNumber(1)).string("MoveStdlib")
  w.uleb128(0) // extension: None
  return w.toBytes()
}
