import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { ed25519 } from "@noble/curves/ed25519.js"
import { Bcs, toHex } from "../../src/bcs/index.js"
import { BlockProducer, BlockProducerConfig, defaultBlockProducerConfig } from "../../src/chain/BlockProducer.js"
import { ChainEvents } from "../../src/chain/ChainEvents.js"
import { Mempool } from "../../src/chain/Mempool.js"
import { mempoolConfigLayer, makeMempoolConfig } from "../../src/chain/mempool/MempoolConfig.js"
import { pooledTransaction } from "../../src/chain/mempool/pooledTransaction.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { LedgerMemory } from "../../src/ledger/index.js"
import { defaultSubmissionsConfig, Submissions, SubmissionsConfig } from "../../src/node/Submissions.js"
import { loadGenesisBytes } from "../support/genesis.js"
import { bcsOf, fakeVmLayer, makeFakeVm, signedTxn, syntheticGenesis } from "../chain/fakeChain.js"

const layer = (
  genesis: Uint8Array = syntheticGenesis(),
  mempool = makeMempoolConfig(),
  submissions = defaultSubmissionsConfig
) => {
  const base = Layer.mergeAll(LedgerMemory.layer({ genesis }), fakeVmLayer(makeFakeVm()), ChainEvents.layer)
  return Layer.mergeAll(Submissions.layer, BlockProducer.layer).pipe(
    Layer.provideMerge(Layer.provideMerge(Mempool.layer, base)),
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(BlockProducerConfig, { ...defaultBlockProducerConfig, mining: MiningMode.manual }),
        mempoolConfigLayer(mempool),
        Layer.succeed(SubmissionsConfig, submissions)
      )
    )
  )
}

const submit = (sender: number, seq: bigint, o: Parameters<typeof signedTxn>[2] = {}) =>
  Effect.flatMap(Submissions, (s) => s.submitBcs(bcsOf(signedTxn(sender, seq, o))))

const failure = <A>(e: Effect.Effect<A, unknown, Submissions>) =>
  Effect.flip(e) as Effect.Effect<import("../../src/domain/ApiError.js").ApiError, never, Submissions>

describe("Submissions", () => {
  it.effect("pools a BCS transaction and answers with it and the ledger info", () =>
    Effect.gen(function* () {
      const t = signedTxn(1, 0n)
      const { ledger, value } = yield* (yield* Submissions).submitBcs(bcsOf(t))
      assert.strictEqual(ledger.ledgerVersion, 0n)
      assert.deepStrictEqual(value.transaction, t)
      const pending = (yield* Submissions).pending(value.entry.hash)
      assert.strictEqual(pending, value.entry)
      assert.deepStrictEqual(pending === undefined ? undefined : pooledTransaction(pending), t)
    }).pipe(Effect.provide(layer()))
  )

  it.effect("answers undecodable bodies and refused payloads with 400 invalid_input and headers", () =>
    Effect.gen(function* () {
      const s = yield* Submissions
      const garbage = yield* Effect.flip(s.submitBcs(Uint8Array.of(1, 2, 3)))
      assert.strictEqual(garbage.status, 400)
      assert.strictEqual(garbage.code, "invalid_input")
      assert.strictEqual(garbage.message, "Failed to deserialize input into SignedTransaction: unexpected end of input")
      const trailing = yield* Effect.flip(s.submitBcs(Uint8Array.of(...bcsOf(signedTxn(1, 0n)), 7)))
      assert.strictEqual(trailing.message, "Failed to deserialize input into SignedTransaction: Remaining input")
      assert.ok(garbage.ledger !== undefined)
      const t = signedTxn(1, 0n)
      const emptyScript = {
        ...t,
        rawTransaction: {
          ...t.rawTransaction,
          payload: { _tag: "Script", script: { code: new Uint8Array(0), typeArgs: [], args: [] } }
        }
      } as const
      const e = yield* Effect.flip(s.submitBcs(Bcs.encode(signedTransactionCodec, emptyScript)))
      assert.strictEqual(e.message, "Script payload bytecode must not be empty")
    }).pipe(Effect.provide(layer()))
  )

  it.effect("maps the mempool's refusals to the reference's errors", () =>
    Effect.gen(function* () {
      const bad = yield* failure(submit(1, 0n, { badSignature: true }))
      assert.strictEqual(bad.code, "vm_error")
      assert.strictEqual(bad.vmErrorCode, 1n)
      assert.strictEqual(bad.message, "Invalid transaction: Type: Validation Code: INVALID_SIGNATURE")
      yield* submit(1, 0n)
      const update = yield* failure(submit(1, 0n, { function: "other" }))
      assert.strictEqual(update.code, "invalid_transaction_update")
      assert.strictEqual(update.message, "Transaction already in mempool with a different payload")
      yield* (yield* BlockProducer).produce
      const old = yield* failure(submit(1, 0n))
      assert.strictEqual(old.code, "vm_error")
      assert.strictEqual(old.message, "Invalid transaction: Type: Validation Code: SEQUENCE_NUMBER_TOO_OLD")
      yield* submit(2, 0n)
      const full = yield* failure(submit(3, 0n))
      assert.strictEqual(full.status, 507)
      assert.strictEqual(full.code, "mempool_is_full")
      assert.ok(full.ledger !== undefined)
    }).pipe(Effect.provide(layer(syntheticGenesis(), makeMempoolConfig({ capacity: 1 }))))
  )

  it.effect("submits a batch in order, reporting the refused ones by index", () =>
    Effect.gen(function* () {
      const s = yield* Submissions
      const txns = [signedTxn(1, 0n), signedTxn(1, 0n, { badSignature: true }), signedTxn(2, 0n)]
      const { value } = yield* s.submitBatchBcs(Bcs.encode(Bcs.vector(signedTransactionCodec), txns))
      assert.deepStrictEqual(
        value.map((f) => [f.transactionIndex, f.error.code]),
        [[1, "vm_error"]]
      )
      assert.strictEqual((yield* Mempool).size(), 2)
      const tooMany = yield* Effect.flip(
        s.submitBatchBcs(
          Bcs.encode(
            Bcs.vector(signedTransactionCodec),
            Array.from({ length: 11 }, (_, i) => signedTxn(5, BigInt(i)))
          )
        )
      )
      assert.strictEqual(tooMany.message, "Submitted too many transactions: 11, while limit is 10")
    }).pipe(Effect.provide(layer()))
  )

  it.live(
    "wait: returns when the block commits the transaction, at once when not pending, after the timeout otherwise",
    () =>
      Effect.gen(function* () {
        const s = yield* Submissions
        // The first block after genesis ends the epoch (wall clock past the interval): nothing else in it.
        yield* (yield* BlockProducer).produce
        const { value } = yield* submit(1, 0n)
        const waiter = yield* Effect.forkChild(s.awaitSettled(value.entry.hash))
        yield* Effect.sleep(20)
        yield* (yield* BlockProducer).produce
        yield* Fiber.join(waiter)
        assert.strictEqual(s.pending(value.entry.hash), undefined)
        yield* s.awaitSettled(value.entry.hash) // committed: no wait
        const parked = yield* submit(1, 5n)
        const started = Date.now()
        yield* s.awaitSettled(parked.value.entry.hash)
        assert.ok(Date.now() - started >= 190)
      }).pipe(
        Effect.provide(
          layer(syntheticGenesis(), makeMempoolConfig(), { ...defaultSubmissionsConfig, waitTimeoutMs: 200 })
        )
      )
  )

  it.effect("converts a JSON SubmitTransactionRequest with the on-chain ABI, as BCS would carry it", () =>
    Effect.gen(function* () {
      const key = new Uint8Array(32).fill(7)
      const publicKey = ed25519.getPublicKey(key)
      const signature = new Uint8Array(64).fill(3)
      const request = {
        sender: "0xa11ce",
        sequence_number: "0",
        max_gas_amount: "2000",
        gas_unit_price: "100",
        expiration_timestamp_secs: "4000000000",
        payload: {
          type: "entry_function_payload",
          function: "0x1::aptos_account::transfer",
          type_arguments: [],
          arguments: ["0xb0b", "100"]
        },
        signature: { type: "ed25519_signature", public_key: toHex(publicKey), signature: `0x${toHex(signature)}` }
      }
      const { value } = yield* (yield* Submissions).submitJson(request)
      const raw = value.transaction.rawTransaction
      assert.deepStrictEqual(raw.sender, addressFromNumber(0xa11ce))
      assert.strictEqual(raw.chainId, 243)
      assert.ok(raw.payload._tag === "EntryFunction")
      assert.deepStrictEqual(raw.payload.entryFunction.args, [addressFromNumber(0xb0b), Bcs.encode(Bcs.u64, 100n)])
      assert.deepStrictEqual(value.transaction.authenticator, { _tag: "Ed25519", publicKey, signature })
      const wrong = yield* Effect.flip(
        (yield* Submissions).submitJson({ ...request, payload: { ...request.payload, arguments: ["0xb0b"] } })
      )
      assert.strictEqual(wrong.code, "invalid_input")
      assert.match(wrong.message, /^Failed to create SignedTransaction from SubmitTransactionRequest: /)
      const noSignature = yield* Effect.flip(
        (yield* Submissions).submitJson({ ...request, signature: { type: "nope" } })
      )
      assert.strictEqual(noSignature.code, "invalid_input")
    }).pipe(Effect.provide(layer(loadGenesisBytes("devnet"))))
  )
})
