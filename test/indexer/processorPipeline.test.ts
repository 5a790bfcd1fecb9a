/**
 * The default pipeline over a local chain's ledger: every processor's writes for each run of
 * transactions, in processor order, with the batch's last version, hash and count; a processor
 * that throws fails the batch with its name (the indexer then reports it and retries).
 */
import { Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { describe, expect, it } from "vitest"
import { processorPipeline } from "../../src/indexer/engine/processorPipeline.js"
import type { Processor } from "../../src/indexer/processors/Processor.js"
import { transferToNewAccount, withIndexedChain } from "./processors/support/indexedChain.js"

const versionsInto = (name: Processor["name"], table: string): Processor => ({
  name,
  tables: [table],
  process: (batch) => [{ _tag: "Insert", table, rows: batch.map((t) => ({ version: t.version })) }]
})

describe("processorPipeline", () => {
  it("gathers every processor's writes run by run, in processor order", async () => {
    await withIndexedChain(async ({ chain, aptos, ledger }) => {
      const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
      for (let i = 0; i < 2; i++) await transferToNewAccount(aptos, alice, 1)
      const info = await Effect.runPromise(ledger.ledgerInfo)
      const pipeline = processorPipeline([
        versionsInto("events_processor", "a"),
        versionsInto("objects_processor", "b")
      ])
      const result = (await Effect.runPromise(pipeline.batch(ledger, 1n, 10_000)))!
      expect(result.lastVersion).toBe(info.ledgerVersion)
      expect(result.transactions).toBe(Number(info.ledgerVersion))
      const last = await Effect.runPromise(ledger.transactionByVersion(info.ledgerVersion))
      expect(result.lastHash).toBe(`0x${Buffer.from(last.hash).toString("hex")}`)
      // a, b for each run; each table's rows are every version once, in order.
      const tables = result.writes.map((w) => w.table)
      expect(tables.length).toBeGreaterThan(2)
      expect(tables).toEqual(tables.map((_, i) => (i % 2 === 0 ? "a" : "b")))
      const every = Array.from({ length: Number(info.ledgerVersion) }, (_, i) => BigInt(i + 1))
      for (const table of ["a", "b"])
        expect(result.writes.filter((w) => w.table === table).flatMap((w) => w.rows.map((r) => r.version))).toEqual(
          every
        )
    })
  }, 60_000)

  it("fails the batch when a processor throws, naming the processor", async () => {
    await withIndexedChain(async ({ ledger }) => {
      const boom: Processor = {
        name: "stake_processor",
        tables: [],
        process: () => {
          throw new Error("cannot read this")
        }
      }
      const exit = await Effect.runPromiseExit(
        processorPipeline([versionsInto("events_processor", "a"), boom]).batch(ledger, 1n, 500)
      )
      expect(Exit.isFailure(exit)).toBe(true)
      // A failure (StorageError), not a defect.
      expect(String(exit)).toContain("Fail(StorageError: processor stake_processor failed: cannot read this)")
    })
  }, 60_000)
})
