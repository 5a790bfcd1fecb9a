import { assert, describe, it } from "@effect/vitest"
import type { LedgerInfo } from "../../src/domain/LedgerInfo.js"
import {
  BlockNotFound,
  BlockPruned,
  StorageError,
  TransactionNotFound,
  VersionNotFound,
  VersionPruned
} from "../../src/ledger/LedgerError.js"
import { apiErrorFromLedger } from "../../src/node/apiErrorFromLedger.js"

const info: LedgerInfo = {
  chainId: 4,
  epoch: 1n,
  ledgerVersion: 9n,
  oldestLedgerVersion: 2n,
  ledgerTimestampUsec: 5n,
  blockHeight: 3n,
  oldestBlockHeight: 1n
}

describe("apiErrorFromLedger", () => {
  it("keeps the contract's status and code for each ledger failure", () => {
    const cases = [
      [new VersionNotFound({ version: 10n }), 404, "version_not_found"],
      [new VersionPruned({ version: 1n }), 410, "version_pruned"],
      [new BlockPruned({ height: 0n }), 410, "block_pruned"],
      [new TransactionNotFound({ query: "version 12" }), 404, "transaction_not_found"],
      [new BlockNotFound({ query: "height 12" }), 404, "block_not_found"],
      [new StorageError({ message: "disk on fire" }), 500, "internal_error"]
    ] as const
    for (const [error, status, code] of cases) {
      const withLedger = apiErrorFromLedger(error, info, "Reading")
      assert.strictEqual(withLedger.status, status)
      assert.strictEqual(withLedger.code, code)
      assert.strictEqual(withLedger.ledger, info)
      const without = apiErrorFromLedger(error, undefined, "Reading")
      assert.strictEqual(without.status, status)
      assert.isUndefined(without.ledger)
    }
    assert.strictEqual(
      apiErrorFromLedger(new VersionPruned({ version: 1n }), info, "x").message,
      "Ledger version(1) has been pruned"
    )
    assert.include(
      apiErrorFromLedger(new StorageError({ message: "disk on fire" }), info, "Reading").message,
      "Reading: disk on fire"
    )
  })
})
