/**
 * Issue 22 ("no request waits behind the event loop"): libuv accepts one connection per listening
 * handle and loop turn, so while every turn is long, new connections (health probes) wait behind
 * each other in the accept queue. With `HttpConfig.acceptors` duplicates of the listening socket
 * (extraAcceptors.ts) one turn accepts several. Counted in turns, not time: the test's own event
 * loop is kept busy (each turn spins a few ms) while 30 clients that connected at once wait.
 */
import { request } from "node:http"
import { createServer } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of closers.splice(0)) await c()
})

/**
 * Opens `n` connections at once (each a `GET /v1/-/healthy` on a new connection), then keeps the
 * loop busy — every turn spins `spinMs` — until all are answered. Returns the turns that took and
 * the statuses.
 */
const probeWhileBusy = (port: number, n: number, spinMs = 5) =>
  new Promise<{ readonly turns: number; readonly statuses: ReadonlyArray<number> }>((resolve, reject) => {
    const statuses: Array<number> = []
    let turns = 0
    for (let i = 0; i < n; i++) {
      const req = request({ host: "127.0.0.1", port, path: "/v1/-/healthy", agent: false }, (res) => {
        res.resume()
        res.once("end", () => statuses.push(res.statusCode ?? 0))
      })
      req.once("error", reject)
      req.end()
    }
    const spin = () => {
      const until = performance.now() + spinMs
      while (performance.now() < until);
      turns++
      if (statuses.length === n) resolve({ turns, statuses })
      else if (turns > 50 * n) reject(new Error(`only ${statuses.length} of ${n} answered in ${turns} turns`))
      else setImmediate(spin)
    }
    setImmediate(spin)
  })

describe("extra acceptors (duplicates of the API's listening socket)", () => {
  it("accept several queued connections per busy turn, and every one is served by this process", async () => {
    const node = makeTestNode()
    const server = await startServer(node, { acceptors: 4 })
    closers.push(server.close)
    expect(await server.info.acceptors).toBe(4)
    const { turns, statuses } = await probeWhileBusy(server.info.address.port, 30)
    expect(statuses).toEqual(Array(30).fill(200))
    // 5 accepts a turn: ~6 turns to accept all, plus the turns to read and answer the last.
    expect(turns).toBeLessThan(15)
  })

  it("without them the same queue drains one connection per turn", async () => {
    const server = await startServer(makeTestNode(), { acceptors: 0 })
    closers.push(server.close)
    expect(await server.info.acceptors).toBe(0)
    const { turns, statuses } = await probeWhileBusy(server.info.address.port, 30)
    expect(statuses).toEqual(Array(30).fill(200))
    expect(turns).toBeGreaterThanOrEqual(30)
  })

  it("closing the server releases the port (no duplicate left listening)", async () => {
    const server = await startServer(makeTestNode(), { acceptors: 3 })
    expect(await server.info.acceptors).toBe(3)
    const port = server.info.address.port
    await server.close()
    const again = createServer()
    await new Promise<void>((resolve, reject) => {
      again.once("error", reject)
      again.listen(port, "127.0.0.1", () => resolve())
    })
    await new Promise<void>((r) => again.close(() => r()))
  })

  it("a server closed before its duplicates arrive closes them as they come", async () => {
    const server = await startServer(makeTestNode(), { acceptors: 2 })
    const port = server.info.address.port
    await server.close()
    await server.info.acceptors
    const again = createServer()
    await new Promise<void>((resolve, reject) => {
      again.once("error", reject)
      again.listen(port, "127.0.0.1", () => resolve())
    })
    await new Promise<void>((r) => again.close(() => r()))
  })

  it("without a helper process (it cannot start) the server serves as before and says so once", async () => {
    const execPath = process.execPath
    const lines: Array<string> = []
    Object.defineProperty(process, "execPath", { value: "/nonexistent/node", configurable: true })
    try {
      const server = await startServer(makeTestNode(), { acceptors: 4, log: (line) => lines.push(line) })
      closers.push(server.close)
      expect(await server.info.acceptors).toBe(0)
      const { statuses } = await probeWhileBusy(server.info.address.port, 5)
      expect(statuses).toEqual(Array(5).fill(200))
      expect(lines.filter((l) => l.includes("extra acceptors"))).toEqual([
        "movenode: 0 of 4 extra acceptors for the API (extraAcceptors.ts): new connections are accepted one per event-loop turn"
      ])
    } finally {
      Object.defineProperty(process, "execPath", { value: execPath, configurable: true })
    }
  })
})
