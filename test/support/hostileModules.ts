/**
 * Test helper: modules written to break the chain's money, each of which the reference's verifier
 * refuses and ours once published and ran (test/chain/hostileModules.test.ts runs them against a
 * local chain; test/move/verifier/ checks the pass that refuses each):
 * - `stealModule`: calls the framework's private `coin::mint_internal` (dependency pass);
 * - `forgeModule`: hands its own struct to `coin::deposit` as a `Coin<AptosCoin>` (type safety);
 * - `danglingModule`: extracts from a coin through a `&mut` that outlived the coin's move
 *   (reference safety).
 */
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { Ability, type CompiledModule } from "../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../src/move/binary/Opcode.js"
import { primitiveTokens as P, type SignatureToken } from "../../src/move/binary/SignatureToken.js"
import { functionHandle, ix, ldU64, moduleOf, op, signerRef } from "./moveAssembly.js"

const APT = 100_000_000n

/**
 * `<address>::steal` with `entry fun run(s: &signer)`: `coin::deposit<AptosCoin>(signer::address_of(s),
 * coin::mint_internal<AptosCoin>(10,000 APT))`.
 */
export const stealModule = (address: Uint8Array): CompiledModule => {
  const coinOfT: SignatureToken = {
    _tag: "StructInstantiation",
    handle: 0,
    typeArgs: [{ _tag: "TypeParameter", index: 0 }]
  }
  return moduleOf({
    moduleHandles: [
      { address: 0, name: 0 },
      { address: 1, name: 1 },
      { address: 1, name: 2 },
      { address: 1, name: 3 }
    ],
    structHandles: [
      { module: 2, name: 4, abilities: Ability.Store, typeParameters: [{ constraints: 0, isPhantom: true }] },
      { module: 3, name: 5, abilities: Ability.Key, typeParameters: [] }
    ],
    functionHandles: [
      functionHandle(0, 6, 1, 0), // run(&signer)
      functionHandle(1, 7, 1, 2), // signer::address_of(&signer): address
      functionHandle(2, 8, 3, 4, [0]), // coin::mint_internal<T>(u64): Coin<T>
      functionHandle(2, 9, 5, 0, [0]) // coin::deposit<T>(address, Coin<T>)
    ],
    functionInstantiations: [
      { handle: 2, typeParameters: 6 },
      { handle: 3, typeParameters: 6 }
    ],
    signatures: [
      [],
      [signerRef],
      [P.Address],
      [P.U64],
      [coinOfT],
      [P.Address, coinOfT],
      [{ _tag: "Struct", handle: 1 }]
    ],
    identifiers: [
      "steal",
      "signer",
      "coin",
      "aptos_coin",
      "Coin",
      "AptosCoin",
      "run",
      "address_of",
      "mint_internal",
      "deposit"
    ],
    addressIdentifiers: [address, addressFromNumber(1)],
    functionDefs: [
      {
        function: 0,
        visibility: 0,
        isEntry: true,
        acquiresGlobalResources: [],
        code: {
          locals: 0,
          code: [
            ix(Opcode.MoveLoc, 0),
            ix(Opcode.Call, 1),
            ldU64(10_000n * APT),
            ix(Opcode.CallGeneric, 0),
            ix(Opcode.CallGeneric, 1),
            op(Opcode.Ret)
          ]
        }
      }
    ]
  })
}

/**
 * `<address>::forge` with `struct Fake has drop, store { value: u64 }` and `entry fun run(s: &signer)`:
 * `coin::deposit<AptosCoin>(signer::address_of(s), Fake { value: 10,000 APT })` — the handle of
 * `deposit` declared honestly, the value on the stack of the wrong type.
 */
export const forgeModule = (address: Uint8Array): CompiledModule => {
  const coinOfApt: SignatureToken = {
    _tag: "StructInstantiation",
    handle: 1,
    typeArgs: [{ _tag: "Struct", handle: 2 }]
  }
  const coinOfT: SignatureToken = {
    _tag: "StructInstantiation",
    handle: 1,
    typeArgs: [{ _tag: "TypeParameter", index: 0 }]
  }
  return moduleOf({
    moduleHandles: [
      { address: 0, name: 0 },
      { address: 1, name: 1 },
      { address: 1, name: 2 },
      { address: 1, name: 3 }
    ],
    structHandles: [
      { module: 0, name: 4, abilities: Ability.Drop | Ability.Store, typeParameters: [] },
      { module: 2, name: 5, abilities: Ability.Store, typeParameters: [{ constraints: 0, isPhantom: true }] },
      { module: 3, name: 6, abilities: Ability.Key, typeParameters: [] }
    ],
    functionHandles: [functionHandle(0, 7, 1, 0), functionHandle(1, 8, 1, 2), functionHandle(2, 9, 3, 0, [0])],
    functionInstantiations: [{ handle: 2, typeParameters: 4 }],
    signatures: [[], [signerRef], [P.Address], [P.Address, coinOfT], [{ _tag: "Struct", handle: 2 }], [coinOfApt]],
    identifiers: [
      "forge",
      "signer",
      "coin",
      "aptos_coin",
      "Fake",
      "Coin",
      "AptosCoin",
      "run",
      "address_of",
      "deposit",
      "value"
    ],
    addressIdentifiers: [address, addressFromNumber(1)],
    structDefs: [{ structHandle: 0, fieldInformation: { _tag: "Declared", fields: [{ name: 10, type: P.U64 }] } }],
    functionDefs: [
      {
        function: 0,
        visibility: 0,
        isEntry: true,
        acquiresGlobalResources: [],
        code: {
          locals: 0,
          code: [
            ix(Opcode.MoveLoc, 0),
            ix(Opcode.Call, 1),
            ldU64(10_000n * APT),
            ix(Opcode.Pack, 0),
            ix(Opcode.CallGeneric, 0),
            op(Opcode.Ret)
          ]
        }
      }
    ]
  })
}

/**
 * `<address>::w` with `struct Wallet { c: Coin<AptosCoin> }` and `entry fun dup(s: &signer)`: withdraw
 * 4 APT into a wallet, take `&mut wallet.c`, move the wallet away while that reference lives
 * (unpack it, deposit the coin), then `coin::extract(reference, 4 APT)` and deposit that too. Well
 * typed; only the borrow checker refuses it.
 */
export const danglingModule = (address: Uint8Array, release = false): CompiledModule => {
  const amount = 4n * APT
  // `release`: the reference is moved out and dropped before the wallet moves (valid, harmless).
  const drop = release ? [ix(Opcode.MoveLoc, 2), op(Opcode.Pop)] : []
  const extract = release
    ? []
    : [
        ix(Opcode.CopyLoc, 0),
        ix(Opcode.Call, 1),
        ix(Opcode.MoveLoc, 2),
        ldU64(amount),
        ix(Opcode.CallGeneric, 2),
        ix(Opcode.CallGeneric, 1)
      ]
  const coinOfApt: SignatureToken = {
    _tag: "StructInstantiation",
    handle: 1,
    typeArgs: [{ _tag: "Struct", handle: 2 }]
  }
  const coinOfT: SignatureToken = {
    _tag: "StructInstantiation",
    handle: 1,
    typeArgs: [{ _tag: "TypeParameter", index: 0 }]
  }
  return moduleOf({
    moduleHandles: [
      { address: 0, name: 0 },
      { address: 1, name: 1 },
      { address: 1, name: 2 },
      { address: 1, name: 3 }
    ],
    structHandles: [
      { module: 0, name: 4, abilities: 0, typeParameters: [] },
      { module: 2, name: 5, abilities: Ability.Store, typeParameters: [{ constraints: 0, isPhantom: true }] },
      { module: 3, name: 6, abilities: Ability.Key, typeParameters: [] }
    ],
    functionHandles: [
      functionHandle(0, 7, 1, 0), // dup(&signer)
      functionHandle(1, 8, 1, 2), // signer::address_of(&signer): address
      functionHandle(2, 9, 3, 4, [0]), // coin::withdraw<T>(&signer, u64): Coin<T>
      functionHandle(2, 10, 5, 0, [0]), // coin::deposit<T>(address, Coin<T>)
      functionHandle(2, 11, 6, 4, [0]) // coin::extract<T>(&mut Coin<T>, u64): Coin<T>
    ],
    functionInstantiations: [
      { handle: 2, typeParameters: 7 },
      { handle: 3, typeParameters: 7 },
      { handle: 4, typeParameters: 7 }
    ],
    signatures: [
      [],
      [signerRef],
      [P.Address],
      [signerRef, P.U64],
      [coinOfT],
      [P.Address, coinOfT],
      [{ _tag: "MutableReference", to: coinOfT }, P.U64],
      [{ _tag: "Struct", handle: 2 }],
      // locals 1–3: the wallet, the reference into it, the coin taken out of it
      [{ _tag: "Struct", handle: 0 }, { _tag: "MutableReference", to: coinOfApt }, coinOfApt]
    ],
    identifiers: [
      "w",
      "signer",
      "coin",
      "aptos_coin",
      "Wallet",
      "Coin",
      "AptosCoin",
      "dup",
      "address_of",
      "withdraw",
      "deposit",
      "extract",
      "c"
    ],
    addressIdentifiers: [address, addressFromNumber(1)],
    structDefs: [{ structHandle: 0, fieldInformation: { _tag: "Declared", fields: [{ name: 12, type: coinOfApt }] } }],
    fieldHandles: [{ owner: 0, field: 0 }],
    functionDefs: [
      {
        function: 0,
        visibility: 0,
        isEntry: true,
        acquiresGlobalResources: [],
        code: {
          locals: 8,
          code: [
            ix(Opcode.CopyLoc, 0),
            ldU64(amount),
            ix(Opcode.CallGeneric, 0),
            ix(Opcode.Pack, 0),
            ix(Opcode.StLoc, 1),
            ix(Opcode.MutBorrowLoc, 1),
            ix(Opcode.MutBorrowField, 0),
            ix(Opcode.StLoc, 2),
            ...drop,
            // offset 8 (without `release`): the wallet moves while &mut wallet.c lives
            ix(Opcode.MoveLoc, 1),
            ix(Opcode.Unpack, 0),
            ix(Opcode.StLoc, 3),
            ix(Opcode.CopyLoc, 0),
            ix(Opcode.Call, 1),
            ix(Opcode.MoveLoc, 3),
            ix(Opcode.CallGeneric, 1),
            ...extract,
            op(Opcode.Ret)
          ]
        }
      }
    ]
  })
}
