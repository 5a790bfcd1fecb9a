/**
 * The checks' worker thread (started by `ChecksThread.ts`; bundled as dist/bin/checksWorker.js):
 * while a follower catches up, its main thread fetches, decodes and commits, and this thread runs
 * `checkTransactions` on the same transactions (the hashes and the accumulator root of each version
 * are most of a version's CPU), so both cores work.
 *
 * A job is a run of consecutive `TransactionOnChainData`s as received (`Vec<…>` BCS); it is decoded
 * here again (cheaper than sending objects across) and checked from the version and accumulator the
 * job gives, or from where the previous job ended. The answer is each transaction's info hash (the
 * accumulator's leaf the commit appends), or the first failed check's error.
 */
import { parentPort } from "node:worker_threads"
import * as Result from "effect/Result"
import type { Accumulator } from "../domain/MerkleAccumulator.js"
import { checkTransactions } from "./checkTransaction.js"
import { decodeSourceTransactions } from "./sourceBlock.js"
import type { ChecksJob, ChecksAnswer } from "./checksProtocol.js"

let next: { version: bigint; accumulator: Accumulator } | undefined

const answer = (job: ChecksJob): ChecksAnswer => {
  const from = job.start ?? next
  next = undefined
  if (from === undefined)
    return { id: job.id, _tag: "Failed", error: "SourceInvalid", text: "checks: a job continued no earlier job" }
  const decoded = decodeSourceTransactions(job.body)
  if (Result.isFailure(decoded))
    return {
      id: job.id,
      _tag: "Failed",
      error: "SourceInvalid",
      text: `the source's transactions do not decode: ${decoded.failure.message}`
    }
  const checked = checkTransactions(decoded.success, from.version, from.accumulator)
  if (!("infoHashes" in checked)) return { id: job.id, _tag: "Failed", error: checked._tag, text: checked.message }
  next = { version: from.version + BigInt(decoded.success.length), accumulator: checked.accumulator }
  // One buffer of 32-byte leaves, copied to the main thread, not transferred: detaching a buffer
  // would cost this thread's compiled hashing code its fast path (docs/architecture.md).
  const leaves = new Uint8Array(32 * checked.infoHashes.length)
  for (let i = 0; i < checked.infoHashes.length; i++) leaves.set(checked.infoHashes[i]!, 32 * i)
  return { id: job.id, _tag: "Checked", leaves }
}

parentPort?.on("message", (job: ChecksJob) => {
  parentPort!.postMessage(answer(job))
})
