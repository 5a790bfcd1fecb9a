/**
 * The chain over the real executor: a local genesis built by the framework's genesis functions
 * (chain id 4, our root key, one validator, one pre-funded account), blocks made by the real block prologue and epilogue, transactions
 * executed by the real executor, balances read back through view functions (not through the chain).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Result from "effect/Result"
import { Bcs, BcsReader } from "../../src/bcs/index.js"
import { BlockProducer, BlockProducerConfig, defaultBlockProducerConfig } from "../../src/chain/BlockProducer.js"
import { ChainEvents } from "../../src/chain/ChainEvents.js"
import { ChainVmLive } from "../../src/chain/ChainVmLive.js"
import { buildLocalGenesis, ed25519AuthKey } from "../../src/chain/buildLocalGenesis.js"
import { Faucet } from "../../src/chain/Faucet.js"
import { Mempool } from "../../src/chain/Mempool.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { type AccountAddress, addressFromNumber } from "../../src/domain/AccountAddress.js"
import { signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { signingMessage } from "../../src/domain/signingMessage.js"
import type { RawTransaction, SignedTransaction, Transaction } from "../../src/domain/Transaction.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import { LedgerMemory } from "../../src/ledger/index.js"
import { MoveVm } from "../../src/move/vm/MoveVm.js"
import { stateViewFromReader } from "../../src/move/vm/StateView.js"
import { loadGenesisBytes } from "../support/genesis.js"
import { transferPayload } from "../execution/fixtures.js"

const ONE = addressFromNumber(1)
const ROOT_KEY = new Uint8Array(32).fill(11)
const ALICE_KEY = new Uint8Array(32).fill(12)
const ALICE = ed25519AuthKey(ed25519.getPublicKey(ALICE_KEY))
const BOB = addressFromNumber(0xb0b)

const genesis = (() => {
  const r = buildLocalGenesis(loadGenesisBytes("devnet"), {
    chainId: 4,
    rootPublicKey: ed25519.getPublicKey(ROOT_KEY),
    accounts: [{ address: ALICE, amount: 10n ** 10n }],
    epochIntervalSecs: 3600
  })
  if (Result.isFailure(r)) throw new Error(r.failure)
  return r.success
})()

const chain = () => {
  const base = Layer.mergeAll(LedgerMemory.layer({ genesis }), ChainVmLive, ChainEvents.layer)
  return Layer.mergeAll(BlockProducer.layer, Faucet.layer({ rootPrivateKey: ROOT_KEY, chainId: 4 })).pipe(
    Layer.provideMerge(Layer.provideMerge(Mempool.layer, base)),
    Layer.provide(Layer.succeed(BlockProducerConfig, { ...defaultBlockProducerConfig, mining: MiningMode.manual }))
  )
}

const reader = new MoveVm()
/** `0x1::coin::balance<AptosCoin>(a)` at the latest version, run by a VM of its own. */
const balance = (a: AccountAddress) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const state = yield* ledger.stateAt((yield* ledger.ledgerInfo).ledgerVersion)
    const o = reader.call(stateViewFromReader(state), {
      module: { address: ONE, name: "coin" },
      function: "balance",
      tyArgs: [{ _tag: "struct", struct: { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] } }],
      args: [a]
    })
    assert.strictEqual(o._tag, "Success")
    return o._tag === "Success" ? new BcsReader(o.values[0]!).u64() : -1n
  })

const transfer = (sequenceNumber: bigint, to: AccountAddress, amount: bigint, key = ALICE_KEY): SignedTransaction => {
  const raw: RawTransaction = {
    sender: ed25519AuthKey(ed25519.getPublicKey(key)),
    sequenceNumber,
    payload: transferPayload(to, amount),
    maxGasAmount: 200_000n,
    gasUnitPrice: 100n,
    expirationTimestampSecs: 4_000_000_000n,
    chainId: 4
  }
  const publicKey = ed25519.getPublicKey(key)
  return {
    rawTransaction: raw,
    authenticator: { _tag: "Ed25519", publicKey, signature: ed25519.sign(signingMessage(raw), key) }
  }
}

const kinds = (ts: ReadonlyArray<{ readonly transaction: Transaction }>) => ts.map((t) => t.transaction._tag)

const blockTransactions = (height: bigint) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const b = yield* ledger.blockByHeight(height)
    const out = []
    for (let v = b.firstVersion; v <= b.lastVersion; v++) out.push(yield* ledger.transactionByVersion(v))
    return out
  })

describe("the chain over the real executor (our own local genesis)", () => {
  it.effect("makes blocks with the real block prologue and epilogue", () =>
    Effect.gen(function* () {
      const producer = yield* BlockProducer
      const b1 = yield* producer.produce
      const b2 = yield* producer.produce
      assert.deepStrictEqual(kinds(yield* blockTransactions(b1.height)), ["BlockMetadata", "BlockEpilogue"])
      assert.strictEqual(b2.height, 2n)
      assert.strictEqual((yield* Effect.flatMap(Ledger, (l) => l.ledgerInfo)).chainId, 4)
    }).pipe(Effect.provide(chain()))
  )

  it.effect("funds an account through the faucet (a real mint transaction signed by the root key)", () =>
    Effect.gen(function* () {
      const [funding] = yield* (yield* Faucet).fund(BOB, 123_456n)
      const b = yield* (yield* BlockProducer).produce
      const txns = yield* blockTransactions(b.height)
      assert.deepStrictEqual(kinds(txns), ["BlockMetadata", "UserTransaction", "BlockEpilogue"])
      assert.deepStrictEqual(txns[1]!.hash, funding!.hash)
      assert.strictEqual(txns[1]!.outcome.vmStatus, "Executed successfully")
      assert.strictEqual(yield* balance(BOB), 123_456n)
    }).pipe(Effect.provide(chain()))
  )

  it.effect(
    "executes a signed transfer from a pre-funded account, charging gas; refuses a bad signature at submission",
    () =>
      Effect.gen(function* () {
        const mempool = yield* Mempool
        const before = yield* balance(ALICE)
        const t = transfer(0n, BOB, 1000n)
        yield* mempool.submit(t, Bcs.encode(signedTransactionCodec, t))
        const forged = {
          ...t,
          authenticator: { ...t.authenticator, signature: new Uint8Array(64) }
        } as SignedTransaction
        const refused = yield* Effect.flip(mempool.submit(forged, Bcs.encode(signedTransactionCodec, forged)))
        assert.ok(refused._tag === "InvalidTransaction" && refused.statusName === "INVALID_SIGNATURE")
        const b = yield* (yield* BlockProducer).produce
        const txns = yield* blockTransactions(b.height)
        assert.strictEqual(txns[1]!.outcome.status._tag, "Success")
        const gas = txns[1]!.outcome.gasUsed
        assert.ok(gas > 0n)
        assert.strictEqual(yield* balance(BOB), 1000n)
        assert.strictEqual(yield* balance(ALICE), before - 1000n - gas * 100n)
        // A failing transfer (more than the balance) is kept, charged, and reported as the reference words it.
        const tooMuch = transfer(1n, BOB, 10n ** 15n)
        yield* mempool.submit(tooMuch, Bcs.encode(signedTransactionCodec, tooMuch))
        const c = yield* (yield* BlockProducer).produce
        const failed = (yield* blockTransactions(c.height))[1]!
        assert.strictEqual(failed.outcome.status._tag, "MoveAbort")
        assert.match(failed.outcome.vmStatus, /^Move abort in 0x1::fungible_asset: EINSUFFICIENT_BALANCE\(0x10004\)/)
      }).pipe(Effect.provide(chain()))
  )
})
