/**
 * A fungible asset with no coin behind it (the hand-assembled `fa_coin` module: a named object with
 * a primary-store-enabled asset, minted to its publisher), transferred between primary stores: the
 * asset is its metadata address (v2 standard, created by the publisher, its supply tracked), each
 * balance equals the chain's, primary stores are marked so, and activities name the owners.
 */
import { Account, Ed25519PrivateKey, MoveVector, type UserTransactionResponse } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { addressToLongString } from "../../../src/domain/AccountAddress.js"
import { namedObjectAddress } from "../../../src/domain/objectAddress.js"
import { fungibleAssetProcessor } from "../../../src/indexer/processors/fungibleAsset/fungibleAssetProcessor.js"
import { packageMetadata } from "../../execution/bytecode.js"
import {
  FA_COIN_DECIMALS,
  FA_COIN_INITIAL_SUPPLY,
  FA_COIN_NAME,
  FA_COIN_SEED,
  FA_COIN_SYMBOL,
  faCoinModule
} from "../../explorer/faCoinModule.js"
import { applyWrites, rowsIn, type Tables } from "./support/applyWrites.js"
import { withIndexedChain } from "./support/indexedChain.js"

describe("a fungible asset without a coin", () => {
  it("is indexed by its metadata address, with supply, balances and activities", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
      const bob = Account.generate()
      const send = async (data: Parameters<typeof aptos.transaction.build.simple>[0]["data"]) => {
        const transaction = await aptos.transaction.build.simple({ sender: alice.accountAddress, data })
        const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction })
        return (await aptos.waitForTransaction({ transactionHash: pending.hash })) as UserTransactionResponse
      }
      const publish = await send({
        function: "0x1::code::publish_package_txn",
        functionArguments: [
          MoveVector.U8(packageMetadata("fa_coin", ["fa_coin"])),
          new MoveVector([MoveVector.U8(faCoinModule(alice.accountAddress.toUint8Array()))])
        ]
      })
      const metadata = addressToLongString(
        namedObjectAddress(alice.accountAddress.toUint8Array(), new TextEncoder().encode(FA_COIN_SEED))
      )
      const transfer = await send({
        function: "0x1::primary_fungible_store::transfer",
        typeArguments: ["0x1::fungible_asset::Metadata"],
        functionArguments: [metadata, bob.accountAddress, 2_500]
      })

      const all = await transactions()
      const tables: Tables = new Map()
      for (const h of [...new Set(all.map((t) => t.blockHeight))])
        applyWrites(tables, fungibleAssetProcessor.process(all.filter((t) => t.blockHeight === h)))

      expect(rowsIn(tables, "fungible_asset_metadata").find((r) => r.asset_type === metadata)).toMatchObject({
        creator_address: alice.accountAddress.toStringLong(),
        name: FA_COIN_NAME,
        symbol: FA_COIN_SYMBOL,
        decimals: FA_COIN_DECIMALS,
        token_standard: "v2",
        supply_v2: FA_COIN_INITIAL_SUPPLY,
        // Unlimited, as a concurrent supply shows it (and the reference copies): u128::MAX.
        maximum_v2: 2n ** 128n - 1n,
        last_transaction_version: BigInt(publish.version)
      })
      expect(
        rowsIn(tables, "fungible_asset_to_coin_mappings").some((r) => r.fungible_asset_metadata_address === metadata)
      ).toBe(false)

      const balances = rowsIn(tables, "current_fungible_asset_balances").filter((r) => r.asset_type === metadata)
      expect(
        balances.map((r) => [r.owner_address, r.amount, r.is_primary, r.token_standard, r.asset_type_v1]).sort()
      ).toEqual(
        [
          [alice.accountAddress.toStringLong(), FA_COIN_INITIAL_SUPPLY - 2_500n, true, "v2", null],
          [bob.accountAddress.toStringLong(), 2_500n, true, "v2", null]
        ].sort()
      )
      for (const r of balances) {
        const [onChain] = await aptos.view<[string]>({
          payload: {
            function: "0x1::primary_fungible_store::balance",
            typeArguments: ["0x1::fungible_asset::Metadata"],
            functionArguments: [r.owner_address as string, metadata]
          }
        })
        expect(r.amount).toBe(BigInt(onChain))
      }

      const moves = rowsIn(tables, "fungible_asset_activities")
        .filter((r) => r.transaction_version === BigInt(transfer.version) && r.is_gas_fee === false)
        .map((r) => [r.type, r.owner_address, r.amount, r.asset_type])
      expect(moves).toEqual([
        ["0x1::fungible_asset::Withdraw", alice.accountAddress.toStringLong(), 2_500n, metadata],
        ["0x1::fungible_asset::Deposit", bob.accountAddress.toStringLong(), 2_500n, metadata]
      ])
    })
  }, 120_000)
})
