/**
 * The mining mode changed while the chain runs (evm_setAutomine, evm_setIntervalMining) and the
 * pool's controls (txpool_content, anvil_dropTransaction, anvil_dropAllTransactions), through the
 * controls' HTTP API on a local chain, with transactions the TypeScript SDK signs.
 */
import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } from "@aptos-labs/ts-sdk"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { afterAll, beforeAll, expect, it } from "vitest"
import { LocalChain } from "../../src/LocalChain.js"
import { defaultSubmissionsConfig, SubmissionsConfig } from "../../src/node/Submissions.js"
import { ControlsError, RunningLocalChain } from "../../src/testing/index.js"

let chain: RunningLocalChain
let aptos: Aptos
let alice: Account
let bob: Account

beforeAll(async () => {
  // wait_by_hash waits longer than the test may run (1 s by default): a waiter is answered at the
  // drop only because the drop is announced, not because its wait ran out.
  const scope = Effect.runSync(Scope.make())
  const info = await Effect.runPromise(
    Scope.provide(scope)(
      Effect.provideService(LocalChain.spawn({ accounts: 2 }), SubmissionsConfig, {
        ...defaultSubmissionsConfig,
        waitTimeoutMs: 600_000
      })
    )
  )
  chain = new RunningLocalChain(info, () => Effect.runPromise(Scope.close(scope, Exit.void)))
  aptos = new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.info.apiUrl }))
  alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.info.accounts[0]!.privateKey) })
  bob = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.info.accounts[1]!.privateKey) })
}, 60_000)
afterAll(() => chain.stop())

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const sequenceNumber = async () =>
  BigInt((await aptos.getAccountInfo({ accountAddress: alice.accountAddress })).sequence_number)

/** Submits a transfer from alice at `seq` (not waited for); answers its hash. */
const submit = async (seq: bigint, amount = 1) => {
  const transaction = await aptos.transferCoinTransaction({
    sender: alice.accountAddress,
    recipient: bob.accountAddress,
    amount,
    options: { accountSequenceNumber: seq, maxGasAmount: 20_000 }
  })
  return (await aptos.signAndSubmitTransaction({ signer: alice, transaction })).hash
}

/** The ledger's info from the node itself (the SDK's `getLedgerInfo` keeps its answer a while). */
const ledgerInfo = async () =>
  (await (await fetch(chain.info.apiUrl)).json()) as { ledger_version: string; block_height: string }
const ledgerVersion = async () => BigInt((await ledgerInfo()).ledger_version)

const byHashStatus = async (hash: string) =>
  (await (await fetch(`${chain.info.apiUrl}/transactions/by_hash/${hash}`)).json()) as {
    type?: string
    error_code?: string
  }

/** Runs `body` with automatic mining off (blocks only from `mine`), then turns it back on. */
const byHand = async (body: () => Promise<void>) => {
  await chain.setAutomine(false)
  try {
    await body()
  } finally {
    await chain.setAutomine(true)
  }
}

it("manual mining holds transactions in the pool until mined, then puts them in one block", async () => {
  expect((await chain.controls.mining()).mode).toBe("instant")
  await byHand(async () => {
    expect(await chain.controls.mining()).toEqual({
      mode: "manual",
      delay_ms: null,
      idle_block_ms: null,
      interval_ms: null
    })
    const seq = await sequenceNumber()
    const hashes = [await submit(seq), await submit(seq + 1n), await submit(seq + 2n)]
    const before = await ledgerVersion()
    // Idle blocks (1 s) and instant blocks both stop: nothing commits on its own.
    await sleep(1300)
    expect(await ledgerVersion()).toBe(before)
    const pool = await chain.controls.mempool()
    expect(pool.count).toBe(3)
    expect(pool.transactions.map((t) => t.hash)).toEqual(hashes)
    expect(pool.transactions.map((t) => [t.sequence_number, t.ready])).toEqual([
      [String(seq), true],
      [String(seq + 1n), true],
      [String(seq + 2n), true]
    ])
    expect(pool.transactions[0]!.sender).toBe(alice.accountAddress.toStringLong())
    for (const h of hashes) expect((await byHashStatus(h)).type).toBe("pending_transaction")

    await chain.mine(1)
    const committed = await Promise.all(hashes.map((h) => aptos.getTransactionByHash({ transactionHash: h })))
    const versions = committed.map((t) => BigInt((t as { version: string }).version))
    const block = await aptos.getBlockByVersion({ ledgerVersion: versions[0]! })
    expect(BigInt(block.first_version) <= versions[0]! && versions[2]! <= BigInt(block.last_version)).toBe(true)
    expect((await chain.controls.mempool()).count).toBe(0)
  })
}, 60_000)

it("a dropped transaction never commits, its waiter is answered 404, and its sender's next waits for the gap", async () => {
  await byHand(async () => {
    const seq = await sequenceNumber()
    const first = await submit(seq, 5)
    const second = await submit(seq + 1n, 6)
    const waiting = fetch(`${chain.info.apiUrl}/transactions/wait_by_hash/${first}`)
    await sleep(50)
    expect(await chain.controls.dropTransaction(first)).toEqual({ dropped: [first] })
    expect((await waiting).status).toBe(404)
    expect((await byHashStatus(first)).error_code).toBe("transaction_not_found")
    const pool = await chain.controls.mempool()
    expect(pool.transactions.map((t) => [t.hash, t.ready])).toEqual([[second, false]])
    // Dropping it again: it is not pending.
    const again = await chain.controls.dropTransaction(first).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(again).toBeInstanceOf(ControlsError)
    expect((again as ControlsError).status).toBe(404)
    expect((again as ControlsError).errorCode).toBe("transaction_not_found")

    // A block now has nothing ready: the gap holds the second back.
    const before = await ledgerVersion()
    await chain.mine(1)
    expect((await chain.controls.mempool()).transactions.map((t) => t.hash)).toEqual([second])
    expect((await byHashStatus(second)).type).toBe("pending_transaction")
    expect(await ledgerVersion()).toBe(before + 2n) // block metadata and block end only

    // The gap filled by another transaction at that number: both commit, the dropped one never.
    const replacement = await submit(seq, 7)
    await chain.mine(1)
    expect((await byHashStatus(replacement)).type).toBe("user_transaction")
    expect((await byHashStatus(second)).type).toBe("user_transaction")
    expect((await byHashStatus(first)).error_code).toBe("transaction_not_found")
  })
}, 60_000)

it("a sender's pending transactions, then the whole pool, are dropped", async () => {
  await byHand(async () => {
    const seq = await sequenceNumber()
    const mine = [await submit(seq), await submit(seq + 1n)]
    // Another sender's transaction stays.
    const other = await aptos.transferCoinTransaction({
      sender: bob.accountAddress,
      recipient: alice.accountAddress,
      amount: 1,
      options: { maxGasAmount: 20_000 }
    })
    const bobs = (await aptos.signAndSubmitTransaction({ signer: bob, transaction: other })).hash
    const bySender = await chain.controls.dropSenderTransactions(alice.accountAddress.toString())
    expect([...bySender.dropped].sort()).toEqual([...mine].sort())
    expect((await chain.controls.mempool()).transactions.map((t) => t.hash)).toEqual([bobs])
    expect(await chain.controls.dropSenderTransactions(alice.accountAddress.toString())).toEqual({ dropped: [] })

    const hashes = [bobs, await submit(seq)]
    const answer = await chain.controls.dropAllTransactions()
    expect([...answer.dropped].sort()).toEqual([...hashes].sort())
    expect(await chain.controls.mempool()).toEqual({ count: 0, transactions: [] })
    expect(await sequenceNumber()).toBe(seq)
    expect(await chain.controls.dropAllTransactions()).toEqual({ dropped: [] })
  })
}, 60_000)

it("interval mining makes blocks on its own, and instant mining comes back", async () => {
  await chain.setIntervalMining(100)
  try {
    expect(await chain.controls.mining()).toEqual({
      mode: "interval",
      delay_ms: null,
      idle_block_ms: null,
      interval_ms: 100
    })
    const height = async () => BigInt((await ledgerInfo()).block_height)
    const start = await height()
    const deadline = Date.now() + 10_000
    while ((await height()) < start + 3n && Date.now() < deadline) await sleep(50)
    expect(await height()).toBeGreaterThanOrEqual(start + 3n)
  } finally {
    await chain.setAutomine(true)
  }
  expect(await chain.controls.mining()).toEqual({
    mode: "instant",
    delay_ms: 20,
    idle_block_ms: 1000,
    interval_ms: null
  })
  // Instant again: a transfer commits without anyone mining.
  const hash = await submit(await sequenceNumber())
  const done = await aptos.waitForTransaction({ transactionHash: hash })
  expect(done.success).toBe(true)
}, 60_000)

it("an out-of-range mode is refused and leaves the mode as it was", async () => {
  const refused = await chain.controls.setMining({ mode: "interval", intervalMs: 0 }).then(
    () => undefined,
    (e: unknown) => e
  )
  expect((refused as ControlsError).status).toBe(400)
  expect((refused as ControlsError).message).toContain("interval_ms")
  expect((await chain.controls.mining()).mode).toBe("instant")
})
