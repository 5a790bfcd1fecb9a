/**
 * A local chain against modules written to break it, published and called the way a user does
 * (the test controls' `publish`, the TypeScript SDK's transactions):
 *
 *  - a module that names the framework's private `coin::mint_internal` is refused at publish (the
 *    verifier's dependency pass, LOOKUP_FAILED); before, it published and its entry function minted
 *    10,000 APT for its caller;
 *  - a module that packs its own `struct Fake { value: u64 }` and hands it to `coin::deposit` as a
 *    `Coin<AptosCoin>` is refused (type safety, CALL_TYPE_MISMATCH_ERROR); before, the interpreter,
 *    which checks no types, deposited it: 10,000 APT from nothing;
 *  - a module that moves a coin away while a `&mut` to it lives, deposits it, then calls
 *    `coin::extract` through the dangling reference is refused (reference safety,
 *    MOVELOC_EXISTS_BORROW_ERROR); before, with type safety already in place, it doubled the coin;
 *  - mutated copies of a small module (instructions replaced, inserted, removed: code nobody's
 *    compiler would emit, most of it refused by the verifier, the rest failing at run time) never
 *    stop the chain: every publish is answered, every call commits with a status, the account's
 *    pages answer, and an ordinary transfer commits afterwards. Before, a body that ran past its
 *    last instruction charged NaN gas, the transaction's cleanup threw, and the block producer
 *    retried the same block for ever: the chain stopped.
 */
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Result } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { Ability, type CompiledModule, type Instruction } from "../../src/move/binary/CompiledModule.js"
import { deserializeModule } from "../../src/move/binary/deserialize.js"
import { Opcode } from "../../src/move/binary/Opcode.js"
import { serializeModule } from "../../src/move/binary/serialize.js"
import { primitiveTokens as P, type SignatureToken } from "../../src/move/binary/SignatureToken.js"
import { ControlsError } from "../../src/http/controls/ControlsClient.js"
import { type RunningLocalChain, startLocalChain } from "../../src/testing/index.js"
import { counterModule, packageMetadata } from "../execution/bytecode.js"
import { functionHandle, ix, ldU64, moduleOf, op, signerRef } from "../support/moveAssembly.js"

let chain: RunningLocalChain
let aptos: Aptos
beforeAll(async () => {
  chain = await startLocalChain({ accounts: 1 })
  aptos = new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.info.apiUrl }))
}, 60_000)
afterAll(() => chain.stop())

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`
const APT = 100_000_000n

/** Publishes `modules` at `who` (package `name`); the refusal's message, or undefined when published. */
const publish = async (who: Account, name: string, moduleNames: string[], modules: Uint8Array[]): Promise<string | undefined> => {
  try {
    await chain.controls.publish(who.accountAddress.toString(), hex(packageMetadata(name, moduleNames)), modules.map(hex))
    return undefined
  } catch (e) {
    if (e instanceof ControlsError && e.status === 400) return e.message
    throw e
  }
}

/** Calls `<who>::<module>::<fn>()` as `who`; the committed transaction's vm_status. */
const call = async (who: Account, module: string, fn: string): Promise<string> => {
  const transaction = await aptos.transaction.build.simple({
    sender: who.accountAddress,
    data: { function: `${who.accountAddress}::${module}::${fn}`, functionArguments: [] }
  })
  const pending = await aptos.signAndSubmitTransaction({ signer: who, transaction })
  const done = await aptos.waitForTransaction({ transactionHash: pending.hash, options: { checkSuccess: false, timeoutSecs: 20 } })
  return done.vm_status
}

/**
 * `<address>::steal` with `entry fun steal(s: &signer)`: `coin::deposit<AptosCoin>(signer::address_of(s),
 * coin::mint_internal<AptosCoin>(10,000 APT))`.
 */
const stealModule = (address: Uint8Array): Uint8Array => {
  const coinOfT: SignatureToken = { _tag: "StructInstantiation", handle: 0, typeArgs: [{ _tag: "TypeParameter", index: 0 }] }
  return serializeModule(
    moduleOf({
      moduleHandles: [{ address: 0, name: 0 }, { address: 1, name: 1 }, { address: 1, name: 2 }, { address: 1, name: 3 }],
      structHandles: [
        { module: 2, name: 4, abilities: Ability.Store, typeParameters: [{ constraints: 0, isPhantom: true }] },
        { module: 3, name: 5, abilities: Ability.Key, typeParameters: [] }
      ],
      functionHandles: [
        functionHandle(0, 6, 1, 0), // steal(&signer)
        functionHandle(1, 7, 1, 2), // signer::address_of(&signer): address
        functionHandle(2, 8, 3, 4, [0]), // coin::mint_internal<T>(u64): Coin<T>
        functionHandle(2, 9, 5, 0, [0]) // coin::deposit<T>(address, Coin<T>)
      ],
      functionInstantiations: [
        { handle: 2, typeParameters: 6 },
        { handle: 3, typeParameters: 6 }
      ],
      signatures: [[], [signerRef], [P.Address], [P.U64], [coinOfT], [P.Address, coinOfT], [{ _tag: "Struct", handle: 1 }]],
      identifiers: ["steal", "signer", "coin", "aptos_coin", "Coin", "AptosCoin", "steal", "address_of", "mint_internal", "deposit"],
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
  )
}

it("a module naming the framework's private coin::mint_internal is refused at publish, and nothing is minted", async () => {
  const eve = Account.generate()
  await chain.controls.setBalance(eve.accountAddress.toString(), 10n * APT)
  const refused = await publish(eve, "Steal", ["steal"], [stealModule(eve.accountAddress.toUint8Array())])
  expect(refused).toContain("LOOKUP_FAILED")
  expect((await fetch(`${chain.info.apiUrl}/accounts/${eve.accountAddress}/module/steal`)).status).toBe(404)
  // The refused publish is a committed, failed transaction: its gas is paid, nothing is gained.
  expect(await aptos.getAccountAPTAmount({ accountAddress: eve.accountAddress })).toBeLessThan(Number(10n * APT))
}, 60_000)

/**
 * `<address>::forge` with `struct Fake has drop, store { value: u64 }` and `entry fun forge(s: &signer)`:
 * `coin::deposit<AptosCoin>(signer::address_of(s), Fake { value: 10,000 APT })` — the handle of
 * `deposit` declared honestly, the value on the stack of the wrong type.
 */
const forgeModule = (address: Uint8Array): Uint8Array => {
  const coinOfApt: SignatureToken = { _tag: "StructInstantiation", handle: 1, typeArgs: [{ _tag: "Struct", handle: 2 }] }
  const coinOfT: SignatureToken = { _tag: "StructInstantiation", handle: 1, typeArgs: [{ _tag: "TypeParameter", index: 0 }] }
  return serializeModule(
    moduleOf({
      moduleHandles: [{ address: 0, name: 0 }, { address: 1, name: 1 }, { address: 1, name: 2 }, { address: 1, name: 3 }],
      structHandles: [
        { module: 0, name: 4, abilities: Ability.Drop | Ability.Store, typeParameters: [] },
        { module: 2, name: 5, abilities: Ability.Store, typeParameters: [{ constraints: 0, isPhantom: true }] },
        { module: 3, name: 6, abilities: Ability.Key, typeParameters: [] }
      ],
      functionHandles: [functionHandle(0, 7, 1, 0), functionHandle(1, 8, 1, 2), functionHandle(2, 9, 3, 0, [0])],
      functionInstantiations: [{ handle: 2, typeParameters: 4 }],
      signatures: [[], [signerRef], [P.Address], [P.Address, coinOfT], [{ _tag: "Struct", handle: 2 }], [coinOfApt]],
      identifiers: ["forge", "signer", "coin", "aptos_coin", "Fake", "Coin", "AptosCoin", "forge", "address_of", "deposit", "value"],
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
            code: [ix(Opcode.MoveLoc, 0), ix(Opcode.Call, 1), ldU64(10_000n * APT), ix(Opcode.Pack, 0), ix(Opcode.CallGeneric, 0), op(Opcode.Ret)]
          }
        }
      ]
    })
  )
}

it("a module handing its own struct to coin::deposit as a Coin<AptosCoin> is refused at publish, and nothing is minted", async () => {
  const eve = Account.generate()
  await chain.controls.setBalance(eve.accountAddress.toString(), 10n * APT)
  const refused = await publish(eve, "Forge", ["forge"], [forgeModule(eve.accountAddress.toUint8Array())])
  expect(refused).toContain("CALL_TYPE_MISMATCH_ERROR")
  expect((await fetch(`${chain.info.apiUrl}/accounts/${eve.accountAddress}/module/forge`)).status).toBe(404)
  expect(await aptos.getAccountAPTAmount({ accountAddress: eve.accountAddress })).toBeLessThan(Number(10n * APT))
}, 60_000)

/**
 * `<address>::w` with `struct Wallet { c: Coin<AptosCoin> }` and `entry fun dup(s: &signer)`: withdraw
 * 4 APT into a wallet, take `&mut wallet.c`, move the wallet away while that reference lives
 * (unpack it, deposit the coin), then `coin::extract(reference, 4 APT)` and deposit that too. Well
 * typed; only the borrow checker refuses it.
 */
const danglingModule = (address: Uint8Array): Uint8Array => {
  const amount = 4n * APT
  const coinOfApt: SignatureToken = { _tag: "StructInstantiation", handle: 1, typeArgs: [{ _tag: "Struct", handle: 2 }] }
  const coinOfT: SignatureToken = { _tag: "StructInstantiation", handle: 1, typeArgs: [{ _tag: "TypeParameter", index: 0 }] }
  return serializeModule(
    moduleOf({
      moduleHandles: [{ address: 0, name: 0 }, { address: 1, name: 1 }, { address: 1, name: 2 }, { address: 1, name: 3 }],
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
      identifiers: ["w", "signer", "coin", "aptos_coin", "Wallet", "Coin", "AptosCoin", "dup", "address_of", "withdraw", "deposit", "extract", "c"],
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
              ix(Opcode.CopyLoc, 0), ldU64(amount), ix(Opcode.CallGeneric, 0), ix(Opcode.Pack, 0), ix(Opcode.StLoc, 1),
              ix(Opcode.MutBorrowLoc, 1), ix(Opcode.MutBorrowField, 0), ix(Opcode.StLoc, 2),
              ix(Opcode.MoveLoc, 1), ix(Opcode.Unpack, 0), ix(Opcode.StLoc, 3),
              ix(Opcode.CopyLoc, 0), ix(Opcode.Call, 1), ix(Opcode.MoveLoc, 3), ix(Opcode.CallGeneric, 1),
              ix(Opcode.CopyLoc, 0), ix(Opcode.Call, 1), ix(Opcode.MoveLoc, 2), ldU64(amount), ix(Opcode.CallGeneric, 2), ix(Opcode.CallGeneric, 1),
              op(Opcode.Ret)
            ]
          }
        }
      ]
    })
  )
}

it("a module moving a coin away while a &mut to it lives is refused at publish, and nothing is doubled", async () => {
  const eve = Account.generate()
  await chain.controls.setBalance(eve.accountAddress.toString(), 10n * APT)
  const refused = await publish(eve, "W", ["w"], [danglingModule(eve.accountAddress.toUint8Array())])
  expect(refused).toContain("MOVELOC_EXISTS_BORROW_ERROR")
  expect((await fetch(`${chain.info.apiUrl}/accounts/${eve.accountAddress}/module/w`)).status).toBe(404)
  expect(await aptos.getAccountAPTAmount({ accountAddress: eve.accountAddress })).toBeLessThan(Number(10n * APT))
}, 60_000)

/** Instructions a mutation may put into a body: each kind of operand, types that do not fit. */
const foreign: ReadonlyArray<Instruction> = [
  op(Opcode.Pop), op(Opcode.Ret), op(Opcode.LdTrue), op(Opcode.ReadRef), op(Opcode.WriteRef), op(Opcode.Add),
  op(Opcode.CastU8), op(Opcode.FreezeRef), op(Opcode.Eq), op(Opcode.Not), op(Opcode.Abort), ldU64(5n),
  { op: Opcode.LdU8, value: 3 } as Instruction, { op: Opcode.LdU128, value: 9n } as Instruction,
  ix(Opcode.CopyLoc, 0), ix(Opcode.CopyLoc, 1), ix(Opcode.MoveLoc, 0), ix(Opcode.MoveLoc, 1), ix(Opcode.StLoc, 0),
  ix(Opcode.StLoc, 2), ix(Opcode.MutBorrowLoc, 0), ix(Opcode.ImmBorrowLoc, 1), ix(Opcode.Pack, 0), ix(Opcode.Unpack, 0),
  ix(Opcode.MoveTo, 0), ix(Opcode.MoveFrom, 0), ix(Opcode.MutBorrowGlobal, 0), ix(Opcode.ImmBorrowGlobal, 0),
  ix(Opcode.Exists, 0), ix(Opcode.MutBorrowField, 0), ix(Opcode.ImmBorrowField, 0), ix(Opcode.Call, 2), ix(Opcode.Call, 1),
  { op: Opcode.BrTrue, offset: 0 } as Instruction, { op: Opcode.Branch, offset: 1 } as Instruction
]

const mutation = fc.record({
  fn: fc.nat(),
  kind: fc.constantFrom("replace", "insert", "remove"),
  at: fc.nat(),
  instruction: fc.constantFrom(...foreign),
  target: fc.nat()
})

type Edit = typeof mutation extends fc.Arbitrary<infer T> ? T : never

const mutate = (module: CompiledModule, edits: ReadonlyArray<Edit>): Uint8Array => {
  const defs = module.functionDefs.map((d) => ({ ...d, code: d.code === undefined ? undefined : { ...d.code, code: [...d.code.code] } }))
  for (const e of edits) {
    const code = defs[e.fn % defs.length]!.code!.code
    const at = e.at % Math.max(1, code.length)
    const ins = "offset" in e.instruction ? ({ ...e.instruction, offset: e.target % (code.length + 1) } as Instruction) : e.instruction
    if (e.kind === "replace") code[at] = ins
    else if (e.kind === "insert") code.splice(at, 0, ins)
    else if (code.length > 1) code.splice(at, 1)
  }
  return serializeModule({ ...module, functionDefs: defs })
}

it("property: mutated modules never stop the chain; every publish and call is answered with a status", async () => {
  const statuses = new Map<string, number>()
  const count = (s: string) => statuses.set(s, (statuses.get(s) ?? 0) + 1)
  await fc.assert(
    fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (edits) => {
      const who = Account.generate()
      await chain.controls.setBalance(who.accountAddress.toString(), 10n * APT)
      const honest = Result.getOrThrow(deserializeModule(counterModule(who.accountAddress.toUint8Array())))
      const refused = await publish(who, "Counter", ["counter"], [mutate(honest, edits)])
      if (refused !== undefined) count(`publish refused: ${/\b[A-Z_]{6,}\b/.exec(refused)?.[0] ?? refused.slice(0, 60)}`)
      else
        for (const fn of ["bump", "remove", "bump"]) count(`${fn}: ${(await call(who, "counter", fn)).replace(/0x[0-9a-f]+/g, "0x…").slice(0, 70)}`)
      // The account's pages still answer (whatever the code stored is readable).
      for (const page of ["resources", "modules", "transactions"])
        expect((await fetch(`${chain.info.apiUrl}/accounts/${who.accountAddress}/${page}`)).status).toBe(200)
    }),
    { numRuns: 25 }
  )
  // The chain still takes ordinary transactions.
  const a = Account.generate()
  await chain.controls.setBalance(a.accountAddress.toString(), 10n * APT)
  const t = await aptos.transferCoinTransaction({ sender: a.accountAddress, recipient: a.accountAddress, amount: 1 })
  const pending = await aptos.signAndSubmitTransaction({ signer: a, transaction: t })
  expect((await aptos.waitForTransaction({ transactionHash: pending.hash })).success).toBe(true)
  expect(statuses.size).toBeGreaterThan(1)
}, 300_000)
