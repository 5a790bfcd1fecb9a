// A stand-in view worker for ViewWorkerPool.test.ts, speaking the pool's protocol: a job whose
// JSON body names the function "oom" allocates until the worker's heap limit kills it (a real
// ERR_WORKER_OUT_OF_MEMORY); any other job busy-waits 20 ms (so later jobs queue behind it) and
// answers its function name.
import { parentPort } from "node:worker_threads"

parentPort.on("message", (job) => {
  if (job === "close") {
    parentPort.close()
    return
  }
  if (job.request.body.function === "oom") {
    const hog = []
    for (;;) hog.push(new Array(100_000).fill(hog.length))
  }
  const until = Date.now() + 20
  while (Date.now() < until) {}
  parentPort.postMessage({
    id: job.id,
    ok: true,
    answer: { json: [job.request.body.function], bcsValues: [], gasUsed: 1n }
  })
})
parentPort.postMessage("ready")
