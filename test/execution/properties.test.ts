/**
 * Properties of executeTransaction over random transactions (simulated, on the devnet genesis with
 * one funded account): it never throws; a discarded transaction changes nothing and costs nothing;
 * a kept one uses the sequence number (or its nonce: the same transaction is then refused), pays gas_used × price − refund from the gas payer (at most
 * max gas), and the APT supply falls by exactly that fee (the epilogue burns it); a transfer moves
 * its amount only when it succeeds. Balances, supply and sequence numbers are read through view
 * functions, not from the executor's output. Also: the simulate endpoint's body decoder never
 * throws on arbitrary bytes and reads back what the SDK's serializer wrote.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../src/bcs/index.js"
import { writeSignedTransaction } from "../../src/domain/PayloadCodec.js"
import type { SignedTransaction, TransactionPayload } from "../../src/domain/Transaction.js"
import type { TransactionAuthenticator } from "../../src/domain/TransactionAuthenticator.js"
import { executeTransaction } from "../../src/execution/executeTransaction.js"
import type { TransactionOutput } from "../../src/execution/TransactionOutput.js"
import type { StateView } from "../../src/move/vm/StateView.js"
import { decodeSignedTransaction } from "../../src/node/Simulations.js"
import { transferScript } from "./bytecode.js"
import {
  addressOf,
  applied,
  aptBalance,
  aptSupply,
  devnetView,
  entry,
  NO_ACCOUNT,
  ROOT,
  sequenceNumber,
  signed,
  stringify,
  transferPayload,
  U64_MAX,
  vm
} from "./fixtures.js"

const base = devnetView()
const FUNDED = addressOf(900)
const EMPTY = addressOf(901)
const funding = executeTransaction(vm, base, signed(ROOT, transferPayload(FUNDED, 100_000_000n)), { simulation: true })
const view: StateView = applied(base, funding)

type PayloadKind =
  | { readonly kind: "transfer"; readonly amount: bigint }
  | { readonly kind: "script"; readonly amount: bigint }
  | { readonly kind: "missingArgument" }
  | { readonly kind: "noSuchFunction" }
  | { readonly kind: "garbageScript"; readonly code: Uint8Array }

const amountArb = fc.oneof(
  fc.constantFrom(0n, 1n, 99_999_999n, 100_000_000n, U64_MAX),
  fc.bigInt({ min: 0n, max: 300_000_000n })
)

const payloadArb: fc.Arbitrary<PayloadKind> = fc.oneof(
  { weight: 4, arbitrary: amountArb.map((amount) => ({ kind: "transfer" as const, amount })) },
  { weight: 2, arbitrary: amountArb.map((amount) => ({ kind: "script" as const, amount })) },
  { weight: 1, arbitrary: fc.constant({ kind: "missingArgument" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "noSuchFunction" as const }) },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ minLength: 1, maxLength: 40 }).map((code) => ({ kind: "garbageScript" as const, code }))
  }
)

const txnArb = fc.record({
  sender: fc.constantFrom(ROOT, FUNDED, EMPTY),
  feePayer: fc.option(fc.constantFrom(ROOT, FUNDED, EMPTY), { nil: undefined }),
  recipient: fc.integer({ min: 1000, max: 1003 }).map(addressOf),
  payload: payloadArb,
  sequenceOffset: fc.constantFrom(-1n, 0n, 0n, 0n, 0n, 1n),
  maxGasAmount: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(1_000n, 20_000n, 200_000n, 2_000_000n) },
    { weight: 1, arbitrary: fc.constantFrom(0n, 1n, 5n, 3_000_000n) },
    { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 3_000_000n }) }
  ),
  gasUnitPrice: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(100n, 150n) },
    { weight: 1, arbitrary: fc.constantFrom(0n, 99n) },
    { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 10_000n }) }
  ),
  expired: fc.boolean().chain((b) => (b ? fc.boolean() : fc.constant(false))),
  chainId: fc.constantFrom(243, 243, 243, 4),
  /** Orderless (a replay-protection nonce in a payload V1) instead of the sequence number. */
  nonce: fc.option(fc.bigInt({ min: 0n, max: U64_MAX }), { nil: undefined, freq: 3 })
})

type TxnCase = typeof txnArb extends fc.Arbitrary<infer T> ? T : never

const payloadOf = (c: TxnCase): TransactionPayload => {
  const inner = innerPayloadOf(c)
  if (c.nonce === undefined) return inner
  return {
    _tag: "PayloadV1",
    executable:
      inner._tag === "Script"
        ? { _tag: "Script", script: inner.script }
        : {
            _tag: "EntryFunction",
            entryFunction: (inner as Extract<TransactionPayload, { _tag: "EntryFunction" }>).entryFunction
          },
    extraConfig: { multisigAddress: undefined, replayProtectionNonce: c.nonce }
  }
}

const innerPayloadOf = (c: TxnCase): TransactionPayload => {
  const p = c.payload
  switch (p.kind) {
    case "transfer":
      return transferPayload(c.recipient, p.amount)
    case "script":
      return {
        _tag: "Script",
        script: {
          code: transferScript,
          typeArgs: [],
          args: [
            { _tag: "U64", value: p.amount },
            { _tag: "Address", value: c.recipient }
          ]
        }
      }
    case "missingArgument":
      return entry("aptos_account", "transfer", [c.recipient])
    case "noSuchFunction":
      return entry("aptos_account", "no_such_function", [])
    case "garbageScript":
      return { _tag: "Script", script: { code: p.code, typeArgs: [], args: [] } }
  }
}

const transactionOf = (c: TxnCase): SignedTransaction => {
  const authenticator: TransactionAuthenticator =
    c.feePayer === undefined
      ? NO_ACCOUNT
      : {
          _tag: "FeePayer",
          sender: { _tag: "NoAccountAuthenticator" },
          secondarySignerAddresses: [],
          secondarySigners: [],
          feePayerAddress: c.feePayer,
          feePayerSigner: { _tag: "NoAccountAuthenticator" }
        }
  const seq = c.nonce !== undefined ? U64_MAX : sequenceNumber(view, c.sender) + c.sequenceOffset
  return signed(
    c.sender,
    payloadOf(c),
    {
      sequenceNumber: seq < 0n ? U64_MAX : seq,
      maxGasAmount: c.maxGasAmount,
      gasUnitPrice: c.gasUnitPrice,
      // The genesis clock reads 0: only an expiration of 0 has passed. An orderless transaction
      // must expire within the framework's window (60 s).
      expirationTimestampSecs: c.expired ? 0n : c.nonce !== undefined ? 30n : 4_000_000_000n,
      chainId: c.chainId
    },
    authenticator
  )
}

const transferred = (c: TxnCase): bigint =>
  c.payload.kind === "transfer" || c.payload.kind === "script" ? c.payload.amount : 0n

const checkOutput = (c: TxnCase, txn: SignedTransaction, out: TransactionOutput): void => {
  const payer = c.feePayer ?? c.sender
  if (out.status._tag === "Discard") {
    expect(out.writeSet.entries).toHaveLength(0)
    expect(out.events).toHaveLength(0)
    expect(out.gasUsed).toBe(0n)
    expect(out.feeStatement).toBeUndefined()
    return
  }
  const fs = out.feeStatement
  if (fs === undefined) throw new Error(`kept without a fee statement: ${stringify(out.status)}`)
  expect(fs.totalChargeGasUnits).toBe(out.gasUsed)
  expect(out.gasUsed).toBeLessThanOrEqual(c.maxGasAmount)
  const last = out.events[out.events.length - 1]
  expect(last?.typeTag).toMatchObject({ _tag: "struct", struct: { module: "transaction_fee", name: "FeeStatement" } })
  const after = applied(view, out)
  const fee = out.gasUsed * c.gasUnitPrice - fs.storageFeeRefundOctas
  expect(aptSupply(view) - aptSupply(after)).toBe(fee)
  if (c.nonce === undefined) expect(sequenceNumber(after, c.sender)).toBe(sequenceNumber(view, c.sender) + 1n)
  else {
    // The nonce is used instead: the sequence number stays, and the same transaction cannot run again.
    expect(sequenceNumber(after, c.sender)).toBe(sequenceNumber(view, c.sender))
    const again = executeTransaction(vm, after, txn, { simulation: true })
    expect(again.status).toEqual({ _tag: "Discard", status: "NONCE_ALREADY_USED" })
  }
  const success = out.status.status._tag === "Success"
  const amount = success ? transferred(c) : 0n
  const delta = (a: Uint8Array) => aptBalance(after, a) - aptBalance(view, a)
  if (payer === c.sender) expect(delta(c.sender)).toBe(-(amount + fee))
  else {
    expect(delta(c.sender)).toBe(-amount)
    expect(delta(payer)).toBe(-fee)
  }
  expect(delta(c.recipient)).toBe(amount)
}

describe("executeTransaction over random transactions (simulated)", () => {
  it("funds the test's account", () => {
    expect(funding.status).toEqual({ _tag: "Keep", status: { _tag: "Success" } })
    expect(aptBalance(view, FUNDED)).toBe(100_000_000n)
    expect(aptBalance(view, EMPTY)).toBe(0n)
  })

  it("discards with no effect, or keeps with the fee paid, burned, and the sequence number or nonce used", () => {
    const seen = new Set<string>()
    fc.assert(
      fc.property(txnArb, (c) => {
        const txn = transactionOf(c)
        const out = executeTransaction(vm, view, txn, { simulation: true })
        seen.add(out.status._tag === "Discard" ? out.status.status : `Keep ${out.status.status._tag}`)
        if (out.status._tag === "Keep" && c.nonce !== undefined) seen.add("Keep orderless")
        checkOutput(c, txn, out)
      }),
      { numRuns: 150, seed: 1313 }
    )
    // The generator reaches the interesting outcomes.
    for (const s of [
      "Keep Success",
      "Keep MoveAbort",
      "Keep orderless",
      "SEQUENCE_NUMBER_TOO_OLD",
      "TRANSACTION_EXPIRED"
    ])
      expect([...seen]).toContain(s)
  }, 300_000)
})

describe("the simulate body decoder", () => {
  const ledger = {
    chainId: 4,
    epoch: 1n,
    ledgerVersion: 0n,
    oldestLedgerVersion: 0n,
    ledgerTimestampUsec: 0n,
    blockHeight: 0n,
    oldestBlockHeight: 0n
  }

  it("never throws on arbitrary bytes: a SignedTransaction or the reference's 400", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const r = decodeSignedTransaction(bytes, ledger)
        if (r._tag === "Failure") {
          expect(r.failure.status).toBe(400)
          expect(r.failure.message).toMatch(/^Failed to deserialize input into SignedTransaction: /)
        }
      }),
      { numRuns: 2000 }
    )
  })

  it("reads back every generated transaction, and refuses it with a byte more or less", () => {
    fc.assert(
      fc.property(txnArb, (c) => {
        const txn = transactionOf(c)
        const w = new BcsWriter(256)
        writeSignedTransaction(w, txn)
        const bytes = w.toBytes()
        const r = decodeSignedTransaction(bytes, ledger)
        if (r._tag !== "Success") throw new Error(r.failure.message)
        expect(stringify(r.success)).toBe(stringify(txn))
        expect(decodeSignedTransaction(bytes.subarray(0, bytes.length - 1), ledger)._tag).toBe("Failure")
        expect(decodeSignedTransaction(Uint8Array.from([...bytes, 0]), ledger)._tag).toBe("Failure")
      }),
      { numRuns: 200 }
    )
  })
})
