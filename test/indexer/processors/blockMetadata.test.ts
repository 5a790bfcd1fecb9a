import { describe, expect, it } from "vitest"
import { blockMetadataProcessor } from "../../../src/indexer/processors/blockMetadataTransactions.js"
import { timestampOfMicros } from "../../../src/indexer/processors/rows.js"
import { rowsOf, withIndexedChain } from "./support/indexedChain.js"

const long = (a: string) => "0x" + a.slice(2).padStart(64, "0")

describe("block_metadata_transactions", () => {
  it("has a row per block-metadata transaction with the API's fields", async () => {
    await withIndexedChain(async ({ aptos, transactions }) => {
      await aptos.fundAccount({ accountAddress: "0x" + "0b".repeat(32), amount: 1, options: { waitForIndexer: false } })
      const batch = await transactions()
      const rows = rowsOf(blockMetadataProcessor.process(batch), "block_metadata_transactions")
      const metadata = batch.filter((t) => t.kind === "block_metadata")
      expect(metadata.length).toBeGreaterThan(0)
      expect(rows).toHaveLength(metadata.length)
      for (const row of rows) {
        const rest = (await aptos.getTransactionByVersion({ ledgerVersion: row.version as bigint })) as unknown as {
          id: string
          epoch: string
          round: string
          proposer: string
          previous_block_votes_bitvec: number[]
          failed_proposer_indices: number[]
          timestamp: string
        }
        expect(row).toEqual({
          version: row.version,
          block_height: metadata.find((t) => t.version === row.version)!.blockHeight,
          id: rest.id,
          round: BigInt(rest.round),
          epoch: BigInt(rest.epoch),
          previous_block_votes_bitvec: rest.previous_block_votes_bitvec,
          proposer: long(rest.proposer),
          failed_proposer_indices: rest.failed_proposer_indices,
          timestamp: timestampOfMicros(BigInt(rest.timestamp))
        })
      }
    })
  }, 60_000)
})
