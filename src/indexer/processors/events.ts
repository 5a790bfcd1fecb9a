/**
 * `events_processor` (the reference's `events` table, still in the localnet's Hasura metadata though
 * pv2 dropped it in 2025): every event of every transaction, with its key (module events: `0x0…0`,
 * creation and sequence number 0), its type and its data as the API's JSON (the hex of its bytes
 * when it does not decode, as the API shows it).
 */
import { toHex0x } from "../../bcs/index.js"
import type { Processor, Row } from "./Processor.js"
import { insertRows, truncate } from "./rows.js"

/** The reference's `EVENT_TYPE_MAX_LENGTH` for `indexed_type`. */
const INDEXED_TYPE_LENGTH = 300

export const eventsProcessor: Processor = {
  name: "events_processor",
  tables: ["events"],
  process: (batch) => {
    const rows: Row[] = []
    for (const t of batch)
      for (const e of t.events)
        rows.push({
          sequence_number: e.sequenceNumber,
          creation_number: e.creationNumber,
          account_address: e.accountAddress,
          transaction_version: t.version,
          transaction_block_height: t.blockHeight,
          type: e.type,
          data: (e.data() ?? toHex0x(e.raw.data)) as Row[string],
          event_index: BigInt(e.index),
          indexed_type: truncate(e.type, INDEXED_TYPE_LENGTH)
        })
    return insertRows("events", rows)
  }
}
