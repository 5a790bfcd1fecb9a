import fc from "fast-check"
import { assert, describe, expect, it } from "vitest"
import { Bcs } from "../../../src/bcs/index.js"
import { type MempoolConfigShape, makeMempoolConfig } from "../../../src/chain/mempool/MempoolConfig.js"
import { poolEntryOf } from "../../../src/chain/mempool/poolEntryOf.js"
import { pooledTransaction } from "../../../src/chain/mempool/pooledTransaction.js"
import { type NewEntry, type PoolEntry, TxPool } from "../../../src/chain/mempool/TxPool.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { signedTransactionCodec } from "../../../src/domain/PayloadCodec.js"
import type { RawTransaction, SignedTransaction } from "../../../src/domain/Transaction.js"

const ONE = addressFromNumber(1)

interface TxOptions {
  readonly nonce?: bigint
  readonly gasUnitPrice?: bigint
  readonly maxGasAmount?: bigint
  readonly expiration?: bigint
  /** Changes the payload (the transfer amount). */
  readonly amount?: bigint
  readonly signatureByte?: number
}

const signed = (sender: number, sequenceNumber: bigint, o: TxOptions = {}): SignedTransaction => {
  const entryFunction = {
    module: { address: ONE, name: "aptos_account" },
    function: "transfer",
    typeArgs: [],
    args: [addressFromNumber(0xb0b), Bcs.encode(Bcs.u64, o.amount ?? 1n)]
  }
  const raw: RawTransaction = {
    sender: addressFromNumber(sender),
    sequenceNumber: o.nonce === undefined ? sequenceNumber : 0xffffffffffffffffn,
    payload:
      o.nonce === undefined
        ? { _tag: "EntryFunction", entryFunction }
        : {
            _tag: "PayloadV1",
            executable: { _tag: "EntryFunction", entryFunction },
            extraConfig: { multisigAddress: undefined, replayProtectionNonce: o.nonce }
          },
    maxGasAmount: o.maxGasAmount ?? 2000n,
    gasUnitPrice: o.gasUnitPrice ?? 100n,
    expirationTimestampSecs: o.expiration ?? 2_000_000_000n,
    chainId: 4
  }
  return {
    rawTransaction: raw,
    authenticator: {
      _tag: "Ed25519",
      publicKey: new Uint8Array(32).fill(sender & 0xff),
      signature: new Uint8Array(64).fill(o.signatureByte ?? 7)
    }
  }
}

const entry = (sender: number, seq: bigint, o: TxOptions = {}, nowMs = 0): NewEntry => {
  const t = signed(sender, seq, o)
  return poolEntryOf(t, Bcs.encode(signedTransactionCodec, t), nowMs)
}

const senderKey = (n: number) => Buffer.from(addressFromNumber(n)).toString("hex")
const seqs = (es: ReadonlyArray<PoolEntry>) =>
  es.map(
    (e) =>
      `${Number(pooledTransaction(e).rawTransaction.sender[31])}:${e.replay._tag === "Nonce" ? `n${e.replay.nonce}` : e.replay.sequenceNumber}`
  )

const pool = (o: Partial<MempoolConfigShape> = {}) => new TxPool(makeMempoolConfig(o))

describe("TxPool", () => {
  it("serves a sender's run contiguous from its on-chain sequence number and parks what follows a gap", () => {
    const p = pool()
    expect(p.insert(entry(1, 5n), 5n)).toMatchObject({ _tag: "Accepted", ready: true })
    expect(p.insert(entry(1, 7n), 5n)).toMatchObject({ _tag: "Accepted", ready: false })
    expect(p.insert(entry(1, 8n), 5n)).toMatchObject({ _tag: "Accepted", ready: false })
    expect(seqs(p.best(10))).toEqual(["1:5"])
    // The gap fills: 6, 7, 8 are all ready now (readiness is derived, nothing to promote by hand).
    expect(p.insert(entry(1, 6n), 5n)).toMatchObject({ _tag: "Accepted", ready: true })
    expect(seqs(p.best(10))).toEqual(["1:5", "1:6", "1:7", "1:8"])
    expect(p.size).toBe(4)
  })

  it("parks a sender whose first pooled number is ahead of the chain (SEQUENCE_NUMBER_TOO_NEW) and keeps 100 in flight", () => {
    const p = pool()
    for (let s = 99n; s >= 1n; s--) expect(p.insert(entry(2, s), 0n)._tag).toBe("Accepted")
    expect(p.best(200)).toEqual([])
    expect(p.hasReady()).toBe(false)
    expect(p.insert(entry(2, 0n), 0n)).toMatchObject({ _tag: "Accepted", ready: true })
    expect(p.best(200).length).toBe(100)
    expect(p.hasReady()).toBe(true)
  })

  it("serves what a block in flight did not take: its senders' runs after it, none of its transactions", () => {
    const p = pool()
    const a0 = p.insert(entry(1, 0n), 0n)
    p.insert(entry(1, 1n), 0n)
    p.insert(entry(1, 2n), 0n)
    const b0 = p.insert(entry(2, 0n), 0n)
    p.insert(entry(2, 1n), 0n)
    const n = p.insert(entry(3, 0n, { nonce: 5n }), 0n)
    p.insert(entry(3, 0n, { nonce: 6n }), 0n)
    p.insert(entry(4, 0n), 0n)
    assert(a0._tag === "Accepted" && b0._tag === "Accepted" && n._tag === "Accepted")
    // In flight: 1:0 committed, 2:0 discarded (its sender's later numbers cannot run yet), 3:n5 committed.
    const after = {
      hashKeys: new Set([a0.entry.hashKey, b0.entry.hashKey, n.entry.hashKey]),
      nextSequenceNumbers: new Map([[senderKey(1), 1n]])
    }
    expect(seqs(p.best(10, undefined, after)).sort()).toEqual(["1:1", "1:2", "3:n6", "4:0"])
    expect(seqs(p.best(10)).sort()).toEqual(["1:0", "1:1", "1:2", "2:0", "2:1", "3:n5", "3:n6", "4:0"])
    // Once the pool is told of the block, the same transactions are served without `after`.
    p.onCommitted([{ senderKey: senderKey(1), nextSequenceNumber: 1n }], [a0.entry.hashKey, n.entry.hashKey])
    p.remove(b0.entry.hashKey)
    expect(seqs(p.best(10)).sort()).toEqual(["1:1", "1:2", "3:n6", "4:0"])
  })

  it("treats orderless transactions as always ready, keyed by nonce", () => {
    const p = pool()
    expect(p.insert(entry(3, 0n, { nonce: 42n }), 0n)).toMatchObject({ _tag: "Accepted", ready: true })
    expect(p.insert(entry(3, 0n, { nonce: 7n }), 9n)).toMatchObject({ _tag: "Accepted", ready: true })
    expect(seqs(p.best(10))).toEqual(["3:n42", "3:n7"])
    // The same nonce with another payload is an update of the pooled one.
    expect(p.insert(entry(3, 0n, { nonce: 7n, amount: 2n }), 9n)._tag).toBe("InvalidUpdate")
  })

  it("accepts an identical resubmission and refuses conflicting ones with the reference's messages", () => {
    const p = pool()
    const first = p.insert(entry(1, 0n), 0n)
    expect(first._tag).toBe("Accepted")
    // Same raw transaction signed differently: idempotent, the pooled one stays.
    const again = p.insert(entry(1, 0n, { signatureByte: 9 }), 0n)
    expect(again).toMatchObject({ _tag: "Accepted" })
    expect(again._tag === "Accepted" && first._tag === "Accepted" && again.entry === first.entry).toBe(true)
    expect(p.insert(entry(1, 0n, { amount: 5n }), 0n)).toEqual({
      _tag: "InvalidUpdate",
      message: "Transaction already in mempool with a different payload"
    })
    expect(p.insert(entry(1, 0n, { expiration: 3n }), 0n)).toEqual({
      _tag: "InvalidUpdate",
      message: "Transaction already in mempool with a different expiration timestamp"
    })
    expect(p.insert(entry(1, 0n, { maxGasAmount: 3n }), 0n)).toEqual({
      _tag: "InvalidUpdate",
      message: "Transaction already in mempool with a different max gas amount"
    })
    expect(p.insert(entry(1, 0n, { gasUnitPrice: 99n }), 0n)).toEqual({
      _tag: "InvalidUpdate",
      message: "Transaction already in mempool with a higher gas price"
    })
    // A higher gas price replaces the pooled transaction (and its hash).
    const upgraded = p.insert(entry(1, 0n, { gasUnitPrice: 150n }), 0n)
    expect(upgraded._tag).toBe("Accepted")
    expect(p.size).toBe(1)
    expect(first._tag === "Accepted" && p.byHash(first.entry.hashKey)).toBe(undefined)
    expect(p.best(5)[0]!.gasUnitPrice).toBe(150n)
  })

  it("refuses a sequence number below the sender's on-chain one, and never forgets a higher one it was told", () => {
    const p = pool()
    expect(p.insert(entry(1, 3n), 4n)).toEqual({
      _tag: "InvalidSeqNumber",
      message: "transaction sequence number is 3, current sequence number is  4"
    })
    p.insert(entry(1, 9n), 8n)
    // A stale read (6) does not lower what the pool knows (8).
    expect(p.insert(entry(1, 7n), 6n)._tag).toBe("InvalidSeqNumber")
    expect(p.accountSequence(senderKey(1))).toBe(8n)
  })

  it("limits transactions per sender (sequence numbers and nonces separately)", () => {
    const p = pool({ capacityPerUser: 3, orderlessCapacityPerUser: 2 })
    for (let s = 0n; s < 3n; s++) expect(p.insert(entry(1, s), 0n)._tag).toBe("Accepted")
    const r = p.insert(entry(1, 3n), 0n)
    expect(r).toEqual({
      _tag: "TooManyTransactions",
      message:
        "Mempool over capacity for account. Number of seq number transactions from account: 3 Capacity per account: 3"
    })
    expect(p.insert(entry(1, 0n, { nonce: 1n }), 0n)._tag).toBe("Accepted")
    expect(p.insert(entry(1, 0n, { nonce: 2n }), 0n)._tag).toBe("Accepted")
    expect(p.insert(entry(1, 0n, { nonce: 3n }), 0n)._tag).toBe("TooManyTransactions")
    expect(p.insert(entry(2, 0n), 0n)._tag).toBe("Accepted")
  })

  it("is full at its capacity, and makes room for a ready transaction by evicting parked ones", () => {
    const p = pool({ capacity: 3 })
    p.insert(entry(1, 0n), 0n)
    p.insert(entry(2, 5n), 0n) // parked
    p.insert(entry(2, 6n), 0n) // parked
    // A parked newcomer finds no room.
    expect(p.insert(entry(3, 4n), 0n)).toEqual({
      _tag: "MempoolIsFull",
      message: "Mempool is full. Mempool size: 3, Capacity: 3"
    })
    // A ready one evicts the newest parked transaction.
    expect(p.insert(entry(3, 0n), 0n)._tag).toBe("Accepted")
    expect(seqs(p.entries())).toEqual(["1:0", "2:5", "3:0"])
    // Only ready transactions left to evict: full.
    p.insert(entry(4, 0n), 0n)
    expect(p.insert(entry(5, 0n), 0n)._tag).toBe("MempoolIsFull")
  })

  it("is full at its byte capacity", () => {
    const one = entry(1, 0n).bytes
    const p = pool({ capacityBytes: one * 2 })
    expect(p.insert(entry(1, 0n), 0n)._tag).toBe("Accepted")
    expect(p.insert(entry(1, 1n), 0n)._tag).toBe("Accepted")
    expect(p.bytes).toBe(one * 2)
    expect(p.insert(entry(1, 2n), 0n)._tag).toBe("MempoolIsFull")
  })

  it("orders a block by gas price, then arrival, keeping each sender's sequence order", () => {
    const p = pool()
    p.insert(entry(1, 0n, { gasUnitPrice: 100n }), 0n)
    p.insert(entry(2, 0n, { gasUnitPrice: 100n }), 0n)
    p.insert(entry(1, 1n, { gasUnitPrice: 500n }), 0n) // high, but behind 1:0
    p.insert(entry(3, 0n, { gasUnitPrice: 300n }), 0n)
    p.insert(entry(4, 0n, { nonce: 1n, gasUnitPrice: 200n }), 0n)
    expect(seqs(p.best(10))).toEqual(["3:0", "4:n1", "1:0", "1:1", "2:0"])
    expect(seqs(p.best(2))).toEqual(["3:0", "4:n1"])
    const [a, b] = p.best(2)
    expect(p.best(10, a!.bytes + b!.bytes).length).toBe(2)
    expect(p.best(10, a!.bytes + b!.bytes - 1).length).toBe(1)
    // A single transaction larger than the byte budget still leaves the pool.
    expect(p.best(10, 1).length).toBe(1)
  })

  it("forgets committed transactions and promotes what follows; a discard leaves a gap", () => {
    const p = pool()
    for (let s = 0n; s < 4n; s++) p.insert(entry(1, s), 0n)
    const nonce = p.insert(entry(2, 0n, { nonce: 9n }), 0n)
    const committed = p.best(2) // 1:0, 1:1 (gas ties: arrival)
    const removed = p.onCommitted(
      [{ senderKey: senderKey(1), nextSequenceNumber: 2n }],
      [...committed.map((e) => e.hashKey), nonce._tag === "Accepted" ? nonce.entry.hashKey : ""]
    )
    expect(removed.length).toBe(3)
    expect(seqs(p.best(10))).toEqual(["1:2", "1:3"])
    // 1:2 is discarded (never executed): 1:3 waits behind the gap.
    p.remove(p.best(1)[0]!.hashKey)
    expect(p.best(10)).toEqual([])
    expect(p.size).toBe(1)
    const behind = p.insert(entry(1, 4n), 2n)
    expect(behind._tag === "Accepted" && !behind.ready).toBe(true)
    // A resubmitted 1:2 fills the gap.
    const filled = p.insert(entry(1, 2n, { amount: 3n }), 2n)
    expect(filled._tag === "Accepted" && filled.ready).toBe(true)
    expect(seqs(p.best(10))).toEqual(["1:2", "1:3", "1:4"])
  })

  it("drops expired transactions (expiry not after the chain's time) and those past the system TTL", () => {
    const p = pool({ systemTtlSecs: 10 })
    p.insert(entry(1, 0n, { expiration: 100n }, 0), 0n)
    p.insert(entry(1, 1n, { expiration: 101n }, 0), 0n)
    p.insert(entry(2, 0n, { expiration: 1000n }, 5000), 0n)
    expect(seqs(p.gc(100n, 1000))).toEqual(["1:0"])
    expect(seqs(p.gc(100n, 12_000))).toEqual(["1:1"])
    expect(seqs(p.entries())).toEqual(["2:0"])
    expect(p.gc(999n, 14_999)).toEqual([])
    expect(p.gc(999n, 15_000).length).toBe(1)
    expect(p.size).toBe(0)
    expect(p.bytes).toBe(0)
  })

  it("keeps what a block being made took, expired or not, until a later collection", () => {
    const p = pool({ systemTtlSecs: 10 })
    p.insert(entry(1, 0n, { expiration: 100n }, 0), 0n)
    p.insert(entry(2, 0n, { expiration: 1000n }, 0), 0n)
    p.insert(entry(3, 0n, { expiration: 1000n }, 0), 0n)
    const taken = new Set(
      p.entries().flatMap((e) => (pooledTransaction(e).rawTransaction.sender[31] === 3 ? [] : [e.hashKey]))
    )
    // 1:0 past its expiry and all three past the TTL: only 3:0, which no block took, goes.
    expect(seqs(p.gc(100n, 20_000, taken))).toEqual(["3:0"])
    expect(seqs(p.entries())).toEqual(["1:0", "2:0"])
    expect(seqs(p.gc(100n, 20_000))).toEqual(["1:0", "2:0"])
  })

  it("keeps its indexes consistent under any sequence of operations (model check)", () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("insert" as const),
        sender: fc.integer({ min: 1, max: 4 }),
        seq: fc.bigInt({ min: 0n, max: 12n }),
        chain: fc.bigInt({ min: 0n, max: 6n }),
        nonce: fc.option(fc.bigInt({ min: 0n, max: 5n }), { nil: undefined }),
        price: fc.constantFrom(100n, 200n),
        amount: fc.constantFrom(1n, 2n),
        at: fc.integer({ min: 0, max: 20_000 })
      }),
      fc.record({ kind: fc.constant("commit" as const), count: fc.integer({ min: 0, max: 6 }) }),
      fc.record({ kind: fc.constant("discard" as const), index: fc.nat() }),
      fc.record({
        kind: fc.constant("gc" as const),
        now: fc.bigInt({ min: 0n, max: 30n }),
        ms: fc.integer({ min: 0, max: 30_000 })
      })
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const p = pool({ capacity: 20, capacityPerUser: 5, orderlessCapacityPerUser: 3, systemTtlSecs: 10 })
        const chain = new Map<string, bigint>()
        for (const o of ops) {
          if (o.kind === "insert") {
            const k = senderKey(o.sender)
            const onChain = (chain.get(k) ?? 0n) > o.chain ? chain.get(k)! : o.chain
            const r = p.insert(
              entry(
                o.sender,
                o.seq,
                {
                  nonce: o.nonce,
                  gasUnitPrice: o.price,
                  amount: o.amount,
                  expiration: 10n + o.seq
                },
                o.at
              ),
              onChain
            )
            if (r._tag === "Accepted" && o.nonce === undefined) {
              chain.set(k, onChain)
              // Ready exactly when the sender's pooled numbers run without a gap from its on-chain one to it.
              const pooled = new Set(
                p
                  .entries()
                  .filter((e) => e.senderKey === k && e.replay._tag === "SequenceNumber")
                  .map((e) => (e.replay._tag === "SequenceNumber" ? e.replay.sequenceNumber : -1n))
              )
              let end = p.accountSequence(k)!
              while (pooled.has(end)) end++
              expect(r.ready).toBe(o.seq < end)
            }
          } else if (o.kind === "commit") {
            const block = p.best(o.count)
            const next = new Map<string, bigint>()
            for (const e of block)
              if (e.replay._tag === "SequenceNumber") next.set(e.senderKey, e.replay.sequenceNumber + 1n)
            for (const [k, v] of next) chain.set(k, v)
            p.onCommitted(
              [...next].map(([senderKey, nextSequenceNumber]) => ({ senderKey, nextSequenceNumber })),
              block.map((e) => e.hashKey)
            )
            for (const e of block) expect(p.byHash(e.hashKey)).toBe(undefined)
          } else if (o.kind === "discard") {
            const all = p.entries()
            if (all.length > 0) p.remove(all[o.index % all.length]!.hashKey)
          } else {
            const before = p.entries()
            const removed = p.gc(o.now, o.ms)
            // Exactly what is due goes, however often gc ran before (it skips scans when nothing can be).
            const due = (e: PoolEntry) => e.expirationSecs <= o.now || o.ms - e.insertedAtMs >= 10_000
            expect(new Set(removed.map((e) => e.hashKey))).toEqual(new Set(before.filter(due).map((e) => e.hashKey)))
            for (const e of p.entries()) expect(due(e)).toBe(false)
          }
          // Invariants: sizes, bytes, hash index, best() well-formed.
          const all = p.entries()
          expect(all.length).toBe(p.size)
          expect(p.size).toBeLessThanOrEqual(20)
          expect(all.reduce((n, e) => n + e.bytes, 0)).toBe(p.bytes)
          for (const e of all) expect(p.byHash(e.hashKey)).toBe(e)
          const best = p.best(100)
          expect(new Set(best.map((e) => e.hashKey)).size).toBe(best.length)
          const expected = new Map<string, bigint>()
          for (const e of best) {
            if (e.replay._tag === "Nonce") continue
            const want = expected.get(e.senderKey) ?? p.accountSequence(e.senderKey)!
            expect(e.replay.sequenceNumber).toBe(want)
            expected.set(e.senderKey, want + 1n)
          }
          expect(p.hasReady()).toBe(best.length > 0)
        }
      }),
      { numRuns: 300 }
    )
  })
})
