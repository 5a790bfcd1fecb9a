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
 *    retried the same block for ever: the chain stopped;
 *  - mutated copies of a transfer script, submitted as script transactions, are each answered
 *    (refused at submission or committed with a status) and never leave the sender richer.
 */
import { Account, Aptos, AptosConfig, Network, U64 } from "@aptos-labs/ts-sdk"
import { Result } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { CompiledModule, Instruction } from "../../src/move/binary/CompiledModule.js"
import { deserializeModule, deserializeScript } from "../../src/move/binary/deserialize.js"
import { Opcode } from "../../src/move/binary/Opcode.js"
import { serializeModule, serializeScript } from "../../src/move/binary/serialize.js"
import { ControlsError } from "../../src/http/controls/ControlsClient.js"
import { type RunningLocalChain, startLocalChain } from "../../src/testing/index.js"
import { counterModule, packageMetadata, transferScript } from "../execution/bytecode.js"
import { danglingModule, forgeModule, stealModule } from "../support/hostileModules.js"
import { ix, ldU64, op } from "../support/moveAssembly.js"

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
const publish = async (
  who: Account,
  name: string,
  moduleNames: string[],
  modules: Uint8Array[]
): Promise<string | undefined> => {
  try {
    await chain.controls.publish(
      who.accountAddress.toString(),
      hex(packageMetadata(name, moduleNames)),
      modules.map(hex)
    )
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
  const done = await aptos.waitForTransaction({
    transactionHash: pending.hash,
    options: { checkSuccess: false, timeoutSecs: 20 }
  })
  return done.vm_status
}

it("a module naming the framework's private coin::mint_internal is refused at publish, and nothing is minted", async () => {
  const eve = Account.generate()
  await chain.controls.setBalance(eve.accountAddress.toString(), 10n * APT)
  const refused = await publish(
    eve,
    "Steal",
    ["steal"],
    [serializeModule(stealModule(eve.accountAddress.toUint8Array()))]
  )
  expect(refused).toContain("LOOKUP_FAILED")
  expect((await fetch(`${chain.info.apiUrl}/accounts/${eve.accountAddress}/module/steal`)).status).toBe(404)
  // The refused publish is a committed, failed transaction: its gas is paid, nothing is gained.
  expect(await aptos.getAccountAPTAmount({ accountAddress: eve.accountAddress })).toBeLessThan(Number(10n * APT))
}, 60_000)

it("a module handing its own struct to coin::deposit as a Coin<AptosCoin> is refused at publish, and nothing is minted", async () => {
  const eve = Account.generate()
  await chain.controls.setBalance(eve.accountAddress.toString(), 10n * APT)
  const refused = await publish(
    eve,
    "Forge",
    ["forge"],
    [serializeModule(forgeModule(eve.accountAddress.toUint8Array()))]
  )
  expect(refused).toContain("CALL_TYPE_MISMATCH_ERROR")
  expect((await fetch(`${chain.info.apiUrl}/accounts/${eve.accountAddress}/module/forge`)).status).toBe(404)
  expect(await aptos.getAccountAPTAmount({ accountAddress: eve.accountAddress })).toBeLessThan(Number(10n * APT))
}, 60_000)

it("a module moving a coin away while a &mut to it lives is refused at publish, and nothing is doubled", async () => {
  const eve = Account.generate()
  await chain.controls.setBalance(eve.accountAddress.toString(), 10n * APT)
  const refused = await publish(eve, "W", ["w"], [serializeModule(danglingModule(eve.accountAddress.toUint8Array()))])
  expect(refused).toContain("MOVELOC_EXISTS_BORROW_ERROR")
  expect((await fetch(`${chain.info.apiUrl}/accounts/${eve.accountAddress}/module/w`)).status).toBe(404)
  expect(await aptos.getAccountAPTAmount({ accountAddress: eve.accountAddress })).toBeLessThan(Number(10n * APT))
}, 60_000)

/** Instructions a mutation may put into a body: each kind of operand, types that do not fit. */
const foreign: ReadonlyArray<Instruction> = [
  op(Opcode.Pop),
  op(Opcode.Ret),
  op(Opcode.LdTrue),
  op(Opcode.ReadRef),
  op(Opcode.WriteRef),
  op(Opcode.Add),
  op(Opcode.CastU8),
  op(Opcode.FreezeRef),
  op(Opcode.Eq),
  op(Opcode.Not),
  op(Opcode.Abort),
  ldU64(5n),
  { op: Opcode.LdU8, value: 3 } as Instruction,
  { op: Opcode.LdU128, value: 9n } as Instruction,
  ix(Opcode.CopyLoc, 0),
  ix(Opcode.CopyLoc, 1),
  ix(Opcode.MoveLoc, 0),
  ix(Opcode.MoveLoc, 1),
  ix(Opcode.StLoc, 0),
  ix(Opcode.StLoc, 2),
  ix(Opcode.MutBorrowLoc, 0),
  ix(Opcode.ImmBorrowLoc, 1),
  ix(Opcode.Pack, 0),
  ix(Opcode.Unpack, 0),
  ix(Opcode.MoveTo, 0),
  ix(Opcode.MoveFrom, 0),
  ix(Opcode.MutBorrowGlobal, 0),
  ix(Opcode.ImmBorrowGlobal, 0),
  ix(Opcode.Exists, 0),
  ix(Opcode.MutBorrowField, 0),
  ix(Opcode.ImmBorrowField, 0),
  ix(Opcode.Call, 2),
  ix(Opcode.Call, 1),
  { op: Opcode.BrTrue, offset: 0 } as Instruction,
  { op: Opcode.Branch, offset: 1 } as Instruction
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
  const defs = module.functionDefs.map((d) => ({
    ...d,
    code: d.code === undefined ? undefined : { ...d.code, code: [...d.code.code] }
  }))
  for (const e of edits) {
    const code = defs[e.fn % defs.length]!.code!.code
    const at = e.at % Math.max(1, code.length)
    const ins =
      "offset" in e.instruction
        ? ({ ...e.instruction, offset: e.target % (code.length + 1) } as Instruction)
        : e.instruction
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
      if (refused !== undefined)
        count(`publish refused: ${/\b[A-Z_]{6,}\b/.exec(refused)?.[0] ?? refused.slice(0, 60)}`)
      else
        for (const fn of ["bump", "remove", "bump"])
          count(`${fn}: ${(await call(who, "counter", fn)).replace(/0x[0-9a-f]+/g, "0x…").slice(0, 70)}`)
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

/** Instructions a mutated transfer script may gain (its locals: &signer, u64, address; handle 0: aptos_account::transfer). */
const scriptForeign: Instruction[] = [
  op(Opcode.Pop),
  op(Opcode.Ret),
  op(Opcode.Abort),
  op(Opcode.Add),
  op(Opcode.ReadRef),
  op(Opcode.FreezeRef),
  op(Opcode.LdTrue),
  ldU64(10_000n * APT),
  ix(Opcode.CopyLoc, 0),
  ix(Opcode.CopyLoc, 1),
  ix(Opcode.CopyLoc, 2),
  ix(Opcode.MoveLoc, 0),
  ix(Opcode.MoveLoc, 1),
  ix(Opcode.MoveLoc, 2),
  ix(Opcode.StLoc, 1),
  ix(Opcode.ImmBorrowLoc, 1),
  ix(Opcode.Call, 0),
  { op: Opcode.BrTrue, offset: 0 } as Instruction,
  { op: Opcode.Branch, offset: 1 } as Instruction
]

const scriptMutation = fc.record({
  kind: fc.constantFrom("replace", "insert", "remove"),
  at: fc.nat(),
  instruction: fc.constantFrom(...scriptForeign),
  target: fc.nat()
})

it("property: mutated transfer scripts are each answered and never leave the sender richer", async () => {
  const script = Result.getOrThrow(deserializeScript(transferScript))
  const outcomes = new Map<string, number>()
  const count = (s: string) => outcomes.set(s, (outcomes.get(s) ?? 0) + 1)
  const sender = Account.generate()
  const to = Account.generate()
  await chain.controls.setBalance(sender.accountAddress.toString(), 100n * APT)
  const balance = async () =>
    BigInt((await aptos.getAccountAPTAmount({ accountAddress: sender.accountAddress })).toString())
  await fc.assert(
    fc.asyncProperty(fc.array(scriptMutation, { minLength: 1, maxLength: 3 }), async (edits) => {
      const code = [...script.code.code]
      for (const e of edits) {
        const at = e.at % Math.max(1, code.length)
        const ins =
          "offset" in e.instruction
            ? ({ ...e.instruction, offset: e.target % (code.length + 1) } as Instruction)
            : e.instruction
        if (e.kind === "replace") code[at] = ins
        else if (e.kind === "insert") code.splice(at, 0, ins)
        else if (code.length > 1) code.splice(at, 1)
      }
      const bytecode = hex(serializeScript({ ...script, code: { ...script.code, code } }))
      const before = await balance()
      let transaction: Awaited<ReturnType<typeof aptos.transaction.build.simple>>
      try {
        transaction = await aptos.transaction.build.simple({
          sender: sender.accountAddress,
          data: { bytecode, functionArguments: [new U64(1), to.accountAddress] }
        })
        const pending = await aptos.signAndSubmitTransaction({ signer: sender, transaction })
        const done = await aptos.waitForTransaction({
          transactionHash: pending.hash,
          options: { checkSuccess: false, timeoutSecs: 20 }
        })
        count(`committed: ${done.vm_status.replace(/0x[0-9a-f]+/g, "0x…").slice(0, 60)}`)
      } catch (e) {
        // Refused at submission (the node's 4xx, as the SDK reports it): answered too.
        const message = e instanceof Error ? e.message : String(e)
        expect(message).toMatch(/status|400|Invalid|invalid|error/i)
        count(`refused: ${message.slice(0, 60)}`)
      }
      expect(await balance()).toBeLessThanOrEqual(before)
    }),
    { numRuns: 25 }
  )
  expect(outcomes.size).toBeGreaterThan(1)
}, 300_000)
