/**
 * Entry point of a view worker thread (started by `ViewsWorkerLayer`). It opens the node's LMDB
 * store, keeps its own `MoveVm` (and so its own module cache), and answers `ViewJob`s with the same
 * executor the in-thread layer uses. It never writes to the store.
 */
import { parentPort, workerData } from "node:worker_threads"
import { openLmdbBackend } from "../../ledger/LmdbBackend.js"
import { stateReaderAt } from "../../ledger/stateReaderAt.js"
import { MoveVm } from "../../move/vm/MoveVm.js"
import { makeViewExecutor } from "./executeView.js"
import {
  type ViewJob,
  type ViewJobResult,
  type ViewWorkerData,
  WORKER_CLOSE,
  WORKER_READY
} from "./viewWorkerProtocol.js"

const port = parentPort
if (port === null) throw new Error("viewWorker.js runs only as a worker thread")
const data = workerData as ViewWorkerData
// The node that started this worker holds the directory's lock; its workers only read.
const backend = openLmdbBackend({ path: data.path, lock: false })
const execute = makeViewExecutor(new MoveVm(), {
  gasBudget: data.gasBudget,
  deadlineMs: data.deadlineMs,
  filter: data.filter
})
/** The newest version the current read snapshot is known to include. */
let seen = -1n

port.on("message", (job: ViewJob | typeof WORKER_CLOSE) => {
  if (job === WORKER_CLOSE) {
    // A read-only store: nothing in flight to wait for.
    void Promise.resolve(backend.close()).catch(() => undefined)
    port.close()
    return
  }
  if (job.latest > seen) {
    // Blocks were committed since our snapshot was taken: the next reads must see them.
    backend.refreshReads?.()
    seen = job.latest
  }
  const result = execute(job.request, stateReaderAt(backend, job.version), job.version)
  const reply: ViewJobResult =
    result._tag === "Success"
      ? { id: job.id, ok: true, answer: result.success }
      : { id: job.id, ok: false, error: result.failure }
  port.postMessage(reply)
})
port.postMessage(WORKER_READY)
