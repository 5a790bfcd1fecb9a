/**
 * User transactions executed on the devnet genesis state (simulated as 0xa550c18, whose key nobody
 * has, and signed for real by accounts made here), checked through reads that do not go through
 * the executor: view functions for balances, supply and sequence numbers, the fee statement event
 * decoded from its bytes.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { signingMessage } from "../../src/domain/signingMessage.js"
import type { RawTransaction, SignedTransaction } from "../../src/domain/Transaction.js"
import { executeTransaction } from "../../src/execution/executeTransaction.js"
import { explainExecutionStatus } from "../../src/execution/explainVmStatus.js"
import type { TransactionOutput } from "../../src/execution/TransactionOutput.js"
import { validateTransaction } from "../../src/execution/validateTransaction.js"
import { ed25519VerifiedCheck, verifySignature } from "../../src/execution/verifySignature.js"
import type { StateView } from "../../src/move/vm/StateView.js"
import { counterModule, packageMetadata, transferScript, twoSignerTransferScript } from "./bytecode.js"
import {
  addressOf,
  applied,
  aptBalance,
  aptSupply,
  devnetView,
  entry,
  hasAccountResource,
  ROOT,
  sequenceNumber,
  signed,
  stringify,
  transferPayload,
  u64,
  U64_MAX,
  vm
} from "./fixtures.js"

const base = devnetView()
const simulate = (view: StateView, txn: SignedTransaction) => executeTransaction(vm, view, txn, { simulation: true })

const explain = (out: TransactionOutput): string =>
  out.status._tag === "Keep" ? explainExecutionStatus(out.status.status) : out.status.status

/** The FeeStatement event's fields, decoded from its BCS (five u64s). */
const feeEvent = (out: TransactionOutput) => {
  const last = out.events[out.events.length - 1]!
  expect(last.typeTag).toMatchObject({ _tag: "struct", struct: { module: "transaction_fee", name: "FeeStatement" } })
  const r = new BcsReader(last.data)
  return { total: r.u64(), execution: r.u64(), io: r.u64(), storageFee: r.u64(), refund: r.u64() }
}

/** An Ed25519 account: its address is its authentication key (sha3-256(pk ‖ 0)). */
const account = (seed: number) => {
  const secret = new Uint8Array(32).fill(seed)
  const publicKey = ed25519.getPublicKey(secret)
  const address = sha3_256(Uint8Array.from([...publicKey, 0]))
  const sign = (raw: RawTransaction): SignedTransaction => ({
    rawTransaction: raw,
    authenticator: { _tag: "Ed25519", publicKey, signature: ed25519.sign(signingMessage(raw), secret) }
  })
  return { address, sign }
}

describe("an APT transfer from 0xa550c18 to a new account (simulated)", () => {
  const to = addressOf(1)
  const amount = 123_456_789n
  const out = simulate(base, signed(ROOT, transferPayload(to, amount)))
  const after = applied(base, out)

  it("succeeds, and creates the recipient's primary store holding the amount", () => {
    expect(out.status).toEqual({ _tag: "Keep", status: { _tag: "Success" } })
    expect(explain(out)).toBe("Executed successfully")
    expect(aptBalance(base, to)).toBe(0n)
    expect(aptBalance(after, to)).toBe(amount)
  })

  it("takes amount + gas used × price from the sender, burns the fee and bumps the sequence number", () => {
    const fee = out.gasUsed * 100n
    expect(aptBalance(after, ROOT)).toBe(U64_MAX - amount - fee)
    expect(aptSupply(base) - aptSupply(after)).toBe(fee)
    expect(sequenceNumber(after, ROOT)).toBe(sequenceNumber(base, ROOT) + 1n)
  })

  it("emits the FeeStatement last, consistent with gas_used", () => {
    const fs = feeEvent(out)
    expect(fs.total).toBe(out.gasUsed)
    expect(out.feeStatement).toEqual({
      totalChargeGasUnits: fs.total,
      executionGasUnits: fs.execution,
      ioGasUnits: fs.io,
      storageFeeOctas: fs.storageFee,
      storageFeeRefundOctas: fs.refund
    })
    // Each category is rounded up to whole units; the total is the meter's, rounded down.
    const storageUnits = (fs.storageFee + 99n) / 100n
    const sum = fs.execution + fs.io + storageUnits
    expect(sum - fs.total).toBeGreaterThanOrEqual(0n)
    expect(sum - fs.total).toBeLessThanOrEqual(3n)
    // The new store is one slot: 400,000 octas plus 400 per byte of key and value.
    expect(fs.storageFee).toBeGreaterThan(400_000n)
  })

  it("records the new slot's deposits in its metadata", () => {
    const created = out.writeSet.entries.filter((e) => e.op._tag === "CreationWithMetadata")
    expect(created).toHaveLength(1)
    const op = created[0]!.op
    if (op._tag !== "CreationWithMetadata" || op.metadata._tag !== "V1") throw new Error(stringify(op))
    expect(op.metadata.slotDeposit).toBe(400_000n)
    expect(op.metadata.slotDeposit + op.metadata.bytesDeposit).toBe(feeEvent(out).storageFee)
  })

  it("a later transfer to it (over the block's overlay) keeps the slot's deposits in its modification", () => {
    const created = out.writeSet.entries.find((e) => e.op._tag === "CreationWithMetadata")!
    const second = executeTransaction(
      vm,
      after,
      signed(ROOT, transferPayload(to, 1n), { sequenceNumber: sequenceNumber(after, ROOT) }),
      { simulation: true }
    )
    expect(explain(second)).toBe("Executed successfully")
    const modified = second.writeSet.entries.find((e) => stringify(e.key) === stringify(created.key))!
    expect(modified.op._tag).toBe("ModificationWithMetadata")
    if (modified.op._tag !== "ModificationWithMetadata" || created.op._tag !== "CreationWithMetadata") return
    expect(modified.op.metadata).toEqual(created.op.metadata)
    // No new slot and no growth beyond the bytes already paid for: no storage fee.
    expect(feeEvent(second).storageFee).toBe(0n)
  })

  it("a later transfer's events share their type tags with this one's (one tag per event type)", () => {
    const second = simulate(
      after,
      signed(ROOT, transferPayload(to, 1n), { sequenceNumber: sequenceNumber(after, ROOT) })
    )
    expect(second.events.map((e) => stringify(e.typeTag))).toEqual(out.events.map((e) => stringify(e.typeTag)))
    for (const [i, e] of second.events.entries()) expect(e.typeTag).toBe(out.events[i]!.typeTag)
  })
})

describe("discarded transactions (the reference's validation statuses)", () => {
  const cases: Array<[string, Partial<RawTransaction>, string]> = [
    ["an expired transaction", { expirationTimestampSecs: 0n }, "TRANSACTION_EXPIRED"],
    ["a wrong chain id", { chainId: 4 }, "BAD_CHAIN_ID"],
    ["a sequence number ahead", { sequenceNumber: 1n }, "SEQUENCE_NUMBER_TOO_NEW"],
    ["max gas above the bound", { maxGasAmount: 20_000_001n }, "MAX_GAS_UNITS_EXCEEDS_MAX_GAS_UNITS_BOUND"],
    ["max gas below the intrinsic cost", { maxGasAmount: 10n }, "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS"],
    ["a price below the minimum", { gasUnitPrice: 99n }, "GAS_UNIT_PRICE_BELOW_MIN_BOUND"]
  ]
  for (const [what, over, status] of cases)
    it(`${what}: ${status}, no write set, no events, no gas`, () => {
      const out = simulate(base, signed(ROOT, transferPayload(addressOf(2), 1n), over))
      expect(out.status).toEqual({ _tag: "Discard", status })
      expect(out.writeSet.entries).toEqual([])
      expect(out.events).toEqual([])
      expect(out.gasUsed).toBe(0n)
    })

  it("a sequence number already used: SEQUENCE_NUMBER_TOO_OLD", () => {
    const first = simulate(base, signed(ROOT, transferPayload(addressOf(3), 1n)))
    const again = simulate(applied(base, first), signed(ROOT, transferPayload(addressOf(3), 1n)))
    expect(again.status).toEqual({ _tag: "Discard", status: "SEQUENCE_NUMBER_TOO_OLD" })
  })

  it("a sender who cannot pay max gas × price: INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE", () => {
    const out = simulate(base, signed(addressOf(4), transferPayload(addressOf(5), 1n)))
    expect(out.status).toEqual({ _tag: "Discard", status: "INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE" })
  })
})

describe("failed transactions are kept: gas charged, sequence number used, payload undone", () => {
  const poor = account(9)
  const funded = applied(base, simulate(base, signed(ROOT, transferPayload(poor.address, 10_000_000n))))

  it("a transfer of more than the balance aborts with the error map's name", () => {
    const raw = signed(poor.address, transferPayload(addressOf(6), 1_000_000_000_000n), {
      maxGasAmount: 20_000n
    }).rawTransaction
    const out = executeTransaction(vm, funded, poor.sign(raw))
    expect(out.status._tag).toBe("Keep")
    expect(explain(out)).toMatch(/^Move abort in 0x1::\w+: E[A-Z_]+\(0x[0-9a-f]+\): .+/)
    expect(out.gasUsed).toBeGreaterThan(0n)
    const after = applied(funded, out)
    expect(aptBalance(after, poor.address)).toBe(10_000_000n - out.gasUsed * 100n)
    expect(aptBalance(after, addressOf(6))).toBe(0n)
    expect(sequenceNumber(after, poor.address)).toBe(1n)
    expect(feeEvent(out).total).toBe(out.gasUsed)
  })

  it("an entry function given more signers than it takes: NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH", () => {
    const txn = signed(
      ROOT,
      transferPayload(addressOf(7), 1n),
      {},
      {
        _tag: "MultiAgent",
        sender: { _tag: "NoAccountAuthenticator" },
        secondarySignerAddresses: [addressOf(8)],
        secondarySigners: [{ _tag: "NoAccountAuthenticator" }]
      }
    )
    const out = simulate(base, txn)
    expect(out.status).toEqual({ _tag: "Keep", status: { _tag: "MiscellaneousError", statusCode: 1101n } })
    expect(explain(out)).toBe("NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH")
    expect(sequenceNumber(applied(base, out), ROOT)).toBe(1n)
  })
})

describe("signed for real (not simulated)", () => {
  const alice = account(1)
  const funded = applied(base, simulate(base, signed(ROOT, transferPayload(alice.address, 50_000_000n))))

  it("a valid Ed25519 signature passes validation and executes; the stateless account gets its Account resource", () => {
    const raw = signed(alice.address, transferPayload(addressOf(10), 1000n), { maxGasAmount: 20_000n }).rawTransaction
    expect(hasAccountResource(funded, alice.address)).toBe(false)
    expect(validateTransaction(vm, funded, alice.sign(raw))).toEqual({ _tag: "Valid" })
    const out = executeTransaction(vm, funded, alice.sign(raw))
    expect(explain(out)).toBe("Executed successfully")
    const after = applied(funded, out)
    expect(aptBalance(after, addressOf(10))).toBe(1000n)
    expect(hasAccountResource(after, alice.address)).toBe(true)
    expect(sequenceNumber(after, alice.address)).toBe(1n)
  })

  it("a tampered signature is INVALID_SIGNATURE; a simulated valid one is refused by the caller, not here", () => {
    const raw = signed(alice.address, transferPayload(addressOf(10), 1000n)).rawTransaction
    const good = alice.sign(raw)
    const bad = alice.sign({ ...raw, maxGasAmount: raw.maxGasAmount + 1n })
    const forged: SignedTransaction = { rawTransaction: raw, authenticator: bad.authenticator }
    expect(executeTransaction(vm, funded, forged).status).toEqual({ _tag: "Discard", status: "INVALID_SIGNATURE" })
    expect(validateTransaction(vm, funded, forged)).toMatchObject({ _tag: "Invalid", status: "INVALID_SIGNATURE" })
    expect(validateTransaction(vm, funded, good)).toEqual({ _tag: "Valid" })
  })

  it("a signature check given with the transaction (admission's, for these bytes) is taken as the answer", () => {
    const raw = signed(alice.address, transferPayload(addressOf(11), 1000n), { maxGasAmount: 20_000n }).rawTransaction
    const good = alice.sign(raw)
    const forged: SignedTransaction = {
      rawTransaction: raw,
      authenticator: alice.sign({ ...raw, maxGasAmount: raw.maxGasAmount + 1n }).authenticator
    }
    const valid = ed25519VerifiedCheck(good)
    expect(valid?._tag).toBe("Valid")
    // Given a Valid check, nothing is verified again (so only a verification may make one) ...
    expect(explain(executeTransaction(vm, funded, forged, { signatureCheck: valid }))).toBe("Executed successfully")
    expect(validateTransaction(vm, funded, forged, { signatureCheck: valid })).toEqual({ _tag: "Valid" })
    // ... and given an Invalid one, a good signature is discarded with its reason.
    const invalid = verifySignature(forged)
    expect(invalid._tag).toBe("Invalid")
    expect(executeTransaction(vm, funded, good, { signatureCheck: invalid }).status).toEqual({
      _tag: "Discard",
      status: "INVALID_SIGNATURE"
    })
    // Without one, each is checked: the forged copy is refused, the good one runs.
    expect(executeTransaction(vm, funded, { ...forged }).status).toEqual({
      _tag: "Discard",
      status: "INVALID_SIGNATURE"
    })
    expect(explain(executeTransaction(vm, funded, { ...good }))).toBe("Executed successfully")
  })
})

describe("payload forms", () => {
  it("orderless: a nonce instead of the sequence number, which stays; the nonce cannot be replayed", () => {
    const payload = {
      _tag: "PayloadV1" as const,
      executable: {
        _tag: "EntryFunction" as const,
        entryFunction: {
          module: { address: addressFromNumber(1), name: "aptos_account" },
          function: "transfer",
          typeArgs: [],
          args: [addressOf(11), u64(5n)]
        }
      },
      extraConfig: { multisigAddress: undefined, replayProtectionNonce: 77n }
    }
    const txn = signed(ROOT, payload, { sequenceNumber: U64_MAX, expirationTimestampSecs: 30n })
    const out = simulate(base, txn)
    expect(explain(out)).toBe("Executed successfully")
    const after = applied(base, out)
    expect(aptBalance(after, addressOf(11))).toBe(5n)
    expect(sequenceNumber(after, ROOT)).toBe(0n)
    expect(simulate(after, txn).status).toEqual({ _tag: "Discard", status: "NONCE_ALREADY_USED" })
  })

  it("a script: main(&signer, u64, address) transferring APT", () => {
    const script = {
      code: transferScript,
      typeArgs: [],
      args: [
        { _tag: "U64" as const, value: 42n },
        { _tag: "Address" as const, value: addressOf(12) }
      ]
    }
    const out = simulate(base, signed(ROOT, { _tag: "Script", script }))
    expect(explain(out)).toBe("Executed successfully")
    expect(aptBalance(applied(base, out), addressOf(12))).toBe(42n)
  })

  it("multi-agent: a two-signer script moves APT from both signers", () => {
    const second = addressOf(13)
    const funded = applied(base, simulate(base, signed(ROOT, transferPayload(second, 10_000n))))
    const script = {
      code: twoSignerTransferScript,
      typeArgs: [],
      args: [
        { _tag: "U64" as const, value: 300n },
        { _tag: "Address" as const, value: addressOf(14) }
      ]
    }
    const txn = signed(
      ROOT,
      { _tag: "Script", script },
      { sequenceNumber: 1n },
      {
        _tag: "MultiAgent",
        sender: { _tag: "NoAccountAuthenticator" },
        secondarySignerAddresses: [second],
        secondarySigners: [{ _tag: "NoAccountAuthenticator" }]
      }
    )
    const out = simulate(funded, txn)
    expect(explain(out)).toBe("Executed successfully")
    const after = applied(funded, out)
    expect(aptBalance(after, addressOf(14))).toBe(600n)
    expect(aptBalance(after, second)).toBe(10_000n - 300n)
  })

  it("a module publish through 0x1::code: the module is written, init_module runs, its entry function is callable", () => {
    const code = counterModule(ROOT)
    const payload = entry("code", "publish_package_txn", [
      new BcsWriter().bytesWithLength(packageMetadata("counter", ["counter"])).toBytes(),
      new BcsWriter().uleb128(1).bytesWithLength(code).toBytes()
    ])
    const out = simulate(base, signed(ROOT, payload))
    expect(explain(out), stringify(out.vmStatus)).toBe("Executed successfully")
    const after = applied(base, out)
    expect(after.module(ROOT, "counter")?.bytes).toEqual(code)
    const counter = { address: ROOT, module: "counter", name: "Counter", typeArgs: [] }
    expect(after.resource(ROOT, counter)).toEqual(u64(7n))
    const bumped = simulate(after, signed(ROOT, entry("counter", "bump", [], [], ROOT), { sequenceNumber: 1n }))
    expect(explain(bumped)).toBe("Executed successfully")
    expect(applied(after, bumped).resource(ROOT, counter)).toEqual(u64(8n))
  })
})

describe("multisig payloads (0x1::multisig_account)", () => {
  // 0xa550c18 creates a 1-of-1 multisig account, funds it, and proposes a transfer from it.
  const s0 = base
  const created = simulate(
    s0,
    signed(
      ROOT,
      entry("multisig_account", "create_with_owners", [
        new BcsWriter().uleb128(0).toBytes(),
        u64(1n),
        new BcsWriter().uleb128(0).toBytes(),
        new BcsWriter().uleb128(0).toBytes()
      ])
    )
  )
  const s1 = applied(s0, created)
  // create_with_owners derives the account from the creator and its sequence number before the call (0).
  const multisig = (() => {
    const o = vm.call(s0, {
      module: { address: addressFromNumber(1), name: "multisig_account" },
      function: "get_next_multisig_account_address",
      tyArgs: [],
      args: [ROOT]
    })
    if (o._tag !== "Success") throw new Error(stringify(o))
    return o.values[0]!
  })()
  const s2 = applied(s1, simulate(s1, signed(ROOT, transferPayload(multisig, 5_000n), { sequenceNumber: 1n })))
  const inner = (amount: bigint) => {
    const w = new BcsWriter()
    w.uleb128(0) // MultisigTransactionPayload::EntryFunction
    w.fixed(addressFromNumber(1)).string("aptos_account").string("transfer")
    w.uleb128(0)
    w.uleb128(2).bytesWithLength(addressOf(20)).bytesWithLength(u64(amount))
    return w.toBytes()
  }
  const propose = (s: StateView, amount: bigint, seq: bigint) =>
    applied(
      s,
      simulate(
        s,
        signed(
          ROOT,
          entry("multisig_account", "create_transaction", [
            multisig,
            new BcsWriter().bytesWithLength(inner(amount)).toBytes()
          ]),
          { sequenceNumber: seq }
        )
      )
    )

  it("runs the approved payload as the multisig account; the sender pays the gas", () => {
    expect(explain(created)).toBe("Executed successfully")
    const s3 = propose(s2, 1_234n, 2n)
    const txn = signed(
      ROOT,
      { _tag: "Multisig", multisigAddress: multisig, entryFunction: undefined },
      { sequenceNumber: 3n }
    )
    const out = simulate(s3, txn)
    expect(explain(out), stringify(out.vmStatus)).toBe("Executed successfully")
    const after = applied(s3, out)
    expect(aptBalance(after, addressOf(20))).toBe(1_234n)
    expect(aptBalance(after, multisig)).toBe(5_000n - 1_234n)
    expect(aptBalance(after, ROOT)).toBe(aptBalance(s3, ROOT) - out.gasUsed * 100n)
  })

  it("an inner payload that aborts still executes the multisig transaction (its changes dropped)", () => {
    const s3 = propose(s2, 1_000_000n, 2n)
    const txn = signed(
      ROOT,
      { _tag: "Multisig", multisigAddress: multisig, entryFunction: undefined },
      { sequenceNumber: 3n }
    )
    const out = simulate(s3, txn)
    expect(explain(out)).toBe("Executed successfully")
    const after = applied(s3, out)
    expect(aptBalance(after, addressOf(20))).toBe(0n)
    expect(aptBalance(after, multisig)).toBe(5_000n)
    const types = out.events.map((e) => (e.typeTag._tag === "struct" ? e.typeTag.struct.name : ""))
    expect(types).toContain("TransactionExecutionFailed")
  })

  it("a multisig transaction nobody proposed is discarded: MULTISIG_TRANSACTION_NOT_FOUND", () => {
    const txn = signed(
      ROOT,
      { _tag: "Multisig", multisigAddress: multisig, entryFunction: undefined },
      { sequenceNumber: 2n }
    )
    expect(simulate(s2, txn).status).toEqual({ _tag: "Discard", status: "MULTISIG_TRANSACTION_NOT_FOUND" })
  })
})
