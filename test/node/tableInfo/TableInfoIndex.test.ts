/**
 * The table-info index keeps struct layouts by type text; a module published again after a revert
 * may give the same text another layout, so a rewind makes it resolve them again
 * (`forgetLayouts`, called by `followLedger` on a rewind: the wiring is in followLedger.test.ts).
 * Here `0xcafe::m::S` is four `u64`s, then a `0x1::table::Table<u64, u64>`: 32 bytes either way,
 * so a kept layout of the first reads the second's value without failing, and finds no table.
 */
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { addressEquals, addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { primitiveTokens as P } from "../../../src/move/binary/SignatureToken.js"
import type { ModuleSource } from "../../../src/move/layout/ModuleSource.js"
import { TableInfoIndex } from "../../../src/node/tableInfo/TableInfoIndex.js"
import { loadGenesisBytes } from "../../support/genesis.js"
import { moduleOf } from "../../support/moveAssembly.js"

const ONE = addressFromNumber(1)
const CAFE = addressFromNumber(0xcafe)
const table = Result.getOrThrow(
  deserializeModule(
    Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet"))).find(
      (r) => r.address === "0x1" && r.name === "table"
    )!.bytes
  )
)

/** `0xcafe::m` with `struct S has key` holding four `u64`s, or one `Table<u64, u64>`. */
const holder = (withTable: boolean): CompiledModule =>
  moduleOf({
    moduleHandles: [
      { address: 0, name: 0 },
      { address: 1, name: 2 }
    ],
    structHandles: [
      { module: 0, name: 1, abilities: 0x8, typeParameters: [] },
      {
        module: 1,
        name: 3,
        abilities: 0x4,
        typeParameters: [
          { constraints: 0x3, isPhantom: true },
          { constraints: 0, isPhantom: true }
        ]
      }
    ],
    functionHandles: [],
    signatures: [],
    identifiers: ["m", "S", "table", "Table", "t", "a", "b", "c", "d"],
    addressIdentifiers: [CAFE, ONE],
    structDefs: [
      {
        structHandle: 0,
        fieldInformation: {
          _tag: "Declared",
          fields: withTable
            ? [{ name: 4, type: { _tag: "StructInstantiation", handle: 1, typeArgs: [P.U64, P.U64] } }]
            : [5, 6, 7, 8].map((name) => ({ name, type: P.U64 }))
        }
      }
    ]
  })

const sourceWith =
  (m: CompiledModule): ModuleSource =>
  (address, name) =>
    addressEquals(address, ONE) && name === "table"
      ? table
      : addressEquals(address, CAFE) && name === "m"
        ? m
        : undefined

const S = { address: CAFE, module: "m", name: "S", typeArgs: [] }
const handle = new Uint8Array(32).fill(0xab)

describe("TableInfoIndex", () => {
  it("after forgetLayouts, a struct's layout is resolved again from the modules given", () => {
    const index = new TableInfoIndex()
    index.learnResource(sourceWith(holder(false)), S, "0xcafe::m::S", handle)
    expect(index.lookup(handle)).toBeUndefined()
    // The kept layout (four u64s) reads the new value and finds no table: what a rewind must not leave.
    index.learnResource(sourceWith(holder(true)), S, "0xcafe::m::S", handle)
    expect(index.lookup(handle)).toBeUndefined()
    index.forgetLayouts()
    index.learnResource(sourceWith(holder(true)), S, "0xcafe::m::S", handle)
    expect(index.lookup(handle)).toMatchObject({ keyType: "u64", valueType: "u64" })
  })
})
