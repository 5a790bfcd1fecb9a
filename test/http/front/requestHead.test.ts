import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import {
  frontRequestKind,
  hasBody,
  headEnd,
  keepsAlive,
  parseRequestHead
} from "../../../src/http/front/requestHead.js"

const bytes = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/)
const value = fc.stringMatching(/^[ -~]{0,40}$/).map((v) => v.trim())

describe("the front's reading of a request head", () => {
  it("never throws, whatever the bytes, and a head it reads ends where the blank line does", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (b) => {
        const head = parseRequestHead(b)
        if (head !== undefined) {
          assert.strictEqual(head.length, headEnd(b))
          assert.isAtMost(head.length, b.length)
        }
      }),
      { numRuns: 2000 }
    )
  })

  it("never throws on text that looks almost like a head", () => {
    const piece = fc.constantFrom(
      "GET ",
      "POST ",
      "/",
      "/v1",
      "?a=b",
      " HTTP/1.1",
      " HTTP/1.0",
      "\r\n",
      ":",
      "Host",
      " x",
      "\n",
      "\r"
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (ps) => {
        parseRequestHead(bytes(ps.join("")))
      }),
      { numRuns: 2000 }
    )
  })

  it("reads a well-formed head: method, path without the query, version and lower-cased headers", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("GET", "POST", "OPTIONS", "HEAD"),
        fc.stringMatching(/^\/[a-z0-9/_-]{0,30}$/),
        fc.option(fc.stringMatching(/^[a-z0-9=&]{1,20}$/), { nil: undefined }),
        fc.constantFrom("1.0", "1.1"),
        fc.uniqueArray(fc.tuple(token, value), { maxLength: 8, selector: ([k]) => k.toLowerCase() }),
        fc.string({ maxLength: 50 }),
        (method, path, query, version, headers, rest) => {
          const text = `${method} ${path}${query === undefined ? "" : `?${query}`} HTTP/${version}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`
          const head = parseRequestHead(bytes(text + rest))
          assert.isDefined(head)
          assert.strictEqual(head!.method, method)
          assert.strictEqual(head!.path, path)
          assert.strictEqual(head!.version, version)
          assert.strictEqual(head!.length, Buffer.byteLength(text, "latin1"))
          for (const [k, v] of headers) assert.strictEqual(head!.headers.get(k.toLowerCase()), v)
        }
      ),
      { numRuns: 500 }
    )
  })

  it("is undefined until the blank line has arrived, and for what is not an HTTP/1.x request", () => {
    assert.isUndefined(parseRequestHead(bytes("GET / HTTP/1.1\r\nHost: x\r\n")))
    assert.isUndefined(parseRequestHead(bytes("GET / HTTP/2.0\r\n\r\n")))
    assert.isUndefined(parseRequestHead(bytes("GET /\r\n\r\n")))
    assert.isUndefined(parseRequestHead(bytes("GET / HTTP/1.1\r\nno colon\r\n\r\n")))
    assert.isUndefined(parseRequestHead(bytes("GET / HTTP/1.1\r\nbad name: x\r\n\r\n")))
  })

  it("says whether a body follows and whether the connection stays open", () => {
    const head = (s: string) => parseRequestHead(bytes(`${s}\r\n\r\n`))!
    assert.isFalse(hasBody(head("GET / HTTP/1.1")))
    assert.isFalse(hasBody(head("GET / HTTP/1.1\r\nContent-Length: 0")))
    assert.isTrue(hasBody(head("POST / HTTP/1.1\r\nContent-Length: 5")))
    assert.isTrue(hasBody(head("POST / HTTP/1.1\r\nTransfer-Encoding: chunked")))
    assert.isTrue(keepsAlive(head("GET / HTTP/1.1")))
    assert.isFalse(keepsAlive(head("GET / HTTP/1.1\r\nConnection: close")))
    assert.isFalse(keepsAlive(head("GET / HTTP/1.0")))
    assert.isTrue(keepsAlive(head("GET / HTTP/1.0\r\nConnection: keep-alive")))
  })

  it("classifies every head it reads, whatever the bytes: never the front's unless a bodiless GET or HEAD under /v1", () => {
    const piece = fc.constantFrom(
      "GET ",
      "HEAD ",
      "POST ",
      "/v1",
      "/v1/",
      "transactions/",
      "by_hash/",
      "wait_by_hash/",
      "0xab",
      "?x=1",
      " HTTP/1.1",
      "\r\n",
      "Content-Length: 3\r\n",
      "Transfer-Encoding: chunked\r\n",
      "Host: x\r\n",
      "%2F",
      "//"
    )
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.array(piece, { maxLength: 20 }).map((ps) => bytes(`${ps.join("")}\r\n\r\n`))
        ),
        (b) => {
          const head = parseRequestHead(b)
          if (head === undefined) return
          const kind = frontRequestKind(head)
          assert.include(["read", "lookup", "node"], kind)
          if (kind !== "node") {
            assert.include(["GET", "HEAD"], head.method)
            assert.isFalse(hasBody(head))
            assert.isTrue(head.path === "/v1" || head.path.startsWith("/v1/"))
          }
        }
      ),
      { numRuns: 2000 }
    )
  })

  it("takes for the front's own answers only bodiless GETs and HEADs under /v1, and tries the lookups by hash", () => {
    const kind = (line: string, extra = "") => {
      const head = parseRequestHead(bytes(`${line} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`))
      assert.isDefined(head, line)
      return frontRequestKind(head!)
    }
    for (const line of [
      "GET /v1",
      "GET /v1/",
      "HEAD /v1/accounts/0x1",
      "GET /v1/accounts/0x1/resources?limit=2",
      "GET /v1/transactions/by_version/5",
      "GET /v1/-/healthy?duration_secs=5",
      "GET /v1/spec.json",
      "GET /v1/estimate_gas_price",
      // Not a lookup route (no hash segment): the listener's 404, as the node's.
      "GET /v1/transactions/by_hash"
    ])
      assert.strictEqual(kind(line), "read", line)
    for (const line of ["GET /v1/transactions/by_hash/0xab", "HEAD /v1/transactions/wait_by_hash/0xab?x=1"])
      assert.strictEqual(kind(line), "lookup", line)
    for (const line of [
      "POST /v1/view",
      "POST /v1/transactions/by_hash/0xab",
      "OPTIONS /v1",
      "GET /",
      "GET /v10",
      "GET /v1x/accounts",
      "GET /__movenode/v1/info"
    ])
      assert.strictEqual(kind(line), "node", line)
    assert.strictEqual(kind("GET /v1", "Content-Length: 3\r\n"), "node")
    assert.strictEqual(kind("GET /v1/transactions/by_hash/0xab", "Transfer-Encoding: chunked\r\n"), "node")
  })
})
