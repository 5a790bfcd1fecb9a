/**
 * `ledger_infos` (the reference's processor framework writes it once, with the chain id it indexes):
 * from the `0x1::chain_id::ChainId` resource genesis writes. Filed under `default_processor`, whose
 * status the reference's localnet reports.
 */
import type { Processor, Row } from "./Processor.js"
import { upsertRows } from "./rows.js"
import { uintField } from "./moveValues.js"

export const ledgerInfosProcessor: Processor = {
  name: "default_processor",
  tables: ["ledger_infos"],
  process: (batch) => {
    const rows: Row[] = []
    for (const t of batch)
      for (const c of t.changes)
        if (c.type === "write_resource" && c.typeStr === "0x1::chain_id::ChainId") {
          const id = uintField(c.data(), "id")
          if (id !== undefined) rows.push({ chain_id: id })
        }
    return upsertRows({ table: "ledger_infos", key: ["chain_id"] }, rows)
  }
}
