/** The reference's error cases of encode_submission (aptos-api-behaviour §2.5–2.6), on devnet genesis. */
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { encodeSubmission } from "../../../src/node/encode/buildSigningMessage.js"
import type { EncodeError } from "../../../src/node/encode/EncodeError.js"
import { genesisModules } from "./genesisModules.js"

const { source } = genesisModules("devnet")

const request = (payload: unknown, extra: Record<string, unknown> = {}) => ({
  sender: "0x1",
  sequence_number: "0",
  max_gas_amount: "1000",
  gas_unit_price: "100",
  expiration_timestamp_secs: "1900000000",
  payload,
  ...extra
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
const PREFIX = "Failed to parse transaction payload: "

describe("conversion errors (400 invalid_input with ledger headers)", () => {
  it("wrong argument count, with json_type_names and the arguments as Rust prints them", () => {
    const e = failure(request(entry("0x1::aptos_account::transfer", [])))
    expect(e.stage).toBe("Convert")
    expect(e.message).toBe(`${PREFIX}expected 2 arguments [string<address>, string<u64>], but got 0 ([])`)
    expect(
      failure(request(entry("0x1::aptos_account::transfer", ["0x1", "1", true, 1, null, [1], { a: "b" }]))).message
    ).toBe(
      `${PREFIX}expected 2 arguments [string<address>, string<u64>], but got 7 ([String("0x1"), String("1"), Bool(true), Number(1), Null, Array [Number(1)], Object {"a": String("b")}])`
    )
  })

  it("a number where a string is required, and the reverse", () => {
    expect(failure(request(entry("0x1::aptos_account::transfer", ["0x1", 1]))).message).toBe(
      `${PREFIX}parse arguments[1] failed, expect string<u64>, caused by error: invalid type: number, expected a string`
    )
    expect(failure(request(entry("0x1::aptos_account::transfer", [1, "1"]))).message).toBe(
      `${PREFIX}parse arguments[0] failed, expect string<address>, caused by error: invalid type: number, expected a string`
    )
    // rotate_authentication_key_from_public_key(&signer, scheme: u8, public_key: vector<u8>)
    const fn = "0x1::account::rotate_authentication_key_from_public_key"
    expect(failure(request(entry(fn, ["0", "0x00"]))).message).toBe(
      `${PREFIX}parse arguments[0] failed, expect integer<u8>, caused by error: invalid type: string "0", expected u8`
    )
    expect(failure(request(entry(fn, [256, "0x00"]))).message).toBe(
      `${PREFIX}parse arguments[0] failed, expect integer<u8>, caused by error: invalid value: integer \`256\`, expected u8`
    )
    expect(failure(request(entry(fn, [0, [0]]))).message).toBe(
      `${PREFIX}parse arguments[1] failed, expect string<hex>, caused by error: invalid type: sequence, expected a string`
    )
    expect(failure(request(entry("0x1::aptos_account::set_allow_direct_coin_transfers", ["true"]))).message).toBe(
      `${PREFIX}parse arguments[0] failed, expect boolean, caused by error: invalid type: string "true", expected a boolean`
    )
  })

  it("bad addresses", () => {
    expect(
      failure(
        request(
          entry("0x1::aptos_account::transfer", [
            "0x00000000000000000000000000000000000000000000000000000000000001i",
            "1"
          ])
        )
      ).message
    ).toBe(
      `${PREFIX}parse arguments[0] failed, expect string<address>, caused by error: Invalid account address: Hex characters are invalid: Invalid character 'i' at position 63`
    )
    expect(failure(request(entry("0x1::aptos_account::transfer", ["0x", "1"]))).message).toMatch(/too short/)
  })

  it("unknown module, unknown function, non-entry function", () => {
    expect(failure(request(entry("0x1::invalid::transfer", ["0x1", "1"]))).message).toBe(
      `${PREFIX}Module ModuleId { address: 0x1, name: Identifier("invalid") } can't be found`
    )
    expect(failure(request(entry("0x1::account::invalid", []))).message).toBe(
      `${PREFIX}could not find entry function by 0x1::account::invalid`
    )
    // coin::balance is a public view function, not an entry function.
    expect(failure(request(entry("0x1::coin::balance", ["0x1"], ["0x1::aptos_coin::AptosCoin"]))).message).toBe(
      `${PREFIX}could not find entry function by 0x1::coin::balance`
    )
  })

  it("wrong type-argument count", () => {
    expect(failure(request(entry("0x1::coin::transfer", ["0x1", "1"]))).message).toBe(
      `${PREFIX}expect 1 type arguments for entry function 0x1::coin::transfer, but got 0`
    )
    expect(failure(request(entry("0x1::aptos_account::transfer", ["0x1", "1"], ["u8"]))).message).toBe(
      `${PREFIX}expect 0 type arguments for entry function 0x1::aptos_account::transfer, but got 1`
    )
  })

  it("a script whose bytecode does not decode", () => {
    const e = failure(
      request({ type: "script_payload", code: { bytecode: "0xa11ceb0b" }, type_arguments: [], arguments: [] })
    )
    expect(e.stage).toBe("Convert")
    expect(e.message).toBe(`${PREFIX}invalid transaction script bytecode`)
  })

  it("deeply nested or huge arguments fail cleanly", () => {
    let deep: unknown = "0x"
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const e = failure(request(entry("0x1::code::publish_package_txn", ["0x", deep])))
    expect(e.stage).toBe("Convert")
    expect(e.message).toMatch(/parse arguments\[1\] failed, expect array<string<hex>>/)
    const huge = Array.from({ length: 300_000 }, () => "0x" + "ab".repeat(32))
    const big = encodeSubmission(request(entry("0x1::code::publish_package_txn", ["0x", huge])), source, 4)
    // 300k × 33 bytes = 9.9 MB of BCS: over the 8 MiB conversion bound.
    expect(Result.isFailure(big) && big.failure.message).toMatch(/larger than 8388608 bytes/)
  })
})

describe("verify errors (400 invalid_input, no ledger headers)", () => {
  it("removed payload kinds", () => {
    const e = failure(request({ type: "module_bundle_payload", modules: [] }))
    expect(e.stage).toBe("Verify")
    expect(e.message).toBe("'UserTransactionRequest' invalid: Module bundle payload has been removed")
  })

  it("type arguments: unparsable or nested deeper than 8", () => {
    expect(failure(request(entry("0x1::coin::transfer", ["0x1", "1"], ["not a type"]))).stage).toBe("Verify")
    const deep = "vector<".repeat(9) + "u8" + ">".repeat(9)
    const e = failure(request(entry("0x1::coin::transfer", ["0x1", "1"], [deep])))
    expect(e.stage).toBe("Verify")
    expect(e.message).toMatch(/^'UserTransactionRequest' invalid: /)
    const ok = "vector<".repeat(7) + "u8" + ">".repeat(7)
    expect(
      Result.isSuccess(encodeSubmission(request(entry("0x1::coin::transfer", ["0x1", "1"], [ok])), source, 4))
    ).toBe(true)
  })
})

describe("body parse errors (400 web_framework_error, no ledger headers)", () => {
  it("rejects wrong shapes and unparsable fields", () => {
    for (const body of [
      null,
      [],
      "x",
      request({ type: "unknown_payload" }),
      request(entry("0x1::aptos_account::transfer", [])).payload,
      { ...request(entry("0x1::aptos_account::transfer", [])), sender: "0xZZ" },
      { ...request(entry("0x1::aptos_account::transfer", [])), sequence_number: 1 },
      { ...request(entry("0x1::aptos_account::transfer", [])), max_gas_amount: "-1" },
      request(entry("0x1::aptos_account::transfer", []), { replay_protection_nonce: 5 }),
      request(entry("0x1::aptos_account::transfer", []), { secondary_signers: ["0xnothex"] }),
      request(entry("0x1::aptos_account", [])),
      request(entry("0x1::1bad::transfer", [])),
      request(entry("0x1::aptos_account::tr-ansfer", [])),
      request(entry("0xq::aptos_account::transfer", []))
    ]) {
      const e = failure(body)
      expect(e.stage, JSON.stringify(body)).toBe("Parse")
      expect(e.message).toMatch(/^parse request payload error: /)
    }
  })
})

describe("optional fields", () => {
  it("null means absent, as serde's Option", () => {
    const plain = Result.getOrThrow(
      encodeSubmission(request(entry("0x1::aptos_account::transfer", ["0x1", "1"])), source, 4)
    )
    const nulls = Result.getOrThrow(
      encodeSubmission(
        request(entry("0x1::aptos_account::transfer", ["0x1", "1"]), {
          secondary_signers: null,
          replay_protection_nonce: null
        }),
        source,
        4
      )
    )
    expect(nulls).toEqual(plain)
  })
})

describe("hostile bodies never throw", () => {
  const valid = request(entry("0x1::aptos_account::transfer", ["0xb0b", "1"]))

  it("arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (body) => {
        expect(Result.isResult(encodeSubmission(body, source, 4))).toBe(true)
      }),
      { numRuns: 500 }
    )
  })

  it("a valid body with any field or argument replaced by garbage", () => {
    const paths = [
      ["sender"],
      ["sequence_number"],
      ["payload"],
      ["payload", "type"],
      ["payload", "function"],
      ["payload", "type_arguments"],
      ["payload", "arguments"],
      ["payload", "arguments", 0],
      ["payload", "arguments", 1],
      ["secondary_signers"],
      ["replay_protection_nonce"]
    ] as const
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 4 }), (path, garbage) => {
        const body = structuredClone(valid) as any
        let target = body
        for (const k of path.slice(0, -1)) target = target[k]
        target[path[path.length - 1]!] = garbage
        expect(Result.isResult(encodeSubmission(body, source, 4))).toBe(true)
      }),
      { numRuns: 1000 }
    )
  })
})
