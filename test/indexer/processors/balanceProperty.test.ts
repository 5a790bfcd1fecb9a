/**
 * Property: after any sequence of transfers (coin or fungible-asset entry functions, to existing or
 * new accounts, some failing for want of funds), indexed block by block, every
 * `current_fungible_asset_balances` row's amount equals the chain's balance of that store, and
 * every account holding APT has its row.
 */
import { Account, Ed25519PrivateKey, type UserTransactionResponse } from "@aptos-labs/ts-sdk"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fungibleAssetProcessor } from "../../../src/indexer/processors/fungibleAsset/fungibleAssetProcessor.js"
import { applyWrites, rowsIn, type Tables } from "./support/applyWrites.js"
import { withIndexedChain } from "./support/indexedChain.js"

describe("current_fungible_asset_balances", () => {
  it("equals the chain's balances after random transfers", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const funded = chain.accounts.map((a) =>
        Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(a.privateKey) })
      )
      const fresh = Array.from({ length: 3 }, () => Account.generate())
      const everyone = [...funded, ...fresh]
      const tables: Tables = new Map()
      let indexedThrough = -1n
      const op = fc.record({
        from: fc.nat({ max: funded.length - 1 }),
        to: fc.nat({ max: everyone.length - 1 }),
        amount: fc.oneof(fc.bigInt({ min: 1n, max: 10_000_000n }), fc.constant(10n ** 17n)),
        kind: fc.constantFrom("coin", "fa", "apt")
      })
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 5 }), async (ops) => {
          for (const o of ops) {
            const sender = funded[o.from]!
            const recipient = everyone[o.to]!.accountAddress
            const data =
              o.kind === "coin"
                ? {
                    function: "0x1::aptos_account::transfer_coins" as const,
                    typeArguments: ["0x1::aptos_coin::AptosCoin"],
                    functionArguments: [recipient, o.amount]
                  }
                : o.kind === "fa"
                  ? {
                      function: "0x1::primary_fungible_store::transfer" as const,
                      typeArguments: ["0x1::fungible_asset::Metadata"],
                      functionArguments: ["0xa", recipient, o.amount]
                    }
                  : { function: "0x1::aptos_account::transfer" as const, functionArguments: [recipient, o.amount] }
            const transaction = await aptos.transaction.build.simple({
              sender: sender.accountAddress,
              data,
              options: { maxGasAmount: 20_000 }
            })
            const pending = await aptos.signAndSubmitTransaction({ signer: sender, transaction })
            const done = (await aptos.waitForTransaction({
              transactionHash: pending.hash,
              options: { checkSuccess: false }
            })) as UserTransactionResponse
            expect(done.success || o.amount === 10n ** 17n).toBe(true)
          }
          // Index what is new, block by block.
          const batch = await transactions(indexedThrough + 1n)
          for (const h of [...new Set(batch.map((t) => t.blockHeight))])
            applyWrites(tables, fungibleAssetProcessor.process(batch.filter((t) => t.blockHeight === h)))
          indexedThrough = batch[batch.length - 1]!.version
          const rows = rowsIn(tables, "current_fungible_asset_balances")
          for (const row of rows) {
            const [onChain] = await aptos.view<[string]>({
              payload: {
                function: "0x1::fungible_asset::balance",
                typeArguments: ["0x1::fungible_asset::FungibleStore"],
                functionArguments: [row.storage_id as string]
              }
            })
            expect([row.storage_id, row.amount]).toEqual([row.storage_id, BigInt(onChain)])
          }
          for (const a of everyone) {
            const [apt] = await aptos.view<[string]>({
              payload: {
                function: "0x1::coin::balance",
                typeArguments: ["0x1::aptos_coin::AptosCoin"],
                functionArguments: [a.accountAddress]
              }
            })
            const row = rows.find(
              (r) =>
                r.owner_address === a.accountAddress.toStringLong() && r.asset_type === "0x1::aptos_coin::AptosCoin"
            )
            expect(row?.amount ?? 0n).toBe(BigInt(apt))
          }
        }),
        { numRuns: 6 }
      )
    }, 6)
  }, 300_000)
})
