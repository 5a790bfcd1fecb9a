/**
 * Table info on a local chain: a token v1 collection created through `0x3::token` writes the
 * creator's `Collections` resource (three tables) and an item of its `collection_data` table in the
 * same transaction; the transaction's `write_table_item` is decoded with the table's types (`data`
 * as a reference node with its table-info indexer renders it), the same value the table-item
 * endpoint answers for that key, and every way of reading the transaction shows the same changes.
 */
import { Account, AccountAddress, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Effect } from "effect"
import { expect, it } from "vitest"
import { LocalChain } from "../src/LocalChain.js"

it("a token v1 collection's table item is decoded in the transaction's changes", async () => {
  await Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(LocalChain.spawn({ accounts: 0 }), (chain) =>
        Effect.promise(async () => {
          const aptos = new Aptos(
            new AptosConfig({ network: Network.LOCAL, fullnode: chain.apiUrl, faucet: chain.faucetUrl })
          )
          const creator = Account.generate()
          await aptos.fundAccount({
            accountAddress: creator.accountAddress,
            amount: 1_000_000_000,
            options: { waitForIndexer: false }
          })
          const transaction = await aptos.transaction.build.simple({
            sender: creator.accountAddress,
            data: {
              function: "0x3::token::create_collection_script",
              functionArguments: [
                "Tables collection",
                "a description",
                "https://example.com",
                10,
                [false, false, false]
              ]
            }
          })
          const pending = await aptos.signAndSubmitTransaction({ signer: creator, transaction })
          const committed = (await aptos.waitForTransaction({ transactionHash: pending.hash })) as any
          expect(committed.success).toBe(true)

          const items = (committed.changes as any[]).filter((c) => c.type === "write_table_item")
          const collection = items.find((c) => c.data?.value_type === "0x3::token::CollectionData")
          expect(collection, JSON.stringify(items)).toBeDefined()
          expect(collection.data.key_type).toBe("0x1::string::String")
          expect(collection.data.key).toBe("Tables collection")
          expect(collection.data.value).toMatchObject({
            name: "Tables collection",
            description: "a description",
            uri: "https://example.com",
            maximum: "10",
            supply: "0"
          })
          // The table-item endpoint, asked with the types the change names, answers the same value.
          const value = await aptos.getTableItem({
            handle: collection.handle,
            data: {
              key_type: collection.data.key_type,
              value_type: collection.data.value_type,
              key: "Tables collection"
            }
          })
          expect(value).toEqual(collection.data.value)
          // The Collections resource holds that table (its handle is the one the item names).
          const resource = await aptos.getAccountResource<any>({
            accountAddress: creator.accountAddress,
            resourceType: "0x3::token::Collections"
          })
          // The change names the handle as its 32 bytes (the reference's `HexEncodedBytes`); the
          // resource's `address` field has its leading zeros trimmed (`to_hex_literal`): one handle
          // in sixteen starts with a zero digit, so the two are compared as the same address.
          expect(resource.collection_data.handle).toBe(AccountAddress.from(collection.handle).toStringShort())
          // A simulation decodes the items of tables known before it (the collection's token-data table).
          const mint = await aptos.transaction.build.simple({
            sender: creator.accountAddress,
            data: {
              function: "0x3::token::create_token_script",
              functionArguments: [
                "Tables collection",
                "Token",
                "d",
                1,
                1,
                "https://t",
                creator.accountAddress.toString(),
                100,
                0,
                [false, false, false, false, false],
                [],
                [],
                []
              ]
            }
          })
          const [simulated] = (await aptos.transaction.simulate.simple({
            signerPublicKey: creator.publicKey,
            transaction: mint
          })) as any[]
          expect(simulated.success, simulated.vm_status).toBe(true)
          const tokenData = (simulated.changes as any[]).find(
            (c) => c.type === "write_table_item" && c.data?.value_type === "0x3::token::TokenData"
          )
          expect(tokenData?.data.key).toEqual({
            // The API writes a Move address value with its leading zeros trimmed (the reference's
            // `to_hex_literal`): the SDK's short form, not `toString()` (long for most accounts).
            creator: creator.accountAddress.toStringShort(),
            collection: "Tables collection",
            name: "Token"
          })
          // Read by version and in a list: the same decoded changes.
          const byVersion = (await aptos.getTransactionByVersion({ ledgerVersion: Number(committed.version) })) as any
          expect(byVersion.changes).toEqual(committed.changes)
          const listed = (await aptos.getTransactions({
            options: { offset: Number(committed.version), limit: 1 }
          })) as any[]
          expect(listed[0].changes).toEqual(committed.changes)
        })
      )
    )
  )
}, 60_000)
