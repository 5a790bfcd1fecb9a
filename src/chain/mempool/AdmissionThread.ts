/**
 * Mempool admission's validation on a worker thread (issue 22: ≥ 2,500 transfers/s on 2 cores).
 * Admitting a submission costs the chain's event loop ~0.1 ms — the signature, the gas checks and
 * the prologue run in the VM — and the event loop, which also executes and commits the blocks, is
 * what bounds a 2-core machine's throughput. Over an LMDB ledger the validation moves to one worker
 * thread (`admissionWorker.ts`) with its own VM, reading the same store; the event loop keeps the
 * decisions that must be made in one place, on the latest state (the sequence-number check, the
 * test controls' impersonation, the pool).
 *
 * The submissions of one event-loop turn travel as one batch (one buffer, copied); each
 * verdict comes back with whether its signature verified, which the chain's thread remembers so
 * the block does not verify it again. The mempool hands submissions here only while they come fast
 * (`MempoolConfig.offThreadFromPerSecond`): below that rate validating on the event loop costs it
 * a few % of a core and answers sooner (no thread to wake). The worker starts with the first
 * submission handed to it, so a chain that is never loaded (most test suites) never pays for the
 * thread (~25 MB, and ~0.1 s of a core while the chain starts: the first funded account took
 * ~100 ms longer). Until it is ready (~0.2 s), if it has died, or when it cannot start at all,
 * `submit` says so and the caller validates on its own thread, as without a worker: nothing waits
 * for it and nothing is lost with it.
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { type ResourceLimits, Worker } from "node:worker_threads"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { closeWorker } from "../../closeWorker.js"
import {
  ADMISSION_WORKER_CLOSE,
  ADMISSION_WORKER_READY,
  type AdmissionBatch,
  type AdmissionVerdicts,
  type AdmissionWorkerData,
  UNDECIDED,
  VALID
} from "./admissionWorkerProtocol.js"

/**
 * A worker's verdict on one submission: `status` undefined when valid, else the VM status code it
 * was refused with; `signatureVerified` when its Ed25519 signature verified there.
 */
export interface AdmissionVerdict {
  readonly status: number | undefined
  readonly signatureVerified: boolean
}

/** Called once with the verdict, or undefined when the worker could not decide (validate in-thread). */
export type AdmissionCallback = (verdict: AdmissionVerdict | undefined) => void

export interface AdmissionThreadService {
  /**
   * Hands `signedBcs` to the worker for validation on the state at `version`; `done` is called
   * once, in a later turn. False (and `done` never called) when the worker cannot take it now: the
   * caller validates the transaction itself.
   */
  readonly submit: (signedBcs: Uint8Array, version: bigint, done: AdmissionCallback) => boolean
  /**
   * Starts the worker now (it otherwise starts with the first submission) and resolves once it is
   * ready: true, or false when it could not start within `timeoutMs`.
   */
  readonly warmUp: (timeoutMs?: number) => Promise<boolean>
  /** Verdicts the worker gave so far (diagnostics; tests). */
  readonly verdicts: () => number
}

export class AdmissionThread extends Context.Service<AdmissionThread, AdmissionThreadService>()(
  "movenode/chain/AdmissionThread"
) {
  /**
   * The worker over the LMDB store at `path`, closed with the layer's scope; what goes wrong with
   * it is logged (a warning) unless `log` is given.
   */
  static readonly layer = (options: AdmissionWorkerOptions): Layer.Layer<AdmissionThread> =>
    Layer.effect(
      AdmissionThread,
      Effect.gen(function* () {
        const services = yield* Effect.context<never>()
        const log = options.log ?? ((line: string) => void Effect.runForkWith(services)(Effect.logWarning(line)))
        const thread = yield* Effect.acquireRelease(
          Effect.sync(() => new AdmissionWorkerThread({ ...options, log })),
          (thread) => Effect.promise(() => thread.close())
        )
        return AdmissionThread.of({
          submit: (bytes, version, done) => thread.submit(bytes, version, done),
          warmUp: (timeoutMs) => thread.warmUp(timeoutMs),
          verdicts: () => thread.verdicts
        })
      })
    )
}

/** The build's worker script beside this module (the bundle's `dist/bin/admissionWorker.js`), if built. */
export const defaultAdmissionWorkerUrl = (): URL | undefined => {
  const url = new URL("./admissionWorker.js", import.meta.url)
  return existsSync(fileURLToPath(url)) ? url : undefined
}

export interface AdmissionWorkerOptions extends AdmissionWorkerData {
  readonly workerUrl: URL
  readonly resourceLimits?: ResourceLimits | undefined
  readonly log?: ((line: string) => void) | undefined
}

/** Consecutive workers that died before being ready, after which validation stays on the chain's thread. */
const MAX_FAILED_STARTS = 3

interface Queued {
  readonly bytes: Uint8Array
  readonly done: AdmissionCallback
}

/** One worker thread, started by the first submission; batches in flight keyed by their id. */
class AdmissionWorkerThread {
  private worker: Worker | undefined
  private ready = false
  private failedStarts = 0
  private closed = false
  private nextId = 1
  /** The batch being gathered in this turn, all for `queuedVersion`. */
  private queued: Queued[] = []
  private queuedVersion = 0n
  private flushScheduled = false
  private readonly inFlight = new Map<number, ReadonlyArray<AdmissionCallback>>()
  /** Settles when the current worker is ready (true) or has exited first (false). */
  private started: Promise<boolean> = Promise.resolve(false)
  private settleStarted: (ready: boolean) => void = () => {}
  verdicts = 0

  constructor(private readonly options: AdmissionWorkerOptions) {}

  async warmUp(timeoutMs = 15_000): Promise<boolean> {
    if (this.closed || this.failedStarts >= MAX_FAILED_STARTS) return false
    if (this.ready) return true
    if (this.worker === undefined) this.start()
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs)
    })
    return Promise.race([this.started, timeout]).finally(() => clearTimeout(timer))
  }

  submit(bytes: Uint8Array, version: bigint, done: AdmissionCallback): boolean {
    if (this.closed || this.failedStarts >= MAX_FAILED_STARTS) return false
    if (this.worker === undefined) this.start()
    if (!this.ready) return false
    // A batch is validated on one state: a commit between two submissions starts another batch.
    if (this.queued.length > 0 && version !== this.queuedVersion) this.flush()
    this.queuedVersion = version
    this.queued.push({ bytes, done })
    if (!this.flushScheduled) {
      this.flushScheduled = true
      setImmediate(() => this.flush())
    }
    return true
  }

  private flush(): void {
    this.flushScheduled = false
    const queued = this.queued
    if (queued.length === 0) return
    this.queued = []
    const worker = this.worker
    if (worker === undefined || !this.ready) {
      for (const q of queued) q.done(undefined)
      return
    }
    let total = 0
    for (const q of queued) total += q.bytes.length
    // One buffer for the batch, exactly its size: a request body's bytes often sit in a larger
    // pooled buffer, which the structured clone would copy entire. It is copied, not transferred:
    // detaching an ArrayBuffer invalidates V8's "ArrayBufferDetaching" protector for the whole
    // isolate, which deoptimizes every compiled function that relied on it (~50 on this thread,
    // at the moment the worker first starts: mid warm-up) and adds a detached check to all typed
    // array code compiled after. Copying a batch of a few KB costs microseconds.
    const bytes = new Uint8Array(total)
    const ends = new Uint32Array(queued.length)
    let at = 0
    for (const [i, q] of queued.entries()) {
      bytes.set(q.bytes, at)
      at += q.bytes.length
      ends[i] = at
    }
    const id = this.nextId++
    const batch: AdmissionBatch = { id, version: this.queuedVersion, bytes, ends }
    try {
      worker.postMessage(batch)
    } catch {
      for (const q of queued) q.done(undefined)
      return
    }
    this.inFlight.set(
      id,
      queued.map((q) => q.done)
    )
  }

  private start(): void {
    const worker = new Worker(this.options.workerUrl, {
      workerData: { path: this.options.path } satisfies AdmissionWorkerData,
      resourceLimits: this.options.resourceLimits
    })
    // The chain's scope closes it; a process that ends otherwise does not wait for it.
    worker.unref()
    this.worker = worker
    this.ready = false
    this.started = new Promise<boolean>((resolve) => {
      this.settleStarted = resolve
    })
    worker.on("message", (m: AdmissionVerdicts | typeof ADMISSION_WORKER_READY) => {
      if (m === ADMISSION_WORKER_READY) {
        this.ready = true
        this.failedStarts = 0
        this.settleStarted(true)
        return
      }
      const dones = this.inFlight.get(m.id)
      if (dones === undefined) return
      this.inFlight.delete(m.id)
      this.verdicts += dones.length
      for (const [i, done] of dones.entries()) {
        const status = m.status[i]!
        done(
          status === UNDECIDED
            ? undefined
            : { status: status === VALID ? undefined : status, signatureVerified: m.verified[i] === 1 }
        )
      }
    })
    worker.on("error", (e) => {
      this.options.log?.(`admission worker failed: ${e instanceof Error ? e.message : String(e)}`)
    })
    worker.on("exit", (code) => {
      this.settleStarted(false)
      if (this.worker !== worker) return
      this.worker = undefined
      // A worker that never got ready (no script, no store) would fail again: after a few, none.
      if (!this.ready && !this.closed) this.failedStarts++
      this.ready = false
      if (!this.closed && code !== 0)
        this.options.log?.(
          `admission worker exited with code ${code}; admissions validate on the chain's thread until another starts`
        )
      // What it held is validated on the chain's thread instead.
      const orphans = [...this.inFlight.values()]
      this.inFlight.clear()
      for (const dones of orphans) for (const done of dones) done(undefined)
    })
  }

  /** Asks the worker to close its store and exit; waits at most `timeoutMs`, then terminates it. */
  async close(timeoutMs = 2_000): Promise<void> {
    this.closed = true
    this.flush()
    if (this.worker !== undefined) await closeWorker(this.worker, ADMISSION_WORKER_CLOSE, timeoutMs)
  }
}
