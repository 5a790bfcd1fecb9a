/**
 * The front process (src/http/front): the local chain's API and readiness server behind it answer
 * as without it — through raw connections, so that what crosses (a request's first bytes read by
 * the front, the rest still in the kernel's buffer) is exercised: kept-alive connections, a body
 * larger than one read, a head sent in pieces, a malformed request, the readiness answers.
 */
import { readdirSync, readFileSync } from "node:fs"
import net from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { DEFAULT_FRONT_PROCESSES } from "../../../src/http/front/FrontProcess.js"
import { LocalChain } from "../../../src/LocalChain.js"

const frontMain = new URL("../../../dist/bin/frontMain.js", import.meta.url)

interface Answer {
  readonly status: number
  readonly headers: ReadonlyMap<string, string>
  readonly body: string
}

/** Writes `pieces` (waiting `gapMs` between them) and reads `count` whole answers (content-length framed). */
const exchange = (port: number, pieces: ReadonlyArray<string | Buffer>, count: number, gapMs = 0): Promise<Answer[]> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1")
    let buffer = Buffer.alloc(0)
    const answers: Answer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`timed out with ${answers.length} of ${count} answers: ${buffer.toString("latin1").slice(0, 200)}`))
    }, 10_000)
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n")
        if (end < 0) break
        const lines = buffer.subarray(0, end).toString("latin1").split("\r\n")
        const headers = new Map(lines.slice(1).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]))
        const length = Number(headers.get("content-length") ?? 0)
        if (buffer.length < end + 4 + length) break
        answers.push({ status: Number(lines[0]!.split(" ")[1]), headers, body: buffer.subarray(end + 4, end + 4 + length).toString("utf8") })
        buffer = buffer.subarray(end + 4 + length)
      }
      if (answers.length >= count) {
        clearTimeout(timer)
        socket.destroy()
        resolve(answers)
      }
    })
    socket.on("error", (e) => {
      clearTimeout(timer)
      reject(e)
    })
    void (async () => {
      for (const p of pieces) {
        socket.write(p)
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs))
      }
    })()
  })

const portOf = (url: string) => Number(new URL(url).port)

/** This process's children running the front's program (Linux: /proc), or undefined elsewhere. */
const frontChildren = (): number | undefined => {
  if (process.platform !== "linux") return undefined
  let n = 0
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      if (ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("frontMain.js")) n++
    } catch {}
  }
  return n
}

describe("the front process", () => {
  it.live("hands every API connection over intact: kept alive, large bodies, heads in pieces, malformed requests", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const chain = yield* LocalChain.spawn({ front: frontMain, readiness: undefined, faucet: undefined, graphql: undefined, indexer: undefined })
        const port = portOf(chain.apiUrl)
        // The connections below do go through a front process of this one.
        const children = frontChildren()
        if (children !== undefined) assert.strictEqual(children, DEFAULT_FRONT_PROCESSES)
        const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`
        const post = (path: string, body: string) =>
          `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

        // Three requests on one connection: the first crosses with the connection, the rest are read here.
        const [info, view, health] = yield* Effect.promise(() =>
          exchange(port, [get("/v1"), post("/v1/view", "{"), get("/v1/-/healthy")], 3, 30)
        )
        assert.strictEqual(info!.status, 200)
        assert.strictEqual(JSON.parse(info!.body).chain_id, 4)
        assert.strictEqual(info!.headers.get("x-aptos-chain-id"), "4")
        assert.strictEqual(view!.status, 400)
        assert.strictEqual(JSON.parse(view!.body).error_code, "web_framework_error")
        assert.strictEqual(health!.status, 200)

        // A first request whose body is larger than one read: part of it crosses with the head.
        const big = JSON.stringify({ function: "0x1::coin::balance", type_arguments: [], arguments: ["x".repeat(70_000)] })
        const [answer, after] = yield* Effect.promise(() => exchange(port, [post("/v1/view", big), get("/v1")], 2))
        assert.strictEqual(answer!.status, 400)
        assert.strictEqual(after!.status, 200)

        // A head sent in pieces, and a request Node's parser refuses (the contract's error body).
        const [pieces] = yield* Effect.promise(() => exchange(port, ["GET /v1 HT", "TP/1.1\r\nHo", "st: x\r\n\r\n"], 1, 40))
        assert.strictEqual(pieces!.status, 200)
        const [refused] = yield* Effect.promise(() => exchange(port, ["NONSENSE\r\n\r\n"], 1))
        assert.strictEqual(refused!.status, 400)
        assert.match(refused!.body, /Malformed HTTP request/)
      })
    )
  )

  it.live("answers the readiness server itself, as the node's own would", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const chain = yield* LocalChain.spawn({
          front: frontMain,
          readiness: { host: "127.0.0.1", port: 0 },
          graphql: undefined,
          indexer: undefined
        })
        const port = portOf(chain.readinessUrl!)
        // The first state reaches the front within a quarter of a second of its start.
        let ready: Answer | undefined
        for (let i = 0; i < 50 && ready?.status !== 200; i++) {
          ready = (yield* Effect.promise(() => exchange(port, ["GET / HTTP/1.1\r\nHost: x\r\n\r\n"], 1)))[0]
          if (ready?.status !== 200) yield* Effect.sleep("100 millis")
        }
        assert.strictEqual(ready!.status, 200)
        const body = JSON.parse(ready!.body)
        assert.deepStrictEqual(body.not_ready, [])
        assert.deepStrictEqual(body.ready.map((c: Record<string, unknown>) => Object.keys(c)[0]), ["NodeApi", "Http"])
        assert.strictEqual(ready!.headers.get("access-control-allow-origin"), "*")
        const [preflight, missing, again] = yield* Effect.promise(() =>
          exchange(port, ["OPTIONS / HTTP/1.1\r\nHost: x\r\n\r\n", "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\n\r\n"], 3, 20)
        )
        assert.strictEqual(preflight!.status, 204)
        assert.strictEqual(missing!.status, 404)
        assert.strictEqual(again!.status, 200)
        // A kept-alive prober that waits between its probes (longer than a head is waited for on a new API connection).
        const [first, later] = yield* Effect.promise(() =>
          exchange(port, ["GET / HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\n\r\n"], 2, 1200)
        )
        assert.strictEqual(first!.status, 200)
        assert.strictEqual(later!.status, 200)
      })
    )
  )

  it.live("lets the port go when the chain stops", () =>
    Effect.gen(function* () {
      const port = yield* Effect.scoped(
        Effect.map(LocalChain.spawn({ front: frontMain, readiness: undefined, faucet: undefined, graphql: undefined, indexer: undefined }), (c) => portOf(c.apiUrl))
      )
      const error = yield* Effect.promise(
        () =>
          new Promise<string>((resolve) => {
            const s = net.connect(port, "127.0.0.1")
            s.on("connect", () => {
              s.destroy()
              resolve("connected")
            })
            s.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"))
          })
      )
      assert.strictEqual(error, "ECONNREFUSED")
    })
  )
})
