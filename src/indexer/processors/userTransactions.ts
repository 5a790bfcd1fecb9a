/**
 * `user_transaction_processor` (pv2 `processors/user_transaction/models/user_transactions.rs`):
 * one `user_transactions` row per user transaction, successful or not, and its `signatures` rows
 * (`signatures.ts`).
 */
import type { TransactionAuthenticator } from "../../domain/TransactionAuthenticator.js"
import type { IndexerTransaction } from "./input/IndexerTransaction.js"
import type { Processor, Row } from "./Processor.js"
import { insertRows, timestampOfMicros, timestampOfSeconds } from "./rows.js"
import { signatureRows } from "./signatures.js"

/** The top layer of the signature, as the reference names it (`get_parent_signature_type`). */
export const parentSignatureType = (auth: TransactionAuthenticator): string => {
  switch (auth._tag) {
    case "Ed25519":
      return "ed25519_signature"
    case "MultiEd25519":
      return "multi_ed25519_signature"
    case "MultiAgent":
      return "multi_agent_signature"
    case "FeePayer":
      return "fee_payer_signature"
    case "SingleSender":
      return "single_sender_signature"
  }
}

export const userTransactionRow = (t: IndexerTransaction): Row | undefined => {
  const u = t.user
  if (u === undefined) return undefined
  const f = u.entryFunction
  return {
    version: t.version,
    block_height: t.blockHeight,
    parent_signature_type: parentSignatureType(u.authenticator),
    sender: u.sender,
    sequence_number: u.sequenceNumber ?? null,
    max_gas_amount: u.maxGasAmount,
    expiration_timestamp_secs: timestampOfSeconds(u.expirationTimestampSecs),
    gas_unit_price: u.gasUnitPrice,
    timestamp: timestampOfMicros(t.timestampMicros),
    entry_function_id_str: f?.idStr ?? "",
    epoch: t.epoch,
    entry_function_contract_address: f?.address ?? null,
    entry_function_module_name: f?.module ?? null,
    entry_function_function_name: f?.function ?? null,
    replay_protection_nonce: u.replayProtectionNonce ?? null
  }
}

export const userTransactionProcessor: Processor = {
  name: "user_transaction_processor",
  tables: ["user_transactions", "signatures"],
  process: (batch) => {
    const rows: Row[] = []
    const signatures: Row[] = []
    for (const t of batch) {
      const row = userTransactionRow(t)
      if (row !== undefined) rows.push(row)
      signatures.push(...signatureRows(t))
    }
    return [...insertRows("user_transactions", rows), ...insertRows("signatures", signatures)]
  }
}
