/**
 * Argument by argument against the SDK's encoder (`generateTransactionPayloadWithABI` with a local
 * ABI), for the types no devnet-genesis entry function takes: u32, u128, u256, signed integers, and
 * nested vectors and options of them.
 */
import { generateTransactionPayloadWithABI, parseTypeTag as sdkParseTypeTag } from "@aptos-labs/ts-sdk"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toHex } from "../../../src/bcs/index.js"
import { parseTypeTag } from "../../../src/domain/TypeTagString.js"
import { jsonToBcs } from "../../../src/move/json/jsonToBcs.js"
import { resolveLayout } from "../../../src/move/layout/resolveLayout.js"
import { outputValueArb, toInputForm } from "../../move/json/arbitraries.js"
import { genesisModules } from "./genesisModules.js"
import { toSdkArgument } from "./sdkOracle.js"

const { source } = genesisModules("devnet")

const TYPES = [
  "u8",
  "u16",
  "u32",
  "u64",
  "u128",
  "u256",
  "i8",
  "i16",
  "i32",
  "i64",
  "i128",
  "i256",
  "bool",
  "address",
  "vector<u32>",
  "vector<u256>",
  "vector<vector<u8>>",
  "vector<vector<i64>>",
  "0x1::string::String",
  "vector<0x1::string::String>",
  "0x1::option::Option<u128>",
  "0x1::option::Option<0x1::string::String>",
  "0x1::option::Option<vector<u8>>",
  "0x1::option::Option<u8>",
  "0x1::object::Object<0x1::fungible_asset::Metadata>",
  "vector<0x1::object::Object<0x1::fungible_asset::Metadata>>"
]

describe("each argument's BCS equals the SDK's", () => {
  for (const type of TYPES) {
    it(type, () => {
      const tag = Result.getOrThrow(parseTypeTag(type))
      const layout = Result.getOrThrow(resolveLayout(source, tag))
      const abi = { typeParameters: [], parameters: [sdkParseTypeTag(type)] }
      fc.assert(
        fc.property(outputValueArb(layout), (value) => {
          const ours = Result.getOrThrow(jsonToBcs(layout, toInputForm(layout, value)))
          const payload = generateTransactionPayloadWithABI({
            function: "0x1::m::f",
            typeArguments: [],
            functionArguments: [toSdkArgument(layout, value)],
            abi
          })
          expect(toHex(ours)).toBe(toHex(payload.entryFunction.args[0]!.bcsToBytes()))
        }),
        { numRuns: 100 }
      )
    })
  }
})
