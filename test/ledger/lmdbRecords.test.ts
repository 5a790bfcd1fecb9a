import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Bcs, BcsError } from "../../src/bcs/index.js"
import { stateValueMetadataCodec } from "../../src/domain/WriteSetCodec.js"
import type { CommittedTransaction } from "../../src/ledger/Ledger.js"
import {
  indexKey,
  MAX_RAW_STATE_KEY,
  readU64be,
  storedStateKey,
  summaryKey,
  u64be,
  versionOfIndexKey
} from "../../src/ledger/lmdbKeys.js"
import {
  decodeBlock,
  decodeHead,
  decodeStateValue,
  decodeStateValueMetadata,
  decodeSummary,
  decodeSummaryValue,
  decodeTransactionRecord,
  encodeBlock,
  encodeHead,
  encodeStateValue,
  encodeSummaryValue,
  encodeTransactionRecord,
  encodeTransactionRecordWithOffsets,
  eventAt,
  gasFactsOfRecord,
  headerOfTransactionRecord,
  LATEST_RECORD_OFFSET,
  opAt,
  writeSetOfTransactionRecord
} from "../../src/ledger/lmdbRecords.js"
import {
  address,
  bytes,
  contractEvent,
  stateValueMetadata,
  transaction,
  transactionInfo,
  u64,
  writeSet
} from "../domain/arbitraries.js"

const plain = (b: Uint8Array) => new Uint8Array(b)

const committed: fc.Arbitrary<CommittedTransaction> = fc
  .record({
    version: u64,
    hash: bytes(32),
    blockHeight: u64,
    transaction,
    writeSet,
    events: fc.array(contractEvent, { maxLength: 3 }),
    timestampUsec: u64,
    info: transactionInfo,
    accumulatorRootHash: bytes(32),
    vmStatus: fc.string()
  })
  .map(({ vmStatus, ...t }) => ({ ...t, outcome: { gasUsed: t.info.gasUsed, status: t.info.status, vmStatus } }))

describe("LMDB records", () => {
  it("round-trip a committed transaction, and expose its hash and sender without decoding", () =>
    fc.assert(
      fc.property(committed, (t) => {
        const bytes = plain(encodeTransactionRecord(t))
        const back = decodeTransactionRecord(bytes, t.version)
        expect(back.transaction).toEqual(t.transaction)
        expect(back.events).toEqual(t.events)
        expect(back.outcome).toEqual(t.outcome)
        expect([back.version, back.blockHeight, back.hash]).toEqual([t.version, t.blockHeight, t.hash])
        expect([back.timestampUsec, back.info, back.accumulatorRootHash]).toEqual([
          t.timestampUsec,
          t.info,
          t.accumulatorRootHash
        ])
        expect(back.writeSet.entries.map((e) => [e.keyBytes, e.op])).toEqual(
          t.writeSet.entries.map((e) => [e.keyBytes, e.op])
        )
        // The offsets the state and event indexes keep point at each op and each event.
        const withOffsets = encodeTransactionRecordWithOffsets(t)
        expect(plain(withOffsets.bytes)).toEqual(bytes)
        expect(withOffsets.opOffsets.map((o) => opAt(bytes, o))).toEqual(t.writeSet.entries.map((e) => e.op))
        expect(withOffsets.eventOffsets.map((o) => eventAt(bytes, o))).toEqual(t.events)
        expect(writeSetOfTransactionRecord(bytes).entries.map((e) => [e.keyBytes, e.op])).toEqual(
          t.writeSet.entries.map((e) => [e.keyBytes, e.op])
        )
        const header = headerOfTransactionRecord(bytes)
        expect(header.hash).toEqual(t.hash)
        expect(header.sender).toEqual(
          t.transaction._tag === "UserTransaction" ? t.transaction.signed.rawTransaction.sender : undefined
        )
        expect(header.eventKeys).toEqual(
          t.events.flatMap((e) =>
            e._tag === "V1"
              ? [
                  {
                    address: e.key.accountAddress,
                    creationNumber: e.key.creationNumber,
                    sequenceNumber: e.sequenceNumber
                  }
                ]
              : []
          )
        )
      }),
      { numRuns: 200 }
    ))

  it("decodes summary values at the u64 edges (the double fast path ends at 2^53)", () => {
    const hash = new Uint8Array(32).fill(7)
    for (const n of [
      0n,
      1n,
      255n,
      2n ** 32n - 1n,
      2n ** 32n,
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 53n + 1n,
      2n ** 64n - 1n
    ]) {
      const summary = {
        sender: new Uint8Array(32),
        version: n,
        hash,
        replayProtector: { _tag: "Nonce" as const, nonce: n }
      }
      expect(decodeSummaryValue(encodeSummaryValue(summary)).replayProtector).toEqual({ _tag: "Nonce", nonce: n })
    }
  })

  it("round-trip blocks, summaries, heads and state values", () =>
    fc.assert(
      fc.property(
        fc.record({ height: u64, firstVersion: u64, lastVersion: u64, timestampUsec: u64, epoch: u64 }),
        address,
        u64,
        bytes(32),
        fc.oneof(
          u64.map((sequenceNumber) => ({ _tag: "SequenceNumber" as const, sequenceNumber })),
          u64.map((nonce) => ({ _tag: "Nonce" as const, nonce }))
        ),
        fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
        fc.option(stateValueMetadata, { nil: undefined }),
        (block, sender, version, hash, replayProtector, value, metadata) => {
          expect(decodeBlock(block.height, plain(encodeBlock(block)))).toEqual(block)
          const summary = { sender, version, hash, replayProtector }
          expect(decodeSummary(plain(summaryKey(sender, version)), plain(encodeSummaryValue(summary)))).toEqual(summary)
          // The range reads' in-place value decoder: the same hash and replay protector, the hash
          // copied out (the buffer lmdb passes is reused), whatever bytes follow the record.
          const shared = Buffer.concat([encodeSummaryValue(summary), Buffer.from([0xff, 0xff])])
          const decoded = decodeSummaryValue(shared)
          shared.fill(0xee)
          expect(decoded).toEqual({ hash, replayProtector })
          expect(Object.getPrototypeOf(decoded.hash)).toBe(Uint8Array.prototype)
          const head = {
            chainId: Number(version & 0xffn),
            latestVersion: version,
            latestHeight: block.height,
            epoch: block.epoch,
            timestampUsec: block.timestampUsec,
            oldestVersion: block.firstVersion,
            oldestHeight: block.lastVersion,
            genesisHash: hash,
            accumulator: { frozen: [hash, plain(summaryKey(sender, 0n)).subarray(0, 32)], leaves: version + 1n }
          }
          expect(decodeHead(plain(encodeHead(head)))).toEqual(head)
          expect(decodeStateValue(plain(encodeStateValue(value)), 0)).toEqual(value)
          const id = version ^ 0x5a5an
          const latest = plain(encodeStateValue(value, { version, id }))
          expect([readU64be(latest), readU64be(latest, 8), decodeStateValue(latest, LATEST_RECORD_OFFSET)]).toEqual([
            version,
            id,
            value
          ])
          // With metadata (format 3): kept with a value, dropped with a deletion; the value intact.
          const withMetadata = plain(encodeStateValue(value, { version, id }, metadata))
          expect([readU64be(withMetadata), decodeStateValue(withMetadata, LATEST_RECORD_OFFSET)]).toEqual([
            version,
            value
          ])
          expect(decodeStateValueMetadata(withMetadata, LATEST_RECORD_OFFSET)).toEqual(
            value === undefined ? undefined : metadata
          )
          const history = plain(encodeStateValue(value, undefined, metadata))
          expect(decodeStateValue(history, 0)).toEqual(value)
          expect(decodeStateValueMetadata(history, 0)).toEqual(value === undefined ? undefined : metadata)
          // A metadata record is the BCS of StateValueMetadata after flag 2.
          if (value !== undefined && metadata !== undefined)
            expect(history.subarray(1, history.length - value.length)).toEqual(
              Bcs.encode(stateValueMetadataCodec, metadata)
            )
        }
      )
    ))

  it("read a record's gas facts without its write set and events: the decoded transaction's", () => {
    const kinds = new Set<string>()
    fc.assert(
      fc.property(committed, (t) => {
        const facts = gasFactsOfRecord(plain(encodeTransactionRecord(t)))
        const tx = t.transaction
        kinds.add(tx._tag)
        expect(facts).toEqual({
          userGasUnitPrice: tx._tag === "UserTransaction" ? tx.signed.rawTransaction.gasUnitPrice : undefined,
          blockLimitReached:
            tx._tag === "BlockEpilogue" && tx.blockEndInfo !== undefined
              ? tx.blockEndInfo.blockGasLimitReached || tx.blockEndInfo.blockOutputLimitReached
              : undefined
        })
      }),
      { numRuns: 300 }
    )
    // The property saw the kinds whose facts matter.
    expect(kinds.has("UserTransaction") && kinds.has("BlockEpilogue")).toBe(true)
  })

  it("garbage fails with a BcsError, never anything else", () =>
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (garbage) => {
        for (const decode of [
          () => decodeTransactionRecord(garbage, 0n),
          () => gasFactsOfRecord(garbage),
          () => decodeHead(garbage),
          () => decodeStateValueMetadata(garbage, 0)
        ]) {
          try {
            decode()
          } catch (e) {
            expect(e).toBeInstanceOf(BcsError)
          }
        }
      }),
      { numRuns: 2000 }
    ))
})

describe("LMDB keys", () => {
  it("order integers numerically, a key's index entries newest first and keys by their number", () =>
    fc.assert(
      fc.property(u64, u64, u64, u64, (a, b, x, y) => {
        expect(Math.sign(Buffer.compare(u64be(a), u64be(b)))).toBe(a < b ? -1 : a > b ? 1 : 0)
        const ia = indexKey(x, a)
        expect(Math.sign(Buffer.compare(ia, indexKey(x, b)))).toBe(a > b ? -1 : a < b ? 1 : 0)
        expect(versionOfIndexKey(ia)).toBe(a)
        expect(readU64be(ia)).toBe(x)
        // Every entry of a smaller key number sorts before every entry of a larger one.
        if (x !== y) expect(Math.sign(Buffer.compare(ia, indexKey(y, b)))).toBe(x < y ? -1 : 1)
      })
    ))

  it("store long state keys as 0xff ‖ hash, short ones as they are", () => {
    const short = new Uint8Array(MAX_RAW_STATE_KEY).fill(1)
    expect(plain(storedStateKey(short))).toEqual(short)
    const long = new Uint8Array(MAX_RAW_STATE_KEY + 1).fill(1)
    const other = new Uint8Array(MAX_RAW_STATE_KEY + 1).fill(2)
    expect(storedStateKey(long).length).toBe(33)
    expect(storedStateKey(long)[0]).toBe(0xff)
    expect(storedStateKey(long).equals(storedStateKey(other))).toBe(false)
  })
})
