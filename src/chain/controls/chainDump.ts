/**
 * A dumped chain (anvil's `--dump-state` / `anvil_dumpState`, with the history users asked anvil
 * for, foundry #7955): every block after the chain's base with its committed transactions, as the
 * ledger holds them (the transaction, its write set, events and outcome), plus the clock's
 * settings. The base is genesis (version 0) on a chain of its own, the fork point (version V, the
 * source's transaction there) on a fork: a fork's history up to V is its source's, read from it,
 * so a fork's dump holds its own blocks and loads into a fork of the same point. Loading replays
 * nothing through the VM: the blocks are committed as they were (same hashes, same accumulator:
 * the recorded infos must chain into the recorded roots), over the same base, which the dump
 * names by its version and its transaction's hash.
 *
 *   "movenode-chain-dump\n" ‖ format u8 (2) ‖ chain id u8 ‖ base version u64 ‖ base hash (32) ‖
 *   clock: offset (i64) ‖ option next (u64) ‖ option interval (u64) ‖ ULEB blocks ‖ per block:
 *   epoch u64 ‖ timestamp u64 ‖ ULEB transactions ‖ per transaction: ULEB length ‖ the ledger's
 *   transaction record (src/ledger/lmdbRecords.ts) ‖ CRC-32 of everything before it (u32 LE: a
 *   damaged file is refused before anything is decoded)
 *
 * Format 1 (sessions before forks dumped) is format 2 without the base version: genesis, read as
 * version 0.
 *
 * The record is the ledger's own format: a dump is read by the movenode version that wrote it (or
 * one with the same record format); `format` changes when that changes. Decoding is bounded by the
 * input (lengths checked before use) and never throws to callers.
 */
import { crc32 } from "node:zlib"
import { BcsReader, BcsWriter } from "../../bcs/index.js"
import type { CommittedTransaction } from "../../ledger/Ledger.js"
import type { CommittedBlockInput } from "../../ledger/prepareBlock.js"
import { decodeTransactionRecordKeepingBytes, encodeTransactionRecord } from "../../ledger/lmdbRecords.js"
import type { ClockSettings } from "./ChainClock.js"

const MAGIC = new TextEncoder().encode("movenode-chain-dump\n")
export const DUMP_FORMAT = 2

/** What a dump's first block continues: genesis (version 0), or a fork's fork point. */
export interface DumpBase {
  readonly version: bigint
  /** The hash of the transaction at `version` (on a fork, the source's). */
  readonly hash: Uint8Array
}

export interface ChainDump {
  readonly chainId: number
  readonly base: DumpBase
  readonly clock: ClockSettings
  /** The blocks as committed (hashes, infos, accumulator roots as recorded: checked when loaded). */
  readonly blocks: ReadonlyArray<CommittedBlockInput>
}

export interface DumpedBlock {
  readonly epoch: bigint
  readonly timestampUsec: bigint
  readonly transactions: ReadonlyArray<CommittedTransaction>
}

export const encodeChainDump = (
  header: { readonly chainId: number; readonly base: DumpBase; readonly clock: ClockSettings },
  blocks: ReadonlyArray<DumpedBlock>
): Uint8Array => {
  const w = new BcsWriter(1 << 16)
  w.fixed(MAGIC).u8(DUMP_FORMAT).u8(header.chainId).u64(header.base.version).fixed(header.base.hash)
  w.signed(64, header.clock.offsetUsec)
  if (header.clock.nextUsec === undefined) w.u8(0)
  else w.u8(1).u64(header.clock.nextUsec)
  if (header.clock.intervalUsec === undefined) w.u8(0)
  else w.u8(1).u64(header.clock.intervalUsec)
  w.uleb128(blocks.length)
  for (const b of blocks) {
    w.u64(b.epoch).u64(b.timestampUsec).uleb128(b.transactions.length)
    for (const t of b.transactions) w.bytesWithLength(encodeTransactionRecord(t))
  }
  const body = w.toBytes()
  const out = new Uint8Array(body.length + 4)
  out.set(body)
  new DataView(out.buffer).setUint32(body.length, crc32(body), true)
  return out
}

/** The dump in `bytes`, or why it is not one. */
export const decodeChainDump = (input: Uint8Array): ChainDump | string => {
  // A plain view: a Buffer's subarray (every field the decoder takes) costs several times more.
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
  if (bytes.length < MAGIC.length + 4 || MAGIC.some((b, i) => bytes[i] !== b)) return "not a movenode chain dump"
  const body = bytes.subarray(0, bytes.length - 4)
  const sum = new DataView(bytes.buffer, bytes.byteOffset + body.length, 4).getUint32(0, true)
  if (crc32(body) !== sum) return "the dump is damaged (its checksum does not match)"
  try {
    const r = new BcsReader(body.subarray(MAGIC.length))
    const format = r.u8()
    if (format !== DUMP_FORMAT && format !== 1)
      return `dump format ${format}: this movenode reads formats 1 and ${DUMP_FORMAT}`
    const chainId = r.u8()
    const base = { version: format === 1 ? 0n : r.u64(), hash: r.fixed(32) }
    const offsetUsec = BigInt(r.signed(64))
    const nextUsec = r.u8() === 1 ? r.u64() : undefined
    const intervalUsec = r.u8() === 1 ? r.u64() : undefined
    // Each block needs at least 17 bytes (epoch, timestamp, count): the count is checked against what is left.
    const n = r.length(17)
    const blocks: CommittedBlockInput[] = []
    for (let i = 0; i < n; i++) {
      const epoch = r.u64()
      const timestampUsec = r.u64()
      const m = r.length(1)
      if (m === 0) return `block ${i + 1} holds no transaction`
      const transactions = []
      for (let j = 0; j < m; j++) {
        // The record's bytes are kept: a block loaded at its recorded height is written with them.
        transactions.push(decodeTransactionRecordKeepingBytes(r.bytesWithLength(), 0n))
      }
      blocks.push({ epoch, timestampUsec, transactions })
    }
    r.expectEnd()
    return { chainId, base, clock: { offsetUsec, nextUsec, intervalUsec }, blocks }
  } catch (e) {
    return `the dump does not decode: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300)
  }
}
