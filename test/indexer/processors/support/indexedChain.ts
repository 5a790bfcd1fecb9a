/**
 * Test helper: a local chain in this process (in memory, free ports, a block per transaction) with
 * its ledger, an SDK client on it, and `indexAll`, which reads every committed block from version 0
 * and runs processors on them as the indexer would, returning their writes.
 */
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { expect } from "vitest"
import { testLocalChainConfig } from "../../../../src/chain/LocalChainConfig.js"
import { makeIndexerInput } from "../../../../src/indexer/processors/input/indexerTransactionOf.js"
import type { IndexerTransaction } from "../../../../src/indexer/processors/input/IndexerTransaction.js"
import { blocksFrom, readIndexerBatch } from "../../../../src/indexer/processors/input/readIndexerBatch.js"
import type { Processor, Row, TableWrite } from "../../../../src/indexer/processors/Processor.js"
import { Ledger, type LedgerService } from "../../../../src/ledger/Ledger.js"
import { LocalChain, type LocalChainInfo } from "../../../../src/LocalChain.js"

export interface IndexedChain {
  readonly chain: LocalChainInfo
  readonly ledger: LedgerService
  readonly aptos: Aptos
  /** Every committed transaction from version `from` (0 by default), as the processors read them. */
  readonly transactions: (from?: bigint) => Promise<ReadonlyArray<IndexerTransaction>>
}

export const withIndexedChain = <A>(f: (c: IndexedChain) => Promise<A>, accounts = 2): Promise<A> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const ctx = yield* Layer.build(LocalChain.layer({ ...testLocalChainConfig, accounts }))
        const chain = Context.get(ctx, LocalChain)
        const ledger = Context.get(ctx, Ledger)
        const input = makeIndexerInput()
        const aptos = new Aptos(
          new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl })
        )
        const transactions = (from = 0n) =>
          Effect.runPromise(
            Effect.gen(function* () {
              const out: IndexerTransaction[] = []
              let next = from
              for (;;) {
                const blocks = yield* blocksFrom(ledger, next, 500)
                if (blocks.length === 0) return out
                out.push(...(yield* readIndexerBatch(ledger, input, blocks)))
                next = blocks[blocks.length - 1]!.lastVersion + 1n
              }
            })
          )
        return yield* Effect.promise(() => f({ chain, ledger, aptos, transactions }))
      })
    )
  )

/** The rows a list of writes puts in `table` (every write to it, in order). */
export const rowsOf = (writes: ReadonlyArray<TableWrite>, table: string): Row[] =>
  writes.filter((w) => w.table === table).flatMap((w) => [...w.rows])

export const run = (p: Processor, batch: ReadonlyArray<IndexerTransaction>) => p.process(batch)

/** Calls the entry function `fn` as `signer`, waits for it, and checks it succeeded (its VM status otherwise). */
export const runEntry = async (
  aptos: Aptos,
  signer: Account,
  fn: `${string}::${string}::${string}`,
  args: unknown[]
) => {
  const transaction = await aptos.transaction.build.simple({
    sender: signer.accountAddress,
    data: { function: fn, functionArguments: args as never }
  })
  const pending = await aptos.signAndSubmitTransaction({ signer, transaction })
  const done = (await aptos.waitForTransaction({
    transactionHash: pending.hash,
    options: { checkSuccess: false }
  })) as any
  expect(done.success, `${fn}: ${done.vm_status}`).toBe(true)
  return done
}

/** APT from `signer` to a new account, waited for (the transaction's response). */
export const transferToNewAccount = async (aptos: Aptos, signer: Account, amount: number) => {
  const transaction = await aptos.transferCoinTransaction({
    sender: signer.accountAddress,
    recipient: Account.generate().accountAddress,
    amount
  })
  const pending = await aptos.signAndSubmitTransaction({ signer, transaction })
  return aptos.waitForTransaction({ transactionHash: pending.hash })
}
