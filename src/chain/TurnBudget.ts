/**
 * A bound on the CPU one event-loop turn spends on the chain's own work (issue 22): mempool
 * admissions and slices of block execution run through `run`, which starts a task at once while the
 * turn has budget left and otherwise queues it for a later turn (`setImmediate`, i.e. after the
 * next poll phase). Between two turns Node.js reads sockets, answers the requests already answered
 * and accepts a new connection: libuv accepts one connection per listening socket and turn, so a
 * turn that runs a whole flood's admissions (512 clients: ~0.3–0.5 s) left a health probe on a new
 * connection waiting seconds in the listen queue.
 *
 * Tasks run in order (first in, first out); a task is never split, so a turn may run over by one
 * task. The queue's drain (a check-phase callback) continues the turn whose poll phase queued the
 * tasks: the turn ends after the drain, not before it, so the work between two poll phases (where
 * connections are accepted and sockets read) is one budget, not two (until 08:30 UTC on
 * 2026-11-28 the turn ended as the check phase began, and a flooded turn ran its budget in the poll
 * phase and again in the drain). The budget counts the time spent in tasks only
 * (`performance.now()` around each), not the rest of the turn.
 */
export class TurnBudget {
  private spentMs = 0
  private lastUsedMs = Number.NEGATIVE_INFINITY
  private turnOpen = false
  private readonly queue: Array<() => void> = []
  private drainScheduled = false

  /** The CPU time per turn for tasks, in ms, now. */
  private readonly currentBudgetMs: () => number

  constructor(
    /**
     * CPU time per turn for tasks, in ms; a function when it varies (a mempool's admissions under
     * backpressure): read each time a task may start, so one queue keeps its order whatever the
     * budget.
     */
    budgetMs: number | (() => number),
    /** The clock tasks are timed with, ms (tests give one that moves only when they say). */
    private readonly now: () => number = () => performance.now()
  ) {
    this.currentBudgetMs = typeof budgetMs === "number" ? () => budgetMs : budgetMs
  }

  /** Runs `task` now if this turn has budget left, else in a later turn (in order). */
  run(task: () => void): void {
    this.openTurn()
    if (this.queue.length === 0 && this.spentMs < this.currentBudgetMs()) this.timed(task)
    else {
      this.queue.push(task)
      this.scheduleDrain()
    }
  }

  /** Whether this turn still has budget (for a loop that yields itself, e.g. block execution). */
  hasBudget(): boolean {
    this.openTurn()
    return this.queue.length === 0 && this.spentMs < this.currentBudgetMs()
  }

  /** Runs `f` now, counted against this turn's budget. */
  timed<A>(f: () => A): A {
    this.openTurn()
    const t0 = this.now()
    try {
      return f()
    } finally {
      this.lastUsedMs = this.now()
      this.spentMs += this.lastUsedMs - t0
    }
  }

  /** Whether a task ran within the last `ms` (e.g. a block is being made: its slices run here). */
  usedWithin(ms: number): boolean {
    return this.now() - this.lastUsedMs < ms
  }

  /** Resolves in a later turn (after the next poll phase). */
  nextTurn(): Promise<void> {
    return new Promise((resolve) => this.run(resolve))
  }

  /** Tasks waiting for a later turn. */
  get waiting(): number {
    return this.queue.length
  }

  private openTurn(): void {
    if (this.turnOpen) return
    this.turnOpen = true
    this.spentMs = 0
    // The check phase ends this turn's accounting; with a drain scheduled, the drain ends it.
    setImmediate(() => {
      if (!this.drainScheduled) this.turnOpen = false
    })
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return
    this.drainScheduled = true
    setImmediate(() => {
      this.drainScheduled = false
      // Queued in this turn's poll phase: what is left of its budget. Queued by the drain before
      // (in that turn's check phase): a turn of its own, this one's poll phase having run none.
      this.openTurn()
      while (this.queue.length > 0 && this.spentMs < this.currentBudgetMs()) this.timed(this.queue.shift()!)
      // The next poll phase starts a turn of its own.
      this.turnOpen = false
      if (this.queue.length > 0) this.scheduleDrain()
    })
  }
}

/**
 * The process's budget (one event loop) for block execution, 4 ms per turn; mempool admissions
 * have one of their own per mempool (4 ms, 0.5 under backpressure: Mempool.ts), so that a flood of
 * submissions cannot starve block production (nor a block the admissions). Short enough turns for a
 * new connection to be accepted within a few ms while most of the CPU still goes to the chain under
 * load.
 */
export const blockBudget = new TurnBudget(4)

/**
 * The API's requests with a body, from their body to their handler's first wait (decoding; for a
 * submission, dispatching its signature check to the thread pool): 2 ms per turn, so the turn that
 * reads a flood's hundreds of simultaneous submissions (measured: 388 in one turn as 512 clients
 * sent their first together) spreads them over the next turns instead of running them all
 * (HttpConfig.bodyIntake).
 */
export const intakeBudget = new TurnBudget(2)
