/**
 * A local chain with its embedded indexer (no idle blocks), for the index's tests that drive it as a
 * test suite does: the chain, its indexer (built inside the chain's layer: its type names only the
 * chain's services), the ledger, an SDK transfer from the first pre-funded account that waits until
 * committed, and a wait until the index holds the ledger's head.
 */
import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } from "@aptos-labs/ts-sdk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { expect } from "vitest"
import { type LocalChainConfigShape, testLocalChainConfig } from "../../src/chain/LocalChainConfig.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { Indexer, type IndexerService } from "../../src/indexer/index.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"
import { Ledger, type LedgerService } from "../../src/ledger/Ledger.js"

export interface IndexedLocalChain {
  readonly chain: LocalChainInfo
  readonly indexer: IndexerService
  readonly ledger: LedgerService
  /** The first pre-funded account. */
  readonly alice: Account
  /** `amount` octas from `alice` to `to` through the SDK, waited for until committed. */
  readonly transfer: (to: string, amount: number) => Effect.Effect<void>
  /** Until the index holds the ledger's latest version (30 s at most, else the test fails). */
  readonly caughtUp: Effect.Effect<void, unknown>
}

export const indexedLocalChain = (
  overrides: Partial<LocalChainConfigShape>
): Effect.Effect<IndexedLocalChain, unknown, Scope.Scope> =>
  Effect.gen(function* () {
    const ctx = yield* Layer.build(
      LocalChain.layer({
        ...testLocalChainConfig,
        mining: MiningMode.still(),
        graphql: { host: "127.0.0.1", port: 0 },
        indexer: { _tag: "Embedded" },
        ...overrides
      })
    )
    const chain = Context.get(ctx, LocalChain)
    const indexer = ctx.mapUnsafe.get(Indexer.key) as IndexerService
    const ledger = Context.get(ctx, Ledger)
    const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl }))
    const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
    const transfer = (to: string, amount: number) =>
      Effect.promise(async () => {
        const txn = await aptos.transferCoinTransaction({ sender: alice.accountAddress, recipient: to, amount })
        const p = await aptos.signAndSubmitTransaction({ signer: alice, transaction: txn })
        await aptos.waitForTransaction({ transactionHash: p.hash })
      })
    const caughtUp = Effect.gen(function* () {
      const info = yield* ledger.ledgerInfo
      expect(yield* indexer.waitFor(info.ledgerVersion, 30_000)).toBe(true)
    })
    return { chain, indexer, ledger, alice, transfer, caughtUp }
  })
