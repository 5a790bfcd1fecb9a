/**
 * Admission's Ed25519 equations checked in batches on one worker thread (issue 22): the signatures
 * of the submissions that arrive in one event-loop turn go to the worker as one message (packed in
 * one transferred buffer) and come back as one message of verdicts. node:crypto's callback form
 * cost ~15 µs of event-loop time per signature (a thread-pool job set up, its completion
 * dispatched), 8–9 % of the loop's time in a flood; a batch costs one message each way.
 *
 *   verify(sig, pk, msg) ─► queue ─(setImmediate: the turn's last phase)─► pack ─► worker
 *                                                                               │ verify each
 *   resolve(verdict) ◄──────────────── verdicts (one byte each) ◄──────────────┘ (OpenSSL, sync)
 *
 * A verdict is advisory (see `preverifyStrictFast`): false means "not verified yet", and the
 * synchronous check that follows decides. So a worker that cannot start, dies or errs costs
 * nothing but speed: its pending verdicts resolve false, and later calls go to the thread pool.
 */
import { Worker } from "node:worker_threads"
import { type OffThreadVerify, threadPoolVerify } from "../../execution/signatures/ed25519Fast.js"

/**
 * The worker's program (CommonJS, evaluated: it needs only node:crypto, so it is not a bundle
 * entry of its own). Message in: `{ id, buffer, count }` with `count` records of
 * `u32 LE message length ‖ signature (64) ‖ public key (32) ‖ message`; out: `{ id, verdicts }`,
 * one byte per record (1 = the equation holds).
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads")
const { createPublicKey, verify } = require("node:crypto")
const SPKI_ED25519 = Buffer.from("302a300506032b6570032100", "hex")
const keys = new Map()
const keyOf = (pk) => {
  const hex = pk.toString("hex")
  let key = keys.get(hex)
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_ED25519, pk]), format: "der", type: "spki" })
    if (keys.size >= 4096) keys.clear()
    keys.set(hex, key)
  }
  return key
}
parentPort.on("message", ({ id, buffer, count }) => {
  const bytes = Buffer.from(buffer)
  const verdicts = new Uint8Array(count)
  let at = 0
  for (let i = 0; i < count; i++) {
    const length = bytes.readUInt32LE(at)
    const sig = bytes.subarray(at + 4, at + 68)
    const pk = bytes.subarray(at + 68, at + 100)
    const msg = bytes.subarray(at + 100, at + 100 + length)
    at += 100 + length
    try {
      verdicts[i] = verify(null, msg, keyOf(pk), sig) ? 1 : 0
    } catch {
      verdicts[i] = 0
    }
  }
  parentPort.postMessage({ id, verdicts }, [verdicts.buffer])
})
`

/** Records per message at most: a turn's flood of submissions is split into messages of this many. */
const MAX_BATCH = 512

interface Job {
  readonly sig: Uint8Array
  readonly pk: Uint8Array
  readonly msg: Uint8Array
  readonly resolve: (ok: boolean) => void
}

export class SignatureBatchVerifier {
  private queue: Job[] = []
  private flushScheduled = false
  private worker: Worker | undefined
  /** Set once the worker failed: every later call goes to the thread pool. */
  private broken = false
  private nextId = 0
  private readonly inFlight = new Map<number, ReadonlyArray<Job>>()

  /** Batches sent and signatures in them (for tests and benchmarks). */
  readonly stats = { batches: 0, signatures: 0 }

  /** The `OffThreadVerify` of this verifier (bound: pass it as a function). */
  readonly verify: OffThreadVerify = (sig, pk, msg) => {
    if (this.broken || sig.length !== 64 || pk.length !== 32) return threadPoolVerify(sig, pk, msg)
    return new Promise((resolve) => {
      this.queue.push({ sig, pk, msg, resolve })
      if (!this.flushScheduled) {
        this.flushScheduled = true
        setImmediate(this.flush)
      }
    })
  }

  /** Stops the worker; what it had not answered resolves false. */
  close(): Promise<void> {
    const w = this.worker
    this.worker = undefined
    this.broken = true
    this.failPending()
    return w === undefined ? Promise.resolve() : w.terminate().then(() => undefined)
  }

  private readonly flush = () => {
    this.flushScheduled = false
    const jobs = this.queue
    this.queue = []
    const worker = this.broken ? undefined : this.started()
    for (let from = 0; from < jobs.length; from += MAX_BATCH) {
      const batch = jobs.slice(from, from + MAX_BATCH)
      if (worker === undefined) {
        for (const j of batch) threadPoolVerify(j.sig, j.pk, j.msg).then(j.resolve)
        continue
      }
      let size = 0
      for (const j of batch) size += 100 + j.msg.length
      const bytes = Buffer.allocUnsafe(size)
      let at = 0
      for (const j of batch) {
        bytes.writeUInt32LE(j.msg.length, at)
        bytes.set(j.sig, at + 4)
        bytes.set(j.pk, at + 68)
        bytes.set(j.msg, at + 100)
        at += 100 + j.msg.length
      }
      const id = this.nextId++
      // Referenced while it owes verdicts (a caller awaits them), unreferenced when idle.
      if (this.inFlight.size === 0) worker.ref()
      this.inFlight.set(id, batch)
      this.stats.batches++
      this.stats.signatures += batch.length
      // A fresh copy of exactly `size` bytes: allocUnsafe may hand out a slice of a shared pool.
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + size)
      worker.postMessage({ id, buffer, count: batch.length }, [buffer])
    }
  }

  private started(): Worker | undefined {
    if (this.worker !== undefined) return this.worker
    try {
      const w = new Worker(WORKER_SOURCE, { eval: true })
      // Idle, never what keeps the process alive; it is stopped with the process.
      w.unref()
      w.on("message", ({ id, verdicts }: { id: number; verdicts: Uint8Array }) => {
        const batch = this.inFlight.get(id)
        if (batch === undefined) return
        this.inFlight.delete(id)
        if (this.inFlight.size === 0) w.unref()
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve(verdicts[i] === 1)
      })
      const fail = () => {
        if (this.worker !== w) return
        this.worker = undefined
        this.broken = true
        this.failPending()
      }
      w.on("error", fail)
      w.on("exit", fail)
      this.worker = w
      return w
    } catch {
      this.broken = true
      return undefined
    }
  }

  private failPending(): void {
    for (const batch of this.inFlight.values()) for (const j of batch) j.resolve(false)
    this.inFlight.clear()
  }
}

/** The process's verifier for admission (one worker thread, started by the first submission). */
export const admissionVerifier = new SignatureBatchVerifier()
