import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import { hashWithPrefix } from "../../src/domain/hash.js"
import { ACCUMULATOR_PLACEHOLDER_HASH } from "../../src/domain/MerkleAccumulator.js"
import { writeContractEvent } from "../../src/domain/ContractEventCodec.js"
import {
  contractEventHash,
  encodedContractEvent,
  encodedWriteSet,
  eventRootHash,
  outputHashes,
  writeSetHash
} from "../../src/domain/outputHashes.js"
import { readWriteOp, writeWriteSet } from "../../src/domain/WriteSetCodec.js"
import { contractEvent, writeSet } from "./arbitraries.js"

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

describe("output hashes", () => {
  it("an empty write set hashes to the state_change_hash mainnet serves for state checkpoints", () => {
    // e.g. mainnet version 14632549 (state_checkpoint_transaction), as public node APIs serve it.
    expect(hex(writeSetHash({ entries: [] }))).toBe("afb6e14fe47d850fd0a7395bcfb997ffacf4715e0f895cc162c218e4a7564bc6")
  })

  it("no events: the event root is the placeholder hash (mainnet's block epilogues show it)", () => {
    expect(eventRootHash([])).toEqual(ACCUMULATOR_PLACEHOLDER_HASH)
  })

  it("one event: the root is the event's own hash, prefix ContractEvent over its BCS", () => {
    const e: ContractEvent = { _tag: "V2", typeTag: { _tag: "u64" }, data: new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0]) }
    // BCS: variant 1, TypeTag u64 (2), data with its length.
    const bcs = Uint8Array.from([1, 2, 8, 1, 0, 0, 0, 0, 0, 0, 0])
    expect(contractEventHash(e)).toEqual(hashWithPrefix("ContractEvent", bcs))
    expect(eventRootHash([e])).toEqual(contractEventHash(e))
    const v1: ContractEvent = {
      _tag: "V1",
      key: { creationNumber: 2n, accountAddress: addressFromNumber(1) },
      sequenceNumber: 0n,
      typeTag: { _tag: "bool" },
      data: new Uint8Array([1])
    }
    expect(eventRootHash([e, v1])).toEqual(
      hashWithPrefix("EventAccumulator", Buffer.concat([contractEventHash(e), contractEventHash(v1)]))
    )
  })

  it("the bytes hashed are the codec's BCS, each op offset starts that entry's op, and outputHashes hands out what it hashed", () => {
    fc.assert(
      fc.property(writeSet, fc.array(contractEvent, { maxLength: 4 }), (ws, events) => {
        const w = new BcsWriter(64)
        writeWriteSet(w, ws)
        const encoded = encodedWriteSet(ws)
        expect(encoded.bytes).toEqual(w.toBytes())
        expect(writeSetHash(ws)).toEqual(hashWithPrefix("WriteSet", w.toBytes()))
        ws.entries.forEach((entry, i) => {
          const r = new BcsReader(encoded.bytes)
          r.offset = encoded.opOffsets[i]!
          expect(readWriteOp(r)).toEqual(entry.op)
        })
        const eventBytes = events.map((e) => {
          const ew = new BcsWriter(64)
          writeContractEvent(ew, e)
          expect(encodedContractEvent(e)).toEqual(ew.toBytes())
          expect(contractEventHash(e)).toEqual(hashWithPrefix("ContractEvent", ew.toBytes()))
          return ew.toBytes()
        })
        // The hashes a commit records, and the encodings they were computed over (the ledger's
        // record stores those): the same as each computed on its own.
        const output = outputHashes(ws, events)
        expect(output.stateChangeHash).toEqual(writeSetHash(ws))
        expect(output.eventRootHash).toEqual(eventRootHash(events))
        expect(output.encoding.writeSet).toEqual(encoded)
        expect(output.encoding.events).toEqual(eventBytes)
      })
    )
  })
})
