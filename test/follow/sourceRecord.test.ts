import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { applySourceBlocks, sourceTransactionRecord } from "../../src/follow/applySourceBlock.js"
import { decodeSourceBlock } from "../../src/follow/sourceBlock.js"
import { LedgerLmdb } from "../../src/ledger/index.js"
import { encodeTransactionRecordWithOffsets } from "../../src/ledger/lmdbRecords.js"
import { writeOpValue } from "../../src/ledger/writeOpValue.js"
import { LocalChain } from "../../src/LocalChain.js"

/**
 * A follower writes each transaction's LMDB record from the bytes it received instead of encoding
 * the transaction again: the record must be exactly the one the ledger encodes (bytes, and where
 * each write op and event starts, which the state and event indexes point at), and a follower's
 * store must then read every version's state as written.
 */
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

describe("a follower's records from the bytes received", () => {
  it.live(
    "are the ledger's own encoding, and the state read through them at every version is what each transaction wrote",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const chain = yield* LocalChain.spawn({ accounts: 2, mining: MiningMode.still() })
          // Fundings write the same accounts again and again: older versions are read through records.
          for (let i = 1; i <= 6; i++)
            yield* Effect.promise(() =>
              fetch(`${chain.faucetUrl}/fund`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ address: `0x${(0xe0 + (i % 2)).toString(16).padStart(64, "0")}`, amount: i })
              })
            )
          yield* Effect.sleep(150)
          const head = BigInt(
            ((yield* Effect.promise(() => fetch(chain.apiUrl).then((r) => r.json()))) as any).block_height
          )
          const blocks = []
          for (let h = 0n; h <= head; h++) {
            const body = yield* Effect.promise(() =>
              fetch(`${chain.apiUrl}/blocks/by_height/${h}?with_transactions=true`, {
                headers: { accept: "application/x-bcs" }
              }).then((r) => r.arrayBuffer())
            )
            blocks.push(Result.getOrThrow(decodeSourceBlock(new Uint8Array(body))))
          }
          let compared = 0
          for (const block of blocks)
            for (const t of block.transactions ?? []) {
              const vmStatus = "Executed successfully"
              const ours = sourceTransactionRecord(t, block, vmStatus)
              const encoded = encodeTransactionRecordWithOffsets({
                transaction: t.transaction,
                writeSet: t.writeSet,
                events: t.events,
                outcome: { gasUsed: t.info.gasUsed, status: t.info.status, vmStatus },
                version: t.version,
                hash: t.info.transactionHash,
                blockHeight: block.height,
                timestampUsec: block.timestampUsec,
                info: t.info,
                accumulatorRootHash: t.accumulatorRootHash
              })
              assert.strictEqual(hex(ours.bytes), hex(encoded.bytes), `version ${t.version}`)
              assert.deepStrictEqual(ours.opOffsets, encoded.opOffsets)
              assert.deepStrictEqual(ours.eventOffsets, encoded.eventOffsets)
              compared++
            }
          assert.isAtLeast(compared, 8)

          // Applied to an LMDB store: every version's writes read back at that version.
          const dir = mkdtempSync(join(tmpdir(), "movenode-follow-record-"))
          yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
          const ledger = yield* LedgerLmdb.open({ path: dir, sync: false })
          yield* applySourceBlocks(ledger, blocks.slice(0, 1))
          yield* applySourceBlocks(ledger, blocks.slice(1))
          for (const block of blocks.slice(1))
            for (const t of block.transactions ?? []) {
              const state = yield* ledger.service.stateAt(t.version)
              for (const e of t.writeSet.entries) {
                const got = state.getVersioned(e.keyBytes)
                const want = writeOpValue(e.op)
                if (want === undefined) assert.isUndefined(got)
                else {
                  assert.strictEqual(got?.version, t.version)
                  assert.strictEqual(hex(got!.value), hex(want))
                }
              }
              const stored = yield* ledger.service.transactionByVersion(t.version)
              assert.strictEqual(hex(stored.accumulatorRootHash), hex(t.accumulatorRootHash))
            }
        })
      ),
    60_000
  )
})
