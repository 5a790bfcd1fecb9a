import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import * as Result from "effect/Result"
import { FaucetError, type FaucetService } from "../../src/chain/Faucet.js"
import { type AccountAddress, addressFromNumber } from "../../src/domain/AccountAddress.js"
import { makeFaucetListener, parseFundRequest } from "../../src/http/FaucetServer.js"
import { serveScoped } from "../../src/http/sideServer.js"
import { signedTxn } from "../chain/fakeChain.js"

/** A faucet that records its calls and answers with a fixed transaction. */
const stubFaucet = (calls: Array<[AccountAddress, bigint | undefined]>, fail?: FaucetError): FaucetService => ({
  funder: addressFromNumber(0xa550c18),
  healthy: Effect.succeed(true),
  ready: Effect.void,
  redelegate: Effect.void,
  fund: (receiver, amount) => {
    calls.push([receiver, amount])
    return fail !== undefined
      ? Effect.fail(fail)
      : Effect.succeed([{ hash: new Uint8Array(32).fill(0xab), transaction: signedTxn(1, 0n) }])
  }
})

const withServer = <A>(faucet: FaucetService, f: (base: string) => Promise<A>) =>
  Effect.scoped(
    Effect.flatMap(serveScoped(makeFaucetListener(faucet), { host: "127.0.0.1", port: 0 }), (a) =>
      Effect.promise(() => f(`http://127.0.0.1:${a.port}`))
    )
  )

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

describe("FaucetServer", () => {
  it.effect("answers GET / with tap:ok and POST /fund with the reference's txn_hashes body", () => {
    const calls: Array<[AccountAddress, bigint | undefined]> = []
    return withServer(stubFaucet(calls), async (base) => {
      const root = await fetch(`${base}/`)
      assert.strictEqual(root.status, 200)
      assert.strictEqual(await root.text(), "tap:ok")
      assert.strictEqual(root.headers.get("access-control-allow-origin"), "*")
      // The SDK's body: address as AccountAddress.toString() (0x + 64 hex), amount a number.
      const r = await post(`${base}/fund`, { address: `0x${"00".repeat(31)}b0`, amount: 100_000_000 })
      assert.strictEqual(r.status, 200)
      assert.deepStrictEqual(await r.json(), { txn_hashes: ["ab".repeat(32)] })
      assert.deepStrictEqual(calls[0], [addressFromNumber(0xb0), 100_000_000n])
    })
  })

  it.effect("serves the legacy POST /mint with query parameters, and return_txns as BCS hex", () => {
    const calls: Array<[AccountAddress, bigint | undefined]> = []
    return withServer(stubFaucet(calls), async (base) => {
      const r = await fetch(`${base}/mint?amount=5&address=0xb0b`, { method: "POST" })
      assert.deepStrictEqual(await r.json(), ["ab".repeat(32)])
      assert.deepStrictEqual(calls[0], [addressFromNumber(0xb0b), 5n])
      const t = await fetch(`${base}/mint?amount=5&address=b0b&return_txns=true`, { method: "POST" })
      const hex = await t.text()
      assert.match(hex, /^01[0-9a-f]+$/) // a vector of one signed transaction
      const bad = await fetch(`${base}/mint?amount=5`, { method: "POST" })
      assert.strictEqual(bad.status, 400)
      assert.strictEqual(await bad.text(), "Account address, auth key, or pub key must be provided and valid")
    })
  })

  it.effect("answers errors in the reference's shape and status", () => {
    const calls: Array<[AccountAddress, bigint | undefined]> = []
    const failing = stubFaucet(
      calls,
      new FaucetError({
        code: "InvalidRequest",
        message: "Account 0xb0b already exists and amount asked for is 0",
        txnHashes: []
      })
    )
    return withServer(failing, async (base) => {
      const r = await post(`${base}/fund`, { address: "0xb0b" })
      assert.strictEqual(r.status, 400)
      assert.deepStrictEqual(await r.json(), {
        message: "Account 0xb0b already exists and amount asked for is 0",
        error_code: "InvalidRequest",
        rejection_reasons: [],
        txn_hashes: []
      })
      const noTarget = await post(`${base}/fund`, { amount: 1 })
      assert.strictEqual(noTarget.status, 400)
      assert.strictEqual(((await noTarget.json()) as { error_code: string }).error_code, "InvalidRequest")
      const notJson = await post(`${base}/fund`, "{")
      assert.strictEqual(notJson.status, 400)
      assert.strictEqual(((await notJson.json()) as { error_code: string }).error_code, "WebFrameworkError")
      const huge = await post(`${base}/fund`, JSON.stringify({ address: "0x1", pad: "x".repeat(100_000) }))
      assert.strictEqual(huge.status, 413)
      assert.strictEqual((await fetch(`${base}/nope`)).status, 404)
      assert.strictEqual((await fetch(`${base}/fund`)).status, 405)
      assert.strictEqual(calls.length, 1)
    })
  })

  it("derives the receiver as the reference: auth_key, then address, then an Ed25519 pub_key", () => {
    const key = "0x" + "11".repeat(32)
    const viaKey = parseFundRequest({ pub_key: key })
    assert.ok(Result.isSuccess(viaKey))
    assert.strictEqual(viaKey.success.receiver.length, 32)
    const both = parseFundRequest({ address: "0x1", auth_key: "0x2", amount: "7" })
    assert.ok(Result.isSuccess(both))
    assert.deepStrictEqual(both.success, { receiver: addressFromNumber(2), amount: 7n })
    assert.ok(Result.isFailure(parseFundRequest({ address: "0x1", amount: -1 })))
    assert.ok(Result.isFailure(parseFundRequest({ address: "0x1", amount: "18446744073709551616" })))
    assert.ok(Result.isFailure(parseFundRequest({ address: "zz" })))
  })

  it("never throws on garbage request bodies", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        parseFundRequest(body)
      })
    )
  })
})
