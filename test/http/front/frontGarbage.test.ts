/**
 * Whatever bytes clients send to `movenode`'s API port — where its front process takes every new
 * connection, answers reads itself and hands the rest to the node — both processes stay up, answer
 * each well-formed request, and hold no more descriptors than before once the clients are gone.
 * fast-check makes the streams: near-HTTP heads (methods, paths, versions, headers and bodies a
 * parser trips on: duplicate or huge lengths, chunked bodies, 20 KB headers, bare LFs, several heads
 * pipelined) and plain random bytes, each sent in pieces, half-closed or not.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import fc from "fast-check"
import { afterAll, assert, describe, it } from "vitest"
import { frontsOf, startApiOnly } from "../../support/frontProcesses.js"

const dataDir = mkdtempSync(join(tmpdir(), "movenode-front-garbage-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const descriptors = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length

const paths = [
  "/v1",
  "/v1/-/healthy",
  "/v1/accounts/0x1",
  "/v1/accounts/0x1/resources?limit=2",
  `/v1/transactions/by_hash/0x${"ab".repeat(32)}`,
  "/v1/transactions/wait_by_hash/0x12",
  "/v1/estimate_gas_price",
  "/v1/view",
  "/v1/transactions",
  "/",
  "*",
  "/v1/accounts/%zz",
  `/v1/${"a".repeat(9000)}`
]
const headerLine = fc.oneof(
  fc.constantFrom(
    "Host: x",
    "Connection: close",
    "Connection: keep-alive",
    "Content-Length: 5",
    "Content-Length: -1",
    "Content-Length: 99999999999",
    "Content-Length: 3\r\nContent-Length: 4",
    "Transfer-Encoding: chunked",
    "Transfer-Encoding: gzip, chunked",
    "Expect: 100-continue",
    "Expect: nope",
    "Content-Type: application/json",
    "Accept: application/x-bcs",
    `X: ${"y".repeat(20_000)}`,
    ": empty",
    "NoColon",
    "Upgrade: websocket\r\nConnection: Upgrade"
  ),
  fc.string({ maxLength: 60 })
)
const head = fc
  .record({
    method: fc.constantFrom("GET", "HEAD", "POST", "PUT", "OPTIONS", "get", "G ET", "", "PRI"),
    path: fc.oneof(fc.constantFrom(...paths), fc.string({ maxLength: 80 })),
    version: fc.constantFrom("HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1x", ""),
    headers: fc.array(headerLine, { maxLength: 6 }),
    end: fc.constantFrom("\r\n\r\n", "\n\n", "\r\n", ""),
    body: fc.oneof(
      fc.constant(""),
      fc.string({ maxLength: 200 }),
      fc.constant("5\r\nhello\r\n0\r\n\r\n"),
      fc.constant('{"function":"0x1::coin::balance"')
    )
  })
  .map((r) => Buffer.from(`${r.method} ${r.path} ${r.version}\r\n${r.headers.join("\r\n")}${r.end}${r.body}`, "latin1"))
const stream = fc.oneof(
  { weight: 3, arbitrary: fc.array(head, { minLength: 1, maxLength: 4 }).map((hs) => Buffer.concat(hs)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 3000 }).map((u) => Buffer.from(u)) },
  {
    weight: 1,
    arbitrary: fc.tuple(head, fc.uint8Array({ maxLength: 500 })).map(([h, u]) => Buffer.concat([h, Buffer.from(u)]))
  }
)
const client = fc.record({ bytes: stream, pieces: fc.integer({ min: 1, max: 5 }), halfClose: fc.boolean() })

/** Sends one client's bytes and waits for the server to close, or at most `waitMs`. */
const send = (port: number, c: { bytes: Buffer; pieces: number; halfClose: boolean }, waitMs: number) =>
  new Promise<void>((resolve) => {
    const socket = net.connect(port, "127.0.0.1")
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve()
    }
    const timer = setTimeout(done, waitMs)
    socket.on("error", () => {})
    socket.on("close", done)
    socket.on("data", () => {})
    socket.on("connect", async () => {
      const step = Math.ceil(c.bytes.length / c.pieces) || 1
      for (let i = 0; i < c.bytes.length && !socket.destroyed; i += step) {
        socket.write(c.bytes.subarray(i, i + step))
        await sleep(1)
      }
      if (c.halfClose && !socket.destroyed) socket.end()
    })
  })

describe.skipIf(process.platform !== "linux")("the front process and its node, fed garbage", () => {
  it("stay up, answer well-formed requests and release every connection", async () => {
    const { child, port, api } = await startApiOnly(dataDir)
    try {
      assert.strictEqual((await fetch(`${api}/v1/accounts/0x1`)).status, 200)
      const [front] = frontsOf(child.pid!)
      assert.isDefined(front, "no front process")
      const before = { node: descriptors(child.pid!), front: descriptors(front!) }

      const clients = fc.sample(client, { numRuns: 600, seed: 20261130 })
      let next = 0
      await Promise.all(
        Array.from({ length: 24 }, async () => {
          while (next < clients.length) await send(port, clients[next++]!, 300)
        })
      )

      assert.isNull(child.exitCode, "the node exited")
      assert.isTrue(frontsOf(child.pid!).includes(front!), "the front process exited")
      // Well-formed requests on new connections: a read the front answers, one it hands over.
      assert.strictEqual((await fetch(`${api}/v1/-/healthy`)).status, 200)
      const view = await fetch(`${api}/v1/view`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ function: "0x1::chain_id::get", type_arguments: [], arguments: [] })
      })
      assert.deepStrictEqual([view.status, await view.json()], [200, [4]])
      // Every garbage connection closed on the server side too (a few descriptors of slack for
      // what a first request opens lazily, e.g. the store's readers).
      let after = { node: 0, front: 0 }
      for (let i = 0; i < 50; i++) {
        after = { node: descriptors(child.pid!), front: descriptors(front!) }
        if (after.node <= before.node + 4 && after.front <= before.front + 4) break
        await sleep(100)
      }
      assert.isAtMost(after.node, before.node + 4, `node descriptors ${before.node} → ${after.node}`)
      assert.isAtMost(after.front, before.front + 4, `front descriptors ${before.front} → ${after.front}`)
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL")
    }
  }, 120_000)
})
