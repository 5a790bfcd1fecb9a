/**
 * The front process (`FrontProcess.ts` starts it): holds the listening sockets of the node's API and
 * readiness server, so that a new connection is accepted and read by a process that is otherwise
 * idle rather than by the node's event loop, which under a flood of submissions is executing
 * blocks (issue 22: a prober's new connection waited two to three of its turns).
 *
 * - API: every connection is accepted here, its first request's head read (at most `MAX_HEAD`
 *   bytes, or what arrived within `HEAD_WAIT_MS`), and the connection handed to the node's process
 *   with those bytes, which its HTTP server parses first; the rest of the connection's life is the
 *   node's. Where the node asks for it (`FrontSiteOptions.reads`), requests that read committed
 *   state (`frontRequestKind`) are answered here instead, by a read-only node over the node's store
 *   (`frontReads.ts`, loaded on the first one), and so are lookups by hash of committed
 *   transactions; the connection is kept here until its first other request (or a lookup of a
 *   transaction the store does not have: maybe pending), when it is handed over with the bytes read.
 *   A read-only node that fails to start is tried again on a later read (`RETRY_FIRST_MS`,
 *   doubling); the node serves the reads meanwhile and logs why.
 * - Readiness: answered here whole, from the state the node sends every `READINESS_EVERY_MS`; a
 *   state older than the reference's 3 s check timeout (the node's event loop not getting to it)
 *   answers 503 with every check not ready, as the reference's checks would time out.
 */
import { STATUS_CODES } from "node:http"
import { createServer, type Server, type Socket } from "node:net"
import { readinessAnswer } from "../readinessAnswer.js"
import { SIDE_CORS } from "../sideCors.js"
import type { FrontOutcome, FrontReads } from "./frontReads.js"
import type { FromFront, FrontReadsSpec, FrontSiteOptions, ReadinessState, ToFront } from "./protocol.js"
import { frontRequestKind, hasBody, headEnd, keepsAlive, parseRequestHead } from "./requestHead.js"
import { startReading, stopReading } from "./stopReading.js"

/** A head longer than this is handed on as it is: the node's server refuses it (431). */
const MAX_HEAD = 16 * 1024
/** A client that has not sent a whole head by then is handed on as it is (the node's timeouts apply). */
const HEAD_WAIT_MS = 1000
/** How long an idle readiness connection is kept (as the node's servers' `keepAliveTimeout`). */
const KEEP_ALIVE_MS = 65_000
/** New API connections waiting to be handed over, at most (each holds at most `MAX_HEAD` bytes here). */
const MAX_WAITING = 4096
/** API connections whose reads the front answers, at most (as many as the node's server holds by default). */
const MAX_KEPT = 4096
/** A readiness state older than this answers 503 (ready_server.rs checks each service with a 3 s timeout). */
const READINESS_STALE_MS = 3000
/** How long a closing site's kept connections may take to receive their last answers. */
const CLOSE_GRACE_MS = 2000
/** How long a port in use is tried again (see `listen`). */
const PORT_BUSY_MS = 3000

if (process.send === undefined)
  throw new Error("frontMain.ts runs as a child process with an IPC channel (FrontProcess.ts)")
/** A message to the node; one the closed channel cannot take is dropped (with a callback, the failure is its, not the process's 'error'). */
const send = (m: FromFront) => {
  try {
    process.send!(m, undefined, {}, () => {})
  } catch {}
}

const servers = new Map<number, Server>()
const readiness = new Map<number, { readonly state: ReadinessState; readonly at: number }>()

/**
 * Reads from a connection until a request's head is whole (or `MAX_HEAD` bytes, or `waitMs` without
 * one, or the client's end), then stops reading it and calls `done` with what was read (maybe
 * nothing: a client that sent nothing in time).
 */
const readHead = (socket: Socket, waitMs: number, done: (bytes: Buffer) => void, before?: Buffer) => {
  const chunks: Buffer[] = before === undefined || before.length === 0 ? [] : [before]
  let total = chunks.length === 0 ? 0 : before!.length
  let finished = false
  const finish = () => {
    if (finished) return
    finished = true
    clearTimeout(timer)
    socket.off("data", onData)
    socket.off("end", finish)
    socket.off("close", finish)
    socket.off("error", onError)
    socket.pause()
    for (let more: Buffer | null; (more = socket.read() as Buffer | null) !== null; ) {
      chunks.push(more)
      total += more.length
    }
    stopReading(socket)
    done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total))
  }
  const onData = (chunk: Buffer) => {
    chunks.push(chunk)
    total += chunk.length
    // (At most MAX_HEAD bytes are looked through, however they arrive.)
    if (total >= MAX_HEAD || headEnd(chunk.length === total ? chunk : Buffer.concat(chunks, total)) >= 0) finish()
  }
  const onError = () => {
    finished = true
    clearTimeout(timer)
    socket.destroy()
  }
  const timer = setTimeout(finish, waitMs)
  socket.on("data", onData)
  socket.once("end", finish)
  socket.once("close", finish)
  socket.once("error", onError)
  socket.resume()
  // A readiness connection's next request: its reads were stopped after the previous one.
  startReading(socket)
}

/**
 * Connections waiting to be handed over. One crosses at a time (Node's IPC waits for the receiver's
 * acknowledgement of each descriptor, and the node's process acknowledges between two of its turns),
 * so a burst of new clients queues here — and a GET (a probe, a read) goes before them: a client
 * that keeps submitting waits a turn longer for its first answer, a prober does not wait for the
 * burst.
 */
const waiting: { readonly first: Array<Handover>; readonly rest: Array<Handover> } = { first: [], rest: [] }
interface Handover {
  readonly site: number
  readonly socket: Socket
  readonly head: string
}
let handing = false

const handOver = () => {
  while (!handing) {
    const next = waiting.first.shift() ?? waiting.rest.shift()
    if (next === undefined) return
    if (next.socket.destroyed) continue
    handing = true
    // Not sent (the channel closing): that client is dropped and the next one goes.
    const failed = () => {
      next.socket.destroy()
      handing = false
      setImmediate(handOver)
    }
    try {
      process.send!(
        { _tag: "Connection", site: next.site, head: next.head } satisfies FromFront,
        next.socket,
        { keepOpen: false },
        (e) => {
          if (e) failed()
        }
      )
    } catch {
      failed()
    }
  }
}

/**
 * The connections a site's front keeps (the API's whose requests so far were reads, the readiness
 * server's), each answering one or idle between two: closing the site closes the idle ones at once,
 * the others after their answer.
 */
const kept = new Map<number, Map<Socket, "answering" | "idle">>()
const keptOf = (site: number) => {
  let held = kept.get(site)
  if (held === undefined) kept.set(site, (held = new Map()))
  return held
}

/**
 * A read-only node that failed to start (the store not there yet, being replaced, a transient read
 * error) is tried again on a read at least this long after, doubling after each failure up to
 * `RETRY_MAX_MS`: the node serves the reads meanwhile, and a front is not left without them for
 * its lifetime by one bad moment, nor made to reload a store that stays broken on every request.
 */
const RETRY_FIRST_MS = 1000
const RETRY_MAX_MS = 60_000

/** Per API site that serves reads: its read-only node once loaded (undefined while loading, or after it failed). */
const reading = new Map<
  number,
  {
    readonly spec: FrontReadsSpec
    reads: FrontReads | undefined
    state: "idle" | "loading" | "ready" | "failed"
    /** After a failure: not tried again before this (`Date.now()`), and the wait after the next failure. */
    retryAt: number
    retryMs: number
  }
>()

/** The site's read-only node, started on the first call (until it is ready, undefined: the node serves). */
const readsOf = (site: number): FrontReads | undefined => {
  const r = reading.get(site)
  if (r === undefined) return undefined
  if (r.state === "failed" && Date.now() >= r.retryAt) r.state = "idle"
  if (r.state === "idle") {
    r.state = "loading"
    import("./frontReads.js")
      .then((m) => m.startFrontReads(r.spec))
      .then(
        (reads) => {
          if (reading.get(site) !== r) return void reads.close()
          r.reads = reads
          r.state = "ready"
        },
        (e: unknown) => {
          // The site closed meanwhile: nothing to try again, nobody to tell.
          if (reading.get(site) !== r) return
          r.state = "failed"
          r.retryAt = Date.now() + r.retryMs
          // Logged by the node, with its other lines.
          send({ _tag: "ReadsFailed", site, message: e instanceof Error ? e.message : String(e), retryInMs: r.retryMs })
          r.retryMs = Math.min(RETRY_MAX_MS, r.retryMs * 2)
        }
      )
  }
  return r.reads
}

const apiConnection = (site: number) => (socket: Socket) =>
  readHead(socket, HEAD_WAIT_MS, (bytes) => route(site, socket, bytes))

/**
 * A request (its head whole at the start of `bytes`, or not: then the node's server says what is
 * wrong): answered here when it is a read and this front serves them, or a lookup by hash of a
 * transaction the store has, the connection then kept here for the next one; otherwise the
 * connection goes to the node with the bytes read (from this request's head on).
 */
const route = (site: number, socket: Socket, bytes: Buffer): void => {
  if (socket.destroyed) return
  const head = reading.has(site) ? parseRequestHead(bytes) : undefined
  const kind = head === undefined ? "node" : frontRequestKind(head)
  const reads = kind === "node" ? undefined : readsOf(site)
  const held = keptOf(site)
  // Past `MAX_KEPT` connections kept here, a new one goes to the node, whose connection limit applies.
  if (head !== undefined && reads !== undefined && (held.has(socket) || held.size < MAX_KEPT)) {
    if (!held.has(socket)) {
      // Kept here now: a reset between two requests must not end the process.
      socket.on("error", () => socket.destroy())
      socket.once("close", () => held.delete(socket))
    }
    held.set(socket, "answering")
    // Pipelined requests already read: the next one's bytes.
    const rest = bytes.subarray(head.length)
    const afterAnswer = (outcome: FrontOutcome) => {
      // Not in the store (maybe pending): the connection and this request go to the node.
      if (outcome === "node") {
        held.delete(socket)
        return handOverLater(site, socket, bytes)
      }
      if (outcome === "close") return closeSoon(socket)
      if (headEnd(rest) >= 0) return route(site, socket, rest)
      held.set(socket, "idle")
      // Nothing sent for as long as an idle kept-alive connection is kept: closed, as Node's server would.
      readHead(
        socket,
        KEEP_ALIVE_MS,
        (next) => (next.length === 0 ? closeSoon(socket) : route(site, socket, next)),
        rest
      )
    }
    reads.answer(head, socket, afterAnswer, kind === "lookup")
    return
  }
  held.delete(socket)
  handOverLater(site, socket, bytes)
}

const handOverLater = (site: number, socket: Socket, bytes: Buffer) => {
  // The node's process not taking connections (its event loop held): past this many waiting, a
  // new client is refused at once, with the API's error body, rather than held without bound.
  if (waiting.first.length + waiting.rest.length >= MAX_WAITING) {
    const body = `{"message":"Service Unavailable: ${MAX_WAITING} new connections wait for the node; retry later","error_code":"web_framework_error","vm_error_code":null}`
    socket.write(
      `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`
    )
    return closeSoon(socket)
  }
  const head = bytes.toString("latin1")
  ;(/^(GET|HEAD|OPTIONS) /.test(head) ? waiting.first : waiting.rest).push({ site, socket, head })
  handOver()
}

const answer = (socket: Socket, status: number, contentType: string, body: string, close: boolean) => {
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    `content-type: ${contentType}`,
    `content-length: ${Buffer.byteLength(body)}`,
    ...SIDE_CORS.map(([k, v]) => `${k}: ${v}`),
    `date: ${new Date().toUTCString()}`,
    close ? "connection: close" : "connection: keep-alive"
  ]
  socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`)
  if (close) closeSoon(socket)
}

/** Ends this side, and destroys the socket when the client has not closed its own soon after (half-open connections are allowed). */
const closeSoon = (socket: Socket) => {
  socket.end()
  setTimeout(() => socket.destroy(), 2000).unref()
}

/** The readiness server's requests, answered here, one head at a time, for as long as the client keeps the connection. */
const readinessConnection = (site: number) => (socket: Socket) => {
  // Answers are written at once: between two requests, always idle (closed at once when the site closes).
  const held = keptOf(site)
  held.set(socket, "idle")
  socket.once("close", () => held.delete(socket))
  const next = () =>
    readHead(socket, KEEP_ALIVE_MS, (bytes) => {
      if (socket.destroyed) return
      // Nothing sent for as long as an idle kept-alive connection is kept: closed, as Node's server would.
      if (bytes.length === 0) return closeSoon(socket)
      const head = parseRequestHead(bytes)
      if (head === undefined) {
        answer(socket, 400, "application/json", JSON.stringify({ message: "bad request" }), true)
        return
      }
      // Bodies are not read here: a request with one is answered and the connection closed.
      const close = !keepsAlive(head) || hasBody(head) || bytes.length > head.length
      if (head.method === "OPTIONS") answer(socket, 204, "text/plain", "", close)
      else if (head.method !== "GET" || head.path !== "/")
        answer(socket, 404, "application/json", JSON.stringify({ message: "not found" }), close)
      else {
        const last = readiness.get(site)
        // No results yet, or none for longer than a check may take: every check not ready.
        const { status, body } =
          last !== undefined && Date.now() - last.at <= READINESS_STALE_MS
            ? readinessAnswer(last.state.ready, last.state.notReady)
            : {
                status: 503,
                body: { ready: [], not_ready: [...(last?.state.ready ?? []), ...(last?.state.notReady ?? [])] }
              }
        answer(socket, status, "application/json", JSON.stringify(body), close)
      }
      if (!close) next()
    })
  socket.on("error", () => socket.destroy())
  next()
}

const listen = (site: number, options: FrontSiteOptions, shared?: unknown) => {
  // allowHalfOpen: a client that ends its side after its request still gets the answer (the node's).
  // noDelay (TCP_NODELAY, as Node's HTTP servers set it): a kernel option of the socket, so it
  // crosses with the descriptor too; without it an answer written in two pieces waits for the
  // client's delayed acknowledgement of the first (Nagle's algorithm).
  const server = createServer(
    { pauseOnConnect: true, allowHalfOpen: true, noDelay: true },
    options.kind === "api" ? apiConnection(site) : readinessConnection(site)
  )
  const onError = (e: NodeJS.ErrnoException) => {
    // The port still held a moment (the fronts of a node killed just before, which exit when they
    // notice): tried again for up to `PORT_BUSY_MS` before the start fails.
    if (e.code === "EADDRINUSE" && shared === undefined && (busySince ??= Date.now()) + PORT_BUSY_MS > Date.now()) {
      // (The first `listen`'s callback is still registered: it runs once, when one succeeds.)
      setTimeout(() => server.listen(options.port, options.host), 100).unref()
      return
    }
    server.off("error", onError)
    send({ _tag: "ListenFailed", site, message: e.message, code: e.code })
  }
  let busySince: number | undefined
  server.on("error", onError)
  if (options.reads !== undefined && !reading.has(site))
    reading.set(site, { spec: options.reads, reads: undefined, state: "idle", retryAt: 0, retryMs: RETRY_FIRST_MS })
  const listening = () => {
    server.off("error", onError)
    // A failed accept (EMFILE) drops that client; it must not end the process.
    server.on("error", () => {})
    servers.set(site, server)
    const a = server.address()
    if (a !== null && typeof a !== "string") send({ _tag: "Listening", site, host: a.address, port: a.port })
    // The API's socket goes to the node's process, which has the other front processes accept on it too.
    if (shared === undefined && options.kind === "api") {
      const handle = (server as unknown as { _handle?: object | null })._handle
      if (handle) {
        try {
          process.send!({ _tag: "Shared", site } satisfies FromFront, handle as never, { keepOpen: true }, () => {})
        } catch {}
      }
    }
  }
  if (shared === undefined) server.listen(options.port, options.host, listening)
  else server.listen(shared as Parameters<Server["listen"]>[0], listening)
}

process.on("message", (m: ToFront, handle: unknown) => {
  switch (m._tag) {
    case "ListenShared":
      return handle === undefined || handle === null ? undefined : listen(m.site, m.options, handle)
    case "Taken":
      handing = false
      return handOver()
    case "Listen":
      return listen(m.site, m.options)
    case "Readiness":
      readiness.set(m.site, { state: m.state, at: Date.now() })
      return
    case "CloseSite": {
      const server = servers.get(m.site)
      servers.delete(m.site)
      // Its reads' connections are closed gracefully (answers in flight sent) before the node's store goes.
      const reads = reading.get(m.site)?.reads
      reading.delete(m.site)
      // Idle kept connections go now (as Node's server closes its idle ones); the others once
      // answered (`Connection: close`), or after `CLOSE_GRACE_MS` (a client slow to read its answer).
      const held = kept.get(m.site)
      kept.delete(m.site)
      // (An answered connection we ended, left half-open by its client, is done too.)
      for (const [socket, state] of held ?? []) if (state === "idle" || socket.writableEnded) socket.destroy()
      if (held !== undefined)
        setTimeout(() => {
          for (const socket of held.keys()) socket.destroy()
        }, CLOSE_GRACE_MS).unref()
      // Stops accepting. Its close callback is not waited for: it waits for the connections handed
      // to the node too (Node's IPC has the node report when those close), which the node closes
      // after this site — what is the front's to finish is its reads and the connections it keeps.
      server?.close()
      const gone = [...(held?.keys() ?? [])].map((socket) =>
        socket.closed ? undefined : new Promise<void>((resolve) => socket.once("close", () => resolve()))
      )
      void Promise.all([reads?.close().catch(() => undefined), ...gone]).then(() =>
        send({ _tag: "SiteClosed", site: m.site })
      )
    }
  }
})
// The node's process gone (its channel closed): nothing is left to hand connections to.
process.on("disconnect", () => process.exit(0))
// Node defers 'disconnect' while a descriptor it sent waits for its acknowledgement, which a node
// killed meanwhile (kill -9 under load) never gives: the front would live on, holding the port. So
// it also looks: the channel no longer connected, or another parent (an orphan is re-parented).
const parent = process.ppid
setInterval(() => {
  if (!process.connected || process.ppid !== parent) process.exit(0)
}, 500).unref()
// Ctrl-C in a terminal signals the whole process group: the node stops its fronts itself (closing
// their sites, then their channel), after the connections they serve are answered.
process.on("SIGINT", () => {})
