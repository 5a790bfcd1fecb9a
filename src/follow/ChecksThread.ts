/**
 * A follower's checks on a worker thread while it catches up (`checksWorker.ts` runs them): the
 * main thread sends each run of transactions as received and goes on committing the run before it;
 * the answer is each transaction's info hash (what the commit appends to the accumulator), or the
 * first failed check as the same `SourceInvalid` / `SourceDiverged` the in-thread checks give.
 *
 * Runs are checked in the order sent, each from the version and accumulator given, or from where
 * the previous one ended. Should the worker fail or exit, every open and later run answers
 * `undefined`: the caller checks it on its own thread then (nothing goes unchecked).
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import { BcsWriter } from "../bcs/index.js"
import type { Accumulator } from "../domain/MerkleAccumulator.js"
import type { ChecksAnswer, ChecksJob } from "./checksProtocol.js"
import { SourceDiverged, SourceInvalid } from "./FollowError.js"
import type { SourceTransaction } from "./sourceBlock.js"

export type ChecksResult = ReadonlyArray<Uint8Array> | SourceInvalid | SourceDiverged | undefined

export interface ChecksThread {
  /**
   * Checks `transactions` (consecutive) from `start`, or from where the previous run ended when
   * `start` is undefined (it must have passed). Resolves with their info hashes, the failed check,
   * or undefined when the worker is gone.
   */
  readonly check: (
    transactions: ReadonlyArray<SourceTransaction>,
    start: { readonly version: bigint; readonly accumulator: Accumulator } | undefined
  ) => Promise<ChecksResult>
  readonly close: () => Promise<void>
}

/** The build's worker script beside this module (the bundle's `dist/bin/checksWorker.js`), if built. */
export const defaultChecksWorkerUrl = (): URL | undefined => {
  const url = new URL("./checksWorker.js", import.meta.url)
  return existsSync(fileURLToPath(url)) ? url : undefined
}

/** `Vec<TransactionOnChainData>` of what was received, in one new buffer (the worker gets a copy). */
const bodyOf = (transactions: ReadonlyArray<SourceTransaction>): Uint8Array => {
  let size = 10
  for (const t of transactions) size += t.bytes.all.length
  const w = new BcsWriter(size)
  w.uleb128(transactions.length)
  for (const t of transactions) w.fixed(t.bytes.all)
  return w.toBytes()
}

export const startChecksThread = (url: URL, log?: (line: string) => void): ChecksThread => {
  const worker = new Worker(url)
  // A follower's process exits when its work is done, whatever this thread is doing.
  worker.unref()
  let gone = false
  let nextId = 0
  const open = new Map<number, (r: ChecksResult) => void>()
  const stop = (why: string) => {
    if (gone) return
    gone = true
    log?.(`follow: the checks' worker stopped (${why}); checking on the main thread`)
    for (const resolve of open.values()) resolve(undefined)
    open.clear()
  }
  worker.on("message", (m: ChecksAnswer) => {
    const resolve = open.get(m.id)
    if (resolve === undefined) return
    open.delete(m.id)
    if (m._tag === "Failed")
      resolve(
        m.error === "SourceDiverged" ? new SourceDiverged({ message: m.text }) : new SourceInvalid({ message: m.text })
      )
    else {
      const leaves: Uint8Array[] = new Array(m.leaves.length / 32)
      for (let i = 0; i < leaves.length; i++) leaves[i] = m.leaves.subarray(32 * i, 32 * i + 32)
      resolve(leaves)
    }
  })
  worker.on("error", (e) => stop(e.message))
  worker.on("exit", (code) => stop(`exit code ${code}`))

  const check: ChecksThread["check"] = (transactions, start) =>
    new Promise((resolve) => {
      if (gone) return resolve(undefined)
      const id = nextId++
      open.set(id, resolve)
      worker.postMessage({ id, start, body: bodyOf(transactions) } satisfies ChecksJob)
    })

  return {
    check,
    close: async () => {
      gone = true
      for (const resolve of open.values()) resolve(undefined)
      open.clear()
      await worker.terminate()
    }
  }
}
