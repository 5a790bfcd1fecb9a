/**
 * What the processors make of the local chain's genesis (version 0): the APT metadata in both
 * standards, the `0x…0a` object owned by `0x1`, the coin-to-asset pairing, the chain id — what the
 * SDK's e2e tests read before any transaction of theirs (indexer.md §7.5 pitfall 10).
 */
import { describe, expect, it } from "vitest"
import { fungibleAssetProcessor } from "../../../src/indexer/processors/fungibleAsset/fungibleAssetProcessor.js"
import { ledgerInfosProcessor } from "../../../src/indexer/processors/ledgerInfos.js"
import { objectsProcessor } from "../../../src/indexer/processors/objects.js"
import { rowsOf, withIndexedChain } from "./support/indexedChain.js"

const long = (n: number) => "0x" + n.toString(16).padStart(64, "0")

describe("processors on genesis", () => {
  it("yield the APT metadata pair, the 0xa object, the pairing and the chain id", async () => {
    await withIndexedChain(async ({ transactions }) => {
      const genesis = (await transactions()).filter((t) => t.version === 0n)
      expect(genesis.map((t) => t.kind)).toEqual(["genesis"])

      const fa = fungibleAssetProcessor.process(genesis)
      const metadata = rowsOf(fa, "fungible_asset_metadata")
      const apt = metadata.find((r) => r.asset_type === "0x1::aptos_coin::AptosCoin")
      expect(apt).toMatchObject({
        creator_address: long(1),
        name: "Aptos Coin",
        symbol: "APT",
        decimals: 8,
        token_standard: "v1",
        icon_uri: null,
        last_transaction_version: 0n,
        last_transaction_timestamp: "1970-01-01T00:00:00"
      })
      const aptFa = metadata.find((r) => r.asset_type === long(0xa))
      expect(aptFa).toMatchObject({
        creator_address: long(1),
        symbol: "APT",
        decimals: 8,
        token_standard: "v2",
        last_transaction_version: 0n
      })
      // The SDK asks for creator 0x1's assets and expects exactly these two.
      expect(
        metadata
          .filter((r) => r.creator_address === long(1))
          .map((r) => r.asset_type)
          .sort()
      ).toEqual(["0x1::aptos_coin::AptosCoin", long(0xa)].sort())
      expect(rowsOf(fa, "fungible_asset_to_coin_mappings")).toContainEqual({
        fungible_asset_metadata_address: long(0xa),
        coin_type: "0x1::aptos_coin::AptosCoin",
        last_transaction_version: 0n
      })

      const objects = rowsOf(objectsProcessor.process(genesis), "current_objects")
      expect(objects.find((r) => r.object_address === long(0xa))).toMatchObject({
        owner_address: long(1),
        is_deleted: false,
        last_transaction_version: 0n
      })

      expect(rowsOf(ledgerInfosProcessor.process(genesis), "ledger_infos")).toEqual([{ chain_id: 4n }])
    })
  }, 60_000)
})
