import type { Worker } from "node:worker_threads"

/**
 * Asks a worker thread to finish (`closeMessage`: it closes what it holds and exits) and waits for
 * it to exit; one that has not exited after `timeoutMs` is terminated. The view workers, the
 * indexer's worker and the mempool's admission worker close this way.
 */
export const closeWorker = async (worker: Worker, closeMessage: unknown, timeoutMs: number): Promise<void> => {
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()))
  worker.postMessage(closeMessage)
  const timer = setTimeout(() => void worker.terminate(), timeoutMs)
  await exited
  clearTimeout(timer)
}
