/**
 * The transaction endpoints over HTTP, against a local chain in process (manual mining, so the
 * pending state can be looked at): submit as BCS and as JSON, by_hash (pending, then committed,
 * then unknown), wait_by_hash (its timeout, unknown and discarded transactions), batches, and the
 * reference's errors.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { Bcs, toHex } from "../../src/bcs/index.js"
import { ed25519AuthKey } from "../../src/chain/buildLocalGenesis.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { type AccountAddress, addressFromNumber, addressToLongString } from "../../src/domain/AccountAddress.js"
import { transactionHashOfBytes } from "../../src/domain/hash.js"
import { signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { signingMessage } from "../../src/domain/signingMessage.js"
import type { RawTransaction, SignedTransaction } from "../../src/domain/Transaction.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"
import { transferPayload } from "../execution/fixtures.js"

const BCS_BODY = "application/x.aptos.signed_transaction+bcs"

const transfer = (
  privateKey: Uint8Array,
  sequenceNumber: bigint,
  amount = 5n,
  { to = addressFromNumber(0xb0b), maxGasAmount = 200_000n }: { to?: AccountAddress; maxGasAmount?: bigint } = {}
): SignedTransaction => {
  const publicKey = ed25519.getPublicKey(privateKey)
  const raw: RawTransaction = {
    sender: ed25519AuthKey(publicKey),
    sequenceNumber,
    payload: transferPayload(to, amount),
    maxGasAmount,
    gasUnitPrice: 100n,
    expirationTimestampSecs: BigInt(Math.floor(Date.now() / 1000) + 600),
    chainId: 4
  }
  return {
    rawTransaction: raw,
    authenticator: { _tag: "Ed25519", publicKey, signature: ed25519.sign(signingMessage(raw), privateKey) }
  }
}

const hashOf = (t: SignedTransaction) =>
  `0x${toHex(transactionHashOfBytes(Uint8Array.of(0, ...Bcs.encode(signedTransactionCodec, t))))}`

const call = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const r = await fetch(url, init)
    const text = await r.text()
    return { status: r.status, body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>) }
  })

const submit = (chain: LocalChainInfo, t: SignedTransaction) =>
  call(`${chain.apiUrl}/transactions`, {
    method: "POST",
    headers: { "content-type": BCS_BODY },
    body: Bcs.encode(signedTransactionCodec, t)
  })

const bytes = (url: string) =>
  Effect.promise(async () => {
    const r = await fetch(url, { headers: { accept: "application/x-bcs" } })
    return { status: r.status, body: new Uint8Array(await r.arrayBuffer()) }
  })

const withChain = <A, E>(f: (chain: LocalChainInfo) => Effect.Effect<A, E>) =>
  Effect.scoped(Effect.flatMap(LocalChain.spawn({ accounts: 2, mining: MiningMode.manual }), f))

describe("the transaction endpoints", () => {
  it.live("submit (BCS) answers 202 with the pending transaction; by_hash shows it pending, then committed", () =>
    withChain((chain) =>
      Effect.gen(function* () {
        yield* chain.mine // the first block ends genesis's epoch
        const t = transfer(chain.accounts[0]!.privateKey, 0n)
        const submitted = yield* call(`${chain.apiUrl}/transactions`, {
          method: "POST",
          headers: { "content-type": BCS_BODY },
          body: Bcs.encode(signedTransactionCodec, t)
        })
        assert.strictEqual(submitted.status, 202)
        assert.strictEqual(submitted.body!.type, "pending_transaction")
        assert.strictEqual(submitted.body!.hash, hashOf(t))
        assert.strictEqual(submitted.body!.sender, addressToLongString(t.rawTransaction.sender))
        const pending = yield* call(`${chain.apiUrl}/transactions/by_hash/${hashOf(t)}`)
        assert.deepStrictEqual(pending, { status: 200, body: submitted.body })
        // BCS: the reference's TransactionData enum, Pending (1) with the SignedTransaction.
        assert.deepStrictEqual(yield* bytes(`${chain.apiUrl}/transactions/by_hash/${hashOf(t)}`), {
          status: 200,
          body: Uint8Array.of(1, ...Bcs.encode(signedTransactionCodec, t))
        })
        yield* chain.mine
        const committed = yield* call(`${chain.apiUrl}/transactions/by_hash/${hashOf(t).slice(2)}`)
        assert.strictEqual(committed.body!.type, "user_transaction")
        assert.strictEqual(committed.body!.success, true)
        const byVersion = yield* call(`${chain.apiUrl}/transactions/by_version/${committed.body!.version}`)
        assert.deepStrictEqual(byVersion.body, committed.body)
        const waited = yield* call(`${chain.apiUrl}/transactions/wait_by_hash/${hashOf(t)}`)
        assert.deepStrictEqual(waited.body, committed.body)
        // BCS: TransactionData::OnChain (0) + TransactionOnChainData, the list's element.
        const version = committed.body!.version as string
        const onChain = yield* bytes(`${chain.apiUrl}/transactions/by_hash/${hashOf(t)}`)
        assert.strictEqual(onChain.body[0], 0)
        const list = yield* bytes(`${chain.apiUrl}/transactions?start=${version}&limit=1`)
        assert.strictEqual(list.body[0], 1) // the vector's length
        assert.deepStrictEqual(onChain.body.slice(1), list.body.slice(1))
        assert.deepStrictEqual(yield* bytes(`${chain.apiUrl}/transactions/by_version/${version}`), onChain)
        assert.deepStrictEqual(yield* bytes(`${chain.apiUrl}/transactions/wait_by_hash/${hashOf(t)}`), onChain)
        const unknown = yield* call(`${chain.apiUrl}/transactions/by_hash/0x${"00".repeat(32)}`)
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.body!.error_code, "transaction_not_found")
        const bad = yield* call(`${chain.apiUrl}/transactions/by_hash/0x123`)
        assert.deepStrictEqual(bad, {
          status: 400,
          body: {
            message: 'failed to parse path `txn_hash`: failed to parse "string(HashValue)": unable to parse HashValue',
            error_code: "web_framework_error",
            vm_error_code: null
          }
        })
      })
    )
  )

  it.live("wait_by_hash waits for the block that commits a pending transaction", () =>
    withChain((chain) =>
      Effect.gen(function* () {
        yield* chain.mine
        const t = transfer(chain.accounts[1]!.privateKey, 0n)
        yield* call(`${chain.apiUrl}/transactions`, {
          method: "POST",
          headers: { "content-type": BCS_BODY },
          body: Bcs.encode(signedTransactionCodec, t)
        })
        const waiting = yield* Effect.forkChild(call(`${chain.apiUrl}/transactions/wait_by_hash/${hashOf(t)}`))
        yield* Effect.sleep(50)
        yield* chain.mine
        const waited = yield* Fiber.join(waiting)
        assert.strictEqual(waited.body!.type, "user_transaction")
      })
    )
  )

  it.live("wait_by_hash: an unknown hash is 404 at once, a transaction still pending after 1 s reads pending", () =>
    withChain((chain) =>
      Effect.gen(function* () {
        yield* chain.mine
        const unknown = yield* call(`${chain.apiUrl}/transactions/wait_by_hash/0x${"ab".repeat(32)}`)
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.body!.error_code, "transaction_not_found")
        assert.strictEqual(unknown.body!.message, `Transaction not found by Transaction hash(0x${"ab".repeat(32)})`)
        const t = transfer(chain.accounts[0]!.privateKey, 0n)
        assert.strictEqual((yield* submit(chain, t)).status, 202)
        // Manual mining: nothing commits it, so the wait ends at wait_by_hash_timeout_ms (1,000).
        const started = Date.now()
        const waited = yield* call(`${chain.apiUrl}/transactions/wait_by_hash/${hashOf(t)}`)
        assert.isAtLeast(Date.now() - started, 950)
        assert.strictEqual(waited.status, 200)
        assert.strictEqual(waited.body!.type, "pending_transaction")
        assert.strictEqual(waited.body!.hash, hashOf(t))
      })
    )
  )

  it.live(
    "a transaction its block discards is gone: by_hash and its waiter answer 404, a resubmission is refused",
    () =>
      withChain((chain) =>
        Effect.gen(function* () {
          yield* chain.mine
          // A new account with 0.03 APT: its second transfer passes admission (its sequence number is
          // ahead: parked) but not the prologue once the first has left less than its maximum fee
          // (20,000 gas units at 100 octas: 0.02 APT).
          const key = ed25519.utils.randomSecretKey()
          const address = ed25519AuthKey(ed25519.getPublicKey(key))
          assert.strictEqual(
            (yield* submit(chain, transfer(chain.accounts[0]!.privateKey, 0n, 3_000_000n, { to: address }))).status,
            202
          )
          yield* chain.mine
          const to = chain.accounts[1]!.address
          const spend = transfer(key, 0n, 2_500_000n, { to, maxGasAmount: 20_000n })
          const starved = transfer(key, 1n, 1n, { to, maxGasAmount: 20_000n })
          assert.strictEqual((yield* submit(chain, spend)).status, 202)
          assert.strictEqual((yield* submit(chain, starved)).status, 202)
          assert.strictEqual(
            (yield* call(`${chain.apiUrl}/transactions/by_hash/${hashOf(starved)}`)).body!.type,
            "pending_transaction"
          )
          const waiting = yield* Effect.forkChild(call(`${chain.apiUrl}/transactions/wait_by_hash/${hashOf(starved)}`))
          yield* Effect.sleep(50)
          const block = yield* chain.mine
          const waited = yield* Fiber.join(waiting)
          const gone = {
            status: 404,
            body: {
              message: `Transaction not found by Transaction hash(${hashOf(starved)})`,
              error_code: "transaction_not_found",
              vm_error_code: null
            }
          }
          assert.deepStrictEqual(waited, gone)
          assert.deepStrictEqual(yield* call(`${chain.apiUrl}/transactions/by_hash/${hashOf(starved)}`), gone)
          const spent = yield* call(`${chain.apiUrl}/transactions/by_hash/${hashOf(spend)}`)
          assert.strictEqual(spent.body!.success, true)
          assert.strictEqual(BigInt(spent.body!.version as string) <= block.lastVersion, true)
          const account = yield* call(`${chain.apiUrl}/accounts/${addressToLongString(address)}`)
          assert.strictEqual(account.body!.sequence_number, "1")
          // Submitted again, the prologue now refuses it at admission.
          assert.deepStrictEqual(yield* submit(chain, starved), {
            status: 400,
            body: {
              message: "Invalid transaction: Type: Validation Code: INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE",
              error_code: "vm_error",
              vm_error_code: 5
            }
          })
        })
      )
  )

  it.live("answers errors in the reference's shape: undecodable BCS, a refused transaction, a batch", () =>
    withChain((chain) =>
      Effect.gen(function* () {
        const garbage = yield* call(`${chain.apiUrl}/transactions`, {
          method: "POST",
          headers: { "content-type": BCS_BODY },
          body: Uint8Array.of(1, 2, 3)
        })
        assert.deepStrictEqual(garbage, {
          status: 400,
          body: {
            message: "Failed to deserialize input into SignedTransaction: unexpected end of input",
            error_code: "invalid_input",
            vm_error_code: null
          }
        })
        const t = transfer(chain.accounts[0]!.privateKey, 0n)
        const forged = { ...t, rawTransaction: { ...t.rawTransaction, maxGasAmount: 199_999n } }
        const refused = yield* call(`${chain.apiUrl}/transactions`, {
          method: "POST",
          headers: { "content-type": BCS_BODY },
          body: Bcs.encode(signedTransactionCodec, forged)
        })
        assert.deepStrictEqual(refused, {
          status: 400,
          body: {
            message: "Invalid transaction: Type: Validation Code: INVALID_SIGNATURE",
            error_code: "vm_error",
            vm_error_code: 1
          }
        })
        const batch = yield* call(`${chain.apiUrl}/transactions/batch`, {
          method: "POST",
          headers: { "content-type": BCS_BODY },
          body: Bcs.encode(Bcs.vector(signedTransactionCodec), [t, forged])
        })
        assert.strictEqual(batch.status, 206)
        assert.deepStrictEqual(batch.body, {
          transaction_failures: [
            {
              error: {
                message: "Invalid transaction: Type: Validation Code: INVALID_SIGNATURE",
                error_code: "vm_error",
                vm_error_code: 1
              },
              transaction_index: 1
            }
          ]
        })
      })
    )
  )

  it.live("instant mining waits out its delay for a reader, not for a client waiting with wait_by_hash", () =>
    Effect.scoped(
      Effect.gen(function* () {
        // A 10 s delay: anything committed sooner was made at the waiter's request.
        const chain = yield* LocalChain.spawn({ accounts: 1, mining: MiningMode.instant(10_000) })
        yield* chain.mine // the first block ends genesis's epoch
        const t = transfer(chain.accounts[0]!.privateKey, 0n)
        const submitted = yield* call(`${chain.apiUrl}/transactions`, {
          method: "POST",
          headers: { "content-type": BCS_BODY },
          body: Bcs.encode(signedTransactionCodec, t)
        })
        assert.strictEqual(submitted.status, 202)
        yield* Effect.sleep(200)
        const pending = yield* call(`${chain.apiUrl}/transactions/by_hash/${hashOf(t)}`)
        assert.strictEqual(pending.body!.type, "pending_transaction")
        const started = Date.now()
        const waited = yield* call(`${chain.apiUrl}/transactions/wait_by_hash/${hashOf(t)}`)
        assert.strictEqual(waited.body!.type, "user_transaction")
        assert.strictEqual(waited.body!.success, true)
        assert.isBelow(Date.now() - started, 5_000)
      })
    )
  )
})
