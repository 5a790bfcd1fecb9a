/**
 * A coin of our own (a hand-assembled module declaring the type, the framework's managed_coin for
 * the rest) and an object created and transferred, indexed block by block as the indexer does:
 * the coin's metadata and its pairing with a fungible asset, balances equal to the chain's with the
 * coin type as asset type, and the object's owner following the transfer.
 */
import { Account, Ed25519PrivateKey, MoveVector, type UserTransactionResponse } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { accountTransactionsProcessor } from "../../../src/indexer/processors/accountTransactions.js"
import { fungibleAssetProcessor } from "../../../src/indexer/processors/fungibleAsset/fungibleAssetProcessor.js"
import { objectsProcessor } from "../../../src/indexer/processors/objects.js"
import { packageMetadata } from "../../execution/bytecode.js"
import { sdkBytecode } from "../../support/sdkBytecode.js"
import { applyWrites, rowsIn, type Tables } from "./support/applyWrites.js"
import { coinTypeModule } from "./support/coinModule.js"
import { withIndexedChain } from "./support/indexedChain.js"

const hexOf = (b: Uint8Array) => Buffer.from(b).toString("hex")

describe("a managed coin and an object on a local chain", () => {
  it("index as the reference: coin metadata, pairing, balances, object owners", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
      const bob = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[1]!.privateKey) })
      const send = async (signer: Account, data: Parameters<typeof aptos.transaction.build.simple>[0]["data"]) => {
        const transaction = await aptos.transaction.build.simple({ sender: signer.accountAddress, data })
        const pending = await aptos.signAndSubmitTransaction({ signer, transaction })
        const done = (await aptos.waitForTransaction({ transactionHash: pending.hash })) as UserTransactionResponse
        return done
      }
      const coinType = `${alice.accountAddress.toString()}::moon::Moon` as `${string}::${string}::${string}`
      await send(alice, {
        function: "0x1::code::publish_package_txn",
        functionArguments: [
          MoveVector.U8(packageMetadata("moon", ["moon"])),
          new MoveVector([MoveVector.U8(coinTypeModule(alice.accountAddress.toUint8Array(), "moon", "Moon"))])
        ]
      })
      await send(alice, {
        function: "0x1::managed_coin::initialize",
        typeArguments: [coinType],
        functionArguments: [
          MoveVector.U8(new TextEncoder().encode("Moon Coin")),
          MoveVector.U8(new TextEncoder().encode("MOON")),
          6,
          true
        ]
      })
      await send(bob, { function: "0x1::managed_coin::register", typeArguments: [coinType], functionArguments: [] })
      await send(alice, {
        function: "0x1::managed_coin::mint",
        typeArguments: [coinType],
        functionArguments: [bob.accountAddress, 5_000]
      })
      await send(bob, {
        function: "0x1::aptos_account::transfer_coins",
        typeArguments: [coinType],
        functionArguments: [alice.accountAddress, 1_200]
      })

      // An object made by the SDK's example script, then given to bob.
      const created = await send(alice, { bytecode: hexOf(sdkBytecode("CREATE_OBJECT_SCRIPT")), functionArguments: [] })
      type Change = { type: string; address: string; data?: { type: string; data: { owner?: string } } }
      const object = (created as unknown as { changes: Change[] }).changes.find(
        (c) => c.data?.type === "0x1::object::ObjectCore" && c.data.data.owner === alice.accountAddress.toStringShort()
      )!.address
      const transfer = await send(alice, {
        function: "0x1::object::transfer_call",
        functionArguments: [object, bob.accountAddress]
      })

      // Block by block, each block its own batch, as the engine feeds them.
      const all = await transactions()
      const tables: Tables = new Map()
      for (const h of [...new Set(all.map((t) => t.blockHeight))]) {
        const block = all.filter((t) => t.blockHeight === h)
        applyWrites(tables, [
          ...fungibleAssetProcessor.process(block),
          ...objectsProcessor.process(block),
          ...accountTransactionsProcessor.process(block)
        ])
      }

      // The same rows whatever the cut (the engine hands the processors runs of up to 32
      // transactions, a block per run at most): the whole history as one batch — the coin
      // registered, paired and moved within it — gives what block by block gave.
      const whole = applyWrites(new Map(), [
        ...fungibleAssetProcessor.process(all),
        ...objectsProcessor.process(all),
        ...accountTransactionsProcessor.process(all)
      ])
      expect(whole).toEqual(tables)

      const metadata = rowsIn(tables, "fungible_asset_metadata")
      expect(metadata.find((r) => r.asset_type === coinType)).toMatchObject({
        creator_address: alice.accountAddress.toStringLong(),
        name: "Moon Coin",
        symbol: "MOON",
        decimals: 6,
        token_standard: "v1"
      })
      const paired = (
        await aptos.view<[{ vec: [{ inner: string }] }]>({
          payload: { function: "0x1::coin::paired_metadata", typeArguments: [coinType], functionArguments: [] }
        })
      )[0].vec[0]!.inner
      const pairedLong = "0x" + paired.slice(2).padStart(64, "0")
      expect(rowsIn(tables, "fungible_asset_to_coin_mappings")).toContainEqual(
        expect.objectContaining({ fungible_asset_metadata_address: pairedLong, coin_type: coinType })
      )
      // The paired asset's own metadata row (v2), created by 0xa.
      expect(metadata.find((r) => r.asset_type === pairedLong)).toMatchObject({ token_standard: "v2", symbol: "MOON" })

      const moonRows = rowsIn(tables, "current_fungible_asset_balances").filter((r) => r.asset_type === coinType)
      expect(moonRows.map((r) => r.owner_address).sort()).toEqual(
        [alice.accountAddress.toStringLong(), bob.accountAddress.toStringLong()].sort()
      )
      for (const row of moonRows) {
        const [onChain] = await aptos.view<[string]>({
          payload: {
            function: "0x1::coin::balance",
            typeArguments: [coinType],
            functionArguments: [row.owner_address as string]
          }
        })
        expect(row.amount).toBe(BigInt(onChain))
        expect(row.is_primary).toBe(true)
        // On this framework the coin lives in the paired asset's primary store: the v2 half, whose
        // coin type came from the metadata object's PairedCoinType (the CoinInfo was in an earlier batch).
        expect([row.asset_type_v1, row.asset_type_v2, row.amount_v1]).toEqual([coinType, pairedLong, null])
        expect(row.token_standard).toBe("v1")
        const [store] = await aptos.view<[string]>({
          payload: {
            function: "0x1::primary_fungible_store::primary_store_address",
            typeArguments: ["0x1::fungible_asset::Metadata"],
            functionArguments: [row.owner_address as string, paired]
          }
        })
        expect(row.storage_id).toBe("0x" + store.slice(2).padStart(64, "0"))
      }
      expect(moonRows.find((r) => r.owner_address === bob.accountAddress.toStringLong())!.amount).toBe(3_800n)

      const objectLong = "0x" + object.slice(2).padStart(64, "0")
      expect(rowsIn(tables, "current_objects").find((r) => r.object_address === objectLong)).toMatchObject({
        owner_address: bob.accountAddress.toStringLong(),
        is_deleted: false,
        allow_ungated_transfer: true,
        last_transaction_version: BigInt(transfer.version)
      })
      // The transfer touched bob (new owner of a written object).
      expect(
        rowsIn(tables, "account_transactions").some(
          (r) =>
            r.account_address === bob.accountAddress.toStringLong() &&
            r.transaction_version === BigInt(transfer.version)
        )
      ).toBe(true)
    })
  }, 120_000)
})
