/**
 * `account_transactions_processor` (pv2 `processors/account_transactions/account_transactions_model.rs`):
 * one `account_transactions` row per (account, transaction) the transaction touched: its signers
 * as the reference's `signatures` rows name them (sender and secondary signers; not the fee payer,
 * whose signature the reference does not record — its paying store usually names it anyway), every event's key address (module events have `0x0`, so
 * `0x000…0` collects them, as in the reference), every address with a written or deleted resource,
 * and the owner of every written object. User, genesis, block-metadata and validator transactions
 * only (state checkpoints and block epilogues touch nobody).
 */
import type { IndexerTransaction } from "./input/IndexerTransaction.js"
import { objectCoreOf } from "./objectResources.js"
import type { Processor, Row } from "./Processor.js"
import { insertRows } from "./rows.js"

export const accountsOf = (t: IndexerTransaction): Set<string> => {
  const accounts = new Set<string>()
  if (t.kind === "state_checkpoint" || t.kind === "block_epilogue") return accounts
  const u = t.user
  if (u !== undefined) {
    accounts.add(u.sender)
    for (const s of u.secondarySigners) accounts.add(s)
  }
  for (const e of t.events) accounts.add(e.accountAddress)
  for (const c of t.changes) {
    if (c.type === "delete_resource") accounts.add(c.address)
    else if (c.type === "write_resource") {
      accounts.add(c.address)
      if (c.typeStr === "0x1::object::ObjectCore") {
        const core = objectCoreOf(c.data(), c.stateKeyHash)
        if (core !== undefined) accounts.add(core.owner)
      }
    }
  }
  return accounts
}

export const accountTransactionsProcessor: Processor = {
  name: "account_transactions_processor",
  tables: ["account_transactions"],
  process: (batch) => {
    const rows: Row[] = []
    for (const t of batch)
      for (const account of accountsOf(t)) rows.push({ account_address: account, transaction_version: t.version })
    return insertRows("account_transactions", rows)
  }
}
