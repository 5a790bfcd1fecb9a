/**
 * Whole-framework static checks: the stack-type pass finds an integer kind for every arithmetic
 * instruction of every genesis function, and the native table covers the natives views need.
 */
import { expect, it } from "vitest"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { inferKinds, UNKNOWN_KIND } from "../../../src/move/vm/inferKinds.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { frameworkNatives } from "../../../src/move/vm/natives/index.js"
import { type GenesisState, genesisState } from "./genesisState.js"
import { ALL_GENESIS, describeEachGenesis } from "../../support/genesis.js"

const ARITH = new Set<number>([
  Opcode.Add,
  Opcode.Sub,
  Opcode.Mul,
  Opcode.Div,
  Opcode.Mod,
  Opcode.BitOr,
  Opcode.BitAnd,
  Opcode.Xor,
  Opcode.Shl,
  Opcode.Shr,
  Opcode.Negate
])

const loadAll = (state: GenesisState) => {
  const vm = new MoveVm()
  return state.entries
    .filter((e) => e.key._tag === "AccessPath" && e.key.path._tag === "Code")
    .map((e) => {
      const id = (e.key as { path: { module: { address: Uint8Array; name: string } } }).path.module
      return vm.loader.withView(state.view, () => vm.loader.load(id.address, id.name))
    })
}

describeEachGenesis(ALL_GENESIS, "%s framework", (name) => {
  const modules = loadAll(genesisState(name))

  it("every arithmetic instruction gets its operand kind from the stack-type pass", () => {
    let arithmetic = 0
    const unknown: string[] = []
    for (const m of modules)
      for (const fn of m.functions) {
        if (fn.def.code === undefined) continue
        const kinds = inferKinds(m.cm, fn.def)
        fn.def.code.code.forEach((ins, pc) => {
          if (!ARITH.has(ins.op)) return
          arithmetic++
          if (kinds[pc] === UNKNOWN_KIND) unknown.push(`${fn.fullName}@${pc}`)
        })
      }
    expect(unknown).toEqual([])
    expect(arithmetic).toBeGreaterThan(name === "devnet" ? 1000 : 200)
  })

  it("lists the natives not implemented: only cryptography and 0x7::native_position may be", () => {
    const missing: string[] = []
    let natives = 0
    for (const m of modules)
      for (const fn of m.functions)
        if (fn.isNative) {
          natives++
          if (!frameworkNatives.has(fn.fullName)) missing.push(fn.fullName)
        }
    console.log(`${name}: ${natives} natives, ${natives - missing.length} implemented; missing: ${missing.join(", ")}`)
    // What may still be missing: the cryptography natives ("crypto" adds them) and 0x7's
    // experimental order-book positions. Anything else a framework declares must be implemented.
    const allowed =
      /^0x1::(bls12381|secp256k1|ristretto255|ristretto255_bulletproofs|crypto_algebra|confidential_range_proofs)::|^0x7::native_position::/
    expect(missing.filter((n) => !allowed.test(n))).toEqual([])
    for (const needed of [
      "0x1::aggregator_v2::read",
      "0x1::dispatchable_fungible_asset::dispatchable_derived_balance",
      "0x1::function_info::load_function_impl",
      "0x1::mem::swap",
      "0x1::object::create_user_derived_object_address_impl",
      "0x1::object::exists_at",
      "0x1::reflect::native_resolve",
      "0x1::table::borrow_box",
      "0x1::table::contains_box",
      "0x1::type_info::type_of"
    ])
      if (name === "devnet") expect(missing).not.toContain(needed)
  })
})
