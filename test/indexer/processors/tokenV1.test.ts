/**
 * Token v1 in the token tables on a local chain: a `0x3::token` collection and a token with
 * properties, 3 of its 5 units sent to an account that opted in to direct transfers; the rows are
 * the reference's v1 ids (sha256 of `creator::collection[::name]`), supplies, default properties,
 * and one ownership per TokenStore with its amount.
 */
import { createHash } from "node:crypto"
import { Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { tokenV2Processor } from "../../../src/indexer/processors/tokenV2/tokenV2Processor.js"
import { applyWrites, rowsIn, type Tables } from "./support/applyWrites.js"
import { runEntry, withIndexedChain } from "./support/indexedChain.js"

const noTables = (): Tables => new Map()

const id = (...parts: string[]) => `0x${createHash("sha256").update(parts.join("::")).digest("hex")}`

describe("token_v2_processor: token v1", () => {
  it("a 0x3::token collection, token data and the holders' stores", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const [creator, holder] = chain.accounts.map((a) =>
        Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(a.privateKey) })
      )
      const run = (signer: Account, fn: `${string}::${string}::${string}`, args: unknown[]) =>
        runEntry(aptos, signer, fn, args)
      const c = creator!.accountAddress.toStringLong()
      const h = holder!.accountAddress.toStringLong()
      await run(creator!, "0x3::token::create_collection_script", [
        "Old",
        "an old collection",
        "https://old",
        10,
        [true, false, true]
      ])
      await run(creator!, "0x3::token::create_token_script", [
        "Old",
        "Relic",
        "a relic",
        5,
        100,
        "https://relic",
        c,
        100,
        1,
        [false, false, false, false, false],
        ["rarity"],
        [new Uint8Array([0x04, 0x72, 0x61, 0x72, 0x65])],
        ["0x1::string::String"]
      ])
      await run(holder!, "0x3::token::opt_in_direct_transfer", [true])
      const sent = await run(creator!, "0x3::token::transfer_with_opt_in", [c, "Old", "Relic", 0, h, 3])

      const tables = applyWrites(noTables(), tokenV2Processor.process(await transactions()))
      const collection = tables.get("current_collections_v2")!.get(id(c, "Old"))
      expect(collection).toMatchObject({
        creator_address: c,
        collection_name: "Old",
        description: "an old collection",
        uri: "https://old",
        current_supply: 1n,
        max_supply: 10n,
        total_minted_v2: null,
        mutable_description: true,
        mutable_uri: false,
        token_standard: "v1"
      })
      const data = tables.get("current_token_datas_v2")!.get(id(c, "Old", "Relic"))
      expect(data).toMatchObject({
        collection_id: id(c, "Old"),
        token_name: "Relic",
        description: "a relic",
        token_uri: "https://relic",
        maximum: 100n,
        supply: 5n,
        largest_property_version_v1: 0n,
        token_properties: { rarity: "rare" },
        token_standard: "v1"
      })
      const held = rowsIn(tables, "current_token_ownerships_v2").filter(
        (o) => o.token_data_id === id(c, "Old", "Relic")
      )
      expect(held.map((o) => [o.owner_address, o.amount]).sort()).toEqual(
        [
          [c, 2n],
          [h, 3n]
        ].sort()
      )
      for (const o of held)
        expect(o).toMatchObject({
          table_type_v1: "0x3::token::TokenStore",
          token_standard: "v1",
          property_version_v1: 0n
        })
      expect(held.find((o) => o.owner_address === h)!.last_transaction_version).toBe(BigInt(sent.version))
    })
  }, 120_000)
})
