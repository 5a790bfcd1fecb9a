/**
 * script_payload: the ABI comes from the script's own bytecode; arguments become
 * TransactionArguments. Compared with the SDK's Script payload (same arguments as its BCS classes).
 */
import {
  AccountAddress,
  Bool,
  ChainId,
  generateSigningMessageForTransaction,
  MoveVector,
  RawTransaction,
  Script,
  SimpleTransaction,
  TransactionExecutableScript,
  TransactionExtraConfigV1,
  TransactionInnerPayloadV1,
  TransactionPayloadScript,
  U8,
  U16,
  U32,
  U64,
  U128,
  U256
} from "@aptos-labs/ts-sdk"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toHex, toHex0x } from "../../../src/bcs/index.js"
import { addressToShortString } from "../../../src/domain/AccountAddress.js"
import type { CompiledScript } from "../../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../../src/move/binary/Opcode.js"
import { primitiveTokens, type SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { serializeScript } from "../../../src/move/binary/serialize.js"
import { encodeSubmission } from "../../../src/node/encode/buildSigningMessage.js"
import { genesisModules } from "./genesisModules.js"
import { longAddress } from "./sdkOracle.js"

const { source } = genesisModules("devnet")

/** `script(s: &signer, a: u8, b: u16, c: u32, d: u64, e: u128, f: u256, g: bool, h: address, i: vector<u8>) { }` */
const script = (params: ReadonlyArray<SignatureToken>): Uint8Array => {
  const s: CompiledScript = {
    version: 6,
    moduleHandles: [],
    structHandles: [],
    functionHandles: [],
    functionInstantiations: [],
    signatures: [[], params],
    identifiers: [],
    addressIdentifiers: [],
    constantPool: [],
    metadata: [],
    typeParameters: [],
    parameters: 1,
    accessSpecifiers: undefined,
    code: { locals: 0, code: [{ op: Opcode.Ret }] as any }
  }
  return serializeScript(s)
}

const T = primitiveTokens
const PARAMS: SignatureToken[] = [
  { _tag: "Reference", to: T.Signer },
  T.U8,
  T.U16,
  T.U32,
  T.U64,
  T.U128,
  T.U256,
  T.Bool,
  T.Address,
  { _tag: "Vector", element: T.U8 }
]

const big = (bits: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n })
const valuesArb = fc.tuple(
  fc.integer({ min: 0, max: 255 }),
  fc.integer({ min: 0, max: 65535 }),
  fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  big(64),
  big(128),
  big(256),
  fc.boolean(),
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
  fc.uint8Array({ maxLength: 20 })
)

describe("script payloads", () => {
  const code = script(PARAMS)

  it("equals the SDK's signing message (legacy and orderless)", () => {
    fc.assert(
      fc.property(valuesArb, fc.option(big(64), { nil: undefined }), ([a, b, c, d, e, f, g, h, i], nonce) => {
        const body: Record<string, unknown> = {
          sender: "0x1",
          sequence_number: "3",
          max_gas_amount: "100",
          gas_unit_price: "1",
          expiration_timestamp_secs: "5",
          payload: {
            type: "script_payload",
            code: { bytecode: toHex0x(code) },
            type_arguments: [],
            arguments: [a, b, c, String(d), String(e), String(f), g, addressToShortString(h), toHex0x(i)]
          }
        }
        if (nonce !== undefined) body.replay_protection_nonce = String(nonce)
        const ours = encodeSubmission(body, source, 9)
        if (Result.isFailure(ours)) throw new Error(ours.failure.message)
        const sdkScript = new Script(
          code,
          [],
          [
            new U8(a),
            new U16(b),
            new U32(c),
            new U64(d),
            new U128(e),
            new U256(f),
            new Bool(g),
            AccountAddress.from(longAddress(toHex0x(h))),
            MoveVector.U8(i)
          ]
        )
        const payload =
          nonce === undefined
            ? new TransactionPayloadScript(sdkScript)
            : new TransactionInnerPayloadV1(
                new TransactionExecutableScript(sdkScript),
                new TransactionExtraConfigV1(undefined, nonce)
              )
        const raw = new RawTransaction(
          AccountAddress.from(longAddress("0x1")),
          nonce === undefined ? 3n : (1n << 64n) - 1n,
          payload,
          100n,
          1n,
          5n,
          new ChainId(9)
        )
        expect(toHex(ours.success)).toBe(toHex(generateSigningMessageForTransaction(new SimpleTransaction(raw))))
      }),
      { numRuns: 100 }
    )
  })

  it("rejects arguments no TransactionArgument can hold", () => {
    const code2 = script([{ _tag: "Vector", element: T.U64 }])
    const r = encodeSubmission(
      {
        sender: "0x1",
        sequence_number: "3",
        max_gas_amount: "100",
        gas_unit_price: "1",
        expiration_timestamp_secs: "5",
        payload: { type: "script_payload", code: { bytecode: toHex0x(code2) }, type_arguments: [], arguments: [["1"]] }
      },
      source,
      9
    )
    expect(Result.isFailure(r) && r.failure.message).toBe(
      'Failed to parse transaction payload: invalid transaction argument: ["1"]'
    )
  })
})
