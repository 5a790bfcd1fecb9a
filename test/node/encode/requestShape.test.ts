/**
 * `hasRequestShape` stands in for the request Schemas on the hot path: it may only say "valid" when
 * the Schemas say so too (else a body the Schema rejects would skip its error), and it should say so
 * for the bodies clients send (else it saves nothing).
 */
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { EncodeSubmissionRequestJson as ApiRequestJson } from "../../../src/http/groups/TransactionsGroup.js"
import {
  EncodeSubmissionRequestJson,
  parseEncodeSubmissionRequest
} from "../../../src/node/encode/EncodeSubmissionRequest.js"
import { hasRequestShape } from "../../../src/node/encode/requestShape.js"

const decodesNode = (u: unknown) => Result.isSuccess(Schema.decodeUnknownResult(EncodeSubmissionRequestJson)(u))
const decodesApi = (u: unknown) => Result.isSuccess(Schema.decodeUnknownResult(ApiRequestJson)(u))

const str = fc.oneof(fc.constantFrom("0x1", "0", "100", "0x1::aptos_account::transfer", "u64"), fc.string())
const strings = fc.array(str, { maxLength: 3 })
const entry = fc.record({
  type: fc.constant("entry_function_payload"),
  function: str,
  type_arguments: strings,
  arguments: fc.array(fc.jsonValue(), { maxLength: 3 })
})
const payload = fc.oneof(
  entry,
  fc.record({
    type: fc.constant("script_payload"),
    code: fc.record({ bytecode: str }),
    type_arguments: strings,
    arguments: fc.array(fc.jsonValue(), { maxLength: 3 })
  }),
  fc.record(
    { type: fc.constant("multisig_payload"), multisig_address: str, transaction_payload: fc.option(entry) },
    { requiredKeys: ["type", "multisig_address"] }
  ),
  fc.record({ type: fc.constant("module_bundle_payload") })
)
/** Well-formed requests: every field of the right type, optional ones absent, null or set. */
const wellFormed = fc.record(
  {
    sender: str,
    sequence_number: str,
    max_gas_amount: str,
    gas_unit_price: str,
    expiration_timestamp_secs: str,
    payload,
    secondary_signers: fc.option(strings),
    replay_protection_nonce: fc.option(str),
    signature: fc.jsonValue()
  },
  {
    requiredKeys: [
      "sender",
      "sequence_number",
      "max_gas_amount",
      "gas_unit_price",
      "expiration_timestamp_secs",
      "payload"
    ]
  }
)

type Json = Record<string, unknown>
/** A path of keys inside a request, and what to do there: drop the key, or put any JSON value. */
const mutation = fc.record({
  path: fc.array(
    fc.constantFrom(
      "sender",
      "sequence_number",
      "payload",
      "type",
      "function",
      "type_arguments",
      "arguments",
      "code",
      "bytecode",
      "transaction_payload",
      "multisig_address",
      "secondary_signers",
      "replay_protection_nonce",
      "0"
    ),
    { minLength: 1, maxLength: 3 }
  ),
  value: fc.option(fc.jsonValue(), { nil: undefined })
})
const mutate = (body: Json, m: { path: string[]; value: unknown }): unknown => {
  const copy = structuredClone(body)
  let at: unknown = copy
  for (const key of m.path.slice(0, -1)) {
    if (typeof at !== "object" || at === null) return copy
    at = (at as Json)[key]
  }
  if (typeof at !== "object" || at === null) return copy
  const last = m.path[m.path.length - 1]!
  if (m.value === undefined) delete (at as Json)[last]
  else (at as Json)[last] = m.value
  return copy
}

describe("hasRequestShape (the Schemas' fast stand-in)", () => {
  it("accepts the benchmark request and the JSON clients send, for both Schemas", () => {
    const body = JSON.parse(
      '{"sender":"0xa550c18","sequence_number":"0","max_gas_amount":"2000","gas_unit_price":"100",' +
        '"expiration_timestamp_secs":"9999999999","payload":{"type":"entry_function_payload",' +
        '"function":"0x1::aptos_account::transfer","type_arguments":[],"arguments":["0x2","100"]}}'
    )
    expect(hasRequestShape(body, false)).toBe(true)
    fc.assert(
      fc.property(wellFormed, (b) => {
        const json = JSON.parse(JSON.stringify(b))
        expect(hasRequestShape(json, true)).toBe(true)
        const nulls = json.secondary_signers === null || json.replay_protection_nonce === null
        expect(hasRequestShape(json, false)).toBe(!nulls)
      }),
      { numRuns: 300 }
    )
  })

  it("never says valid where a Schema says invalid (mutated and arbitrary bodies)", () => {
    const body = fc.oneof(
      fc.tuple(wellFormed, mutation).map(([b, m]) => mutate(b as Json, m)),
      fc.tuple(wellFormed, mutation, mutation).map(([b, m1, m2]) => mutate(mutate(b as Json, m1) as Json, m2)),
      fc.jsonValue(),
      fc.anything({ withNullPrototype: true })
    )
    fc.assert(
      fc.property(body, (b) => {
        if (hasRequestShape(b, true)) expect(decodesNode(b)).toBe(true)
        if (hasRequestShape(b, false)) expect(decodesNode(b) && decodesApi(b)).toBe(true)
      }),
      { numRuns: 2000 }
    )
  })

  it("explicit undefined and non-plain objects go to the Schema", () => {
    const base = {
      sender: "0x1",
      sequence_number: "0",
      max_gas_amount: "1",
      gas_unit_price: "1",
      expiration_timestamp_secs: "1",
      payload: { type: "module_bundle_payload" }
    }
    expect(hasRequestShape(base, false)).toBe(true)
    expect(hasRequestShape({ ...base, replay_protection_nonce: undefined }, true)).toBe(false)
    expect(hasRequestShape(Object.assign(new (class X {})(), base), true)).toBe(false)
    expect(hasRequestShape([base], true)).toBe(false)
    // Null-prototype objects are plain records to the Schemas too.
    const bare = Object.assign(Object.create(null), base, { payload: Object.assign(Object.create(null), base.payload) })
    expect(hasRequestShape(bare, false)).toBe(true)
    expect(decodesNode(bare) && decodesApi(bare)).toBe(true)
  })

  it("parse errors are the Schema's, word for word", () => {
    const r = parseEncodeSubmissionRequest({ sender: 1 })
    expect(Result.isFailure(r)).toBe(true)
    if (Result.isFailure(r)) {
      const schema = Schema.decodeUnknownResult(EncodeSubmissionRequestJson)({ sender: 1 })
      expect(Result.isFailure(schema) && r.failure.message).toBe(
        `parse request payload error: ${Result.isFailure(schema) ? schema.failure.message : ""}`
      )
    }
  })
})
