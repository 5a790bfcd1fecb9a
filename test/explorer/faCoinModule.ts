/**
 * Test helper: `<publisher>::fa_coin`, a Move module assembled by hand (bytecode v7, written with the
 * project's serializer) whose `init_module` creates a fungible asset the way the framework's own
 * examples do, so a chain gets a user-made fungible asset without a Move compiler:
 *
 *   fun init_module(s: &signer) {
 *     let ctor = object::create_named_object(s, b"MNC");
 *     primary_fungible_store::create_primary_store_enabled_fungible_asset(
 *       &ctor, option::none<u128>(), string::utf8(NAME), string::utf8(SYMBOL), 8,
 *       string::utf8(ICON_URI), string::utf8(PROJECT_URI));
 *     let mint = fungible_asset::generate_mint_ref(&ctor);
 *     primary_fungible_store::mint(&mint, signer::address_of(s), INITIAL_SUPPLY);
 *   }
 *
 * The asset's metadata object lives at `create_object_address(publisher, b"MNC")`; transfers go
 * through the framework's entry `0x1::primary_fungible_store::transfer<0x1::fungible_asset::Metadata>`.
 */
import type { AccountAddress } from "../../src/domain/AccountAddress.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { Opcode } from "../../src/move/binary/Opcode.js"
import { serializeModule } from "../../src/move/binary/serialize.js"
import { primitiveTokens as P, type SignatureToken } from "../../src/move/binary/SignatureToken.js"
import { bytesConstant, functionHandle as handle, ix, ldU8, ldU64, moduleOf, op } from "../support/moveAssembly.js"

export const FA_COIN_SEED = "MNC"
export const FA_COIN_NAME = "Movenode Coin"
export const FA_COIN_SYMBOL = "MNC"
export const FA_COIN_DECIMALS = 8
/** An inline picture (a data URI), so a browser shows the icon without a server to fetch it from. */
export const FA_COIN_ICON_URI = `data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><circle cx='5' cy='5' r='5' fill='#2f6f4f'/></svg>"
)}`
export const FA_COIN_PROJECT_URI = "http://127.0.0.1/mnc"

/** The module's string constants, each once (the seed and the symbol are one text: a table holds no entry twice). */
const TEXTS = [...new Set([FA_COIN_SEED, FA_COIN_NAME, FA_COIN_SYMBOL, FA_COIN_ICON_URI, FA_COIN_PROJECT_URI])]
const constantOf = (text: string): number => TEXTS.indexOf(text)

/** Minted to the publisher by `init_module`: 1,000,000 MNC. */
export const FA_COIN_INITIAL_SUPPLY = 1_000_000n * 10n ** 8n

// Ability bits: copy 1, drop 2, store 4, key 8 (as the defining modules declare them).
const DROP = 0x2
const DROP_STORE = 0x6
const COPY_DROP_STORE = 0x7

/** `<publisher>::fa_coin` (see the header). */
export const faCoinModule = (publisher: AccountAddress): Uint8Array => {
  const constructorRef: SignatureToken = { _tag: "Struct", handle: 0 }
  const mintRef: SignatureToken = { _tag: "Struct", handle: 1 }
  const string: SignatureToken = { _tag: "Struct", handle: 3 }
  const optionOf = (t: SignatureToken): SignatureToken => ({ _tag: "StructInstantiation", handle: 2, typeArgs: [t] })
  const ref = (to: SignatureToken): SignatureToken => ({ _tag: "Reference", to })
  const m = moduleOf({
    moduleHandles: [
      { address: 0, name: 0 },
      { address: 1, name: 1 },
      { address: 1, name: 2 },
      { address: 1, name: 3 },
      { address: 1, name: 4 },
      { address: 1, name: 5 },
      { address: 1, name: 6 }
    ],
    structHandles: [
      { module: 1, name: 7, abilities: DROP, typeParameters: [] }, // object::ConstructorRef
      { module: 3, name: 8, abilities: DROP_STORE, typeParameters: [] }, // fungible_asset::MintRef
      { module: 4, name: 9, abilities: COPY_DROP_STORE, typeParameters: [{ constraints: 0, isPhantom: false }] }, // option::Option
      { module: 5, name: 10, abilities: COPY_DROP_STORE, typeParameters: [] } // string::String
    ],
    functionHandles: [
      handle(0, 11, 1, 0), // init_module(&signer)
      handle(1, 12, 2, 3), // object::create_named_object(&signer, vector<u8>): ConstructorRef
      handle(4, 13, 0, 4, [0]), // option::none<T>(): Option<T>
      handle(5, 14, 5, 6), // string::utf8(vector<u8>): String
      handle(2, 15, 7, 0), // primary_fungible_store::create_primary_store_enabled_fungible_asset(…)
      handle(3, 16, 8, 9), // fungible_asset::generate_mint_ref(&ConstructorRef): MintRef
      handle(6, 17, 1, 10), // signer::address_of(&signer): address
      handle(2, 18, 11, 0) // primary_fungible_store::mint(&MintRef, address, u64)
    ],
    functionInstantiations: [{ handle: 2, typeParameters: 12 }], // option::none<u128>
    signatures: [
      [],
      [ref(P.Signer)],
      [ref(P.Signer), { _tag: "Vector", element: P.U8 }],
      [constructorRef],
      [optionOf({ _tag: "TypeParameter", index: 0 })],
      [{ _tag: "Vector", element: P.U8 }],
      [string],
      [ref(constructorRef), optionOf(P.U128), string, string, P.U8, string, string],
      [ref(constructorRef)],
      [mintRef],
      [P.Address],
      [ref(mintRef), P.Address, P.U64],
      [P.U128],
      [constructorRef, mintRef] // init_module's locals after the parameter
    ],
    identifiers: [
      "fa_coin",
      "object",
      "primary_fungible_store",
      "fungible_asset",
      "option",
      "string",
      "signer",
      "ConstructorRef",
      "MintRef",
      "Option",
      "String",
      "init_module",
      "create_named_object",
      "none",
      "utf8",
      "create_primary_store_enabled_fungible_asset",
      "generate_mint_ref",
      "address_of",
      "mint"
    ],
    addressIdentifiers: [publisher, addressFromNumber(1)],
    constantPool: TEXTS.map(bytesConstant),
    functionDefs: [
      {
        function: 0,
        visibility: 0,
        isEntry: false,
        acquiresGlobalResources: [],
        code: {
          locals: 13,
          code: [
            ix(Opcode.CopyLoc, 0),
            ix(Opcode.LdConst, constantOf(FA_COIN_SEED)),
            ix(Opcode.Call, 1),
            ix(Opcode.StLoc, 1),
            ix(Opcode.ImmBorrowLoc, 1),
            ix(Opcode.CallGeneric, 0),
            ix(Opcode.LdConst, constantOf(FA_COIN_NAME)),
            ix(Opcode.Call, 3),
            ix(Opcode.LdConst, constantOf(FA_COIN_SYMBOL)),
            ix(Opcode.Call, 3),
            ldU8(FA_COIN_DECIMALS),
            ix(Opcode.LdConst, constantOf(FA_COIN_ICON_URI)),
            ix(Opcode.Call, 3),
            ix(Opcode.LdConst, constantOf(FA_COIN_PROJECT_URI)),
            ix(Opcode.Call, 3),
            ix(Opcode.Call, 4),
            ix(Opcode.ImmBorrowLoc, 1),
            ix(Opcode.Call, 5),
            ix(Opcode.StLoc, 2),
            ix(Opcode.ImmBorrowLoc, 2),
            ix(Opcode.MoveLoc, 0),
            ix(Opcode.Call, 6),
            ldU64(FA_COIN_INITIAL_SUPPLY),
            ix(Opcode.Call, 7),
            op(Opcode.Ret)
          ]
        }
      }
    ]
  })
  return serializeModule(m)
}
