import { table } from "./TableSpec.js"

export const processorStatus = table(
  "processor_status",
  "One row per processor name (never empty): the last version whose rows are stored.",
  {
    last_success_version: "bigint",
    last_transaction_timestamp: "timestamp?",
    last_updated: "timestamp",
    processor: "String"
  },
  {
    primaryKey: ["processor"]
  }
)

export const ledgerInfos = table(
  "ledger_infos",
  "The chain id of the indexed ledger.",
  {
    chain_id: "bigint"
  },
  {
    primaryKey: ["chain_id"]
  }
)
