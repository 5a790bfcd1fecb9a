/**
 * Issue 11 item 2: a view that exhausts its worker's memory fails alone. The views queued behind
 * it on the same worker never started; they are sent to a fresh worker and answered correctly,
 * never with the dying view's 500. A real out-of-memory kill (`resourceLimits`), with a stand-in
 * worker script so the test does not depend on which Move code exhausts what.
 */
import { describe, expect, it } from "vitest"
import type { JobCallback } from "../../../src/node/view/ViewWorkerPool.js"
import { ViewWorkerPool } from "../../../src/node/view/ViewWorkerPool.js"

const pool = (threads: number) =>
  new ViewWorkerPool({
    threads,
    workerUrl: new URL("./oomWorker.mjs", import.meta.url),
    data: { path: "unused", gasBudget: 1n, deadlineMs: undefined, filter: undefined },
    maxInFlight: 100,
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 }
  })

type Result = Parameters<JobCallback>[0]
const view = (p: ViewWorkerPool, fn: string) =>
  new Promise<Result>((resolve) => {
    p.run({ _tag: "Json", body: { function: fn, type_arguments: [], arguments: [] } }, 0n, 0n, resolve)
  })

describe("ViewWorkerPool: a view that runs its worker out of memory", () => {
  it("fails alone: the views queued behind it on that worker are answered by a fresh one", async () => {
    const p = pool(1)
    try {
      expect(await p.warmUp()).toBe(true)
      const first = view(p, "before")
      const killer = view(p, "oom")
      const queued = ["a", "b", "c", "d"].map((fn) => view(p, fn))
      expect(await first).toEqual({ ok: true, answer: { json: ["before"], bcsValues: [], gasUsed: 1n } })
      const dead = await killer
      expect(dead).toMatchObject({ ok: false, error: { status: 500, code: "internal_error" } })
      expect(dead.ok ? "" : dead.error.message).toContain("ran out of memory")
      for (const [i, q] of queued.entries())
        expect(await q).toEqual({ ok: true, answer: { json: [["a", "b", "c", "d"][i]], bcsValues: [], gasUsed: 1n } })
      // The pool keeps serving.
      expect((await view(p, "after")).ok).toBe(true)
    } finally {
      await p.close()
    }
  })

  it("with several workers, only the killer's own worker is replaced and every other view succeeds", async () => {
    const p = pool(2)
    try {
      expect(await p.warmUp()).toBe(true)
      const all = [
        view(p, "x1"),
        view(p, "oom"),
        view(p, "x2"),
        view(p, "x3"),
        view(p, "oom"),
        view(p, "x4"),
        view(p, "x5")
      ]
      const results = await Promise.all(all)
      const failures = results.filter((r) => !r.ok)
      expect(failures).toHaveLength(2)
      expect(results.filter((r) => r.ok).map((r) => (r.ok ? r.answer.json[0] : ""))).toEqual([
        "x1",
        "x2",
        "x3",
        "x4",
        "x5"
      ])
    } finally {
      await p.close()
    }
  })
})
