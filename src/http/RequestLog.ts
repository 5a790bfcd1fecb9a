/**
 * The request log's writer. Each line gets its ISO timestamp as before, but the lines leave in one
 * write per `flushMs` (25 ms by default) instead of one `process.stdout.write` per request: on Linux
 * a write to a pipe or a file is a synchronous system call, and the line-per-request log halved
 * read throughput (issue 22: ~30k against ~50k req/s). Batched, the same lines cost ~0.6 µs per
 * request instead of ~2.5 µs (docs/benchmarks.md, "The request log"). A flush per event-loop turn
 * (`setImmediate`) was tried first: under wrk the turns are short, so it still cost more.
 *
 * A line is out at most `flushMs` late. Lines still buffered when the process exits (a normal
 * exit, or the shutdown that follows SIGTERM/SIGINT) are written synchronously from the `exit`
 * hook; a kill -9 loses at most the last `flushMs` of lines. The buffer never exceeds
 * `maxBufferedBytes`: past it the lines are written at once, so a burst cannot grow memory.
 *
 * Each line is encoded into a byte buffer as it comes (`Buffer.write`), not appended to a string: a
 * string buffer kept every line's text alive until the flush (a tree of concatenations the
 * collector copied at each scavenge) and was then flattened and encoded again, three copies of
 * each byte against one. The sink is handed the bytes and the buffer is not reused after (a new
 * one is taken), so a sink that writes later (stdout on a pipe off Linux) still sees its chunk.
 */

/** Where the lines go: a synchronous write of one chunk of UTF-8 (stdout by default). */
export type ChunkSink = (chunk: Uint8Array) => void

export interface RequestLogOptions {
  /** Written to once per flush (default: `process.stdout.write`). */
  readonly sink?: ChunkSink | undefined
  /** Buffered lines are written this long after the first of them (default 25 ms). */
  readonly flushMs?: number | undefined
  /** Flush at once beyond this many buffered characters (default 64 KiB). */
  readonly maxBufferedBytes?: number | undefined
  /** The clock, for tests (default `Date.now`). */
  readonly now?: (() => number) | undefined
}

export interface RequestLog {
  /** Appends `<ISO time> <line>\n`. */
  readonly line: (line: string) => void
  /** Writes what is buffered now. */
  readonly flush: () => void
}

const stdoutSink: ChunkSink = (chunk) => {
  process.stdout.write(chunk)
}

/** A timestamped, turn-batched line log (see the file's overview). */
export const makeRequestLog = (options: RequestLogOptions = {}): RequestLog => {
  const sink = options.sink ?? stdoutSink
  const maxBuffered = options.maxBufferedBytes ?? 64 * 1024
  const flushMs = options.flushMs ?? 25
  const now = options.now ?? Date.now
  // Room for the bound and one more line: one that might not fit goes after a flush, and one longer
  // than a third of this (3 bytes a UTF-16 unit at most) on its own.
  const capacity = maxBuffered + 4096
  // One buffer for the log's life: a flush hands the sink a copy of what is used (the sink may keep
  // it until written), not the buffer — a new 68 KB buffer per flush was a 68 KB allocation for a
  // flush of a few lines.
  const buffer = Buffer.allocUnsafeSlow(capacity)
  let used = 0
  let scheduled = false
  // The ISO text of the last millisecond seen: many lines of a turn share it.
  let stampMs = -1
  let stamp = ""

  const flush = () => {
    if (used === 0) return
    const chunk = Buffer.allocUnsafe(used)
    buffer.copy(chunk, 0, 0, used)
    used = 0
    sink(chunk)
  }
  const onTimer = () => {
    scheduled = false
    flush()
  }
  let hooked = false

  const line = (text: string) => {
    const ms = now()
    if (ms !== stampMs) {
      stampMs = ms
      stamp = new Date(ms).toISOString()
    }
    const entry = `${stamp} ${text}\n`
    // At most 3 bytes a UTF-16 unit: when that may not fit, what is buffered goes first.
    if (used + entry.length * 3 > capacity) {
      flush()
      if (entry.length * 3 > capacity) return sink(Buffer.from(entry, "utf8"))
    }
    used += buffer.write(entry, used, "utf8")
    if (used >= maxBuffered) return flush()
    if (!scheduled) {
      scheduled = true
      setTimeout(onTimer, flushMs).unref()
    }
    if (!hooked) {
      hooked = true
      process.once("exit", flush)
    }
  }
  return { line, flush }
}
