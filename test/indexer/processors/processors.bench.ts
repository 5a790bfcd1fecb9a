/**
 * What indexing costs per transaction, outside the store: reading committed APT transfers as the
 * processors see them (`readIndexerBatch`: transactions, states, lazy Move JSON) and running every
 * processor on them (each decodes what it reads). Blocks of ~50 transfers, as the chain makes them
 * under load.
 *
 *   nice npx vitest bench --run test/indexer/processors/processors.bench.ts
 *
 * Divide a mean by TRANSFERS for one transaction.
 */
import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } from "@aptos-labs/ts-sdk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { afterAll, test } from "vitest"
import { testLocalChainConfig } from "../../../src/chain/LocalChainConfig.js"
import { processors } from "../../../src/indexer/processors/index.js"
import { makeIndexerInput } from "../../../src/indexer/processors/input/indexerTransactionOf.js"
import { blocksFrom, readIndexerBatch } from "../../../src/indexer/processors/input/readIndexerBatch.js"
import { Ledger } from "../../../src/ledger/Ledger.js"
import { LocalChain } from "../../../src/LocalChain.js"

const TRANSFERS = 400

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
const ctx = await Effect.runPromise(
  Layer.buildWithScope(LocalChain.layer({ ...testLocalChainConfig, accounts: 8 }), scope)
)
const chain = Context.get(ctx, LocalChain)
const ledger = Context.get(ctx, Ledger)
const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl }))
const senders = chain.accounts.map((a) => Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(a.privateKey) }))
const recipient = Account.generate().accountAddress
const firstVersion = BigInt((await aptos.getLedgerInfo()).ledger_version) + 1n
const hashes: string[] = []
// Signed with explicit sequence numbers and gas, submitted one after the other without waiting.
const sequence = new Map<Account, bigint>()
for (let i = 0; i < TRANSFERS; i++) {
  const s = senders[i % senders.length]!
  const accountSequenceNumber = sequence.get(s) ?? 0n
  sequence.set(s, accountSequenceNumber + 1n)
  const transaction = await aptos.transferCoinTransaction({
    sender: s.accountAddress,
    recipient,
    amount: 1,
    options: { accountSequenceNumber, gasUnitPrice: 100, maxGasAmount: 20_000 }
  })
  hashes.push((await aptos.signAndSubmitTransaction({ signer: s, transaction })).hash)
}
await aptos.waitForTransaction({ transactionHash: hashes[hashes.length - 1]! })
const blocks = await Effect.runPromise(blocksFrom(ledger, firstVersion, 100_000))
const input = makeIndexerInput()
const read = () => Effect.runPromise(readIndexerBatch(ledger, input, blocks))
const batch = (await read()).filter((t) => t.kind === "user")
if (batch.length < TRANSFERS) throw new Error(`only ${batch.length} transfers`)

test(`${batch.length} APT transfers in ${blocks.length} blocks`, async ({ bench }) => {
  await bench.compare(
    bench("readIndexerBatch (no value decoded)", async () => {
      await read()
    }),
    bench("readIndexerBatch + every processor", async () => {
      const fresh = await read()
      for (const p of processors) p.process(fresh)
    }),
    { time: 3_000 }
  )
}, 600_000)
