/**
 * `runMain`: runs a long-lived Effect (the `movenode run` server) as the process's main fiber, built
 * on `Runtime.makeRunMain` from `effect` itself so the package needs no platform package (Effect's
 * `@effect/platform-node` requires Node.js ≥ 22.19; this package supports Node.js 20).
 *
 * SIGINT and SIGTERM interrupt the fiber (its finalizers run: the server drains, the store closes);
 * the exit code is what `teardown` makes of the fiber's exit. The process exits explicitly after a
 * signal or a failure (handles left open must not keep it alive), and otherwise ends by itself.
 *
 * Started by a package manager's script (`npm start`: npm runs `sh -c "…"`, whose shell stays
 * between it and this process), a stop sent to the package manager alone — what a test harness's
 * `child.kill()` or `timeout` sends — reaches the shell, which ends without passing it on (Debian's
 * `dash`), and this process would go on serving, orphaned, with the ports taken. So there the
 * parent's going away counts as SIGTERM (`ORPHAN_CHECK_MS`). Not otherwise: a node started with
 * `nohup` or by a supervisor may outlive its parent on purpose.
 */
import * as Runtime from "effect/Runtime"

/** How often a process started by a package manager looks whether its parent is still there. */
const ORPHAN_CHECK_MS = 500

/** Whether `env` says a package manager's script started this process (npm, pnpm and yarn set it). */
const startedByPackageManager = (env: NodeJS.ProcessEnv): boolean =>
  env.npm_lifecycle_event !== undefined && env.npm_lifecycle_event !== ""

export const runMain = Runtime.makeRunMain(({ fiber, teardown }) => {
  let signalled = false
  const onSignal = () => {
    if (signalled) return // a second Ctrl-C while shutting down: the first interruption is under way
    signalled = true
    fiber.interruptUnsafe(fiber.id)
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  // A process whose parent ends is given another (init or a subreaper): its parent id changes. On
  // Windows it does not, and nothing is watched.
  const parent = process.ppid
  const orphanCheck =
    startedByPackageManager(process.env) && process.platform !== "win32"
      ? setInterval(() => {
          if (process.ppid !== parent) onSignal()
        }, ORPHAN_CHECK_MS)
      : undefined
  orphanCheck?.unref()
  fiber.addObserver((exit) => {
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
    clearInterval(orphanCheck)
    teardown(exit, (code) => {
      if (signalled || code !== 0) process.exit(code)
    })
  })
})
