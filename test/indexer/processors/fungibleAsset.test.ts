/**
 * The fungible-asset processor (and account transactions) on real transactions of an in-process
 * chain: faucet funding, coin and fungible-asset transfers, a failed transaction, a sponsored one.
 * The rows are checked against what the chain itself says (views, the transactions' gas) and
 * against the reference's rules (indexer.md §2.1, §2.4).
 */
import { Account, type AccountAddress, Ed25519PrivateKey, type UserTransactionResponse } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { accountTransactionsProcessor } from "../../../src/indexer/processors/accountTransactions.js"
import { fungibleAssetProcessor } from "../../../src/indexer/processors/fungibleAsset/fungibleAssetProcessor.js"
import type { Row } from "../../../src/indexer/processors/Processor.js"
import { applyWrites, rowsIn, type Tables } from "./support/applyWrites.js"
import { withIndexedChain } from "./support/indexedChain.js"

const APT = "0x1::aptos_coin::AptosCoin"
const long = (n: number) => "0x" + n.toString(16).padStart(64, "0")

describe("fungible_asset_processor on a local chain", () => {
  it("pairs balances, writes activities with gas rows, and every balance equals the chain's", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
      const bob = Account.generate()
      const carol = Account.generate()
      const fund = await aptos.fundAccount({
        accountAddress: bob.accountAddress,
        amount: 100_000_000,
        options: { waitForIndexer: false }
      })
      const submit = async (
        signer: Account,
        transaction: Awaited<ReturnType<typeof aptos.transaction.build.simple>>
      ) => {
        const pending = await aptos.signAndSubmitTransaction({ signer, transaction })
        return (await aptos.waitForTransaction({
          transactionHash: pending.hash,
          options: { checkSuccess: false }
        })) as UserTransactionResponse
      }
      const coinTransfer = await submit(
        alice,
        await aptos.transferCoinTransaction({
          sender: alice.accountAddress,
          recipient: bob.accountAddress,
          amount: 1_000
        })
      )
      const faTransfer = await submit(
        alice,
        await aptos.transaction.build.simple({
          sender: alice.accountAddress,
          data: {
            function: "0x1::primary_fungible_store::transfer",
            typeArguments: ["0x1::fungible_asset::Metadata"],
            functionArguments: ["0xa", carol.accountAddress, 500]
          }
        })
      )
      const failed = await submit(
        bob,
        await aptos.transferCoinTransaction({
          sender: bob.accountAddress,
          recipient: alice.accountAddress,
          amount: 10n ** 15n,
          options: { maxGasAmount: 20_000 }
        })
      )
      expect(failed.success).toBe(false)
      // Carol pays bob 100 octas, alice pays the gas.
      const sponsoredTxn = await aptos.transaction.build.simple({
        sender: carol.accountAddress,
        withFeePayer: true,
        data: { function: "0x1::aptos_account::transfer", functionArguments: [bob.accountAddress, 100] }
      })
      const senderAuth = aptos.transaction.sign({ signer: carol, transaction: sponsoredTxn })
      const payerAuth = aptos.transaction.signAsFeePayer({ signer: alice, transaction: sponsoredTxn })
      const pendingSponsored = await aptos.transaction.submit.simple({
        transaction: sponsoredTxn,
        senderAuthenticator: senderAuth,
        feePayerAuthenticator: payerAuth
      })
      const sponsored = (await aptos.waitForTransaction({
        transactionHash: pendingSponsored.hash
      })) as UserTransactionResponse

      const batch = await transactions()
      // One batch for everything, and block by block: the same tables either way.
      const tables: Tables = applyWrites(new Map(), [
        ...fungibleAssetProcessor.process(batch),
        ...accountTransactionsProcessor.process(batch)
      ])
      const perBlock: Tables = new Map()
      const heights = [...new Set(batch.map((t) => t.blockHeight))]
      for (const h of heights) {
        const block = batch.filter((t) => t.blockHeight === h)
        applyWrites(perBlock, [
          ...fungibleAssetProcessor.process(block),
          ...accountTransactionsProcessor.process(block)
        ])
      }
      for (const table of ["current_fungible_asset_balances", "fungible_asset_metadata", "fungible_asset_activities"])
        expect(rowsIn(perBlock, table)).toEqual(rowsIn(tables, table))

      // Every balance row's amount is what the chain holds now.
      const balances = rowsIn(tables, "current_fungible_asset_balances")
      expect(balances.length).toBeGreaterThan(3)
      for (const row of balances) {
        const [onChain] =
          row.asset_type_v1 !== null && row.is_primary === true
            ? await aptos.view<[string]>({
                payload: {
                  function: "0x1::coin::balance",
                  typeArguments: [row.asset_type_v1 as `${string}::${string}::${string}`],
                  functionArguments: [row.owner_address as string]
                }
              })
            : await aptos.view<[string]>({
                payload: {
                  function: "0x1::fungible_asset::balance",
                  typeArguments: ["0x1::fungible_asset::FungibleStore"],
                  functionArguments: [row.storage_id as string]
                }
              })
        expect([row.storage_id, row.amount]).toEqual([row.storage_id, BigInt(onChain)])
      }

      // Bob's APT: one paired row on his primary store, shown as the coin type.
      const primaryOf = async (owner: AccountAddress) =>
        (
          await aptos.view<[string]>({
            payload: {
              function: "0x1::primary_fungible_store::primary_store_address",
              typeArguments: ["0x1::fungible_asset::Metadata"],
              functionArguments: [owner, "0xa"]
            }
          })
        )[0]
      const bobStore = await primaryOf(bob.accountAddress)
      const bobRows = balances.filter((r) => r.owner_address === bob.accountAddress.toStringLong())
      expect(bobRows).toHaveLength(1)
      expect(bobRows[0]).toMatchObject({
        storage_id: "0x" + bobStore.slice(2).padStart(64, "0"),
        asset_type: APT,
        asset_type_v1: APT,
        asset_type_v2: long(0xa),
        is_primary: true,
        token_standard: "v1",
        amount: 100_000_000n + 1_000n + 100n - BigInt(failed.gas_used) * BigInt(failed.gas_unit_price)
      })
      const carolRow = balances.find((r) => r.owner_address === carol.accountAddress.toStringLong())
      expect(carolRow).toMatchObject({ amount: 400n, asset_type: APT, is_primary: true })

      // Activities: a gas row per user transaction, the transfers' withdraw and deposit.
      const activities = rowsIn(tables, "fungible_asset_activities")
      const gasRows = activities.filter((r) => r.is_gas_fee === true)
      expect(gasRows).toHaveLength(batch.filter((t) => t.kind === "user").length)
      const gasOf = (txn: UserTransactionResponse) =>
        activities.find((r) => r.transaction_version === BigInt(txn.version) && r.event_index === -1n)
      for (const txn of [coinTransfer, faTransfer, failed, sponsored])
        expect(gasOf(txn)).toMatchObject({
          type: "0x1::aptos_coin::GasFeeEvent",
          amount: BigInt(txn.gas_used) * BigInt(txn.gas_unit_price),
          owner_address: txn.sender.length === 66 ? txn.sender : "0x" + txn.sender.slice(2).padStart(64, "0"),
          asset_type: APT,
          token_standard: "v1",
          is_transaction_success: txn.success
        })
      expect(gasOf(sponsored)!.gas_fee_payer_address).toBe(alice.accountAddress.toStringLong())
      expect(gasOf(coinTransfer)!.gas_fee_payer_address).toBeNull()

      const moves = (txn: UserTransactionResponse) =>
        activities
          .filter((r) => r.transaction_version === BigInt(txn.version) && r.is_gas_fee === false)
          .map((r: Row) => [r.type, r.owner_address, r.amount, r.asset_type, r.token_standard])
      expect(moves(coinTransfer)).toEqual([
        ["0x1::fungible_asset::Withdraw", alice.accountAddress.toStringLong(), 1_000n, long(0xa), "v2"],
        ["0x1::fungible_asset::Deposit", bob.accountAddress.toStringLong(), 1_000n, long(0xa), "v2"]
      ])
      expect(moves(faTransfer)).toEqual([
        ["0x1::fungible_asset::Withdraw", alice.accountAddress.toStringLong(), 500n, long(0xa), "v2"],
        ["0x1::fungible_asset::Deposit", carol.accountAddress.toStringLong(), 500n, long(0xa), "v2"]
      ])
      expect(moves(failed)).toEqual([])

      // A freshly funded account has exactly one account transaction: its funding (the SDK's test).
      const bobTxns = rowsIn(tables, "account_transactions").filter(
        (r) => r.account_address === bob.accountAddress.toStringLong()
      )
      expect(
        bobTxns
          .filter((r) => (r.transaction_version as bigint) <= BigInt(fund.version))
          .map((r) => r.transaction_version)
      ).toEqual([BigInt(fund.version)])
      // Module events have the key address 0x0, which collects rows too.
      expect(rowsIn(tables, "account_transactions").some((r) => r.account_address === long(0))).toBe(true)
    })
  }, 120_000)
})
