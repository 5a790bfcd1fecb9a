import { defineConfig } from "vitest/config"

// Vitest 5's reporter calls Map.groupBy, which Node 20 lacks: without this, a failing test prints a
// reporter crash instead of its assertion. The config runs in the main process, where the reporter runs.
if (typeof (Map as any).groupBy !== "function") {
  ;(Map as any).groupBy = <K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> => {
    const out = new Map<K, V[]>()
    let i = 0
    for (const item of items) {
      const k = key(item, i++)
      const bucket = out.get(k)
      if (bucket) bucket.push(item)
      else out.set(k, [item])
    }
    return out
  }
}
if (typeof (Object as any).groupBy !== "function") {
  ;(Object as any).groupBy = <V>(items: Iterable<V>, key: (item: V, index: number) => PropertyKey) => {
    const out: Record<PropertyKey, V[]> = Object.create(null)
    let i = 0
    for (const item of items) (out[key(item, i++)] ??= []).push(item)
    return out
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    setupFiles: ["test/support/polyfills.ts"],
    benchmark: { include: ["test/**/*.bench.ts"] }
  }
})
