/**
 * `prepareBlock` and a transaction's `outputHashes` given by its caller (the block producer hashes
 * each output in its execution slices): the block prepared with the hashes given is the block
 * prepared without them, and given hashes are taken as they are (the commit does not hash again).
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import { outputHashes } from "../../src/domain/outputHashes.js"
import type { BlockToCommit } from "../../src/ledger/Ledger.js"
import { prepareBlock } from "../../src/ledger/prepareBlock.js"
import { encodeTransactionRecordWithOffsets } from "../../src/ledger/lmdbRecords.js"
import { checkpointTxn, toCommit, userTxn, type Write } from "./fixtures.js"

const context = { chainId: 4, window: undefined, blockOfVersion: () => undefined }

const writeArb = fc.tuple(
  fc.integer({ min: 0, max: 7 }),
  fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined })
)
const eventArb: fc.Arbitrary<ContractEvent> = fc.record({
  _tag: fc.constant("V1" as const),
  key: fc.record({
    creationNumber: fc.bigInt({ min: 0n, max: 3n }),
    accountAddress: fc.constant(addressFromNumber(0x200))
  }),
  sequenceNumber: fc.bigInt({ min: 0n, max: 1000n }),
  typeTag: fc.constant({ _tag: "u64" as const }),
  data: fc.uint8Array({ maxLength: 40 })
})
const txnArb = fc.record({
  user: fc.boolean(),
  writes: fc.uniqueArray(writeArb, { selector: (w) => w[0], maxLength: 5 }),
  events: fc.array(eventArb, { maxLength: 4 })
})

type Txn = {
  readonly user: boolean
  readonly writes: ReadonlyArray<Write>
  readonly events: ReadonlyArray<ContractEvent>
}

const blockOf = (txns: ReadonlyArray<Txn>): BlockToCommit => ({
  epoch: 1n,
  timestampUsec: 9n,
  transactions: txns.map((t, i) =>
    toCommit(t.user ? userTxn(0x100, BigInt(i)) : checkpointTxn(i), t.writes, t.events, true)
  )
})

describe("prepareBlock with the outputs' hashes given", () => {
  it("prepares the block it prepares without them", () => {
    fc.assert(
      fc.property(fc.array(txnArb, { minLength: 1, maxLength: 6 }), (txns) => {
        const block = blockOf(txns)
        const given: BlockToCommit = {
          ...block,
          transactions: block.transactions.map((t) => ({ ...t, outputHashes: outputHashes(t.writeSet, t.events) }))
        }
        const without = prepareBlock(undefined, block, context)
        const withHashes = prepareBlock(undefined, given, context)
        expect(withHashes.transactions.map((t) => [t.info, t.accumulatorRootHash])).toEqual(
          without.transactions.map((t) => [t.info, t.accumulatorRootHash])
        )
        expect(withHashes.head).toEqual(without.head)
        // Each record written from the encodings the hashes were computed over is the record
        // encoded afresh (what LmdbBackend stores).
        for (const p of [without, withHashes])
          p.transactions.forEach((t, i) => {
            const encoding = p.outputEncodings?.[i]
            expect(encoding).toBeDefined()
            expect(encodeTransactionRecordWithOffsets(t, encoding)).toEqual(encodeTransactionRecordWithOffsets(t))
          })
      })
    )
  })

  it("takes them as given", () => {
    const t = toCommit(userTxn(0x100, 0n), [[1, 2]], [])
    const eventRootHash = new Uint8Array(32).fill(7)
    const stateChangeHash = new Uint8Array(32).fill(9)
    const prepared = prepareBlock(
      undefined,
      {
        epoch: 1n,
        timestampUsec: 1n,
        transactions: [
          {
            ...t,
            outputHashes: { eventRootHash, stateChangeHash, encoding: outputHashes(t.writeSet, t.events).encoding }
          }
        ]
      },
      context
    )
    expect(prepared.transactions[0]!.info.eventRootHash).toEqual(eventRootHash)
    expect(prepared.transactions[0]!.info.stateChangeHash).toEqual(stateChangeHash)
  })
})
