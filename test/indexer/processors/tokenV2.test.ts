/**
 * token_v2_processor on real transactions: a collection created through `0x4::aptos_token`, a
 * token minted with properties, a soulbound token minted to another account, the first token
 * transferred and then burned; the processor's writes applied with the store's rules
 * (`support/applyWrites.ts`) give the rows the reference's indexer holds: supplies, token data and
 * properties, amount 1 for the current owner and 0 for the previous ones, the burned token's
 * `is_deleted_v2`, and one activity per mint, transfer and burn with the entry function.
 */
import { Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { tokenV2Processor } from "../../../src/indexer/processors/tokenV2/tokenV2Processor.js"
import { applyWrites, rowsIn, type Tables } from "./support/applyWrites.js"
import { withIndexedChain } from "./support/indexedChain.js"

const noTables = (): Tables => new Map()

describe("token_v2_processor", () => {
  it("collections, tokens, ownerships and activities of mints, a transfer and a burn", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const creator = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
      const bob = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[1]!.privateKey) })
      const carol = Account.generate()
      const submit = async (
        signer: Account,
        transaction: Awaited<ReturnType<typeof aptos.transaction.build.simple>>
      ) => {
        const pending = await aptos.signAndSubmitTransaction({ signer, transaction })
        const done = (await aptos.waitForTransaction({ transactionHash: pending.hash })) as any
        expect(done.success, done.vm_status).toBe(true)
        return done
      }
      const tokenOf = (t: any): string =>
        t.events.find((e: any) => e.type === "0x4::collection::Mint").data.token as string
      const long = (a: string) => `0x${a.slice(2).padStart(64, "0")}`

      const created = await submit(
        creator,
        await aptos.createCollectionTransaction({ creator, description: "desc", name: "Coll", uri: "https://c" })
      )
      const minted = await submit(
        creator,
        await aptos.mintDigitalAssetTransaction({
          creator,
          collection: "Coll",
          description: "token desc",
          name: "Token A",
          uri: "https://a",
          propertyKeys: ["flag", "count", "label"],
          propertyTypes: ["BOOLEAN", "U64", "STRING"],
          propertyValues: [true, 42, "hello"]
        })
      )
      const token = long(tokenOf(minted))
      const soulbound = await submit(
        creator,
        await aptos.mintSoulBoundTransaction({
          account: creator,
          collection: "Coll",
          description: "sb",
          name: "Soul",
          uri: "https://s",
          recipient: bob.accountAddress
        })
      )
      const soul = long(tokenOf(soulbound))
      await aptos.fundAccount({
        accountAddress: carol.accountAddress,
        amount: 100_000_000,
        options: { waitForIndexer: false }
      })
      const moved = await submit(
        creator,
        await aptos.transferDigitalAssetTransaction({
          sender: creator,
          digitalAssetAddress: token,
          recipient: carol.accountAddress
        })
      )
      const burnt = await submit(
        creator,
        await aptos.burnDigitalAssetTransaction({ creator, digitalAssetAddress: token })
      )

      const batch = await transactions()
      const tables = applyWrites(noTables(), tokenV2Processor.process(batch))
      // Applying the writes in two batches gives the same tables (the upsert rules carry across).
      const split = batch.findIndex((t) => t.version === BigInt(moved.version))
      const twice = applyWrites(
        applyWrites(noTables(), tokenV2Processor.process(batch.slice(0, split))),
        tokenV2Processor.process(batch.slice(split))
      )
      expect(twice).toEqual(tables)

      const creatorLong = creator.accountAddress.toStringLong()
      const [collection] = rowsIn(tables, "current_collections_v2")
      expect(rowsIn(tables, "current_collections_v2").length).toBe(1)
      expect(collection).toMatchObject({
        creator_address: creatorLong,
        collection_name: "Coll",
        description: "desc",
        uri: "https://c",
        current_supply: 1n, // two minted, one burnt
        total_minted_v2: 2n,
        max_supply: null, // unlimited (concurrent supply at u64::MAX)
        mutable_description: true,
        mutable_uri: true,
        token_standard: "v2",
        table_handle_v1: null,
        last_transaction_version: BigInt(burnt.version)
      })
      expect(collection!.collection_id).toBe(
        long(created.changes.find((c: any) => c.data?.type === "0x4::collection::Collection").address)
      )

      const datas = new Map(rowsIn(tables, "current_token_datas_v2").map((r) => [r.token_data_id, r]))
      expect(datas.get(token)).toMatchObject({
        collection_id: collection!.collection_id,
        token_name: "Token A",
        description: "token desc",
        token_uri: "https://a",
        token_properties: { flag: "true", count: "42", label: "hello" },
        token_standard: "v2",
        is_fungible_v2: false,
        is_deleted_v2: true,
        last_transaction_version: BigInt(burnt.version)
      })
      expect(datas.get(soul)).toMatchObject({ token_name: "Soul", is_deleted_v2: false, token_properties: {} })

      const owners = rowsIn(tables, "current_token_ownerships_v2")
      const holding = (t: string) => owners.filter((o) => o.token_data_id === t).map((o) => [o.owner_address, o.amount])
      expect(holding(token).sort()).toEqual(
        [
          [creatorLong, 0n],
          [carol.accountAddress.toStringLong(), 0n]
        ].sort()
      )
      // Minted to the creator and moved to bob in the same transaction: the creator's row is written with 0.
      expect(holding(soul).sort()).toEqual(
        [
          [bob.accountAddress.toStringLong(), 1n],
          [creatorLong, 0n]
        ].sort()
      )
      expect(owners.find((o) => o.token_data_id === soul && o.amount === 1n)).toMatchObject({
        is_soulbound_v2: true,
        non_transferrable_by_owner: true
      })
      const carolRow = owners.find(
        (o) => o.token_data_id === token && o.owner_address === carol.accountAddress.toStringLong()
      )
      expect(carolRow).toMatchObject({ is_soulbound_v2: false, last_transaction_version: BigInt(burnt.version) })

      const activities = rowsIn(tables, "token_activities_v2").filter((a) => a.token_data_id === token)
      const summary = activities.map((a) => [
        a.type,
        a.from_address,
        a.to_address,
        a.token_amount,
        a.entry_function_id_str
      ])
      const carolLong = carol.accountAddress.toStringLong()
      // The mint's object is written in its transaction (type renamed MintEvent, from its owner); the
      // transfer's type stays the module event's; the burn deletes the object, so the event is listed as
      // it is, from its previous owner.
      expect(summary).toEqual([
        ["0x4::collection::MintEvent", creatorLong, null, 1n, "0x4::aptos_token::mint"],
        ["0x1::object::Transfer", creatorLong, carolLong, 1n, "0x1::object::transfer"],
        ["0x4::collection::Burn", carolLong, null, 1n, "0x4::aptos_token::burn"]
      ])
      expect(activities.map((a) => a.transaction_version)).toEqual([minted, moved, burnt].map((t) => BigInt(t.version)))
      for (const a of activities) expect(a.is_fungible_v2).toBeNull()
    })
  }, 120_000)
})
