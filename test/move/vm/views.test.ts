/**
 * Framework view functions run by the VM at genesis state, checked against values decoded straight
 * from the state (not through the VM), and the coverage count over all 212 devnet views.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import { describe, expect, it } from "vitest"
import { BcsReader } from "../../../src/bcs/index.js"
import { type AccountAddress, addressEquals, addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { StructTag, TypeTag } from "../../../src/domain/TypeTag.js"
import { readStructTag } from "../../../src/domain/TypeTagCodec.js"
import { type CallOutcome, MoveVm } from "../../../src/move/vm/MoveVm.js"
import { genesisState } from "./genesisState.js"
import { describeWithGenesis } from "../../support/genesis.js"
import { runAllViews } from "./viewCoverage.js"

const ONE = addressFromNumber(1)
const FAUCET = addressFromNumber(0xa550c18)
const APT_METADATA = addressFromNumber(0xa)
const U64_MAX = (1n << 64n) - 1n
const tag = (module: string, name: string, typeArgs: TypeTag[] = []): StructTag => ({
  address: ONE,
  module,
  name,
  typeArgs
})
const aptosCoin: TypeTag = { _tag: "struct", struct: tag("aptos_coin", "AptosCoin") }
const objectCore: TypeTag = { _tag: "struct", struct: tag("object", "ObjectCore") }

const devnet = genesisState("devnet")
const vm = new MoveVm()

const call = (
  module: string,
  fn: string,
  tyArgs: TypeTag[],
  args: Uint8Array[],
  view = devnet.view,
  asView = true
): CallOutcome =>
  vm.call(
    view,
    { module: { address: ONE, name: module }, function: fn, tyArgs, args },
    { maxGas: 2_000_000n, view: asView }
  )

const single = (o: CallOutcome): BcsReader => {
  if (o._tag !== "Success")
    throw new Error(
      `expected success, got ${o._tag}: ${JSON.stringify(o, (_k, v) => (typeof v === "bigint" ? String(v) : v))}`
    )
  expect(o.values).toHaveLength(1)
  return new BcsReader(o.values[0]!)
}

/** Oracle: the primary store's FungibleStore balance, read from its ObjectGroup. */
const primaryStoreBalance = (owner: AccountAddress): bigint | undefined => {
  const seed = new Uint8Array(65)
  seed.set(owner, 0)
  seed.set(APT_METADATA, 32)
  seed[64] = 0xfc
  const store = sha3_256(seed)
  const group = devnet.view.resourceGroup(store, tag("object", "ObjectGroup"))
  if (group === undefined) return undefined
  const r = new BcsReader(group)
  const n = r.uleb128()
  for (let i = 0; i < n; i++) {
    const member = readStructTag(r)
    const bytes = r.bytesWithLength()
    if (member.module === "fungible_asset" && member.name === "FungibleStore") {
      const m = new BcsReader(bytes)
      m.fixed(32)
      return m.u64()
    }
  }
  return undefined
}

describe("devnet genesis views", () => {
  it("chain_id::get is the ChainId resource (243)", () => {
    const stored = devnet.view.resource(ONE, tag("chain_id", "ChainId"))!
    expect(stored[0]).toBe(243)
    expect(single(call("chain_id", "get", [], [])).u8()).toBe(243)
  })

  it("timestamp::now_microseconds is the stored CurrentTimeMicroseconds (0)", () => {
    const stored = new BcsReader(devnet.view.resource(ONE, tag("timestamp", "CurrentTimeMicroseconds"))!).u64()
    expect(stored).toBe(0n)
    expect(single(call("timestamp", "now_microseconds", [], [])).u64()).toBe(stored)
  })

  it("account::get_sequence_number(0xa550c18) is the Account resource's (0)", () => {
    const r = new BcsReader(devnet.view.resource(FAUCET, tag("account", "Account"))!)
    r.bytesWithLength()
    const stored = r.u64()
    expect(stored).toBe(0n)
    expect(single(call("account", "get_sequence_number", [], [FAUCET])).u64()).toBe(stored)
  })

  it("account::exists_at is true for the faucet", () => {
    expect(single(call("account", "exists_at", [], [FAUCET])).bool()).toBe(true)
  })

  it("coin::balance<AptosCoin> and primary_fungible_store::balance match the primary store (u64::MAX)", () => {
    const stored = primaryStoreBalance(FAUCET)
    expect(stored).toBe(U64_MAX)
    expect(single(call("coin", "balance", [aptosCoin], [FAUCET])).u64()).toBe(stored)
    expect(single(call("primary_fungible_store", "balance", [objectCore], [FAUCET, APT_METADATA])).u64()).toBe(stored)
  })

  it("an account without a store has balance 0", () => {
    const nobody = addressFromNumber(0xdead)
    expect(primaryStoreBalance(nobody)).toBeUndefined()
    expect(single(call("coin", "balance", [aptosCoin], [nobody])).u64()).toBe(0n)
  })

  it("coin::name/symbol/decimals match CoinInfo<AptosCoin>", () => {
    const r = new BcsReader(devnet.view.resource(ONE, tag("coin", "CoinInfo", [aptosCoin]))!)
    const name = r.string()
    const symbol = r.string()
    const decimals = r.u8()
    expect([name, symbol, decimals]).toEqual(["Aptos Coin", "APT", 8])
    expect(single(call("coin", "name", [aptosCoin], [])).string()).toBe(name)
    expect(single(call("coin", "symbol", [aptosCoin], [])).string()).toBe(symbol)
    expect(single(call("coin", "decimals", [aptosCoin], [])).u8()).toBe(decimals)
  })

  it("object views on the APT metadata object 0xa", () => {
    const core = new BcsReader(
      (() => {
        const g = new BcsReader(devnet.view.resourceGroup(APT_METADATA, tag("object", "ObjectGroup"))!)
        const n = g.uleb128()
        for (let i = 0; i < n; i++) {
          const t = readStructTag(g)
          const b = g.bytesWithLength()
          if (t.name === "ObjectCore") return b
        }
        throw new Error("no ObjectCore")
      })()
    )
    core.u64() // guid_creation_num
    const owner = core.fixed(32)
    const out = single(call("object", "owner", [objectCore], [APT_METADATA])).fixed(32)
    expect(addressEquals(out, owner)).toBe(true)
    expect(single(call("object", "is_owner", [objectCore], [APT_METADATA, owner])).bool()).toBe(true)
    expect(single(call("object", "is_burnt", [objectCore], [APT_METADATA])).bool()).toBe(false)
  })

  it("a view returns the BCS the reference would (fungible_asset::supply is Some(u64::MAX))", () => {
    const r = single(call("fungible_asset", "supply", [objectCore], [APT_METADATA]))
    expect(r.uleb128()).toBe(1)
    expect(r.u128()).toBe(U64_MAX)
  })

  it("aborts carry the module and its error-map entry", () => {
    const o = call("object", "owner", [objectCore], [addressFromNumber(0xdead)])
    expect(o._tag).toBe("Abort")
    if (o._tag !== "Abort") return
    expect(o.location?.name).toBe("object")
    expect(o.code).toBe(0x60002n)
    expect(o.info?.name).toBe("EOBJECT_DOES_NOT_EXIST")
  })

  it("a function without the view attribute is refused before running", () => {
    const o = call("aptos_account", "assert_account_exists", [], [FAUCET])
    expect(o._tag).toBe("Error")
    if (o._tag === "Error") {
      expect(o.error.status).toBe("INVALID_MAIN_FUNCTION_SIGNATURE")
      expect(o.error.detail).toBe("function not marked as view function")
    }
  })

  it("the type-argument count is checked", () => {
    const o = call("coin", "balance", [], [FAUCET])
    expect(o._tag === "Error" && o.error.status).toBe("NUMBER_OF_TYPE_ARGUMENTS_MISMATCH")
  })

  it("type arguments must satisfy their parameter's ability constraints", () => {
    // primary_fungible_store::balance<T: key>: String has copy, drop and store, not key.
    const str: TypeTag = { _tag: "struct", struct: tag("string", "String") }
    const o = call("primary_fungible_store", "balance", [str], [FAUCET, APT_METADATA])
    expect(o._tag === "Error" && o.error.status).toBe("CONSTRAINT_NOT_SATISFIED")
  })

  it("malformed arguments fail as FAILED_TO_DESERIALIZE_ARGUMENT", () => {
    const o = call("account", "exists_at", [], [new Uint8Array(3)])
    expect(o._tag === "Error" && o.error.status).toBe("FAILED_TO_DESERIALIZE_ARGUMENT")
  })

  it("over-nested type arguments fail cleanly", () => {
    let t: TypeTag = aptosCoin
    for (let i = 0; i < 300; i++) t = { _tag: "vector", element: t }
    const o = call("coin", "balance", [t], [FAUCET])
    expect(o._tag).toBe("Error")
    if (o._tag === "Error") expect(["VM_MAX_TYPE_DEPTH_REACHED", "VM_MAX_TYPE_NODES_REACHED"]).toContain(o.error.status)
  })

  it("gas used is reported in external units and grows with the work done", () => {
    const a = call("chain_id", "get", [], [])
    const b = call("coin", "balance", [aptosCoin], [FAUCET])
    expect(a._tag === "Success" && b._tag === "Success").toBe(true)
    expect(a.gasUsed).toBeGreaterThan(0n)
    expect(b.gasUsed).toBeGreaterThan(a.gasUsed)
  })

  it("every devnet view returns or aborts with a framework code; none hits a VM error", () => {
    const rows = runAllViews(devnet, vm, devnet.view)
    const count = (o: string) => rows.filter((r) => r.outcome === o).length
    const failed = rows.filter((r) => r.outcome === "failed")
    console.log(
      `devnet views: ${rows.length} called, ${count("returned")} returned, ${count("aborted")} aborted, ` +
        `${count("missingData")} MISSING_DATA, ${failed.length} VM errors`
    )
    expect(rows).toHaveLength(212)
    expect(failed.map((r) => `${r.name}: ${r.detail}`)).toEqual([])
    expect(count("returned")).toBeGreaterThanOrEqual(90)
  })
})

describeWithGenesis("mainnet", "mainnet (2022, bytecode v5) genesis", () => {
  const mainnet = genesisState("mainnet")
  const vm = new MoveVm()
  const call = (
    module: string,
    fn: string,
    tyArgs: TypeTag[],
    args: Uint8Array[],
    view = mainnet.view,
    asView = true
  ) =>
    vm.call(
      view,
      { module: { address: ONE, name: module }, function: fn, tyArgs, args },
      { maxGas: 2_000_000n, view: asView }
    )
  const coinStore = (() => {
    for (const e of mainnet.entries)
      if (e.key._tag === "AccessPath" && e.key.path._tag === "Resource" && e.key.path.struct.name === "CoinStore")
        return { address: e.key.address, value: "data" in e.op ? new BcsReader(e.op.data).u64() : 0n }
    throw new Error("no CoinStore in mainnet genesis")
  })()

  it("has no view attributes (metadata v0), so calls run as plain functions", () => {
    expect(call("chain_id", "get", [], [], mainnet.view)._tag).toBe("Error")
    expect(single(call("chain_id", "get", [], [], mainnet.view, false)).u8()).toBe(1)
  })

  it("coin::balance<AptosCoin> is the CoinStore's value", () => {
    const r = single(call("coin", "balance", [aptosCoin], [coinStore.address], mainnet.view, false))
    expect(r.u64()).toBe(coinStore.value)
  })

  it("coin::supply<AptosCoin> returns the 2022 Option struct shape", () => {
    // Some(total supply): the value sits in the aggregator's table item (the old aggregator natives).
    const r = single(call("coin", "supply", [aptosCoin], [], mainnet.view, false))
    expect(r.uleb128()).toBe(1)
    expect(r.u128()).toBeGreaterThan(0n)
  })
})
