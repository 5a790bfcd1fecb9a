import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
// Vitest 5's reporter calls Map.groupBy, which Node 20 lacks: without the polyfill a failing test
// prints a reporter crash instead of its assertion. The config runs in the main process, where the
// reporter runs; `setupFiles` installs the same polyfill in the test workers.
import "./test/support/polyfills.js"

export default defineConfig({
  // examples/ import the package by its name, as a user's code does; here that is the sources.
  resolve: { alias: { movenode: fileURLToPath(new URL("./src/index.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    setupFiles: ["test/support/polyfills.ts"],
    benchmark: { include: ["test/**/*.bench.ts"] }
  }
})
