/**
 * How fast submissions arrive, for the mempool's choice of where to validate them
 * (`MempoolConfig.offThreadFromPerSecond`): counted in one-second windows, the rate is the larger
 * of the current window's count and the last whole window's, so a burst counts at once and a
 * steady rate does not dip at each window's start.
 */
export class SubmissionRate {
  private windowStartMs = Number.NEGATIVE_INFINITY
  private inWindow = 0
  private lastWindow = 0

  /** Counts one submission at `nowMs` (a monotonic clock); the submissions per second now, this one included. */
  tick(nowMs: number): number {
    const elapsed = nowMs - this.windowStartMs
    if (elapsed >= 1000) {
      // The window just ended counts only when it was the one right before this one.
      this.lastWindow = elapsed < 2000 ? this.inWindow : 0
      this.windowStartMs = nowMs
      this.inWindow = 0
    }
    this.inWindow++
    return Math.max(this.inWindow, this.lastWindow)
  }
}
