/** The request log's writer (src/http/RequestLog.ts): timestamped lines, written in batches. */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeRequestLog } from "../../src/http/RequestLog.js"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** A sink keeping each chunk as text, in `chunks`. */
const textSink = (chunks: string[]) => (c: Uint8Array) => chunks.push(Buffer.from(c).toString("utf8"))

describe("makeRequestLog", () => {
  it("writes the lines of a burst in one chunk, each with its ISO timestamp, in order", async () => {
    const chunks: string[] = []
    let t = Date.UTC(2026, 10, 28, 2, 0, 0, 0)
    const log = makeRequestLog({ sink: textSink(chunks), flushMs: 5, now: () => t })
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

  it("a chunk handed to the sink stays as written after later lines (a pipe may write it later)", () => {
    const kept: Uint8Array[] = []
    const log = makeRequestLog({ sink: (c) => kept.push(c), flushMs: 60_000, now: () => 0 })
    log.line("first")
    log.flush()
    log.line("second, longer than the first")
    log.flush()
    expect(kept.map((c) => Buffer.from(c).toString("utf8"))).toEqual([
      "1970-01-01T00:00:00.000Z first\n",
      "1970-01-01T00:00:00.000Z second, longer than the first\n"
    ])
  })

  it("writes at once past its buffer bound, so a burst never grows memory", () => {
    const chunks: string[] = []
    const log = makeRequestLog({
      sink: textSink(chunks),
      flushMs: 60_000,
      maxBufferedBytes: 100
    })
    for (let i = 0; i < 10; i++) log.line(`GET /v1/accounts/0x${i} 200 0.10ms`)
    expect(chunks.length).toBeGreaterThanOrEqual(3)
    for (const c of chunks) expect(c.length).toBeLessThan(100 + 80)
    log.flush()
    expect(
      chunks
        .join("")
        .split("\n")
        .filter((l) => l !== "")
    ).toHaveLength(10)
  })

  it("writes UTF-8, and a line longer than its buffer on its own, after what was buffered before it", () => {
    const chunks: string[] = []
    const log = makeRequestLog({
      sink: textSink(chunks),
      flushMs: 60_000,
      maxBufferedBytes: 100
    })
    log.line("GET /v1/accounts/0x1 200 0.10ms")
    log.line(`defect: ${"é€😀".repeat(2000)}`)
    log.line("GET /v1 200 0.05ms")
    log.flush()
    const lines = chunks
      .join("")
      .split("\n")
      .filter((l) => l !== "")
    expect(lines.map((l) => l.replace(/^\S+ /, ""))).toEqual([
      "GET /v1/accounts/0x1 200 0.10ms",
      `defect: ${"é€😀".repeat(2000)}`,
      "GET /v1 200 0.05ms"
    ])
  })

  it("any text, in any number of lines, comes out whole and in order", () =>
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 400 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 300 }),
        (texts, bound) => {
          const chunks: Uint8Array[] = []
          const log = makeRequestLog({
            sink: (c) => chunks.push(Uint8Array.from(c)),
            flushMs: 60_000,
            maxBufferedBytes: bound
          })
          for (const t of texts) log.line(t.replaceAll("\n", " "))
          log.flush()
          const out = Buffer.concat(chunks).toString("utf8").split("\n").slice(0, -1)
          expect(out.map((l) => l.slice(25))).toEqual(texts.map((t) => t.replaceAll("\n", " ")))
        }
      )
    ))

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
