/**
 * Issue 11 item 1: every error message quoting client input quotes a bounded prefix, whatever the
 * input's size or shape. Before, the argument-count error printed every argument (a 44 MB message
 * for 4 M flat arguments, seconds of work for 800,000 nested ones), and hex, identifier and type
 * errors quoted the whole string.
 */
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parseTypeTag } from "../../../src/domain/TypeTagString.js"
import { jsonPrefix } from "../../../src/domain/boundedText.js"
import { encodeSubmission } from "../../../src/node/encode/buildSigningMessage.js"
import type { EncodeError } from "../../../src/node/encode/EncodeError.js"
import { rustDebugJson, rustDebugJsonList } from "../../../src/node/encode/rustDebugJson.js"
import { parseFunctionId } from "../../../src/node/view/parseViewRequest.js"
import { genesisModules } from "./genesisModules.js"

const { source } = genesisModules("devnet")
/** Generous: the reference's fixed text plus one bounded quote (~200 characters) or two. */
const SMALL = 1000

const request = (payload: unknown) => ({
  sender: "0x1",
  sequence_number: "0",
  max_gas_amount: "1000",
  gas_unit_price: "100",
  expiration_timestamp_secs: "1900000000",
  payload
})
const entry = (fn: string, args: unknown[], typeArgs: string[] = []) => ({
  type: "entry_function_payload",
  function: fn,
  type_arguments: typeArgs,
  arguments: args
})
const failure = (body: unknown): EncodeError => {
  const r = encodeSubmission(body, source, 4)
  if (Result.isSuccess(r)) throw new Error("expected a failure")
  return r.failure
}

describe("argument-count errors print a bounded prefix of the arguments", () => {
  it("800,000 nested arrays (the issue's body)", () => {
    const args = Array.from({ length: 800_000 }, () => [[[[1]]]])
    const e = failure(request(entry("0x1::aptos_account::transfer", args)))
    expect(e.message).toMatch(
      /^Failed to parse transaction payload: expected 2 arguments \[string<address>, string<u64>\], but got 800000 \(\[Array \[Array \[Array \[Array \[Number\(1\)\]\]\]\], /
    )
    expect(e.message.length).toBeLessThan(SMALL)
  })
  it("4,000,000 flat numbers", () => {
    const e = failure(request(entry("0x1::aptos_account::transfer", new Array(4_000_000).fill(1))))
    expect(e.message).toContain("but got 4000000 ([Number(1), Number(1), ")
    expect(e.message.length).toBeLessThan(SMALL)
  })
  it("an object with 200,000 keys prints its smallest keys, sorted", () => {
    const o: Record<string, number> = {}
    for (let i = 199_999; i >= 0; i--) o[`k${String(i).padStart(7, "0")}`] = i
    expect(rustDebugJson(o)).toMatch(/^Object \{"k0000000": Number\(0\), "k0000001": Number\(1\), /)
    expect(rustDebugJson(o).length).toBeLessThan(SMALL)
  })
  it("a 8 MB string argument", () => {
    const e = failure(request(entry("0x1::aptos_account::transfer", ["x".repeat(8_000_000)])))
    expect(e.message).toContain('String("xxxx')
    expect(e.message.length).toBeLessThan(SMALL)
  })
  it("any arguments: the message is bounded and, when short, exactly Rust's {:?}", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 40 }), (args) => {
        const s = rustDebugJsonList(args, 200)
        expect(s.length).toBeLessThan(500)
        if (!s.includes("…")) expect(s).toBe(`[${args.map((a) => rustDebugJson(a, 1e9)).join(", ")}]`)
      }),
      { numRuns: 500 }
    )
  })
})

describe("other messages quoting input", () => {
  it("an invalid 8 MB hex argument", () => {
    const fn = "0x1::account::rotate_authentication_key_from_public_key"
    const e = failure(request(entry(fn, [0, `0x${"z".repeat(8_000_000)}`])))
    expect(e.message).toContain("decode hex-encoded string(")
    expect(e.message).toContain("(8000002 characters)")
    expect(e.message.length).toBeLessThan(SMALL)
  })
  it("an 8 MB entry function id, module or function name", () => {
    const long = "a".repeat(8_000_000)
    for (const fn of [long, `0x1::${long}::f`, `0x1::m::${long}`]) {
      expect(failure(request(entry(fn, []))).message.length).toBeLessThan(SMALL)
      // A long name is still a valid identifier: then the view fails later (module not found).
      const v = parseFunctionId(fn)
      if (Result.isFailure(v)) expect(v.failure.length).toBeLessThan(SMALL)
    }
  })
  it("an 8 MB type argument", () => {
    for (const t of [
      "u".repeat(8_000_000),
      `0x1::m::${"S".repeat(8_000_000)}<u8`,
      `vector<${"x".repeat(8_000_000)}>`
    ]) {
      const r = parseTypeTag(t)
      expect(Result.isFailure(r) && r.failure.message.length < SMALL).toBe(true)
      expect(failure(request(entry("0x1::coin::transfer", ["0x1", "1"], [t]))).message.length).toBeLessThan(SMALL)
    }
  })
  it("jsonPrefix prints JSON, bounded", () => {
    expect(jsonPrefix({ b: [1, "x", null], a: true })).toBe('{"a": true, "b": [1, "x", null]}')
    expect(jsonPrefix(new Array(1_000_000).fill([1])).length).toBeLessThan(300)
  })
})
