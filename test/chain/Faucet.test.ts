import { ed25519 } from "@noble/curves/ed25519.js"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { BlockProducer, BlockProducerConfig, defaultBlockProducerConfig } from "../../src/chain/BlockProducer.js"
import { ChainEvents } from "../../src/chain/ChainEvents.js"
import { Faucet } from "../../src/chain/Faucet.js"
import { Mempool } from "../../src/chain/Mempool.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { signingMessage } from "../../src/domain/signingMessage.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import { LedgerMemory } from "../../src/ledger/index.js"
import { fakeVmLayer, makeFakeVm, seqOf, syntheticGenesis } from "./fakeChain.js"

const ROOT_KEY = new Uint8Array(32).fill(42)
const ROOT = addressFromNumber(0xa550c18)

const chain = () => {
  const base = Layer.mergeAll(
    LedgerMemory.layer({ genesis: syntheticGenesis() }),
    fakeVmLayer(makeFakeVm()),
    ChainEvents.layer
  )
  const mempool = Layer.provideMerge(Mempool.layer, base)
  return Layer.mergeAll(
    BlockProducer.layer,
    Faucet.layer({ rootPrivateKey: ROOT_KEY, chainId: 4, maxInFlight: 3 })
  ).pipe(
    Layer.provideMerge(mempool),
    Layer.provide(Layer.succeed(BlockProducerConfig, { ...defaultBlockProducerConfig, mining: MiningMode.manual }))
  )
}

describe("Faucet", () => {
  it.effect("submits 0x1::aptos_coin::mint(receiver, amount) signed by the root key, from 0xa550c18", () =>
    Effect.gen(function* () {
      const faucet = yield* Faucet
      const [funding] = yield* faucet.fund(addressFromNumber(0xb0b), 1000n)
      const raw = funding!.transaction.rawTransaction
      assert.deepStrictEqual(raw.sender, ROOT)
      assert.strictEqual(raw.chainId, 4)
      assert.strictEqual(raw.maxGasAmount, 500_000n)
      assert.ok(raw.payload._tag === "EntryFunction")
      assert.strictEqual(
        `${raw.payload.entryFunction.module.name}::${raw.payload.entryFunction.function}`,
        "aptos_coin::mint"
      )
      assert.deepStrictEqual(raw.payload.entryFunction.args[0], addressFromNumber(0xb0b))
      const auth = funding!.transaction.authenticator
      assert.ok(auth._tag === "Ed25519")
      assert.ok(ed25519.verify(auth.signature, signingMessage(raw), auth.publicKey))
      assert.deepStrictEqual(auth.publicKey, ed25519.getPublicKey(ROOT_KEY))
      assert.ok((yield* Mempool).byHash(Buffer.from(funding!.hash).toString("hex")) !== undefined)
    }).pipe(Effect.provide(chain()))
  )

  it.effect("gives concurrent requests consecutive sequence numbers and waits for a block past maxInFlight", () =>
    Effect.gen(function* () {
      const faucet = yield* Faucet
      const producer = yield* BlockProducer
      const fiber = yield* Effect.forkChild(
        Effect.forEach([1, 2, 3, 4, 5], (n) => faucet.fund(addressFromNumber(n), 10n), { concurrency: "unbounded" })
      )
      // Admission verifies the signature on the thread pool first (real time, not the test clock):
      // wait until the pool holds the three in flight (the limit), then a little longer to see
      // that the other two wait for slots.
      const mempool = yield* Mempool
      const realPause = Effect.promise(() => new Promise((r) => setTimeout(r, 5)))
      for (let i = 0; i < 400 && mempool.size() < 3; i++) yield* realPause
      for (let i = 0; i < 4; i++) yield* realPause
      assert.strictEqual(mempool.size(), 3)
      yield* producer.produce
      const all = yield* Fiber.join(fiber)
      const seqs = all.map(([t]) => t!.transaction.rawTransaction.sequenceNumber).sort((a, b) => Number(a - b))
      assert.deepStrictEqual(seqs, [0n, 1n, 2n, 3n, 4n])
      yield* producer.produce
      const state = yield* Effect.flatMap(Ledger, (l) =>
        Effect.flatMap(l.ledgerInfo, (i) => l.stateAt(i.ledgerVersion))
      )
      assert.strictEqual(seqOf(state, 0xa550c18), 5n)
    }).pipe(Effect.provide(chain()))
  )

  it.effect("refuses amount 0 for an account that exists, as the reference's faucet", () =>
    Effect.gen(function* () {
      const faucet = yield* Faucet
      yield* faucet.fund(addressFromNumber(0xb0b), 0n) // does not exist yet: accepted
      yield* (yield* BlockProducer).produce
      const e = yield* Effect.flip(faucet.fund(ROOT, undefined))
      assert.strictEqual(e.code, "InvalidRequest")
      assert.strictEqual(e.message, "Account 0xa550c18 already exists and amount asked for is 0")
    }).pipe(Effect.provide(chain()))
  )

  it.effect("recovers its sequence number when the root account was used by someone else", () =>
    Effect.gen(function* () {
      const faucet = yield* Faucet
      const producer = yield* BlockProducer
      yield* faucet.fund(addressFromNumber(1), 1n)
      yield* producer.produce
      // Another client spends root's sequence number 1 behind the faucet's back.
      const other = yield* Faucet.pipe(Effect.provide(Faucet.layer({ rootPrivateKey: ROOT_KEY, chainId: 4 })))
      yield* other.fund(addressFromNumber(2), 1n)
      yield* producer.produce
      const [t] = yield* faucet.fund(addressFromNumber(3), 1n)
      assert.strictEqual(t!.transaction.rawTransaction.sequenceNumber, 2n)
      assert.strictEqual(yield* faucet.healthy, true)
    }).pipe(Effect.provide(chain()))
  )

  it.effect("frees its slots and reuses the numbers of fundings the controls dropped from the pool", () =>
    Effect.gen(function* () {
      const faucet = yield* Faucet
      const mempool = yield* Mempool
      const events = yield* ChainEvents
      // The faucet's watch of the pool is a fiber its layer forked: let it start and subscribe (the
      // fundings below never yield, and an event published before it subscribes is not its).
      yield* Effect.yieldNow
      // Three fundings fill the faucet's three slots; none is mined (manual mining).
      const first = yield* Effect.forEach([1, 2, 3], (n) => faucet.fund(addressFromNumber(n), 10n))
      assert.strictEqual(mempool.size(), 3)
      // The controls drop them (POST /__movenode/v1/mempool/clear): they will never commit.
      const dropped = mempool.clear().map((e) => e.hashKey)
      yield* events.publish({ _tag: "Dropped", dropped })
      // The next funding takes a freed slot (it would wait for a block otherwise), at the first
      // dropped number: the chain never consumed it.
      const [next] = yield* faucet.fund(addressFromNumber(4), 10n)
      assert.deepStrictEqual(
        first.map(([t]) => t!.transaction.rawTransaction.sequenceNumber),
        [0n, 1n, 2n]
      )
      assert.strictEqual(next!.transaction.rawTransaction.sequenceNumber, 0n)
    }).pipe(Effect.provide(chain()))
  )
})
