import { type ResourceLimits, Worker } from "node:worker_threads"
import { closeWorker } from "../../closeWorker.js"
import type { ViewAnswer, ViewRequest } from "../Views.js"
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

/** A job sent to a worker and not yet answered, kept whole so it can be sent again. */
interface Pending {
  readonly request: ViewRequest
  readonly version: bigint
  readonly latest: bigint
  readonly done: JobCallback
  /** Workers that died with this job queued behind another (see `start`'s exit handler). */
  readonly retries: number
}

interface Slot {
  worker: Worker | undefined
  ready: boolean
  /** Settles when the current worker is ready (true) or has exited first (false). */
  started: Promise<boolean>
  /** In the order sent, which is the order the worker runs them: the first is the one running. */
  readonly jobs: Map<number, Pending>
}

/** How often a job queued behind a view that killed its worker is sent to a fresh worker. */
const MAX_RETRIES = 3

/** Consecutive workers that died before being ready, after which the pool gives up (see `broken`). */
const MAX_FAILED_STARTS = 3

const failure = (status: 500 | 503, message: string): { ok: false; error: ViewError } => ({
  ok: false,
  error: { status, code: "internal_error", message, vmErrorCode: undefined }
})

/**
 * A fixed set of view worker threads, started by `warmUp` (or by the first job). A job goes to the worker with the
 * fewest jobs in flight; each job is answered exactly once. When a worker dies (an out-of-memory
 * kill under `resourceLimits`, a crash) a view fails alone: a worker runs its jobs one at a time in
 * the order sent, so the job it was running is the first unanswered one, and only that job is
 * answered 500; the jobs queued behind it never started and are sent again to a fresh worker
 * (views only read, so running one again is safe). When workers keep dying before they are ready (a missing
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
    return this.send({ request, version, latest, done, retries: 0 })
  }

  private send(pending: Pending): boolean {
    const { request, version, latest } = pending
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
    slot.jobs.set(id, pending)
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
      const pending = slot.jobs.get(m.id)
      if (pending === undefined) return
      slot.jobs.delete(m.id)
      this.inFlight--
      pending.done(m.ok ? { ok: true, answer: m.answer } : { ok: false, error: m.error })
    })
    let outOfMemory = false
    worker.on("error", (e) => {
      if ((e as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY") outOfMemory = true
      this.options.log?.(`view worker failed: ${e instanceof Error ? e.message : String(e)}`)
    })
    worker.on("exit", (code) => {
      settle(false)
      if (slot.worker !== worker) return
      slot.worker = undefined
      // A worker that never got ready (no script, no store) would fail again: nothing is re-sent.
      const wasReady = slot.ready
      if (!wasReady && !this.closed) this.failedStarts++
      if (!this.closed && code !== 0) this.options.log?.(`view worker exited with code ${code}`)
      const orphans = [...slot.jobs.values()]
      slot.jobs.clear()
      this.inFlight -= orphans.length
      // The first job was running when the worker died: it alone fails. The rest never started.
      const [running, ...queued] = orphans
      running?.done(
        failure(
          500,
          outOfMemory
            ? "the view ran out of memory (its worker's heap limit) and was stopped"
            : "the view worker stopped while running this view"
        )
      )
      for (const job of queued) {
        if (this.closed || !wasReady || job.retries >= MAX_RETRIES) {
          job.done(failure(this.closed ? 503 : 500, "the view worker stopped before running this view"))
          continue
        }
        if (!this.send({ ...job, retries: job.retries + 1 }))
          job.done(failure(500, "the view worker stopped before running this view"))
      }
    })
    return worker
  }

  /** Asks every worker to close its store and exit; waits at most `timeoutMs`, then terminates. */
  async close(timeoutMs = 2_000): Promise<void> {
    this.closed = true
    await Promise.all(
      this.slots.map((slot) =>
        slot.worker === undefined ? undefined : closeWorker(slot.worker, WORKER_CLOSE, timeoutMs)
      )
    )
  }
}
