/**
 * `readIndexerChunks`, which hands the processors a batch's transactions a run at a time: the same
 * transactions as `readIndexerBatch` in the same order, runs of at most the size asked that never
 * span two blocks, and each transaction's state before it carried across the runs (a user
 * transaction's sender is read at the sequence number it used).
 */
import { Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { makeIndexerInput } from "../../../src/indexer/processors/input/indexerTransactionOf.js"
import type { IndexerTransaction } from "../../../src/indexer/processors/input/IndexerTransaction.js"
import {
  blocksFrom,
  readIndexerBatch,
  readIndexerChunks
} from "../../../src/indexer/processors/input/readIndexerBatch.js"
import { transferToNewAccount, withIndexedChain } from "./support/indexedChain.js"

const ACCOUNT = { address: addressFromNumber(1), module: "account", name: "Account", typeArgs: [] }

const summary = (t: IndexerTransaction) => ({
  version: t.version,
  sender: t.user?.sender,
  hash: t.hash,
  kind: t.kind,
  blockHeight: t.blockHeight,
  changes: t.changes.length,
  events: t.events.length,
  // The sender's sequence number in the state before the transaction: the one it used.
  senderSequence:
    t.user === undefined
      ? undefined
      : (t.before.resource(t.user.sender, ACCOUNT) as { sequence_number?: string } | undefined)?.sequence_number
})

describe("readIndexerChunks", () => {
  it("hands a batch's transactions in runs within blocks, each with the state before it", async () => {
    await withIndexedChain(async ({ chain, aptos, ledger }) => {
      const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
      for (let i = 0; i < 3; i++) await transferToNewAccount(aptos, alice, 5)
      // From version 1: genesis alone is a block of one.
      const blocks = await Effect.runPromise(blocksFrom(ledger, 1n, 10_000))
      expect(blocks.some((b) => b.lastVersion > b.firstVersion)).toBe(true)
      const whole = (await Effect.runPromise(readIndexerBatch(ledger, makeIndexerInput(), blocks))).map(summary)
      const sender = alice.accountAddress.toStringLong()
      // Funded at genesis without an `Account` resource: the first transaction creates it.
      expect(whole.filter((t) => t.sender === sender).map((t) => t.senderSequence)).toEqual([undefined, "1", "2"])

      for (const size of [1, 2, 3, 1_000, 0, Number.NaN]) {
        const runs: Array<ReadonlyArray<IndexerTransaction>> = []
        const count = await Effect.runPromise(
          readIndexerChunks(ledger, makeIndexerInput(), blocks, size, (run) => Effect.sync(() => runs.push(run)))
        )
        expect(count).toBe(whole.length)
        expect(runs.flat().map(summary)).toEqual(whole)
        for (const run of runs) {
          expect(run.length).toBeGreaterThan(0)
          expect(run.length).toBeLessThanOrEqual(size >= 1 ? size : 1)
          expect(new Set(run.map((t) => t.blockHeight)).size).toBe(1)
        }
      }
    })
  }, 60_000)
})
