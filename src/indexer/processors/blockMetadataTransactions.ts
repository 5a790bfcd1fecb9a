/**
 * `block_metadata_transactions` (pv2 `processors/default/models/block_metadata_transactions.rs`,
 * part of `default_processor`): one row per block-metadata transaction — the block's id, round,
 * epoch, proposer, the previous block's vote bitmap and failed proposers (JSON arrays of numbers),
 * its timestamp.
 */
import { toHex0x } from "../../bcs/index.js"
import { addressToLongString } from "../../domain/AccountAddress.js"
import type { Processor, Row } from "./Processor.js"
import { insertRows, timestampOfMicros } from "./rows.js"

export const blockMetadataProcessor: Processor = {
  name: "default_processor",
  tables: ["block_metadata_transactions"],
  process: (batch) => {
    const rows: Row[] = []
    for (const t of batch) {
      const tx = t.committed.transaction
      const m =
        tx._tag === "BlockMetadata" ? tx.metadata : tx._tag === "BlockMetadataExt" ? tx.metadata.metadata : undefined
      if (m === undefined) continue
      rows.push({
        version: t.version,
        block_height: t.blockHeight,
        id: toHex0x(m.id),
        round: m.round,
        epoch: m.epoch,
        previous_block_votes_bitvec: Array.from(m.previousBlockVotesBitvec),
        proposer: addressToLongString(m.proposer),
        failed_proposer_indices: m.failedProposerIndices.map(Number),
        timestamp: timestampOfMicros(m.timestampUsecs)
      })
    }
    return insertRows("block_metadata_transactions", rows)
  }
}
