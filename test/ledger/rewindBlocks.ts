/**
 * Blocks for the rewind properties (rewind.test.ts, rewindSequence.test.ts): random transactions
 * over a few keys and senders, made into blocks the ledger takes, so that two ledgers given the
 * same blocks under the same tag commit the same transactions (same hashes), and blocks under
 * another tag never do.
 */
import { Effect } from "effect"
import * as fc from "fast-check"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import type { Transaction } from "../../src/domain/Transaction.js"
import type { BlockToCommit, LedgerService } from "../../src/ledger/Ledger.js"
import { toCommit, userTxn, type Write } from "./fixtures.js"

/** A transaction: a user transaction of sender `0x100 + sender` (or a state checkpoint), its writes, one event or none. */
export type Txn = { sender: number | undefined; writes: Array<[number, number | undefined]>; event: boolean }

/** The one event stream the transactions emit on (creation number 1). */
export const EVENT_STREAM = addressFromNumber(0x200)

/** Transactions writing up to `maxWrites` of keys `0..keys-1` (values or deletions), from `senders` senders or none. */
export const txnArb = (keys: number, senders: number, maxWrites: number): fc.Arbitrary<Txn> =>
  fc.record({
    sender: fc.option(fc.integer({ min: 0, max: senders - 1 }), { nil: undefined }),
    writes: fc.array(
      fc.tuple(fc.integer({ min: 0, max: keys - 1 }), fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined })),
      { maxLength: maxWrites }
    ),
    event: fc.boolean()
  })

/** A state checkpoint whose hash is unique to `n`. */
const checkpointTxn = (n: number): Transaction => {
  const hash = new Uint8Array(32)
  new DataView(hash.buffer).setUint32(0, n)
  return { _tag: "StateCheckpoint", hash }
}

/**
 * `blocks` as the ledger takes them, the first at `timestampUsec + 1`, numbering sequence numbers
 * and events on from `counters`. A checkpoint's hash is unique to (`tag`, block, place): at most 8
 * blocks of 8 transactions per tag.
 */
export const blocksToCommit = (
  timestampUsec: bigint,
  blocks: ReadonlyArray<ReadonlyArray<Txn>>,
  counters: Map<string, bigint>,
  tag: number
): BlockToCommit[] => {
  const next = (k: string) => {
    const n = counters.get(k) ?? 0n
    counters.set(k, n + 1n)
    return n
  }
  return blocks.map((b, bi) => ({
    epoch: 1n,
    timestampUsec: timestampUsec + BigInt(bi) + 1n,
    transactions: b.map((t, i) => {
      const s = t.sender
      const transaction = s === undefined ? checkpointTxn(tag * 64 + bi * 8 + i) : userTxn(0x100 + s, next(`s${s}`))
      const events: ContractEvent[] = t.event
        ? [
            {
              _tag: "V1",
              key: { creationNumber: 1n, accountAddress: EVENT_STREAM },
              sequenceNumber: next("e"),
              typeTag: { _tag: "u64" },
              data: new Uint8Array([tag])
            }
          ]
        : []
      return toCommit(transaction, t.writes as Write[], events, true)
    })
  }))
}

/** Commits `blocks` one by one after the ledger's last (see `blocksToCommit`). */
export const commitAll = (
  l: LedgerService,
  blocks: ReadonlyArray<ReadonlyArray<Txn>>,
  counters: Map<string, bigint>,
  tag: number
) =>
  Effect.gen(function* () {
    const info = yield* Effect.orElseSucceed(l.ledgerInfo, () => ({ ledgerVersion: -1n, ledgerTimestampUsec: 0n }))
    for (const block of blocksToCommit(info.ledgerTimestampUsec, blocks, counters, tag)) yield* l.commitBlock(block)
  })
