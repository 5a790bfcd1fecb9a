/**
 * The front process (src/http/front): the local chain's API and readiness server behind it answer
 * as without it — through raw connections, so that what crosses (a request's first bytes read by
 * the front, the rest still in the kernel's buffer) is exercised: kept-alive connections, a body
 * larger than one read, a head sent in pieces, a malformed request, the readiness answers; and,
 * over a chain in a data directory, the reads the front answers itself (the node's answers, byte
 * for byte, and the connection moved to the node at its first request that is not a read).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import net from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { DEFAULT_FRONT_PROCESSES } from "../../../src/http/front/FrontProcess.js"
import { MiningMode } from "../../../src/chain/MiningMode.js"
import { LocalChain } from "../../../src/LocalChain.js"
import { frontsOf } from "../../support/frontProcesses.js"
import { signedTransfer } from "../../support/signedTransfer.js"

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
      reject(
        new Error(
          `timed out with ${answers.length} of ${count} answers (${answers.map((a) => a.status).join(",")}): ${buffer.toString("latin1").slice(0, 200)}`
        )
      )
    }, 10_000)
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n")
        if (end < 0) break
        const lines = buffer.subarray(0, end).toString("latin1").split("\r\n")
        const headers = new Map(
          lines.slice(1).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()])
        )
        const length = Number(headers.get("content-length") ?? 0)
        if (buffer.length < end + 4 + length) break
        answers.push({
          status: Number(lines[0]!.split(" ")[1]),
          headers,
          body: buffer.subarray(end + 4, end + 4 + length).toString("utf8")
        })
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

/** Everything the server sends for `request` until it closes the connection. */
const untilClosed = (port: number, request: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request))
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error("not closed within 10 s"))
    }, 10_000)
    socket.on("data", (c) => chunks.push(c))
    socket.on("close", () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString("latin1"))
    })
    socket.on("error", () => {})
  })

const portOf = (url: string) => Number(new URL(url).port)

/**
 * A chain in a new data directory (removed with the scope) behind a front process that serves
 * reads, mining only when asked (so two reads see the same version), and the node's own request
 * log: a request the front answered is not in it.
 */
const chainWithReads = (prefix: string, accounts?: number) =>
  Effect.gen(function* () {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
    const nodeLog: string[] = []
    const chain = yield* LocalChain.spawn(
      {
        front: frontMain,
        dataDir: dir,
        fsync: false,
        mining: MiningMode.manual,
        readiness: undefined,
        faucet: undefined,
        graphql: undefined,
        indexer: undefined,
        accounts
      },
      { log: (line) => nodeLog.push(line) }
    )
    return {
      chain,
      port: portOf(chain.apiUrl),
      answeredByNode: (marker: string) => nodeLog.some((line) => line.includes(marker))
    }
  })

/**
 * Sends `GET /v1?<marker>=i` on new connections until one is answered by the front (it loads its
 * reads on the first one, and the node answers meanwhile), and gives that connection, still open.
 */
const untilTheFrontAnswers = (port: number, answeredByNode: (marker: string) => boolean, marker: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 100; i++) {
      const socket = net.connect(port, "127.0.0.1")
      const status = yield* Effect.promise(
        () =>
          new Promise<string>((resolve) => {
            socket.once("data", (chunk: Buffer) => resolve(chunk.toString("latin1").slice(9, 12)))
            socket.once("error", (e) => resolve(e.message))
            socket.write(`GET /v1?${marker}=${i} HTTP/1.1\r\nHost: x\r\n\r\n`)
          })
      )
      assert.strictEqual(status, "200")
      yield* Effect.sleep("20 millis")
      if (!answeredByNode(`${marker}=${i}`)) return socket
      socket.destroy()
    }
    return assert.fail("no read was answered by the front")
  })

describe("the front process", () => {
  it.live("hands every API connection over intact: kept alive, large bodies, heads in pieces, malformed requests", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const chain = yield* LocalChain.spawn({
          front: frontMain,
          readiness: undefined,
          faucet: undefined,
          graphql: undefined,
          indexer: undefined
        })
        const port = portOf(chain.apiUrl)
        // The connections below do go through a front process of this one.
        if (process.platform === "linux") assert.strictEqual(frontsOf(process.pid).length, DEFAULT_FRONT_PROCESSES)
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
        const big = JSON.stringify({
          function: "0x1::coin::balance",
          type_arguments: [],
          arguments: ["x".repeat(70_000)]
        })
        const [answer, after] = yield* Effect.promise(() => exchange(port, [post("/v1/view", big), get("/v1")], 2))
        assert.strictEqual(answer!.status, 400)
        assert.strictEqual(after!.status, 200)

        // A head sent in pieces, and a request Node's parser refuses (the contract's error body).
        const [pieces] = yield* Effect.promise(() =>
          exchange(port, ["GET /v1 HT", "TP/1.1\r\nHo", "st: x\r\n\r\n"], 1, 40)
        )
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
        assert.deepStrictEqual(
          body.ready.map((c: Record<string, unknown>) => Object.keys(c)[0]),
          ["NodeApi", "Http"]
        )
        assert.strictEqual(ready!.headers.get("access-control-allow-origin"), "*")
        const [preflight, missing, again] = yield* Effect.promise(() =>
          exchange(
            port,
            [
              "OPTIONS / HTTP/1.1\r\nHost: x\r\n\r\n",
              "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n",
              "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
            ],
            3,
            20
          )
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

  it.live(
    "answers reads itself from the node's store, as the node answers them, and hands the connection over at its first other request",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { chain, port, answeredByNode } = yield* chainWithReads("movenode-front-reads-")
          const get = (target: string, method = "GET") => `${method} ${target} HTTP/1.1\r\nHost: x\r\n\r\n`
          const viewBody = JSON.stringify({ function: "0x1::chain_id::get", type_arguments: [], arguments: [] })
          const view = `POST /v1/view HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${viewBody.length}\r\n\r\n${viewBody}`
          ;(yield* untilTheFrontAnswers(port, answeredByNode, "probe")).destroy()

          // The same requests answered by the front (a new connection, reads first) and by the node
          // (the connection's first request a view, so it crossed): the same status, body and headers.
          const reads = [
            get("/v1"),
            get("/v1/accounts/0x1"),
            get("/v1/accounts/0x1/resources?limit=2"),
            get("/v1/accounts/0x1/module/code"),
            get("/v1/transactions?start=0&limit=3"),
            get("/v1/blocks/by_height/0?with_transactions=false"),
            get("/v1/accounts/0x1/resource/0x1::account::Account?ledger_version=0"),
            get("/v1/-/healthy"),
            get("/v1/estimate_gas_price"),
            get("/v1/accounts/zz"),
            get("/v1/accounts/0x1/resources?ledger_version=99999999"),
            get("/v1/nope")
          ]
          const fromFront = yield* Effect.promise(() => exchange(port, reads, reads.length))
          const fromNode = yield* Effect.promise(() => exchange(port, [view, ...reads], reads.length + 1))
          assert.strictEqual(fromNode[0]!.status, 200)
          const shown = (a: Answer) => ({
            status: a.status,
            body: a.body,
            headers: [...a.headers].filter(([k]) => k !== "date").sort(([x], [y]) => (x < y ? -1 : 1))
          })
          for (const [i, a] of fromFront.entries()) assert.deepStrictEqual(shown(a), shown(fromNode[i + 1]!), reads[i])
          assert.deepStrictEqual(
            fromFront.map((a) => a.status),
            [200, 200, 200, 200, 200, 200, 200, 200, 200, 400, 404, 404]
          )

          // Reads, then a view on the same connection: it moves to the node, which answers the rest.
          const [info, viewed, after] = yield* Effect.promise(() =>
            exchange(port, [get("/v1?moved=1"), view, get("/v1?moved=2")], 3, 30)
          )
          assert.strictEqual(info!.status, 200)
          assert.strictEqual(viewed!.body, "[4]")
          assert.strictEqual(after!.status, 200)
          assert.isFalse(answeredByNode("moved=1"))
          assert.isTrue(answeredByNode("moved=2"))

          // Pipelined, a large read and a view sent at once: the front's answer has left before the
          // connection goes to the node, which answers the view after it.
          const pipelined = yield* Effect.promise(() =>
            exchange(port, [get("/v1/accounts/0x1/modules?limit=40"), view], 2)
          )
          assert.deepStrictEqual(
            pipelined.map((a) => a.status),
            [200, 200]
          )
          assert.isAbove(pipelined[0]!.body.length, 200_000)
          assert.strictEqual(pipelined[1]!.body, "[4]")

          // Read after write: a block the node has committed is in the front's next read.
          yield* chain.mine
          const [nodeInfo] = (yield* Effect.promise(() => exchange(port, [view, get("/v1")], 2))).slice(1)
          const [frontInfo] = yield* Effect.promise(() => exchange(port, [get("/v1")], 1))
          assert.isAtLeast(
            Number(JSON.parse(frontInfo!.body).ledger_version),
            Number(JSON.parse(nodeInfo!.body).ledger_version)
          )

          // HEAD: the GET's headers, no body (all the connection carries until it closes).
          const head = yield* Effect.promise(() =>
            untilClosed(port, "HEAD /v1/accounts/0x1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
          )
          assert.match(head, /^HTTP\/1\.1 200 OK\r\n/)
          assert.match(head, /\r\ncontent-length: [1-9]/i)
          assert.isTrue(head.endsWith("\r\n\r\n"), head)

          // HTTP/1.0 without keep-alive: answered and closed.
          const [old] = yield* Effect.promise(() => exchange(port, ["GET /v1 HTTP/1.0\r\n\r\n"], 1))
          assert.strictEqual(old!.status, 200)
          assert.strictEqual(old!.headers.get("connection"), "close")
        })
      )
  )

  it.live(
    "looks up committed transactions by hash itself, and hands a hash its store does not have (maybe pending) to the node",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { chain, port, answeredByNode } = yield* chainWithReads("movenode-front-hash-", 2)
          const get = (target: string) => `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`
          ;(yield* untilTheFrontAnswers(port, answeredByNode, "probe")).destroy()
          const [genesis] = yield* Effect.promise(() => exchange(port, [get("/v1/transactions/by_version/0")], 1))
          const hash = JSON.parse(genesis!.body).hash as string
          const viaNode = (target: string) =>
            Effect.map(
              Effect.promise(() => exchange(port, [get("/__movenode/v1/snapshots"), get(target)], 2)),
              (answers) => answers[1]!
            )

          // Committed: answered by the front (not in the node's log), as the node answers it.
          for (const kind of ["by_hash", "wait_by_hash"]) {
            const target = `/v1/transactions/${kind}/${hash}`
            const [front] = yield* Effect.promise(() => exchange(port, [get(`${target}?committed=${kind}`)], 1))
            const node = yield* viaNode(target)
            assert.strictEqual(front!.status, 200, kind)
            assert.strictEqual(front!.body, node.body, kind)
            assert.strictEqual(JSON.parse(front!.body).type, "genesis_transaction")
            assert.isFalse(answeredByNode(`committed=${kind}`), kind)
          }

          // Not in the store: the node answers (it looks in its mempool first), and keeps the connection.
          const unknown = `0x${"ab".repeat(32)}`
          for (const kind of ["by_hash", "wait_by_hash"]) {
            const [missing, next] = yield* Effect.promise(() =>
              exchange(
                port,
                [get(`/v1/transactions/${kind}/${unknown}?unknown=${kind}`), get(`/v1?after=${kind}`)],
                2,
                30
              )
            )
            assert.strictEqual(missing!.status, 404, kind)
            assert.strictEqual(JSON.parse(missing!.body).error_code, "transaction_not_found")
            assert.strictEqual(next!.status, 200)
            assert.isTrue(answeredByNode(`unknown=${kind}`), kind)
            assert.isTrue(answeredByNode(`after=${kind}`), kind)
          }

          // A malformed hash is the front's to refuse, as the node does; the gas estimate is the front's too.
          const [bad, gas] = yield* Effect.promise(() =>
            exchange(port, [get("/v1/transactions/by_hash/0xzz?bad=1"), get("/v1/estimate_gas_price?gas=1")], 2)
          )
          assert.strictEqual(bad!.status, 400)
          assert.strictEqual(gas!.status, 200)
          assert.isFalse(answeredByNode("bad=1"))
          assert.isFalse(answeredByNode("gas=1"))

          // Pending (submitted, not yet in a block: mining is manual): the node's mempool answers it.
          // (The chain's first block after genesis changes the epoch and holds nothing else: made first.)
          yield* chain.mine
          const [from, to] = chain.accounts
          const body = Buffer.from(signedTransfer(from!, to!.address, 0n))
          const submit = Buffer.concat([
            Buffer.from(
              `POST /v1/transactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/x.aptos.signed_transaction+bcs\r\nContent-Length: ${body.length}\r\n\r\n`,
              "latin1"
            ),
            body
          ])
          const [accepted] = yield* Effect.promise(() => exchange(port, [submit], 1))
          assert.strictEqual(accepted!.status, 202, accepted!.body)
          const pendingHash = JSON.parse(accepted!.body).hash as string
          const [pending] = yield* Effect.promise(() =>
            exchange(port, [get(`/v1/transactions/by_hash/${pendingHash}?pending=1`)], 1)
          )
          assert.strictEqual(pending!.status, 200)
          assert.strictEqual(JSON.parse(pending!.body).type, "pending_transaction")
          assert.isTrue(answeredByNode("pending=1"))
          // Committed: the front's again.
          yield* chain.mine
          const [committed] = yield* Effect.promise(() =>
            exchange(port, [get(`/v1/transactions/by_hash/${pendingHash}?mined=1`)], 1)
          )
          assert.strictEqual(committed!.status, 200)
          assert.strictEqual(JSON.parse(committed!.body).type, "user_transaction")
          assert.isFalse(answeredByNode("mined=1"))
        })
      )
  )

  it.live("answers after a revert as the node does: what the forgotten versions were is not served from a cache", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { chain, port, answeredByNode } = yield* chainWithReads("movenode-front-revert-")
        const get = (target: string) => `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`
        const post = (target: string, body: string) =>
          `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
        // Reads on a new connection (the front's, once loaded), and the same after a control (the node's).
        const viaFront = (targets: ReadonlyArray<string>) =>
          Effect.promise(() => exchange(port, targets.map(get), targets.length))
        const viaNode = (targets: ReadonlyArray<string>) =>
          Effect.map(
            Effect.promise(() =>
              exchange(port, [get("/__movenode/v1/snapshots"), ...targets.map(get)], targets.length + 1)
            ),
            (answers) => answers.slice(1)
          )
        ;(yield* untilTheFrontAnswers(port, answeredByNode, "probe")).destroy()
        const [snapshot] = yield* Effect.promise(() => exchange(port, [post("/__movenode/v1/snapshot", "{}")], 1))
        assert.strictEqual(snapshot!.status, 200)
        const id = JSON.parse(snapshot!.body).id as string
        yield* chain.mine
        const block = yield* chain.mine
        const targets = [
          `/v1/blocks/by_height/${block.height}`,
          `/v1/transactions/by_version/${block.lastVersion}`,
          "/v1"
        ]
        const before = yield* viaFront(targets)
        assert.deepStrictEqual(
          before.map((a) => a.status),
          [200, 200, 200]
        )
        const [reverted] = yield* Effect.promise(() =>
          exchange(port, [post("/__movenode/v1/revert", JSON.stringify({ id }))], 1)
        )
        assert.strictEqual(reverted!.status, 200)
        // The same heights and versions again, made at other times: other blocks.
        yield* chain.mine
        yield* chain.mine
        const after = yield* viaFront(targets)
        const node = yield* viaNode(targets)
        for (const [i, a] of after.entries()) {
          assert.strictEqual(a.status, 200)
          assert.strictEqual(a.body, node[i]!.body, targets[i])
        }
        assert.notStrictEqual(after[0]!.body, before[0]!.body)
      })
    )
  )

  it.live("stops with a kept-alive connection idle in the front: the connection is closed, not waited for", () =>
    Effect.gen(function* () {
      // A connection the front answered a read on, kept open while the chain stops.
      const socket = yield* Effect.scoped(
        Effect.flatMap(chainWithReads("movenode-front-idle-"), ({ port, answeredByNode }) =>
          untilTheFrontAnswers(port, answeredByNode, "idle")
        )
      )
      // The chain has stopped (the scope closed); the front closed the idle connection rather than wait 65 s for it.
      const closed = yield* Effect.promise(
        () =>
          new Promise<boolean>((resolve) => (socket.closed ? resolve(true) : socket.once("close", () => resolve(true))))
      )
      assert.isTrue(closed)
    })
  )

  it.live(
    "holds a handed-over connection to the request timeouts: a client too slow to send its request is answered 408",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const chain = yield* LocalChain.spawn(
            { front: frontMain, readiness: undefined, faucet: undefined, graphql: undefined, indexer: undefined },
            { requestTimeoutMs: 1000 }
          )
          // Half a head: the front hands it over after its own wait, the node's server then times it out.
          const answer = yield* Effect.promise(() =>
            untilClosed(portOf(chain.apiUrl), "POST /v1/view HTTP/1.1\r\nHost: x\r\nContent-Type: appli")
          )
          assert.match(answer, /^HTTP\/1\.1 408 /)
        })
      )
  )

  it.live("lets the port go when the chain stops", () =>
    Effect.gen(function* () {
      const port = yield* Effect.scoped(
        Effect.map(
          LocalChain.spawn({
            front: frontMain,
            readiness: undefined,
            faucet: undefined,
            graphql: undefined,
            indexer: undefined
          }),
          (c) => portOf(c.apiUrl)
        )
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
