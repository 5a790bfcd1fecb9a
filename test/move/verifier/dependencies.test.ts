/**
 * The verifier's dependency and control-flow passes on modules assembled by hand against the
 * devnet framework: what a module declares about `0x1::coin` must be what `0x1::coin` is, and it
 * may call only what `0x1::coin` lets it call. Each refused module here was, before these passes,
 * published and run (a call of `coin::mint_internal<AptosCoin>` minted APT: test/chain/hostileModules.test.ts).
 */
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import {
  Ability,
  type CompiledModule,
  type FunctionHandle,
  type SignatureToken
} from "../../../src/move/binary/CompiledModule.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { serializeModule } from "../../../src/move/binary/serialize.js"
import { primitiveTokens as P } from "../../../src/move/binary/SignatureToken.js"
import { verifyDependencies } from "../../../src/move/verifier/dependencies.js"
import { verifyModule } from "../../../src/move/verifier/index.js"
import { counterModule } from "../../execution/bytecode.js"
import { hasGenesis } from "../../support/genesis.js"
import { functionHandle, moduleOf, op } from "../../support/moveAssembly.js"
import { frameworkOf, resolverOf } from "./support.js"

const framework = hasGenesis("devnet") ? frameworkOf("devnet") : []
const resolve = resolverOf(framework)

const EVIL = addressFromNumber(0xcafe)
/** Coin<AptosCoin> in the tables below (struct handles: 0 Fake, 1 coin::Coin, 2 aptos_coin::AptosCoin). */
const coinOfApt: SignatureToken = { _tag: "StructInstantiation", handle: 1, typeArgs: [{ _tag: "Struct", handle: 2 }] }

/**
 * `0xcafe::evil` importing `0x1::coin` (module handle 1) and `0x1::aptos_coin` (2): `Coin` declared
 * with `coinAbilities`, and one imported function handle (function handle 1) named `name` with the
 * parameter and return signatures given; one function `f()` that returns.
 */
const evil = (o: {
  name: string
  params: SignatureToken[]
  returns: SignatureToken[]
  typeParameters?: number[]
  coinAbilities?: number
  coinPhantom?: boolean
}) => {
  // Each table entry once (the verifier refuses a repeated one): equal signatures and names share an index.
  const signatures: SignatureToken[][] = [[]]
  const sig = (s: SignatureToken[]): number => {
    const at = signatures.findIndex((x) => JSON.stringify(x) === JSON.stringify(s))
    return at >= 0 ? at : signatures.push(s) - 1
  }
  const params = sig(o.params)
  const returns = sig(o.returns)
  const identifiers = ["evil", "coin", "aptos_coin", "Fake", "Coin", "AptosCoin", "f", "value"]
  const name = identifiers.includes(o.name) ? identifiers.indexOf(o.name) : identifiers.push(o.name) - 1
  return moduleOf({
    moduleHandles: [
      { address: 0, name: 0 },
      { address: 1, name: 1 },
      { address: 1, name: 2 }
    ],
    structHandles: [
      { module: 0, name: 3, abilities: Ability.Drop, typeParameters: [] },
      {
        module: 1,
        name: 4,
        abilities: o.coinAbilities ?? Ability.Store,
        typeParameters: [{ constraints: 0, isPhantom: o.coinPhantom ?? true }]
      },
      { module: 2, name: 5, abilities: Ability.Key, typeParameters: [] }
    ],
    functionHandles: [
      functionHandle(0, 6, 0, 0),
      { ...functionHandle(1, name, params, returns), typeParameters: o.typeParameters ?? [] } as FunctionHandle
    ],
    signatures,
    identifiers,
    addressIdentifiers: [EVIL, addressFromNumber(1)],
    structDefs: [{ structHandle: 0, fieldInformation: { _tag: "Declared", fields: [{ name: 7, type: P.U64 }] } }],
    functionDefs: [
      {
        function: 0,
        visibility: 0,
        isEntry: false,
        acquiresGlobalResources: [],
        code: { locals: 0, code: [op(Opcode.Ret)] }
      }
    ]
  })
}

const T0: SignatureToken = { _tag: "TypeParameter", index: 0 }
const coinOfT: SignatureToken = { _tag: "StructInstantiation", handle: 1, typeArgs: [T0] }

describe.runIf(framework.length > 0)("the dependency pass against the devnet framework", () => {
  it("the honest handles verify: coin::deposit<T>(address, Coin<T>) and coin::value<T>(&Coin<T>): u64", () => {
    expect(
      verifyModule(evil({ name: "deposit", params: [P.Address, coinOfT], returns: [], typeParameters: [0] }), resolve)
    ).toBeUndefined()
    expect(
      verifyModule(
        evil({ name: "value", params: [{ _tag: "Reference", to: coinOfT }], returns: [P.U64], typeParameters: [0] }),
        resolve
      )
    ).toBeUndefined()
  })

  it("a private function of another module (coin::mint_internal) cannot be named: LOOKUP_FAILED", () => {
    const f = verifyModule(
      evil({ name: "mint_internal", params: [P.U64], returns: [coinOfT], typeParameters: [0] }),
      resolve
    )
    expect(f).toMatchObject({ status: "LOOKUP_FAILED" })
    expect(f?.message).toContain("mint_internal")
  })

  it("a friend function from a module that is not a friend (coin::deposit_for_gas_fee): LOOKUP_FAILED", () => {
    expect(
      verifyModule(
        evil({ name: "deposit_for_gas_fee", params: [P.Address, coinOfT], returns: [], typeParameters: [0] }),
        resolve
      )
    ).toMatchObject({ status: "LOOKUP_FAILED" })
  })

  it("a function that does not exist: LOOKUP_FAILED", () => {
    expect(verifyModule(evil({ name: "print_money", params: [], returns: [] }), resolve)).toMatchObject({
      status: "LOOKUP_FAILED"
    })
  })

  it("a signature other than the definition's: TYPE_MISMATCH (deposit taking the module's own struct; a u64 for a Coin; a return added; a type parameter dropped)", () => {
    for (const o of [
      {
        name: "deposit",
        params: [P.Address, { _tag: "Struct", handle: 0 } as SignatureToken],
        returns: [],
        typeParameters: [0]
      },
      { name: "deposit", params: [P.Address, P.U64], returns: [], typeParameters: [0] },
      { name: "deposit", params: [P.Address, coinOfT], returns: [P.U64], typeParameters: [0] },
      { name: "deposit", params: [P.Address, coinOfApt], returns: [] }
    ])
      expect(verifyModule(evil(o), resolve), JSON.stringify(o)).toMatchObject({ status: "TYPE_MISMATCH" })
  })

  it("a struct declared with an ability its definition lacks (Coin with copy or drop), or phantom where it is not: TYPE_MISMATCH", () => {
    const honest = {
      name: "value",
      params: [{ _tag: "Reference", to: coinOfT } as SignatureToken],
      returns: [P.U64],
      typeParameters: [0]
    }
    expect(verifyModule(evil({ ...honest, coinAbilities: Ability.Store | Ability.Copy }), resolve)).toMatchObject({
      status: "TYPE_MISMATCH"
    })
    expect(verifyModule(evil({ ...honest, coinAbilities: Ability.Store | Ability.Drop }), resolve)).toMatchObject({
      status: "TYPE_MISMATCH"
    })
    // Fewer abilities than defined only limit the module itself (the reference allows it).
    expect(verifyModule(evil({ ...honest, coinAbilities: 0 }), resolve)).toBeUndefined()
  })

  it("a verifier that throws refuses (VERIFIER_INVARIANT_VIOLATION) instead of failing the transaction's execution", () => {
    const m = evil({
      name: "value",
      params: [{ _tag: "Reference", to: coinOfT }],
      returns: [P.U64],
      typeParameters: [0]
    })
    const throwing = () => {
      throw new Error("a resolver that breaks")
    }
    expect(verifyModule(m, throwing)).toMatchObject({ status: "VERIFIER_INVARIANT_VIOLATION" })
  })

  it("a module that does not exist: LINKER_ERROR", () => {
    const m = evil({ name: "value", params: [], returns: [] })
    expect(
      verifyModule({ ...m, identifiers: m.identifiers.map((x) => (x === "coin" ? "coin_of_nobody" : x)) }, resolve)
    ).toMatchObject({ status: "LINKER_ERROR" })
  })

  it("property: an imported function handle pointed at another signature is refused by the dependency pass unless the two are the same types; nothing throws", () => {
    const users = framework.filter((m) => m.functionHandles.some((h) => h.module !== m.selfModuleHandleIndex))
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), fc.boolean(), (a, b, c, returns) => {
        const m = users[a % users.length]!
        const imported = m.functionHandles.flatMap((h, i) => (h.module === m.selfModuleHandleIndex ? [] : [i]))
        const k = imported[b % imported.length]!
        const h = m.functionHandles[k]!
        const to = c % m.signatures.length
        const from = returns ? h.returns : h.parameters
        const mutated: CompiledModule = {
          ...m,
          functionHandles: m.functionHandles.map((x, i) =>
            i === k ? { ...x, [returns ? "returns" : "parameters"]: to } : x
          )
        }
        const f = verifyDependencies(mutated, mutated.selfModuleHandleIndex, resolve)
        const same = JSON.stringify(m.signatures[to]) === JSON.stringify(m.signatures[from])
        if (same) return f === undefined
        return f?.status === "TYPE_MISMATCH"
      }),
      { numRuns: 300 }
    )
  })
})

describe("the control-flow pass", () => {
  const counter = Result.getOrThrow(deserializeModule(counterModule(EVIL)))
  const withCode = (code: CompiledModule["functionDefs"][number]["code"]) => ({
    ...counter,
    functionDefs: counter.functionDefs.map((d, i) => (i === 1 ? { ...d, code } : d))
  })

  it("a body whose last instruction falls through: INVALID_FALL_THROUGH, at that instruction", () => {
    const bump = counter.functionDefs[1]!.code!
    const f = verifyModule(withCode({ ...bump, code: bump.code.slice(0, -1) }), resolve)
    expect(f).toMatchObject({ status: "INVALID_FALL_THROUGH", functionDef: 1, offset: bump.code.length - 2 })
  })

  it("an empty body: EMPTY_CODE_UNIT", () => {
    expect(verifyModule(withCode({ locals: 0, code: [] }), resolve)).toMatchObject({
      status: "EMPTY_CODE_UNIT",
      functionDef: 1
    })
  })

  it("the same module serialized and read back verifies (the counter the tests publish)", () => {
    expect(verifyModule(Result.getOrThrow(deserializeModule(serializeModule(counter))), resolve)).toBeUndefined()
  })
})
