/**
 * Account abstraction through validation and execution, on the devnet genesis state, with the
 * TypeScript SDK's own authentication packages (test/fixtures/sdkAccountAbstraction.ts) and the
 * SDK's `AbstractedAccount` / `DerivableAbstractedAccount` making the authenticators (the oracle for
 * the `AASigningData` digest): registering an authentication function (the dispatch-compatibility
 * native), transfers authenticated by Move code (V1 and derivable), what their authentication
 * costs, and each way authentication refuses a transaction.
 */
import {
  AbstractedAccount,
  Account as SdkAccount,
  AccountAddress as SdkAddress,
  DerivableAbstractedAccount,
  Deserializer,
  Ed25519PrivateKey,
  generateSignedTransaction,
  Hex,
  type HexInput,
  RawTransaction as SdkRawTransaction,
  SimpleTransaction
} from "@aptos-labs/ts-sdk"
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { describe, expect, it } from "vitest"
import { Bcs, BcsReader, BcsWriter } from "../../src/bcs/index.js"
import type { AccountAddress } from "../../src/domain/AccountAddress.js"
import { rawTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { signingMessage } from "../../src/domain/signingMessage.js"
import type { RawTransaction, SignedTransaction } from "../../src/domain/Transaction.js"
import type { AccountAuthenticator } from "../../src/domain/TransactionAuthenticator.js"
import type { StructTag } from "../../src/domain/TypeTag.js"
import { makeWriteSetEntry } from "../../src/domain/WriteSetCodec.js"
import { executeTransaction } from "../../src/execution/executeTransaction.js"
import { explainExecutionStatus } from "../../src/execution/explainVmStatus.js"
import { overlayStateView } from "../../src/execution/OverlayStateView.js"
import type { TransactionOutput } from "../../src/execution/TransactionOutput.js"
import { validateTransaction } from "../../src/execution/validateTransaction.js"
import type { StateView } from "../../src/move/vm/StateView.js"
import { anyAuthenticatorPackage } from "../fixtures/sdkAccountAbstraction.js"
import {
  addressOf,
  applied,
  aptBalance,
  devnetView,
  entry,
  ONE,
  ROOT,
  sequenceNumber,
  signed,
  stringify,
  transferPayload,
  vm
} from "./fixtures.js"
import { decodeSigned } from "./sdkSigned.js"

const simulate = (view: StateView, txn: SignedTransaction) => executeTransaction(vm, view, txn, { simulation: true })
const explain = (out: TransactionOutput): string =>
  out.status._tag === "Keep" ? explainExecutionStatus(out.status.status) : out.status.status
const str = (s: string): Uint8Array => new BcsWriter().string(s).toBytes()
const keep = (view: StateView, out: TransactionOutput): StateView => {
  expect(explain(out), stringify(out.vmStatus)).toBe("Executed successfully")
  return applied(view, out)
}
const hex = (a: AccountAddress): string => `0x${Buffer.from(a).toString("hex")}`

/** An Ed25519 account made here (address = its authentication key). */
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

/** `raw` signed by an SDK account (its `signTransactionWithAuthenticator`), decoded with our codec. */
const sdkSigned = (raw: RawTransaction, signer: AbstractedAccount | SdkAccount): SignedTransaction => {
  const transaction = new SimpleTransaction(
    SdkRawTransaction.deserialize(new Deserializer(Bcs.encode(rawTransactionCodec, raw)))
  )
  return decodeSigned(
    generateSignedTransaction({
      transaction,
      senderAuthenticator: signer.signTransactionWithAuthenticator(transaction)
    })
  )
}

const publishPayload = (metadata: Uint8Array, modules: ReadonlyArray<Uint8Array>) => {
  const code = new BcsWriter().uleb128(modules.length)
  for (const m of modules) code.bytesWithLength(m)
  return entry("code", "publish_package_txn", [new BcsWriter().bytesWithLength(metadata).toBytes(), code.toBytes()])
}

const registerPayload = (module: string, fn: string, address = ROOT) =>
  entry("account_abstraction", "add_authentication_function", [address, str(module), str(fn)])

// The world: the SDK's package published by 0xa550c18 (the deployer); alice and bob (Ed25519
// accounts) funded; alice registered `deployer::any_authenticator::authenticate`, bob nothing.
const base = devnetView()
const alice = account(21)
const bob = account(22)
const pkg = anyAuthenticatorPackage(ROOT)
const published = keep(base, simulate(base, signed(ROOT, publishPayload(pkg.metadata, pkg.modules))))
const funded = [alice, bob].reduce(
  (view, a, i) =>
    keep(
      view,
      simulate(view, signed(ROOT, transferPayload(a.address, 1_000_000_000n), { sequenceNumber: BigInt(i + 1) }))
    ),
  published
)
const registeredOut = executeTransaction(
  vm,
  funded,
  alice.sign(signed(alice.address, registerPayload("any_authenticator", "authenticate")).rawTransaction)
)
const registered = applied(funded, registeredOut)

type FunctionId = `${string}::${string}::${string}`
const anyFunction: FunctionId = `${hex(ROOT)}::any_authenticator::authenticate`
const helloFunction: FunctionId = `${hex(ROOT)}::hello_world_authenticator::authenticate`
const abstracted = (address: AccountAddress, fn: FunctionId, bytes: Uint8Array = new Uint8Array(0)) =>
  new AbstractedAccount({
    signer: () => Uint8Array.from(bytes),
    accountAddress: SdkAddress.from(hex(address)),
    authenticationFunction: fn
  })

const transferFrom = (from: AccountAddress, seq: bigint, over: Partial<RawTransaction> = {}): RawTransaction =>
  signed(from, transferPayload(addressOf(300), 100n), { sequenceNumber: seq, maxGasAmount: 100_000n, ...over })
    .rawTransaction

const usingDispatchable = (view: StateView, a: AccountAddress): boolean => {
  const r = vm.call(view, {
    module: { address: ONE, name: "account_abstraction" },
    function: "using_dispatchable_authenticator",
    tyArgs: [],
    args: [a]
  })
  if (r._tag !== "Success") throw new Error(stringify(r))
  return r.values[0]![0] === 1
}

/** The FeeStatement's execution gas (its second u64). */
const executionGas = (out: TransactionOutput): bigint => {
  const r = new BcsReader(out.events[out.events.length - 1]!.data)
  r.u64()
  return r.u64()
}

describe("registering an authentication function (function_info::check_dispatch_type_compatibility)", () => {
  it("a public fun (signer, AbstractionAuthData): signer of another module is accepted", () => {
    expect(explain(registeredOut), stringify(registeredOut.vmStatus)).toBe("Executed successfully")
    expect(usingDispatchable(funded, alice.address)).toBe(false)
    expect(usingDispatchable(registered, alice.address)).toBe(true)
  })

  it("a function of another shape is refused: EAUTH_FUNCTION_SIGNATURE_MISMATCH", () => {
    for (const [module, fn] of [
      ["aptos_account", "transfer"], // (&signer, address, u64)
      ["account_abstraction", "authenticate"] // private, and (signer, FunctionInfo, AbstractionAuthData)
    ] as const) {
      const out = executeTransaction(
        vm,
        funded,
        bob.sign(signed(bob.address, registerPayload(module, fn, ONE)).rawTransaction)
      )
      expect(explain(out)).toMatch(
        /^Move abort in 0x1::account_abstraction: EAUTH_FUNCTION_SIGNATURE_MISMATCH\(0x10003\)/
      )
    }
  })
})

describe("a transfer authenticated by the account's Move function (AbstractionAuthData::V1)", () => {
  const txn = sdkSigned(transferFrom(alice.address, 1n), abstracted(alice.address, anyFunction))

  it("passes validation and executes: the amount moves, the sequence number is used", () => {
    expect(validateTransaction(vm, registered, txn)).toEqual({ _tag: "Valid" })
    const out = executeTransaction(vm, registered, txn)
    const after = keep(registered, out)
    expect(aptBalance(after, addressOf(300))).toBe(100n)
    expect(sequenceNumber(after, alice.address)).toBe(2n)
    expect(aptBalance(after, alice.address)).toBe(aptBalance(registered, alice.address) - 100n - out.gasUsed * 100n)
  })

  it("the authentication function's gas is part of the transaction's execution gas", () => {
    const viaAbstraction = executeTransaction(vm, registered, txn)
    const viaKey = executeTransaction(vm, registered, alice.sign(transferFrom(alice.address, 1n)))
    expect(explain(viaKey)).toBe("Executed successfully")
    expect(executionGas(viaAbstraction)).toBeGreaterThan(executionGas(viaKey))
    expect(viaAbstraction.gasUsed).toBeGreaterThan(viaKey.gasUsed)
  })

  it("a digest over another transaction is INVALID_SIGNATURE (the AASigningData digest is checked first)", () => {
    const other = sdkSigned(
      transferFrom(alice.address, 1n, { maxGasAmount: 99_999n }),
      abstracted(alice.address, anyFunction)
    )
    const forged: SignedTransaction = { rawTransaction: txn.rawTransaction, authenticator: other.authenticator }
    expect(executeTransaction(vm, registered, forged).status).toEqual({ _tag: "Discard", status: "INVALID_SIGNATURE" })
    expect(validateTransaction(vm, registered, forged)).toMatchObject({ _tag: "Invalid", status: "INVALID_SIGNATURE" })
  })

  it("a function the account did not register is refused (EFUNCTION_INFO_EXISTENCE), the transaction discarded", () => {
    const notRegistered = sdkSigned(transferFrom(bob.address, 0n), abstracted(bob.address, anyFunction))
    const out = executeTransaction(vm, registered, notRegistered)
    expect(out.status).toEqual({ _tag: "Discard", status: "ABORTED" })
    expect(out.vmStatus).toMatchObject({ _tag: "MoveAbort", location: { name: "account_abstraction" } })
    expect(out.writeSet.entries).toEqual([])
  })

  it('the authentication function\'s abort discards the transaction (hello_world wants BCS("hello world"))', () => {
    // This package's build of hello_world_authenticator compares the authenticator with
    // bcs::to_bytes of the string (the other build, publishHelloWorldAAPackage's, with its bytes).
    const withHello = keep(
      registered,
      executeTransaction(
        vm,
        registered,
        alice.sign(
          signed(alice.address, registerPayload("hello_world_authenticator", "authenticate"), { sequenceNumber: 1n })
            .rawTransaction
        )
      )
    )
    const wrong = sdkSigned(transferFrom(alice.address, 2n), abstracted(alice.address, helloFunction))
    const out = executeTransaction(vm, withHello, wrong)
    expect(out.status).toEqual({ _tag: "Discard", status: "ABORTED" })
    expect(out.vmStatus).toMatchObject({ _tag: "MoveAbort", code: 1n, location: { name: "hello_world_authenticator" } })
    const right = sdkSigned(
      transferFrom(alice.address, 2n),
      abstracted(alice.address, helloFunction, str("hello world"))
    )
    const rightOut = executeTransaction(vm, withHello, right)
    expect(explain(rightOut), stringify(rightOut.vmStatus)).toBe("Executed successfully")
  })

  it("authentication is bounded by max gas (and txn.max_aa_gas): ACCOUNT_AUTHENTICATION_GAS_LIMIT_EXCEEDED", () => {
    // check_gas comes after authentication in the reference, so a tiny max gas fails here first.
    const tiny = sdkSigned(
      transferFrom(alice.address, 1n, { maxGasAmount: 2n }),
      abstracted(alice.address, anyFunction)
    )
    expect(executeTransaction(vm, registered, tiny).status).toEqual({
      _tag: "Discard",
      status: "ACCOUNT_AUTHENTICATION_GAS_LIMIT_EXCEEDED"
    })
    expect(validateTransaction(vm, registered, tiny)).toMatchObject({
      status: "ACCOUNT_AUTHENTICATION_GAS_LIMIT_EXCEEDED"
    })
  })

  it("with the ACCOUNT_ABSTRACTION flag (85) off: FEATURE_UNDER_GATING", () => {
    const off = withFeature(registered, 85, false)
    expect(executeTransaction(vm, off, txn).status).toEqual({ _tag: "Discard", status: "FEATURE_UNDER_GATING" })
  })

  it("as a fee payer: a sponsored transfer whose payer authenticates with its Move function", () => {
    const raw = transferFrom(bob.address, 0n)
    const payer = abstracted(alice.address, anyFunction)
    const bobSdk = SdkAccount.fromPrivateKey({ privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(22)) })
    const transaction = new SimpleTransaction(
      SdkRawTransaction.deserialize(new Deserializer(Bcs.encode(rawTransactionCodec, raw))),
      SdkAddress.from(hex(alice.address))
    )
    const sponsored = decodeSigned(
      generateSignedTransaction({
        transaction,
        senderAuthenticator: bobSdk.signTransactionWithAuthenticator(transaction),
        feePayerAuthenticator: payer.signTransactionWithAuthenticator(transaction)
      })
    )
    const feePayer = sponsored.authenticator._tag === "FeePayer" ? sponsored.authenticator.feePayerSigner : undefined
    expect((feePayer as AccountAuthenticator | undefined)?._tag).toBe("Abstraction")
    const out = executeTransaction(vm, registered, sponsored)
    const after = keep(registered, out)
    expect(aptBalance(after, bob.address)).toBe(aptBalance(registered, bob.address) - 100n)
    expect(aptBalance(after, alice.address)).toBe(aptBalance(registered, alice.address) - out.gasUsed * 100n)
  })
})

describe("derivable account abstraction (AbstractionAuthData::DerivableV1)", () => {
  // The SDK e2e suite's own case: 0x7::test_derivable_account_abstraction_ed25519_hex, registered
  // at genesis, verifies an Ed25519 signature over the hex of the digest; the account's address is
  // derived from the function and the abstract public key.
  const solana = SdkAccount.fromPrivateKey({ privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(31)) })
  const hexSigner = (digest: HexInput) =>
    solana.sign(new TextEncoder().encode(Hex.fromHexInput(digest).toString())).toUint8Array()
  const daa = (sign: (digest: HexInput) => Uint8Array = hexSigner) =>
    new DerivableAbstractedAccount({
      signer: sign,
      authenticationFunction: "0x7::test_derivable_account_abstraction_ed25519_hex::authenticate",
      abstractPublicKey: solana.publicKey.toUint8Array()
    })
  const address = daa().accountAddress.toUint8Array()
  const withDaa = keep(
    registered,
    simulate(registered, signed(ROOT, transferPayload(address, 1_000_000_000n), { sequenceNumber: 3n }))
  )

  it("a transfer from the derived address executes, creating its Account resource", () => {
    const txn = sdkSigned(transferFrom(address, 0n), daa())
    expect(validateTransaction(vm, withDaa, txn)).toEqual({ _tag: "Valid" })
    const after = keep(withDaa, executeTransaction(vm, withDaa, txn))
    expect(aptBalance(after, addressOf(300))).toBe(100n)
    expect(sequenceNumber(after, address)).toBe(1n)
  })

  it("a wrong abstract signature is refused by the Move function; the flag (88) off is FEATURE_UNDER_GATING", () => {
    const bad = sdkSigned(
      transferFrom(address, 0n),
      daa(() => new Uint8Array(64))
    )
    const out = executeTransaction(vm, withDaa, bad)
    expect(out.status).toEqual({ _tag: "Discard", status: "ABORTED" })
    const off = withFeature(withDaa, 88, false)
    expect(executeTransaction(vm, off, sdkSigned(transferFrom(address, 0n), daa())).status).toEqual({
      _tag: "Discard",
      status: "FEATURE_UNDER_GATING"
    })
  })
})

/** `view` with one feature flag set or cleared in `0x1::features::Features`. */
function withFeature(view: StateView, flag: number, on: boolean): StateView {
  const tag: StructTag = { address: ONE, module: "features", name: "Features", typeArgs: [] }
  const bits = new BcsReader(view.resource(ONE, tag)!).bytesWithLength().slice()
  bits[flag >> 3] = on ? bits[flag >> 3]! | (1 << (flag & 7)) : bits[flag >> 3]! & ~(1 << (flag & 7))
  const entry = makeWriteSetEntry(
    { _tag: "AccessPath", address: ONE, path: { _tag: "Resource", struct: tag } },
    { _tag: "Modification", data: new BcsWriter().bytesWithLength(bits).toBytes() }
  )
  return overlayStateView(view, [{ writeSet: { entries: [entry] }, version: 1n }])
}
