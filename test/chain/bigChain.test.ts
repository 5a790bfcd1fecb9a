/**
 * Transaction summaries and the gas estimate over chains of thousands of submitted transactions
 * (issue 14 item 6): the local chain in process (manual mining, blocks of at most 10 user
 * transactions, the estimator's "full block" at 10), fed through POST /v1/transactions/batch by
 * sequence-number and orderless (nonce) senders, with empty blocks between the rounds; then every
 * sender's summaries paged through the API are compared with what was submitted and what the
 * ledger holds, and the estimate is checked against hand-computed prices as full blocks at chosen
 * prices and empty blocks follow one another. A second chain prunes (a window of 300 versions):
 * summaries below the oldest version are 410, those above it are whole.
 */
import { createPrivateKey, sign as nodeSign } from "node:crypto"
import { ed25519 } from "@noble/curves/ed25519.js"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Context from "effect/Context"
import { Bcs, toHex } from "../../src/bcs/index.js"
import { BlockProducerConfig, defaultBlockProducerConfig } from "../../src/chain/BlockProducer.js"
import { ed25519AuthKey } from "../../src/chain/buildLocalGenesis.js"
import { testLocalChainConfig, type LocalChainConfigShape } from "../../src/chain/LocalChainConfig.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { addressFromNumber, addressToLongString } from "../../src/domain/AccountAddress.js"
import { defaultGasEstimationConfig } from "../../src/domain/gasEstimate.js"
import { transactionHashOfBytes } from "../../src/domain/hash.js"
import { signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { signingMessage } from "../../src/domain/signingMessage.js"
import type { RawTransaction, SignedTransaction } from "../../src/domain/Transaction.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"
import { defaultNodeConfig, NodeConfig } from "../../src/node/NodeConfig.js"

const ONE = addressFromNumber(1)
const BCS_BODY = "application/x.aptos.signed_transaction+bcs"
const BLOCK = 10
const U64_MAX = 0xffff_ffff_ffff_ffffn

/** node:crypto's Ed25519 (tens of µs a signature; noble's pure-JS signing would dominate the test). */
const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex")

interface Sender {
  readonly address: Uint8Array
  readonly id: string
  readonly publicKey: Uint8Array
  readonly sign: (message: Uint8Array) => Uint8Array
  next: bigint
  nonce: bigint
}

const senderOf = (privateKey: Uint8Array): Sender => {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, privateKey]), format: "der", type: "pkcs8" })
  const publicKey = ed25519.getPublicKey(privateKey)
  const address = ed25519AuthKey(publicKey)
  return {
    address,
    id: addressToLongString(address),
    publicKey,
    sign: (m) => new Uint8Array(nodeSign(null, m, key)),
    next: 0n,
    nonce: 1n
  }
}

interface Submitted {
  readonly hash: string
  readonly sender: string
  /** The sequence number, or the nonce of an orderless transaction. */
  readonly replay: { readonly type: "sequence_number" | "nonce"; readonly value: bigint }
}

/** A transfer of 1 octa to 0xb0b: with the sender's next sequence number, or (`orderless`) its next nonce. */
const transfer = (
  s: Sender,
  gasUnitPrice: bigint,
  orderless: boolean
): { signed: SignedTransaction; sub: Submitted } => {
  const entryFunction = {
    module: { address: ONE, name: "aptos_account" },
    function: "transfer",
    typeArgs: [],
    args: [addressFromNumber(0xb0b), Bcs.encode(Bcs.u64, 1n)]
  }
  const replay = orderless
    ? { type: "nonce" as const, value: s.nonce++ }
    : { type: "sequence_number" as const, value: s.next++ }
  const raw: RawTransaction = {
    sender: s.address,
    sequenceNumber: orderless ? U64_MAX : replay.value,
    payload: orderless
      ? {
          _tag: "PayloadV1",
          executable: { _tag: "EntryFunction", entryFunction },
          extraConfig: { multisigAddress: undefined, replayProtectionNonce: replay.value }
        }
      : { _tag: "EntryFunction", entryFunction },
    maxGasAmount: 20_000n,
    gasUnitPrice,
    // Orderless transactions must expire within 60 s.
    expirationTimestampSecs: BigInt(Math.floor(Date.now() / 1000) + (orderless ? 50 : 600)),
    chainId: 4
  }
  const signed: SignedTransaction = {
    rawTransaction: raw,
    authenticator: { _tag: "Ed25519", publicKey: s.publicKey, signature: s.sign(signingMessage(raw)) }
  }
  const hash = `0x${toHex(transactionHashOfBytes(Uint8Array.of(0, ...Bcs.encode(signedTransactionCodec, signed))))}`
  return { signed, sub: { hash, sender: s.id, replay } }
}

const request = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const r = await fetch(url, init)
    const text = await r.text()
    return { status: r.status, headers: r.headers, body: text === "" ? undefined : (JSON.parse(text) as any) }
  })

const batchCodec = Bcs.vector(signedTransactionCodec)

/** Submits in batches of 10 (the reference's `max_submit_transaction_batch_size`); every one must be accepted. */
const submitAll = (chain: LocalChainInfo, txns: ReadonlyArray<SignedTransaction>) =>
  Effect.gen(function* () {
    for (let i = 0; i < txns.length; i += 10) {
      const r = yield* request(`${chain.apiUrl}/transactions/batch`, {
        method: "POST",
        headers: { "content-type": BCS_BODY },
        body: Bcs.encode(batchCodec, txns.slice(i, i + 10))
      })
      assert.strictEqual(r.status, 202, JSON.stringify(r.body))
    }
  })

/** Mines until a block carries no user transaction; answers how many user transactions each block had. */
const mineUntilEmpty = (chain: LocalChainInfo) =>
  Effect.gen(function* () {
    const sizes: number[] = []
    for (;;) {
      const block = yield* chain.mine
      const users = userCount(block)
      if (users === 0) return sizes
      sizes.push(users)
    }
  })

/** A block's user transactions: all but its metadata and its block end (the chain never ends an epoch here). */
const userCount = (block: { readonly firstVersion: bigint; readonly lastVersion: bigint }) =>
  Number(block.lastVersion - block.firstVersion + 1n) - 2

const estimate = (chain: LocalChainInfo) =>
  Effect.map(request(`${chain.apiUrl}/estimate_gas_price`), (r) => ({
    low: BigInt(r.body.deprioritized_gas_estimate),
    market: BigInt(r.body.gas_estimate),
    aggressive: BigInt(r.body.prioritized_gas_estimate)
  }))

const ledgerInfo = (chain: LocalChainInfo) => Effect.map(request(chain.apiUrl), (r) => r.body)

interface Summary {
  readonly version: bigint
  readonly hash: string
  readonly sender: string
  readonly replay: { readonly type: string; readonly value: bigint }
}

const summaryOf = (j: any): Summary => ({
  version: BigInt(j.version),
  hash: j.transaction_hash,
  sender: addressToLongString(Uint8Array.from(Buffer.from(j.sender.slice(2).padStart(64, "0"), "hex"))),
  replay:
    j.replay_protector.type === "nonce"
      ? { type: "nonce", value: BigInt(j.replay_protector.nonce) }
      : { type: "sequence_number", value: BigInt(j.replay_protector.sequence_number) }
})

/** Every summary of `sender` from `startVersion` on, following the cursor header page by page. */
const allSummaries = (chain: LocalChainInfo, sender: string, startVersion: bigint, limit = 100) =>
  Effect.gen(function* () {
    const out: Summary[] = []
    let start: string | null = startVersion.toString()
    while (start !== null) {
      const r: { status: number; headers: Headers; body: any } = yield* request(
        `${chain.apiUrl}/accounts/${sender}/transaction_summaries?start_version=${start}&limit=${limit}`
      )
      assert.strictEqual(r.status, 200, JSON.stringify(r.body))
      out.push(...(r.body as any[]).map(summaryOf))
      start = r.headers.get("x-aptos-cursor")
    }
    return out
  })

/** The user transactions of the whole ledger, from `start`, as summaries (the ledger's own view). */
const ledgerUserTransactions = (chain: LocalChainInfo, start: bigint) =>
  Effect.gen(function* () {
    const latest = BigInt((yield* ledgerInfo(chain)).ledger_version)
    const out: Summary[] = []
    for (let v = start; v <= latest; v += 100n) {
      const r = yield* request(`${chain.apiUrl}/transactions?start=${v}&limit=100`)
      assert.strictEqual(r.status, 200, JSON.stringify(r.body))
      for (const t of r.body as any[]) {
        if (t.type !== "user_transaction") continue
        assert.strictEqual(t.success, true, `${t.version}: ${t.vm_status}`)
        const nonce = t.replay_protection_nonce
        out.push({
          version: BigInt(t.version),
          hash: t.hash,
          sender: addressToLongString(Uint8Array.from(Buffer.from(t.sender.slice(2).padStart(64, "0"), "hex"))),
          replay:
            nonce === undefined || nonce === null
              ? { type: "sequence_number", value: BigInt(t.sequence_number) }
              : { type: "nonce", value: BigInt(nonce) }
        })
      }
    }
    return out
  })

const chainLayer = (overrides: Partial<LocalChainConfigShape>) =>
  LocalChain.layer({
    ...testLocalChainConfig,
    mining: MiningMode.manual,
    // No reconfiguration while the test runs: the estimate only looks at the current epoch's blocks.
    epochIntervalSecs: 86_400,
    ...overrides
  }).pipe(
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(BlockProducerConfig, { ...defaultBlockProducerConfig, maxBlockTransactions: BLOCK }),
        Layer.succeed(NodeConfig, {
          ...defaultNodeConfig,
          gasEstimation: {
            ...defaultGasEstimationConfig,
            fullBlockTxns: BLOCK,
            lowBlockHistory: 3,
            marketBlockHistory: 5,
            aggressiveBlockHistory: 10,
            cacheExpirationMs: 0
          }
        })
      )
    )
  )

const withChain = <A, E>(
  overrides: Partial<LocalChainConfigShape>,
  f: (chain: LocalChainInfo) => Effect.Effect<A, E>
) => Effect.scoped(Effect.flatMap(Layer.build(chainLayer(overrides)), (ctx) => f(Context.get(ctx, LocalChain))))

const byVersion = (a: { version: bigint }, b: { version: bigint }) =>
  a.version < b.version ? -1 : a.version > b.version ? 1 : 0

/** `rounds` rounds: 100 transfers per sequence-number sender and per orderless sender, then empty blocks. */
const feed = (
  chain: LocalChainInfo,
  seqSenders: ReadonlyArray<Sender>,
  orderlessSenders: ReadonlyArray<Sender>,
  rounds: number,
  emptyBlocksBetween: number
) =>
  Effect.gen(function* () {
    const submitted: Submitted[] = []
    const blockSizes: number[] = []
    for (let round = 0; round < rounds; round++) {
      const txns: SignedTransaction[] = []
      for (let i = 0; i < 100; i++)
        for (const s of seqSenders) {
          const { signed, sub } = transfer(s, 100n, false)
          txns.push(signed)
          submitted.push(sub)
        }
      for (const s of orderlessSenders)
        for (let i = 0; i < 100; i++) {
          const { signed, sub } = transfer(s, 100n, true)
          txns.push(signed)
          submitted.push(sub)
        }
      yield* submitAll(chain, txns)
      blockSizes.push(...(yield* mineUntilEmpty(chain)))
      for (let i = 0; i < emptyBlocksBetween; i++) assert.strictEqual(userCount(yield* chain.mine), 0)
    }
    return { submitted, blockSizes }
  })

/** The summaries the API pages out for each sender equal the ledger's user transactions of that sender. */
const checkSummaries = (
  chain: LocalChainInfo,
  senders: ReadonlyArray<Sender>,
  expected: ReadonlyArray<Summary>,
  from: bigint
) =>
  Effect.gen(function* () {
    for (const s of senders) {
      const mine = expected.filter((e) => e.sender === s.id && e.version >= from).sort(byVersion)
      const paged = yield* allSummaries(chain, s.id, from)
      assert.deepStrictEqual(paged, mine, `summaries of ${s.id}`)
      // Odd page sizes page the same list.
      assert.deepStrictEqual(yield* allSummaries(chain, s.id, from, 7), mine)
      // Without a start version: the newest ones.
      const newest = yield* request(`${chain.apiUrl}/accounts/${s.id}/transaction_summaries?limit=25`)
      assert.deepStrictEqual((newest.body as any[]).map(summaryOf), mine.slice(-25))
      assert.strictEqual(newest.headers.get("x-aptos-cursor"), null)
      // Both bounds: the ones in between.
      const lo = mine[10]!.version
      const hi = mine[mine.length - 10]!.version
      const bounded = yield* request(
        `${chain.apiUrl}/accounts/${s.id}/transaction_summaries?start_version=${lo}&end_version=${hi}&limit=100`
      )
      assert.deepStrictEqual(
        (bounded.body as any[]).map(summaryOf),
        mine.filter((e) => e.version >= lo && e.version <= hi).slice(0, 100)
      )
    }
  })

describe("summaries and the gas estimate over thousands of transactions", () => {
  it.live(
    "2,000 transfers from sequence-number and orderless senders in full and empty blocks",
    () =>
      withChain({ accounts: 10 }, (chain) =>
        Effect.gen(function* () {
          yield* chain.mine // ends genesis's epoch
          const senders = chain.accounts.map((a) => senderOf(a.privateKey))
          const seqSenders = senders.slice(0, 8)
          const orderlessSenders = senders.slice(8)
          const { submitted, blockSizes } = yield* feed(chain, seqSenders, orderlessSenders, 2, 3)
          assert.strictEqual(submitted.length, 2000)
          // Blocks of at most 10: 1,000 transactions a round make 100 full blocks.
          assert.strictEqual(blockSizes.length, 200)
          assert.isTrue(blockSizes.every((n) => n === BLOCK))

          // Everything submitted is committed, once, with its replay protector.
          const ledger = yield* ledgerUserTransactions(chain, 0n)
          assert.strictEqual(ledger.length, submitted.length)
          const byHash = new Map(ledger.map((t) => [t.hash, t]))
          for (const s of submitted) {
            const t = byHash.get(s.hash)
            assert.isDefined(t, s.hash)
            assert.strictEqual(t!.sender, s.sender)
            assert.deepStrictEqual(t!.replay, s.replay)
          }
          // Sequence numbers commit in order.
          for (const s of seqSenders) {
            const seqs = ledger.filter((t) => t.sender === s.id).map((t) => t.replay.value)
            assert.deepStrictEqual(
              seqs,
              Array.from({ length: 200 }, (_, i) => BigInt(i))
            )
          }
          yield* checkSummaries(chain, senders, ledger, 0n)
          const unknown = yield* request(`${chain.apiUrl}/accounts/0x${"cd".repeat(32)}/transaction_summaries`)
          assert.deepStrictEqual([unknown.status, unknown.body], [200, []])

          // The blocks: contiguous, the empty ones metadata and block end only.
          const info = yield* ledgerInfo(chain)
          let expectedFirst = 0n
          let empty = 0
          for (let h = 0n; h <= BigInt(info.block_height); h++) {
            const b = (yield* request(`${chain.apiUrl}/blocks/by_height/${h}`)).body
            assert.strictEqual(BigInt(b.first_version), expectedFirst)
            expectedFirst = BigInt(b.last_version) + 1n
            if (
              h > 1n &&
              userCount({ firstVersion: BigInt(b.first_version), lastVersion: BigInt(b.last_version) }) === 0
            )
              empty++
          }
          assert.strictEqual(expectedFirst, BigInt(info.ledger_version) + 1n)
          // Three after each round, and the empty block that ended each round's mining.
          assert.strictEqual(empty, 8)

          // The estimate. Newest block first, the latest skipped (it may be partial): the last round
          // ended with 4 empty blocks, so the newest 3 counted are empty (the minimum, 100), then full
          // blocks at 100 (next bucket: 150). Low: the min of 3; market: the upper median of 5;
          // aggressive: the next bucket above the 90th percentile of 10.
          assert.deepStrictEqual(yield* estimate(chain), { low: 100n, market: 100n, aggressive: 300n })

          // 12 full blocks at 300: the 10 counted price at 500 each.
          const seq = seqSenders[0]!
          const orderless = orderlessSenders[0]!
          const fullAt = (price: bigint, blocks: number) =>
            Effect.gen(function* () {
              for (let b = 0; b < blocks; b++) {
                // Mixed senders and prices in a block: its price is its cheapest transaction's.
                const txns = [
                  ...Array.from({ length: 6 }, () => transfer(seq, price, false).signed),
                  ...Array.from({ length: 3 }, () => transfer(orderless, price + 700n, true).signed),
                  transfer(seqSenders[1]!, price + 50n, false).signed
                ]
                yield* submitAll(chain, txns)
                assert.strictEqual(userCount(yield* chain.mine), BLOCK)
              }
            })
          yield* fullAt(300n, 12)
          assert.deepStrictEqual(yield* estimate(chain), { low: 500n, market: 500n, aggressive: 1000n })
          // 3 empty blocks: the newest 2 counted at the minimum, 8 at 500.
          for (let i = 0; i < 3; i++) yield* chain.mine
          assert.deepStrictEqual(yield* estimate(chain), { low: 100n, market: 500n, aggressive: 1000n })
          // 3 blocks at 1,000 (next bucket 3,000): counted 3000, 3000, 100, 100, 100, 500 ×5.
          yield* fullAt(1000n, 3)
          assert.deepStrictEqual(yield* estimate(chain), { low: 100n, market: 100n, aggressive: 5000n })
          // A partly full block (9 of 10) prices at the minimum whatever its transactions pay.
          const nine = Array.from({ length: 9 }, () => transfer(seq, 5000n, false).signed)
          yield* submitAll(chain, nine)
          assert.strictEqual(userCount(yield* chain.mine), 9)
          yield* chain.mine
          // Counted (the empty latest skipped): 100, 3000 ×3, 100 ×3, 500 ×3.
          assert.deepStrictEqual(yield* estimate(chain), { low: 100n, market: 3000n, aggressive: 5000n })
          // 11 empty blocks: nothing but the minimum.
          for (let i = 0; i < 11; i++) yield* chain.mine
          assert.deepStrictEqual(yield* estimate(chain), { low: 100n, market: 100n, aggressive: 150n })

          // The summaries still agree after all that.
          yield* checkSummaries(chain, [seq, orderless, seqSenders[1]!], yield* ledgerUserTransactions(chain, 0n), 0n)
        })
      ),
    240_000
  )

  it.live(
    "a pruning chain: summaries below the oldest version are gone (410), those above it whole",
    () =>
      withChain({ accounts: 5, pruneWindow: 300n }, (chain) =>
        Effect.gen(function* () {
          yield* chain.mine
          const senders = chain.accounts.map((a) => senderOf(a.privateKey))
          const { submitted } = yield* feed(chain, senders.slice(0, 4), senders.slice(4), 2, 2)
          assert.strictEqual(submitted.length, 1000)
          const info = yield* ledgerInfo(chain)
          const oldest = BigInt(info.oldest_ledger_version)
          assert.isTrue(oldest > 0n, `oldest ${oldest}`)
          assert.isTrue(BigInt(info.ledger_version) - oldest <= 320n, `window ${oldest}..${info.ledger_version}`)
          for (const s of senders) {
            const gone = yield* request(`${chain.apiUrl}/accounts/${s.id}/transaction_summaries?start_version=0`)
            assert.strictEqual(gone.status, 410)
            assert.strictEqual(gone.body.error_code, "version_pruned")
            const gone2 = yield* request(
              `${chain.apiUrl}/accounts/${s.id}/transaction_summaries?end_version=${oldest - 1n}`
            )
            assert.strictEqual(gone2.status, 410)
          }
          const ledger = yield* ledgerUserTransactions(chain, oldest)
          assert.isTrue(ledger.length > 100)
          yield* checkSummaries(chain, senders, ledger, oldest)
          // The estimate reads the retained blocks only: the last round's mining ended with 3 empty
          // blocks (newest 2 counted), then full blocks at 100 (150 each).
          assert.deepStrictEqual(yield* estimate(chain), { low: 100n, market: 150n, aggressive: 300n })
        })
      ),
    240_000
  )
})
