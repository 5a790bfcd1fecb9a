/**
 * Admission's validation on a worker thread (chain/mempool/AdmissionThread.ts), over an LMDB ledger
 * and the real executor: the same answer as on the chain's thread for every kind of submission the
 * worker takes (accepted, parked, refused for its signature, chain id, expiry, gas price, a sender
 * with no account) and for what the chain's thread still decides (a sequence number already used);
 * a block then executes what the worker admitted, given the signature check the pool kept for it
 * (so it verifies nothing again); and with no worker script, every submission is
 * validated on the chain's thread as before. The worker runs the compiled script (`dist/`, built
 * by `npm test` before vitest runs).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import { ed25519 } from "@noble/curves/ed25519.js"
import { afterAll, assert, describe, it, vi } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import * as Result from "effect/Result"
import { Bcs } from "../../../src/bcs/index.js"
import { BlockProducer, BlockProducerConfig, defaultBlockProducerConfig } from "../../../src/chain/BlockProducer.js"
import { buildLocalGenesis, ed25519AuthKey } from "../../../src/chain/buildLocalGenesis.js"
import { ChainEvents } from "../../../src/chain/ChainEvents.js"
import { ChainVm } from "../../../src/chain/ChainVm.js"
import { makeChainVm } from "../../../src/chain/ChainVmLive.js"
import { Mempool } from "../../../src/chain/Mempool.js"
import { MempoolConfig, makeMempoolConfig } from "../../../src/chain/mempool/MempoolConfig.js"
import { AdmissionThread } from "../../../src/chain/mempool/AdmissionThread.js"
import { MiningMode } from "../../../src/chain/MiningMode.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { signedTransactionCodec } from "../../../src/domain/PayloadCodec.js"
import { signingMessage } from "../../../src/domain/signingMessage.js"
import type { RawTransaction, SignedTransaction } from "../../../src/domain/Transaction.js"
import { Ledger, LedgerLmdb } from "../../../src/ledger/index.js"
import { transferPayload } from "../../execution/fixtures.js"
import { loadGenesisBytes } from "../../support/genesis.js"

const dir = mkdtempSync(join(tmpdir(), "movenode-admission-worker-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const workerUrl = new URL("../../../dist/chain/mempool/admissionWorker.js", import.meta.url)
const missingUrl = new URL("../../../dist/chain/mempool/no-such-worker.js", import.meta.url)

const ROOT_KEY = new Uint8Array(32).fill(21)
const ALICE_KEY = new Uint8Array(32).fill(22)
const ALICE = ed25519AuthKey(ed25519.getPublicKey(ALICE_KEY))
const STRANGER_KEY = new Uint8Array(32).fill(23)
const BOB = addressFromNumber(0xb0b)
const ALICE_FUNDS = 10n ** 9n

const genesis = (() => {
  const r = buildLocalGenesis(loadGenesisBytes("devnet"), {
    chainId: 4,
    rootPublicKey: ed25519.getPublicKey(ROOT_KEY),
    accounts: [{ address: ALICE, amount: ALICE_FUNDS }],
    epochIntervalSecs: 3600
  })
  if (Result.isFailure(r)) throw new Error(r.failure)
  return r.success
})()

/**
 * A chain over its own LMDB store, with the admission worker at `worker` (or none); submissions
 * leave the event loop from `offThreadFromPerSecond` a second (0: all of them, however slow).
 */
/** The signature check each user transaction's execution was given, in order (a spy on the real executor). */
const givenChecks: Array<unknown> = []
const spiedVm = Layer.sync(ChainVm, () => {
  const vm = makeChainVm()
  return {
    ...vm,
    executeUser: (view, transaction, index, signatureCheck) => {
      givenChecks.push(signatureCheck)
      return vm.executeUser(view, transaction, index, signatureCheck)
    }
  }
})

const chain = (name: string, worker: URL | undefined, offThreadFromPerSecond = 0) => {
  const path = join(dir, name)
  const admission =
    worker === undefined
      ? Layer.empty
      : (AdmissionThread.layer({ path, workerUrl: worker, log: () => {} }) as Layer.Layer<AdmissionThread>)
  const base = Layer.mergeAll(
    LedgerLmdb.layer({ path, genesis, sync: false }),
    spiedVm,
    ChainEvents.layer,
    admission as Layer.Layer<AdmissionThread>
  )
  return BlockProducer.layer.pipe(
    Layer.provideMerge(Layer.provideMerge(Mempool.layer, base)),
    Layer.provide(Layer.succeed(BlockProducerConfig, { ...defaultBlockProducerConfig, mining: MiningMode.manual })),
    Layer.provide(Layer.succeed(MempoolConfig, makeMempoolConfig({ offThreadFromPerSecond }))),
    Layer.orDie
  )
}

const signed = (raw: RawTransaction, key: Uint8Array): SignedTransaction => ({
  rawTransaction: raw,
  authenticator: {
    _tag: "Ed25519",
    publicKey: ed25519.getPublicKey(key),
    signature: ed25519.sign(signingMessage(raw), key)
  }
})

const transfer = (sequenceNumber: bigint, changes: Partial<RawTransaction> = {}, key = ALICE_KEY): SignedTransaction =>
  signed(
    {
      sender: ed25519AuthKey(ed25519.getPublicKey(key)),
      sequenceNumber,
      payload: transferPayload(BOB, 1000n),
      maxGasAmount: 20_000n,
      gasUnitPrice: 100n,
      expirationTimestampSecs: 4_000_000_000n,
      chainId: 4,
      ...changes
    },
    key
  )

/** The submissions, in order, and the answer each must get (the same with and without the worker). */
const cases: ReadonlyArray<{ readonly name: string; readonly txn: () => SignedTransaction; readonly expect: string }> =
  [
    { name: "a valid transfer", txn: () => transfer(0n), expect: "accepted" },
    { name: "a sequence number ahead (parked)", txn: () => transfer(5n), expect: "accepted" },
    {
      name: "a forged signature",
      txn: () => {
        const t = transfer(1n)
        const sig = Uint8Array.from((t.authenticator as { signature: Uint8Array }).signature)
        sig[0] = sig[0]! ^ 1
        return { ...t, authenticator: { ...t.authenticator, signature: sig } } as SignedTransaction
      },
      expect: "INVALID_SIGNATURE"
    },
    { name: "another chain's id", txn: () => transfer(1n, { chainId: 5 }), expect: "BAD_CHAIN_ID" },
    {
      name: "an expired transaction",
      txn: () => transfer(1n, { expirationTimestampSecs: 1n }),
      expect: "TRANSACTION_EXPIRED"
    },
    {
      name: "a gas price below the minimum",
      txn: () => transfer(1n, { gasUnitPrice: 1n }),
      expect: "GAS_UNIT_PRICE_BELOW_MIN_BOUND"
    },
    // With no account (the framework's default account resource), the fee check refuses it.
    {
      name: "a sender with no account",
      txn: () => transfer(0n, {}, STRANGER_KEY),
      expect: "INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE"
    }
  ]

/** "accepted", or the refusal's VM status name (or its tag when it has none). */
const answerOf = (exit: Exit.Exit<unknown, { readonly _tag: string; readonly statusName?: string }>): string => {
  if (Exit.isSuccess(exit)) return "accepted"
  const error = Exit.findErrorOption(exit)
  return error._tag === "Some" ? (error.value.statusName ?? error.value._tag) : "defect"
}

const submit = (t: SignedTransaction) =>
  Effect.gen(function* () {
    const mempool = yield* Mempool
    return yield* Effect.exit(mempool.submit(t, Bcs.encode(signedTransactionCodec, t)))
  })

/**
 * A first block (it ends the genesis epoch and brings the chain's clock to now), every case
 * submitted in order, a block made, and the used sequence number submitted again.
 */
const scenario = Effect.gen(function* () {
  const producer = yield* BlockProducer
  yield* producer.produce
  const answers: Record<string, string> = {}
  let pooledCheck: unknown
  for (const c of cases) {
    const exit = yield* submit(c.txn())
    answers[c.name] = answerOf(exit)
    // The pool keeps the check admission made, for the block's decoded copy (pooledTransaction.ts).
    if (c.name === "a valid transfer" && Exit.isSuccess(exit)) {
      pooledCheck = exit.value.signatureCheck
      answers["the valid transfer's pooled signature check"] = exit.value.signatureCheck?._tag ?? "none"
    }
  }
  givenChecks.length = 0
  const block = yield* producer.produce
  // The block's execution was given that very check (so it verified nothing again).
  answers["the check the transfer's execution was given"] =
    givenChecks.length === 1 && givenChecks[0] !== undefined && givenChecks[0] === pooledCheck
      ? "the pooled one"
      : `${givenChecks.length} executions; given ${String(givenChecks[0])}`
  const ledger = yield* Ledger
  // The block's metadata, then the transfer.
  const executed = yield* ledger.transactionByVersion(block.firstVersion + 1n)
  answers["the valid transfer, in the block"] =
    executed.outcome.status._tag === "Success" ? "executed" : `failed: ${executed.outcome.vmStatus}`
  answers["the used sequence number again"] = answerOf(yield* submit(transfer(0n, { maxGasAmount: 20_001n })))
  return answers
})

describe("admission validated on a worker thread", () => {
  it.live("answers every submission as the chain's thread does, and its admitted transfer executes", () =>
    Effect.gen(function* () {
      const inThread = yield* Effect.scoped(Effect.provide(scenario, chain("in-thread", undefined)))
      const onWorker = yield* Effect.scoped(
        Effect.gen(function* () {
          const admission = yield* AdmissionThread
          assert.isTrue(yield* Effect.promise(() => admission.warmUp()))
          const answers = yield* scenario
          // Every submission went through it (the used sequence number too: this thread refuses it
          // against the latest state when the verdict comes back).
          assert.strictEqual(admission.verdicts(), cases.length + 1)
          return answers
        }).pipe(Effect.provide(chain("worker", workerUrl)))
      )
      const expected: Record<string, string> = Object.fromEntries(cases.map((c) => [c.name, c.expect]))
      expected["the valid transfer's pooled signature check"] = "Valid"
      expected["the check the transfer's execution was given"] = "the pooled one"
      expected["the valid transfer, in the block"] = "executed"
      expected["the used sequence number again"] = "SEQUENCE_NUMBER_TOO_OLD"
      assert.deepStrictEqual(inThread, expected)
      assert.deepStrictEqual(onWorker, expected)
    })
  )

  it.live("hands submissions to the worker only while they come fast (100 a second here)", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const admission = yield* AdmissionThread
        yield* (yield* BlockProducer).produce
        // A refused submission (a forged signature) counts like any other and leaves nothing pooled.
        const forged = cases.find((c) => c.name === "a forged signature")!.txn()
        for (let i = 0; i < 20; i++) assert.strictEqual(answerOf(yield* submit(forged)), "INVALID_SIGNATURE")
        yield* Effect.sleep("300 millis")
        assert.strictEqual(answerOf(yield* submit(forged)), "INVALID_SIGNATURE")
        assert.strictEqual(admission.verdicts(), 0, "20 submissions: no worker")
        // Bursts of 150: the first starts the worker; once it is ready, submissions go through it.
        for (let i = 0; i < 100 && admission.verdicts() === 0; i++) {
          for (let j = 0; j < 150; j++) assert.strictEqual(answerOf(yield* submit(forged)), "INVALID_SIGNATURE")
          yield* Effect.sleep("100 millis")
        }
        assert.isAbove(admission.verdicts(), 0)
        // Slow again (the last fast second over): validated on the chain's thread, the worker idle.
        yield* Effect.sleep("2100 millis")
        const before = admission.verdicts()
        for (let i = 0; i < 5; i++) assert.strictEqual(answerOf(yield* submit(forged)), "INVALID_SIGNATURE")
        assert.strictEqual(admission.verdicts(), before, "5 slow submissions: none to the worker")
      }).pipe(Effect.provide(chain("rate", workerUrl, 100)))
    )
  )

  // Detaching an ArrayBuffer invalidates a V8 protector for the whole thread: every compiled
  // function that relied on it is deoptimized, and typed-array code compiled after checks for
  // detachment (AdmissionThread.flush). The batches are copied to the worker instead.
  it.live("hands its batches to the worker by copy: nothing on the chain's thread is detached", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const sent: Array<{ readonly transferList: boolean; readonly bytesAttached: boolean | undefined }> = []
        const original = Worker.prototype.postMessage
        const spy = vi.spyOn(Worker.prototype, "postMessage").mockImplementation(function (
          this: Worker,
          message: unknown,
          transferList?: ReadonlyArray<unknown>
        ) {
          original.call(this, message, transferList as never)
          const bytes = (message as { bytes?: unknown }).bytes
          sent.push({
            transferList: transferList !== undefined && transferList.length > 0,
            bytesAttached: bytes instanceof Uint8Array ? bytes.buffer.byteLength > 0 : undefined
          })
        })
        yield* Effect.addFinalizer(() => Effect.sync(() => spy.mockRestore()))
        const admission = yield* AdmissionThread
        assert.isTrue(yield* Effect.promise(() => admission.warmUp()))
        yield* scenario
        assert.strictEqual(admission.verdicts(), cases.length + 1)
        const batches = sent.filter((s) => s.bytesAttached !== undefined)
        assert.isAbove(batches.length, 0, "the batches went through postMessage")
        assert.deepStrictEqual(
          sent.filter((s) => s.transferList || s.bytesAttached === false),
          [],
          "no transfer list, every batch's buffer still attached"
        )
      }).pipe(Effect.provide(chain("copied", workerUrl)))
    )
  )

  it.live("without a worker script, validates on the chain's thread", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const admission = yield* AdmissionThread
        assert.isFalse(yield* Effect.promise(() => admission.warmUp(5_000)))
        const answers = yield* scenario
        assert.strictEqual(admission.verdicts(), 0)
        assert.strictEqual(answers["a valid transfer"], "accepted")
        assert.strictEqual(answers["a forged signature"], "INVALID_SIGNATURE")
        assert.strictEqual(answers["the valid transfer, in the block"], "executed")
      }).pipe(Effect.provide(chain("missing", missingUrl)))
    )
  )
})
