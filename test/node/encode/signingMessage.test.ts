/**
 * encode_submission's signing message against the TypeScript SDK's
 * `generateSigningMessageForTransaction` (same transaction built with the SDK's local-ABI path),
 * over every devnet-genesis entry function whose arguments the SDK can take as plain values.
 */
import {
  AccountAddress,
  ChainId,
  generateSigningMessageForTransaction,
  MultiSig,
  RawTransaction,
  SimpleTransaction,
  TransactionExecutableEmpty,
  TransactionExtraConfigV1,
  TransactionInnerPayloadV1,
  TransactionPayloadMultiSig
} from "@aptos-labs/ts-sdk"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toHex } from "../../../src/bcs/index.js"
import { encodeSubmission } from "../../../src/node/encode/buildSigningMessage.js"
import { outputValueArb } from "../../move/json/arbitraries.js"
import { candidates, check, headerArb, source } from "./candidates.js"
import { longAddress } from "./sdkOracle.js"

describe("encode_submission signing message = the SDK's, on devnet genesis entry functions", () => {
  it("covers the framework's common entry functions and argument types", () => {
    const ids = new Set(candidates.map((c) => c.id))
    for (const id of [
      "0x1::aptos_account::transfer",
      "0x1::aptos_account::batch_transfer",
      "0x1::aptos_account::create_account",
      "0x1::coin::transfer",
      "0x1::aptos_account::transfer_coins",
      "0x1::primary_fungible_store::transfer",
      "0x1::object::transfer"
    ])
      expect(ids, id).toContain(id)
    const types = new Set(candidates.flatMap((c) => c.params))
    // Devnet genesis has no entry function taking u32, u128, u256 or signed integers: those are
    // compared with the SDK argument by argument in arguments.test.ts.
    for (const t of ["u8", "u16", "u64", "vector<vector<u8>>", "0x1::string::String", "bool", "address"]) {
      expect(
        [...types].some((x) => x === t || x.includes(`<${t}>`)),
        t
      ).toBe(true)
    }
    expect([...types].some((t) => t.startsWith("0x1::option::Option<"))).toBe(true)
    expect([...types].some((t) => t.startsWith("0x1::object::Object<"))).toBe(true)
    expect(candidates.length).toBeGreaterThan(100)
  })

  it("equals the SDK's bytes for every candidate function, in every signing mode", () => {
    for (const c of candidates) {
      fc.assert(
        fc.property(headerArb, fc.tuple(...c.layouts.map(outputValueArb)), (header, values) =>
          check(c, header, values)
        ),
        { numRuns: 8, includeErrorInReport: true }
      )
    }
  })
})

describe("multisig payload without an inner entry function", () => {
  it("equals the SDK's bytes, legacy (Multisig) and orderless (payload V1, Empty executable)", () => {
    const multisig = "0x" + "ab".repeat(32)
    for (const nonce of [undefined, 77n]) {
      const body: Record<string, unknown> = {
        sender: "0xa11ce",
        sequence_number: "5",
        max_gas_amount: "100",
        gas_unit_price: "100",
        expiration_timestamp_secs: "1900000000",
        payload: { type: "multisig_payload", multisig_address: multisig }
      }
      if (nonce !== undefined) body.replay_protection_nonce = String(nonce)
      const ours = Result.getOrThrow(encodeSubmission(body, source, 4))
      const address = AccountAddress.from(multisig)
      const payload =
        nonce === undefined
          ? new TransactionPayloadMultiSig(new MultiSig(address))
          : new TransactionInnerPayloadV1(
              new TransactionExecutableEmpty(),
              new TransactionExtraConfigV1(address, nonce)
            )
      const raw = new RawTransaction(
        AccountAddress.from(longAddress("0xa11ce")),
        nonce === undefined ? 5n : (1n << 64n) - 1n,
        payload,
        100n,
        100n,
        1900000000n,
        new ChainId(4)
      )
      expect(toHex(ours)).toBe(toHex(generateSigningMessageForTransaction(new SimpleTransaction(raw))))
    }
  })
})
