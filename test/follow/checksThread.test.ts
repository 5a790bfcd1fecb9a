import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { checkTransactions } from "../../src/follow/checkTransaction.js"
import { startChecksThread } from "../../src/follow/ChecksThread.js"
import { SourceDiverged, SourceInvalid } from "../../src/follow/FollowError.js"
import { decodeSourceBlock, decodeSourceTransactions, type SourceTransaction } from "../../src/follow/sourceBlock.js"
import { emptyAccumulator } from "../../src/domain/MerkleAccumulator.js"
import { LocalChain } from "../../src/LocalChain.js"

/**
 * The checks' worker (`checksWorker.ts`, built by `npm run build` as CI and land do) answers what
 * the main thread's checks answer: the same info hashes for transactions as sent, runs continued
 * from where the previous one ended, and the same refusals for a changed byte or a history that
 * does not continue the follower's (so catching up on the worker refuses what following refuses).
 */
const workerUrl = new URL("../../dist/follow/checksWorker.js", import.meta.url)

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

/** The chain's blocks 0..head in BCS, decoded as a follower receives them. */
const blocksOf = (apiUrl: string) =>
  Effect.promise(async () => {
    const head = BigInt(((await (await fetch(apiUrl)).json()) as { block_height: string }).block_height)
    const out = []
    for (let h = 0n; h <= head; h++) {
      const r = await fetch(`${apiUrl}/blocks/by_height/${h}?with_transactions=true`, {
        headers: { accept: "application/x-bcs" }
      })
      out.push(Result.getOrThrow(decodeSourceBlock(new Uint8Array(await r.arrayBuffer()))))
    }
    return out
  })

/** `t` with the last byte of its write set flipped, as received (decoded again from the changed bytes). */
const tampered = (t: SourceTransaction): SourceTransaction => {
  const all = t.bytes.all.slice()
  const at = t.bytes.writeSet.byteOffset - t.bytes.all.byteOffset + t.bytes.writeSet.length - 1
  all[at] = all[at]! ^ 1
  return Result.getOrThrow(decodeSourceTransactions(Uint8Array.of(1, ...all)))[0]!
}

describe("the checks' worker", () => {
  it.live(
    "checks runs as the main thread does, continues a run, and refuses a changed byte or another history",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const chain = yield* LocalChain.spawn({ accounts: 2, mining: MiningMode.still() })
          for (let i = 1; i <= 4; i++)
            yield* Effect.promise(() =>
              fetch(`${chain.faucetUrl}/fund`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ address: `0x${(0xd0 + i).toString(16).padStart(64, "0")}`, amount: i })
              })
            )
          yield* Effect.sleep(150)
          const blocks = yield* blocksOf(chain.apiUrl)
          const all = blocks.flatMap((b) => b.transactions ?? [])
          assert.isAtLeast(all.length, 5)
          const expected = checkTransactions(all, 0n, emptyAccumulator)
          assert.isTrue("infoHashes" in expected)
          if (!("infoHashes" in expected)) return
          const genesis = checkTransactions(all.slice(0, 1), 0n, emptyAccumulator)
          if (!("infoHashes" in genesis)) return assert.fail("genesis")

          const worker = yield* Effect.acquireRelease(
            Effect.sync(() => startChecksThread(workerUrl)),
            (t) => Effect.promise(() => t.close())
          )
          // From after the genesis, in two runs (the second continues the first).
          const cut = 3
          const [one, two] = yield* Effect.promise(() =>
            Promise.all([
              worker.check(all.slice(1, cut), { version: 1n, accumulator: genesis.accumulator }),
              worker.check(all.slice(cut), undefined)
            ])
          )
          assert.isTrue(Array.isArray(one) && Array.isArray(two))
          assert.deepStrictEqual(
            [...(one as Uint8Array[]), ...(two as Uint8Array[])].map(hex),
            expected.infoHashes.slice(1).map(hex)
          )

          // A changed byte of a write set: refused as the main thread refuses it.
          const bad = all.slice(1)
          bad[1] = tampered(bad[1]!)
          const refused = yield* Effect.promise(() =>
            worker.check(bad, { version: 1n, accumulator: genesis.accumulator })
          )
          assert.instanceOf(refused, SourceInvalid)
          assert.match((refused as SourceInvalid).message, /write set hashes to/)
          const inThread = checkTransactions(bad, 1n, genesis.accumulator)
          assert.strictEqual((refused as SourceInvalid).message, (inThread as SourceInvalid).message)

          // Transactions that do not continue the given accumulator: another history.
          const diverged = yield* Effect.promise(() =>
            worker.check(all.slice(1), {
              version: 1n,
              accumulator: { frozen: [new Uint8Array(32).fill(7)], leaves: 1n }
            })
          )
          assert.instanceOf(diverged, SourceDiverged)

          // After a refusal nothing is continued: a run must say where it starts again.
          const orphan = yield* Effect.promise(() => worker.check(all.slice(1), undefined))
          assert.instanceOf(orphan, SourceInvalid)

          // Bytes that do not decode.
          const garbage = { ...all[1]!, bytes: { ...all[1]!.bytes, all: new Uint8Array([1, 2, 3]) } }
          const undecoded = yield* Effect.promise(() =>
            worker.check([garbage], { version: 1n, accumulator: genesis.accumulator })
          )
          assert.instanceOf(undecoded, SourceInvalid)
          assert.match((undecoded as SourceInvalid).message, /do not decode/)

          // Closed: every later run answers undefined (the caller checks on its own thread).
          yield* Effect.promise(() => worker.close())
          assert.isUndefined(yield* Effect.promise(() => worker.check(all.slice(1), undefined)))
        })
      ),
    60_000
  )
})
