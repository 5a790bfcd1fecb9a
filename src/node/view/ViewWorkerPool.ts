import { type ResourceLimits, Worker } from "node:worker_threads"
import type { ViewAnswer, ViewRequest } from "../Node.js"
import type { ViewError } from "./executeView.js"
import {
  type ViewJob,
  type ViewJobResult,
  type ViewWorkerData,
  WORKER_CLOSE,
  WORKER_READY
} from "./viewWorkerProtocol.js"

export type JobCallback = (result: { ok: true; answer: ViewAnswer } | { ok: false; error: ViewError }) => void

export interface ViewWorkerPoolOptions {
  readonly threads: number
  readonly workerUrl: URL
  readonly data: ViewWorkerData
  /** Jobs waiting or running across the pool beyond which new ones are refused (503). */
  readonly maxInFlight: number
  readonly resourceLimits?: ResourceLimits | undefined
  readonly log?: ((line: string) => void) | undefined
}

interface Slot {
  worker: Worker | undefined
  ready: boolean
  /** Settles when the current worker is ready (true) or has exited first (false). */
  started: Promise<boolean>
  readonly jobs: Map<number, JobCallback>
}

/** Consecutive workers that died before being ready, after which the pool gives up (see `broken`). */
const MAX_FAILED_STARTS = 3

const failure = (status: 500 | 503, message: string): { ok: false; error: ViewError } => ({
  ok: false,
  error: { status, code: "internal_error", message, vmErrorCode: undefined }
})

/**
 * A fixed set of view worker threads, started by `warmUp` (or by the first job). A job goes to the worker with the
 * fewest jobs in flight; each job is answered exactly once: by its worker, or with a 500 when that
 * worker dies (an out-of-memory kill under `resourceLimits`, a crash), after which a fresh worker
 * takes its place on the next job. When workers keep dying before they are ready (a missing
 * worker script, an unopenable store) the pool reports itself `broken` and the caller runs views
 * on its own thread instead.
 */
export class ViewWorkerPool {
  private readonly slots: Slot[]
  private nextId = 1
  private inFlight = 0
  private failedStarts = 0
  private closed = false

  constructor(private readonly options: ViewWorkerPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.threads) }, () => ({
      worker: undefined,
      ready: false,
      started: Promise.resolve(false),
      jobs: new Map()
    }))
  }

  /** True once workers could not be started repeatedly: views should run on the caller's thread. */
  get broken(): boolean {
    return this.failedStarts >= MAX_FAILED_STARTS
  }

  /**
   * Starts every worker and waits until each has opened the store; false (workers stopped) when
   * one fails to start within `timeoutMs`.
   */
  async warmUp(timeoutMs = 15_000): Promise<boolean> {
    const ready = this.slots.map((slot) => {
      if (slot.worker === undefined) this.start(slot)
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs)
      })
      return Promise.race([slot.started, timeout]).finally(() => clearTimeout(timer))
    })
    const ok = (await Promise.all(ready)).every((r) => r)
    if (!ok) await this.close(0)
    return ok
  }

  /**
   * Sends a view to a worker; `done` is called exactly once, later. False (and `done` never called)
   * when the request cannot be sent to another thread at all (a structure too deep for the
   * structured clone): the caller runs it itself.
   */
  run(request: ViewRequest, version: bigint, latest: bigint, done: JobCallback): boolean {
    if (this.closed) {
      done(failure(503, "the node is shutting down"))
      return true
    }
    if (this.inFlight >= this.options.maxInFlight) {
      done(failure(503, `too many view requests in flight (${this.options.maxInFlight})`))
      return true
    }
    let slot = this.slots[0]!
    for (const s of this.slots) if (s.jobs.size < slot.jobs.size) slot = s
    const worker = slot.worker ?? this.start(slot)
    const id = this.nextId++
    const job: ViewJob = { id, request, version, latest }
    try {
      worker.postMessage(job)
    } catch {
      return false
    }
    // Registered after the post: the answer arrives on a later turn of the event loop.
    slot.jobs.set(id, done)
    this.inFlight++
    return true
  }

  private start(slot: Slot): Worker {
    const worker = new Worker(this.options.workerUrl, {
      workerData: this.options.data,
      resourceLimits: this.options.resourceLimits
    })
    worker.unref()
    slot.worker = worker
    slot.ready = false
    let settle: (ready: boolean) => void = () => {}
    slot.started = new Promise<boolean>((resolve) => {
      settle = resolve
    })
    worker.on("message", (m: ViewJobResult | typeof WORKER_READY) => {
      if (m === WORKER_READY) {
        slot.ready = true
        this.failedStarts = 0
        settle(true)
        return
      }
      const done = slot.jobs.get(m.id)
      if (done === undefined) return
      slot.jobs.delete(m.id)
      this.inFlight--
      done(m.ok ? { ok: true, answer: m.answer } : { ok: false, error: m.error })
    })
    worker.on("error", (e) => this.options.log?.(`view worker failed: ${e instanceof Error ? e.message : String(e)}`))
    worker.on("exit", (code) => {
      settle(false)
      if (slot.worker !== worker) return
      slot.worker = undefined
      if (!slot.ready && !this.closed) this.failedStarts++
      if (!this.closed && code !== 0) this.options.log?.(`view worker exited with code ${code}`)
      const orphans = [...slot.jobs.values()]
      slot.jobs.clear()
      this.inFlight -= orphans.length
      for (const done of orphans) done(failure(500, "the view worker stopped while running this view"))
    })
    return worker
  }

  /** Asks every worker to close its store and exit; waits at most `timeoutMs`, then terminates. */
  async close(timeoutMs = 2_000): Promise<void> {
    this.closed = true
    await Promise.all(
      this.slots.map(async (slot) => {
        const worker = slot.worker
        if (worker === undefined) return
        const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()))
        worker.postMessage(WORKER_CLOSE)
        const timer = setTimeout(() => void worker.terminate(), timeoutMs)
        await exited
        clearTimeout(timer)
      })
    )
  }
}
