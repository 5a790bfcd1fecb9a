import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { ApiError } from "../../src/domain/ApiError.js"
import type { LedgerInfo } from "../../src/domain/LedgerInfo.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import { Balances } from "../../src/node/Balances.js"
import { cachedStateAtLedgerVersion, checkLedgerVersion, readLedgerInfo } from "../../src/node/LedgerVersion.js"
import { Modules } from "../../src/node/Modules.js"
import { block, commitAll, ONE, ROOT, servicesLayer } from "./fixtures.js"

const info: LedgerInfo = {
  chainId: 4,
  epoch: 3n,
  ledgerVersion: 500n,
  oldestLedgerVersion: 100n,
  ledgerTimestampUsec: 1n,
  blockHeight: 50n,
  oldestBlockHeight: 10n
}

const APT = { _tag: "FungibleAsset", metadata: addressFromNumber(0xa) } as const

describe("ledger_version rules", () => {
  it("absent = latest; within the window = itself", () => {
    assert.strictEqual(checkLedgerVersion(info, undefined), 500n)
    assert.strictEqual(checkLedgerVersion(info, 500n), 500n)
    assert.strictEqual(checkLedgerVersion(info, 100n), 100n)
  })

  it("above latest = 404 version_not_found, below oldest = 410 version_pruned, both with the ledger", () => {
    const ahead = checkLedgerVersion(info, 501n)
    assert.instanceOf(ahead, ApiError)
    if (!(ahead instanceof ApiError)) return
    assert.strictEqual(ahead.status, 404)
    assert.strictEqual(ahead.code, "version_not_found")
    assert.strictEqual(ahead.ledger, info)
    const pruned = checkLedgerVersion(info, 99n)
    assert.instanceOf(pruned, ApiError)
    if (!(pruned instanceof ApiError)) return
    assert.strictEqual(pruned.status, 410)
    assert.strictEqual(pruned.code, "version_pruned")
    assert.strictEqual(pruned.ledger, info)
  })

  it.effect("ledger_version=1 at devnet genesis is 404 version_not_found for balance and module", () =>
    Effect.gen(function* () {
      const latest = yield* readLedgerInfo(yield* Ledger)
      assert.strictEqual(latest.ledgerVersion, 0n)
      const balanceError = yield* Effect.flip((yield* Balances).balance(ROOT, APT, 1n))
      assert.strictEqual(balanceError.status, 404)
      assert.strictEqual(balanceError.code, "version_not_found")
      assert.deepStrictEqual(balanceError.ledger, latest)
      const moduleError = yield* Effect.flip((yield* Modules).module(ONE, "coin", 1n))
      assert.strictEqual(moduleError.status, 404)
      assert.strictEqual(moduleError.code, "version_not_found")
      assert.deepStrictEqual(moduleError.ledger, latest)
      // Version 0 itself is served.
      assert.strictEqual((yield* (yield* Balances).balance(ROOT, APT, 0n)).ledger.ledgerVersion, 0n)
    }).pipe(Effect.provide(servicesLayer()))
  )

  it.effect("a version below the pruning window is 410 version_pruned for balance and module", () =>
    Effect.gen(function* () {
      yield* commitAll(Array.from({ length: 12 }, (_, i) => block(1n, BigInt(i), [])))
      const latest = yield* readLedgerInfo(yield* Ledger)
      assert.isTrue(latest.oldestLedgerVersion > 0n)
      const old = latest.oldestLedgerVersion - 1n
      const balanceError = yield* Effect.flip((yield* Balances).balance(ROOT, APT, old))
      assert.strictEqual(balanceError.status, 410)
      assert.strictEqual(balanceError.code, "version_pruned")
      assert.deepStrictEqual(balanceError.ledger, latest)
      const moduleError = yield* Effect.flip((yield* Modules).module(ONE, "coin", old))
      assert.strictEqual(moduleError.code, "version_pruned")
      // The oldest retained version itself is served.
      const ok = yield* (yield* Balances).balance(ROOT, APT, latest.oldestLedgerVersion)
      assert.strictEqual(ok.value, 0n)
    }).pipe(Effect.provide(servicesLayer({ chainId: 4, pruneWindow: 10 })))
  )

  it.effect("the cached state open is reused at an unchanged head and reopened after a commit", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const stateAt = cachedStateAtLedgerVersion(ledger)
      const a = yield* stateAt(undefined)
      const b = yield* stateAt(undefined)
      assert.strictEqual(b, a)
      const atZero = yield* stateAt(0n)
      assert.strictEqual(atZero.version, 0n)
      const error = yield* Effect.flip(stateAt(a.version + 1n))
      assert.strictEqual(error.code, "version_not_found")
      yield* commitAll([block(1n, 0n, [])])
      const c = yield* stateAt(undefined)
      assert.notStrictEqual(c, a)
      assert.isTrue(c.version > a.version)
      assert.strictEqual(c.ledger.ledgerVersion, c.version)
      const again = yield* Effect.flip(stateAt(c.version + 1n))
      assert.strictEqual(again.code, "version_not_found")
    }).pipe(Effect.provide(servicesLayer()))
  )
})
