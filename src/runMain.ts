/**
 * `runMain`: runs a long-lived Effect (the `movenode run` server) as the process's main fiber, built
 * on `Runtime.makeRunMain` from `effect` itself so the package needs no platform package (Effect's
 * `@effect/platform-node` requires Node.js ≥ 22.19; this package supports Node.js 20).
 *
 * SIGINT and SIGTERM interrupt the fiber (its finalizers run: the server drains, the store closes);
 * the exit code is what `teardown` makes of the fiber's exit. The process exits explicitly after a
 * signal or a failure (handles left open must not keep it alive), and otherwise ends by itself.
 */
import * as Runtime from "effect/Runtime"

export const runMain = Runtime.makeRunMain(({ fiber, teardown }) => {
  let signalled = false
  const onSignal = () => {
    if (signalled) return // a second Ctrl-C while shutting down: the first interruption is under way
    signalled = true
    fiber.interruptUnsafe(fiber.id)
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  fiber.addObserver((exit) => {
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
    teardown(exit, (code) => {
      if (signalled || code !== 0) process.exit(code)
    })
  })
})
