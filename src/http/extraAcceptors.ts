/**
 * More than one accepted connection per event-loop turn (issue 22: "seconds to accept a
 * connection under load").
 *
 * libuv (1.45 and later; Node 20 ships 1.46) accepts at most one connection per listening handle
 * and loop turn. Under a flood of submissions a turn lasts several ms of CPU (tens of ms of wall
 * time on a busy machine), so new connections — a health probe, a balancer's check, `curl` — wait
 * in the kernel's accept queue behind each other: with 20 probes a second and 20–30 turns a second
 * the queue never drained (measured: 20–36 connections queued for the whole flood, probes waiting
 * 1–2 s while the readiness server on its own socket answered in ~100 ms).
 *
 * A listening socket can be watched through several descriptors, and libuv gives each its own
 * handle, so with `count` duplicates a turn accepts up to `count + 1` connections. Node 20 has
 * neither `dup()` nor `SO_REUSEPORT` (`reusePort` came with Node 22.12), so the descriptor is
 * duplicated as node:cluster hands a listening socket to its workers: sent over an IPC channel
 * (SCM_RIGHTS). A helper process started for the purpose receives the listening handle and sends it
 * back `count` times, each arriving as a new descriptor of the same socket; it never listens on it
 * itself (a raw handle is not a server), so it cannot take a connection, and it exits as soon as
 * it has sent them. The server accepts alone until the duplicates arrive (~0.1–0.2 s after it
 * listens; nothing waits for them). Connections accepted through a duplicate are handed to the HTTP
 * server as its own (its `connection` event: the connection limit, keep-alive, timeouts and
 * graceful close apply as to the others).
 *
 * Every duplicate is woken for a new connection and all but one find nothing (`EAGAIN`): a few
 * syscalls per connection, nothing per request on a kept-alive one.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { Server, type Socket } from "node:net"
import { setPriority } from "node:os"

/**
 * The helper's program: receive the handle, send it back N times (each send waits for the
 * parent's acknowledgement), then leave. `process.on`, not `once`: Node unreferences the IPC
 * channel when no `message` listener is left, and the remaining sends would then never complete.
 */
const HELPER =
  'process.on("message",(_m,h)=>{let n=Number(process.argv.at(-1));' +
  'const next=()=>n-->0?process.send("acceptor",h,next):process.disconnect();next()})'

export interface ExtraAcceptors {
  /** Resolves with how many duplicates listen once the helper has exited (fewer than asked if it failed). */
  readonly ready: Promise<number>
  /** Connections accepted through the duplicates and still open. */
  readonly connections: () => Promise<number>
  /** Stops the duplicates accepting; resolves when their connections have closed. */
  readonly close: () => Promise<void>
}

/** A `net.Server`'s libuv handle (not in Node's types; what `child.send` transfers). */
const listeningHandle = (server: Server): object | undefined =>
  (server as unknown as { readonly _handle?: object | null })._handle ?? undefined

/**
 * Adds `count` duplicates of `server`'s listening socket; `server` must be listening. A failed
 * accept on one of them is reported to `onError` (as the server's own `error` event would be).
 */
export const addExtraAcceptors = (server: Server, count: number, onError: (e: Error) => void): ExtraAcceptors => {
  const extra: Array<Server> = []
  let closed = false
  let helper: ChildProcess | undefined
  const handle = listeningHandle(server)
  // Resolved once the helper is gone: until then it holds a descriptor of the socket too (closing
  // the server would not free the port).
  const ready = new Promise<number>((resolve) => {
    if (count <= 0 || handle === undefined) return resolve(0)
    const done = () => resolve(extra.length)
    try {
      helper = spawn(process.execPath, ["-e", HELPER, String(count)], {
        stdio: ["ignore", "ignore", "ignore", "ipc"],
        // Nothing of this process's options (loaders, profilers) in a helper that only echoes.
        env: { ...process.env, NODE_OPTIONS: "" }
      })
    } catch {
      return done()
    }
    // Its ~50 ms of start-up CPU is not urgent: at a lower priority it takes idle time, not the
    // node's own start (the server already accepts alone meanwhile).
    try {
      if (helper.pid !== undefined) setPriority(helper.pid, 10)
    } catch {}
    helper.once("error", done)
    helper.once("exit", done)
    helper.on("message", (_m: unknown, duplicate: unknown) => {
      if (duplicate === undefined || duplicate === null) return
      if (closed) {
        ;(duplicate as { close?: () => void }).close?.()
        return
      }
      // As `http.Server` configures its own `net.Server` (half-open allowed, no Nagle delay).
      const acceptor = new Server({ allowHalfOpen: true, noDelay: true }, (socket: Socket) => {
        server.emit("connection", socket)
      })
      acceptor.on("error", onError)
      acceptor.listen(duplicate as Parameters<Server["listen"]>[0])
      extra.push(acceptor)
    })
    helper.send("listen", handle as Parameters<ChildProcess["send"]>[1])
  })
  const connectionsOf = (s: Server) => new Promise<number>((r) => s.getConnections((e, n) => r(e ? 0 : n)))
  return {
    ready,
    connections: async () => (await Promise.all(extra.map(connectionsOf))).reduce((a, b) => a + b, 0),
    close: async () => {
      closed = true
      if (helper !== undefined && helper.exitCode === null && helper.signalCode === null) helper.kill()
      await ready
      await Promise.all(extra.map((s) => new Promise<void>((r) => s.close(() => r()))))
    }
  }
}
