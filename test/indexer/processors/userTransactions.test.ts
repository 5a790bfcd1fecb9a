import { Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { userTransactionProcessor } from "../../../src/indexer/processors/userTransactions.js"
import { rowsOf, withIndexedChain } from "./support/indexedChain.js"

describe("user_transaction_processor", () => {
  it("writes one user_transactions row per user transaction, with the request's fields", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
      const bob = Account.generate()
      const transaction = await aptos.transferCoinTransaction({
        sender: alice.accountAddress,
        recipient: bob.accountAddress,
        amount: 1_000,
        options: { maxGasAmount: 50_000, gasUnitPrice: 150, expireTimestamp: 2_000_000_000 }
      })
      const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction })
      const committed = await aptos.waitForTransaction({ transactionHash: pending.hash })

      const batch = await transactions()
      const rows = rowsOf(userTransactionProcessor.process(batch), "user_transactions")
      // Only user transactions: genesis and block metadata leave no row.
      expect(rows.length).toBe(batch.filter((t) => t.kind === "user").length)
      const row = rows.find((r) => r.version === BigInt(committed.version))
      expect(row).toEqual({
        version: BigInt(committed.version),
        block_height: expect.any(BigInt),
        parent_signature_type: "ed25519_signature",
        sender: alice.accountAddress.toStringLong(),
        sequence_number: 0n,
        max_gas_amount: 50_000n,
        expiration_timestamp_secs: "2033-05-18T03:33:20",
        gas_unit_price: 150n,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?$/),
        entry_function_id_str: "0x1::aptos_account::transfer_coins",
        epoch: expect.any(BigInt),
        entry_function_contract_address: "0x" + "0".repeat(63) + "1",
        entry_function_module_name: "aptos_account",
        entry_function_function_name: "transfer_coins",
        replay_protection_nonce: null
      })
      const t = batch.find((x) => x.version === BigInt(committed.version))!
      expect(row!.block_height).toBe(t.blockHeight)
      const block = await aptos.getBlockByVersion({ ledgerVersion: Number(committed.version) })
      expect(row!.block_height).toBe(BigInt(block.block_height))
      // The block's timestamp (µs) as Postgres prints it.
      const micros = BigInt((committed as { timestamp: string }).timestamp)
      const iso = new Date(Number(micros / 1000n)).toISOString().slice(0, 19)
      expect(String(row!.timestamp).startsWith(iso)).toBe(true)

      // Its signature: one row, the sender's Ed25519 key and signature as the API shows them.
      const signatures = rowsOf(userTransactionProcessor.process(batch), "signatures").filter(
        (r) => r.transaction_version === BigInt(committed.version)
      )
      const shown = (committed as { signature?: { public_key: string; signature: string } }).signature!
      expect(signatures).toEqual([
        {
          transaction_version: BigInt(committed.version),
          multi_agent_index: 0n,
          multi_sig_index: 0n,
          transaction_block_height: t.blockHeight,
          signer: alice.accountAddress.toStringLong(),
          is_sender_primary: true,
          type: "ed25519_signature",
          public_key: shown.public_key,
          signature: shown.signature,
          threshold: 1n,
          public_key_indices: [],
          any_signature_type: null,
          public_key_type: null,
          function_info: null
        }
      ])
    })
  }, 60_000)
})
