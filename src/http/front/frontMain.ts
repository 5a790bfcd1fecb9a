/**
 * The front process (`FrontProcess.ts` starts it): holds the listening sockets of the node's API and
 * readiness server, so that a new connection is accepted and read by a process that is otherwise
 * idle rather than by the node's event loop, which under a flood of submissions is executing
 * blocks (issue 22: a prober's new connection waited two to three of its turns).
 *
 * - API: every connection is accepted here, its first request's head read (at most `MAX_HEAD`
 *   bytes, or what arrived within `HEAD_WAIT_MS`), and the connection handed to the node's process
 *   with those bytes, which its HTTP server parses first; the rest of the connection's life is the
 *   node's. Nothing is answered here: every answer is the node's own.
 * - Readiness: answered here whole, from the state the node sends every `READINESS_EVERY_MS`; a
 *   state older than the reference's 3 s check timeout (the node's event loop not getting to it)
 *   answers 503 with every check not ready, as the reference's checks would time out.
 */
import { STATUS_CODES } from "node:http"
import { createServer, type Server, type Socket } from "node:net"
import { readinessAnswer } from "../readinessAnswer.js"
import { SIDE_CORS } from "../sideCors.js"
import type { FromFront, FrontSiteOptions, ReadinessState, ToFront } from "./protocol.js"
import { hasBody, headEnd, keepsAlive, parseRequestHead } from "./requestHead.js"
import { startReading, stopReading } from "./stopReading.js"

/** A head longer than this is handed on as it is: the node's server refuses it (431). */
const MAX_HEAD = 16 * 1024
/** A client that has not sent a whole head by then is handed on as it is (the node's timeouts apply). */
const HEAD_WAIT_MS = 1000
/** How long an idle readiness connection is kept (as the node's servers' `keepAliveTimeout`). */
const KEEP_ALIVE_MS = 65_000
/** New API connections waiting to be handed over, at most (each holds at most `MAX_HEAD` bytes here). */
const MAX_WAITING = 4096
/** A readiness state older than this answers 503 (ready_server.rs checks each service with a 3 s timeout). */
const READINESS_STALE_MS = 3000

if (process.send === undefined) throw new Error("frontMain.ts runs as a child process with an IPC channel (FrontProcess.ts)")
const send = (m: FromFront) => {
  try {
    process.send!(m)
  } catch {}
}

const servers = new Map<number, Server>()
const readiness = new Map<number, { readonly state: ReadinessState; readonly at: number }>()

/**
 * Reads from a connection until a request's head is whole (or `MAX_HEAD` bytes, or `waitMs` without
 * one, or the client's end), then stops reading it and calls `done` with what was read (maybe
 * nothing: a client that sent nothing in time).
 */
const readHead = (socket: Socket, waitMs: number, done: (bytes: Buffer) => void) => {
  const chunks: Buffer[] = []
  let total = 0
  let finished = false
  const finish = () => {
    if (finished) return
    finished = true
    clearTimeout(timer)
    socket.off("data", onData)
    socket.off("end", finish)
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
      process.send!({ _tag: "Connection", site: next.site, head: next.head } satisfies FromFront, next.socket, { keepOpen: false }, (e) => {
        if (e) failed()
      })
    } catch {
      failed()
    }
  }
}

const apiConnection = (site: number) => (socket: Socket) =>
  readHead(socket, HEAD_WAIT_MS, (bytes) => {
    if (socket.destroyed) return
    // The node's process not taking connections (its event loop held): past this many waiting, a
    // new client is refused at once, with the API's error body, rather than held without bound.
    if (waiting.first.length + waiting.rest.length >= MAX_WAITING) {
      const body = `{"message":"Service Unavailable: ${MAX_WAITING} new connections wait for the node; retry later","error_code":"web_framework_error","vm_error_code":null}`
      socket.write(`HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`)
      return closeSoon(socket)
    }
    const head = bytes.toString("latin1")
    ;(/^(GET|HEAD|OPTIONS) /.test(head) ? waiting.first : waiting.rest).push({ site, socket, head })
    handOver()
  })

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
            : { status: 503, body: { ready: [], not_ready: [...(last?.state.ready ?? []), ...(last?.state.notReady ?? [])] } }
        answer(socket, status, "application/json", JSON.stringify(body), close)
      }
      if (!close) next()
    })
  socket.on("error", () => socket.destroy())
  next()
}

const listen = (site: number, options: FrontSiteOptions, shared?: unknown) => {
  // allowHalfOpen: a client that ends its side after its request still gets the answer (the node's).
  const server = createServer(
    { pauseOnConnect: true, allowHalfOpen: true },
    options.kind === "api" ? apiConnection(site) : readinessConnection(site)
  )
  const onError = (e: NodeJS.ErrnoException) => send({ _tag: "ListenFailed", site, message: e.message, code: e.code })
  server.once("error", onError)
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
      if (handle) process.send!({ _tag: "Shared", site } satisfies FromFront, handle as never, { keepOpen: true })
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
      if (server === undefined) return send({ _tag: "SiteClosed", site: m.site })
      server.close(() => send({ _tag: "SiteClosed", site: m.site }))
    }
  }
})
// The node's process gone (its channel closed): nothing is left to hand connections to.
process.on("disconnect", () => process.exit(0))
