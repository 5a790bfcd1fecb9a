/** The request log's writer (src/http/RequestLog.ts): timestamped lines, written in batches. */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { makeRequestLog } from "../../src/http/RequestLog.js"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("makeRequestLog", () => {
  it("writes the lines of a burst in one chunk, each with its ISO timestamp, in order", async () => {
    const chunks: string[] = []
    let t = Date.UTC(2026, 10, 28, 2, 0, 0, 0)
    const log = makeRequestLog({ sink: (c) => chunks.push(c), flushMs: 5, now: () => t })
    log.line("GET /v1 200 0.10ms")
    t += 1
    log.line("GET /v1/-/healthy 200 0.05ms")
    expect(chunks).toEqual([]) // nothing written synchronously
    await sleep(30)
    expect(chunks).toEqual([
      "2026-11-28T02:00:00.000Z GET /v1 200 0.10ms\n2026-11-28T02:00:00.001Z GET /v1/-/healthy 200 0.05ms\n"
    ])
    log.line("POST /v1/view 200 1.00ms")
    await sleep(30)
    expect(chunks).toHaveLength(2)
    expect(chunks[1]).toBe("2026-11-28T02:00:00.001Z POST /v1/view 200 1.00ms\n")
  })

  it("writes at once past its buffer bound, so a burst never grows memory", () => {
    const chunks: string[] = []
    const log = makeRequestLog({ sink: (c) => chunks.push(c), flushMs: 60_000, maxBufferedBytes: 100 })
    for (let i = 0; i < 10; i++) log.line(`GET /v1/accounts/0x${i} 200 0.10ms`)
    expect(chunks.length).toBeGreaterThanOrEqual(3)
    for (const c of chunks) expect(c.length).toBeLessThan(100 + 80)
    log.flush()
    expect(chunks.join("").split("\n").filter((l) => l !== "")).toHaveLength(10)
  })

  it("writes what is buffered when the process exits", () => {
    // A child process logs two lines and exits before the timer would fire (the compiled module:
    // `npm test` builds before it runs the tests).
    const module = join(import.meta.dirname, "../../dist/http/RequestLog.js")
    const code = `import { makeRequestLog } from ${JSON.stringify(module)}
const log = makeRequestLog({ flushMs: 60_000 })
log.line("first")
log.line("second")
process.exit(0)`
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
      encoding: "utf8",
      timeout: 20_000
    })
    const lines = r.stdout.trim().split("\n")
    expect(lines.map((l) => l.replace(/^\S+ /, ""))).toEqual(["first", "second"])
    for (const l of lines) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /)
  })
})
