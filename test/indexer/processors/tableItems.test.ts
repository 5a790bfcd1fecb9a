/**
 * The default processor's table rows on a local chain from genesis: the coin-to-FA pairing table
 * (TypeInfo keys) is known with its types, its items are rows at version 0 whose decoded key and
 * value are what the REST table-item endpoint answers; a token v1 collection's table write is a row
 * of its transaction; `current_table_items` keeps the latest value by (handle, sha256 of the key's
 * text), and an indexer started on a later version (a restart) still decodes every table. The
 * block ring's items (a copy of each block's NewBlockEvent) are left out on purpose.
 */
import { createHash } from "node:crypto"
import { Account, type Aptos, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { makeIndexerInput } from "../../../src/indexer/processors/input/indexerTransactionOf.js"
import { blocksFrom, readIndexerBatch } from "../../../src/indexer/processors/input/readIndexerBatch.js"
import { tableItemsProcessor } from "../../../src/indexer/processors/tableItems.js"
import { applyWrites, rowsIn, type Tables } from "./support/applyWrites.js"
import { type IndexedChain, withIndexedChain } from "./support/indexedChain.js"

const noTables = (): Tables => new Map()

/** A token v1 collection (a table item of the creator's `Collections`) by the chain's first account; its committed answer. */
const createV1Collection = async (chain: IndexedChain["chain"], aptos: Aptos, name: string, uri: string) => {
  const creator = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
  const transaction = await aptos.transaction.build.simple({
    sender: creator.accountAddress,
    data: {
      function: "0x3::token::create_collection_script",
      functionArguments: [name, "d", uri, 5, [false, false, false]]
    }
  })
  const pending = await aptos.signAndSubmitTransaction({ signer: creator, transaction })
  return (await aptos.waitForTransaction({ transactionHash: pending.hash })) as any
}

describe("default_processor: table items", () => {
  it("genesis's TypeInfo-keyed table and a token v1 collection's item, decoded", async () => {
    await withIndexedChain(async ({ chain, aptos, ledger, transactions }) => {
      const committed = await createV1Collection(chain, aptos, "V1 collection", "https://v1")

      const batch = await transactions()
      const tables = applyWrites(noTables(), tableItemsProcessor.process(batch))
      const metadatas = rowsIn(tables, "table_metadatas")
      const pairing = metadatas.find((m) => m.key_type === "0x1::type_info::TypeInfo")
      expect(pairing, JSON.stringify(metadatas.map((m) => m.key_type))).toBeDefined()
      const items = rowsIn(tables, "table_items").filter((i) => i.table_handle === pairing!.handle)
      expect(items.length).toBeGreaterThan(0)
      for (const item of items) {
        expect(item.transaction_version).toBe(0n)
        const key = item.decoded_key as { account_address: string; module_name: string; struct_name: string }
        const rest = await aptos.getTableItem({
          handle: String(pairing!.handle),
          data: {
            key_type: String(pairing!.key_type),
            value_type: String(pairing!.value_type),
            key: { ...key, module_name: key.module_name.slice(2), struct_name: key.struct_name.slice(2) }
          }
        })
        expect(item.decoded_value).toEqual(rest)
        expect(item.is_deleted).toBe(false)
      }
      // Every table item of every transaction decodes (no table is unknown on this chain), but for
      // the block ring (0x1::block::CommitHistory, a copy of each block's NewBlockEvent): known, not stored.
      const ring = metadatas.find((m) => m.value_type === "0x1::block::NewBlockEvent")
      expect(ring).toMatchObject({ key_type: "u32" })
      const writes = batch.flatMap((t) =>
        t.changes.filter((c) => c.type === "write_table_item" || c.type === "delete_table_item")
      )
      const ringWrites = writes.filter((c) => (c as { handle: string }).handle === ring!.handle)
      expect(ringWrites.length).toBeGreaterThan(0)
      expect(rowsIn(tables, "table_items").length).toBe(writes.length - ringWrites.length)
      expect(rowsIn(tables, "table_items").filter((i) => i.table_handle === ring!.handle)).toEqual([])
      expect(rowsIn(tables, "current_table_items").filter((i) => i.table_handle === ring!.handle)).toEqual([])

      const v1 = rowsIn(tables, "table_items").find(
        (i) => i.transaction_version === BigInt(committed.version) && i.decoded_key === "V1 collection"
      )
      expect(v1).toMatchObject({
        is_deleted: false,
        decoded_value: { name: "V1 collection", uri: "https://v1", maximum: "5" }
      })
      const change = (committed.changes as any[]).find((c) => c.type === "write_table_item" && c.key === v1!.key)
      expect(v1!.table_handle).toBe(`0x${change.handle.slice(2).padStart(64, "0")}`)
      expect(v1!.write_set_change_index).toBe(BigInt((committed.changes as any[]).indexOf(change)))
      const keyHash = createHash("sha256").update(String(v1!.key)).digest("hex")
      expect(
        rowsIn(tables, "current_table_items").find((r) => r.table_handle === v1!.table_handle && r.key_hash === keyHash)
      ).toMatchObject({
        decoded_key: "V1 collection",
        last_transaction_version: BigInt(committed.version)
      })
      expect(metadatas.find((m) => m.handle === v1!.table_handle)).toEqual({
        handle: v1!.table_handle,
        key_type: "0x1::string::String",
        value_type: "0x3::token::CollectionData"
      })

      // A fresh indexer input reading only the last transaction's block (a restart) still decodes it.
      const fresh = makeIndexerInput()
      const late = await Effect.runPromise(
        Effect.flatMap(blocksFrom(ledger, BigInt(committed.version), 1), (blocks) =>
          readIndexerBatch(ledger, fresh, blocks)
        )
      )
      const again = rowsIn(applyWrites(noTables(), tableItemsProcessor.process(late)), "table_items")
      expect(again.find((i) => i.key === v1!.key)?.decoded_value).toEqual(v1!.decoded_value)
    })
  }, 120_000)

  it("reads each committed version once: the table-info index learns from the processors' reading", async () => {
    await withIndexedChain(async ({ chain, aptos, ledger }) => {
      await createV1Collection(chain, aptos, "Read once", "https://once")

      const read: bigint[] = []
      const counting = {
        ...ledger,
        transactionsFrom: (start: bigint, limit: number) =>
          Effect.map(ledger.transactionsFrom(start, limit), (ts) => {
            for (const t of ts) read.push(t.version)
            return ts
          })
      }
      const input = makeIndexerInput()
      const batch = await Effect.runPromise(
        Effect.flatMap(blocksFrom(counting, 0n, 10_000), (blocks) => readIndexerBatch(counting, input, blocks))
      )
      expect(batch.length).toBeGreaterThan(3)
      expect(read).toEqual(batch.map((t) => t.version))
      // And its table items decode as before: the collection's, created in the same transaction.
      const items = rowsIn(applyWrites(noTables(), tableItemsProcessor.process(batch)), "table_items")
      expect(items.find((i) => i.decoded_key === "Read once")).toMatchObject({
        decoded_value: { name: "Read once", uri: "https://once", maximum: "5" }
      })
    })
  }, 120_000)
})
