/**
 * The front process's own reads (issue 22, "no request waits behind the event loop"): the API's
 * request listener over a read-only node on the store the node's process writes (as an API worker
 * reads it, `follow/readOnlyStore.ts`), so that a read never waits for the node's event loop, which
 * under a flood of submissions executes blocks.
 *
 * `frontMain.ts` reads each request's head itself and asks this module to answer the ones that only
 * read committed state (`frontRequestKind`), and to try the lookups by hash: a transaction the store
 * does not have may be pending, in the node's mempool, so that lookup's "not found" is not sent —
 * the request goes to the node. The first request that is neither (a submission, a view, a control)
 * hands the connection to the node, which keeps it. The answer is the listener's own (`RequestListener.ts`):
 * the same routes, renderers, errors, ledger headers, CORS and request log as the node's, given
 * the node's settings (`FrontReadsSpec`); only the metrics are the node's alone.
 *
 * Loaded on the first such request, not at the front's start (the node's code and the store cost
 * the front ~25 MB and a fraction of a second of CPU, which a chain nobody reads from never pays);
 * until it is ready, connections go to the node as before.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { STATUS_CODES } from "node:http"
import type { Socket } from "node:net"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { readOnlyNodeLayer } from "../../follow/readOnlyNode.js"
import { Node } from "../../node/Node.js"
import { defaultNodeConfig } from "../../node/NodeConfig.js"
import { makeHttpConfig } from "../HttpConfig.js"
import { makeRequestListener } from "../RequestListener.js"
import { makeRequestLog } from "../RequestLog.js"
import { type FrontReadsSpec, gasEstimationFromWire } from "./protocol.js"
import { keepsAlive, type RequestHead } from "./requestHead.js"

/**
 * After an answer: `"keep"` the connection for its next request, `"close"` it (the request or the
 * answer said so), or nothing was sent and the request is the `"node"`'s (a lookup by hash of a
 * transaction the store does not have).
 */
export type FrontOutcome = "keep" | "close" | "node"

export interface FrontReads {
  /**
   * Answers `head` (a GET or HEAD without a body) on `socket`, then calls `done` with what becomes
   * of the connection. With `lookup` (a transaction by hash), a 404 is not sent: `done("node")`.
   * Not called when the socket is gone meanwhile.
   */
  readonly answer: (head: RequestHead, socket: Socket, done: (outcome: FrontOutcome) => void, lookup?: boolean) => void
  /** Stops answering and closes the store (after the answers in flight). */
  readonly close: () => Promise<void>
}

/** The most `close` waits for answers in flight. */
const CLOSE_WAIT_MS = 2000

/** As the node's servers keep an idle connection (`HttpConfig.keepAliveTimeoutMs`). */
const KEEP_ALIVE_SECS = 65

/** The node services over the store, read only, with the node's page sizes, caches and gas settings. */
const readOnlyNode = (spec: FrontReadsSpec) =>
  readOnlyNodeLayer(spec.dataDir, {
    ...defaultNodeConfig,
    ...spec.pages,
    gasEstimation: gasEstimationFromWire(spec.gasEstimation),
    // Views never run here (they are POSTs), so no view threads.
    viewThreads: 0
  })

export const startFrontReads = async (spec: FrontReadsSpec): Promise<FrontReads> => {
  const scope = Effect.runSync(Scope.make())
  let context: Context.Context<Node>
  try {
    context = await Effect.runPromise(Scope.provide(scope)(Layer.build(readOnlyNode(spec))))
  } catch (e) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw e
  }
  const node = Context.get(context, Node)
  const line = spec.logRequests ? makeRequestLog().line : undefined
  /** A lookup passed on to the node is the node's to log: set by its `end`, which the listener's log line follows at once. */
  let passedOn = false
  const log =
    line === undefined
      ? undefined
      : (text: string) => {
          if (passedOn) passedOn = false
          else line(text)
        }
  const listener = makeRequestListener(
    node,
    makeHttpConfig({ headerPrefix: spec.headerPrefix, gitHash: spec.gitHash, log }),
    undefined
  )
  let inFlight = 0
  let closing: (() => void) | undefined

  const answer: FrontReads["answer"] = (head, socket, done, lookup = false) => {
    const http10 = head.version === "1.0"
    const wantsClose = !keepsAlive(head)
    // What the listener reads of a request without a body, and writes of its answer.
    const req = {
      method: head.method,
      url: head.target,
      headers: Object.fromEntries(head.headers),
      httpVersionMajor: 1,
      httpVersionMinor: http10 ? 0 : 1
    }
    let sent = false
    const res = {
      get headersSent() {
        return sent
      },
      get destroyed() {
        return socket.destroyed
      },
      writeHead(status: number, headers: ReadonlyArray<string>) {
        sent = true
        // Not in this store: maybe pending, the node's to answer (nothing is written).
        if (lookup && status === 404) {
          this.passOn = true
          return this
        }
        let close = wantsClose || closing !== undefined
        const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`]
        for (let i = 0; i + 1 < headers.length; i += 2) {
          if (headers[i]!.toLowerCase() === "connection" && /close/i.test(headers[i + 1]!)) close = true
          else lines.push(`${headers[i]}: ${headers[i + 1]}`)
        }
        lines.push(`Date: ${new Date().toUTCString()}`)
        lines.push(close ? "Connection: close" : `Connection: keep-alive\r\nKeep-Alive: timeout=${KEEP_ALIVE_SECS}`)
        this.close = close
        this.headText = `${lines.join("\r\n")}\r\n\r\n`
        return this
      },
      close: false,
      passOn: false,
      headText: "",
      end(body?: string | Buffer, encoding?: BufferEncoding) {
        if (this.passOn) {
          passedOn = log !== undefined
          settle()
          if (!socket.destroyed) done("node")
          return
        }
        if (socket.destroyed) return settle()
        // The connection goes on (its next request read, or it is handed to the node) once this
        // answer has left for the kernel: a descriptor handed over with an answer still queued here
        // would lose it (a client that pipelines a read and then a submission), and a client that
        // sends requests without reading the answers holds one answer here, not one per request.
        const close = this.close
        const flushed = (e?: Error | null) => {
          settle()
          if (!e && !socket.destroyed) done(close ? "close" : "keep")
        }
        // A HEAD's answer has the GET's headers (its length included) and no body.
        if (head.method === "HEAD" || body === undefined) socket.write(this.headText, "latin1", flushed)
        else if (typeof body === "string")
          socket.write(this.headText + body, encoding === "latin1" ? "latin1" : "utf8", flushed)
        else socket.write(Buffer.concat([Buffer.from(this.headText, "latin1"), body]), flushed)
      }
    }
    // Counted until its answer has left, or until its connection is gone (the listener then writes nothing).
    let settled = false
    const settle = () => {
      if (settled) return
      settled = true
      socket.off("close", settle)
      inFlight--
      if (inFlight === 0) closing?.()
    }
    socket.once("close", settle)
    inFlight++
    // (The listener takes node:http's request and response; it uses only what is given here.)
    listener(req as unknown as IncomingMessage, res as unknown as ServerResponse)
  }

  return {
    answer,
    close: async () => {
      // Answers in flight are waited for, at most `CLOSE_WAIT_MS` (an answer that never comes holds no stop).
      const answered = new Promise<void>((resolve) => (closing = resolve))
      if (inFlight === 0) closing?.()
      await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())])
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
}
