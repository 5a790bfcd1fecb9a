// The indexer's worker (the build's dist/bin/indexerWorker.js) that dies once, for
// workerRestart.test.ts: the first message tagged MOVENODE_TEST_DIE_ON that arrives while the file
// MOVENODE_TEST_DIE_ARMED exists ends this worker thread (exit code 3) before the worker acts on it,
// and removes that file, so the worker started after it runs as the real one.
import { existsSync, rmSync } from "node:fs"
import { parentPort } from "node:worker_threads"

const tag = process.env.MOVENODE_TEST_DIE_ON
const armed = process.env.MOVENODE_TEST_DIE_ARMED
// The check goes in front of the worker's own listener, when it attaches it: a listener attached
// here first would start the port early and take the messages sent before the worker is ready.
const on = parentPort.on.bind(parentPort)
parentPort.on = (event, listener) =>
  on(
    event,
    event !== "message"
      ? listener
      : (message) => {
          if (message?._tag === tag && armed !== undefined && existsSync(armed)) {
            rmSync(armed)
            process.exit(3)
          }
          listener(message)
        }
  )
await import("../../dist/bin/indexerWorker.js")
