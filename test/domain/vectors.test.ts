/** Our codecs against BCS vectors produced by the TypeScript SDK (test/domain/vectors/generate.ts). */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { ed25519 } from "@noble/curves/ed25519.js"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { Bcs, fromHex, toHex } from "../../src/bcs/index.js"
import { addressFromNumber, parseAddress } from "../../src/domain/AccountAddress.js"
import { transactionHash } from "../../src/domain/hash.js"
import { rawTransactionCodec, signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { replayProtectorOf } from "../../src/domain/ReplayProtector.js"
import { feePayerSigningMessage, multiAgentSigningMessage, signingMessage } from "../../src/domain/signingMessage.js"
import type { RawTransaction } from "../../src/domain/Transaction.js"
import { typeTagCodec } from "../../src/domain/TypeTagCodec.js"
import { parseTypeTag, typeTagToString } from "../../src/domain/TypeTagString.js"

const dir = join(dirname(fileURLToPath(import.meta.url)), "vectors")
const load = <T>(name: string): T => JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as T
const bytes = (h: string) => fromHex(h)!
const addr = (s: string) => {
  const r = parseAddress(s)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}
const ok = <A>(r: Result.Result<A, { message: string }>): A => {
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}

const typeTags = load<Array<{ type: string; bcs: string }>>("typeTags")
const raws =
  load<
    Array<{
      name: string
      bcs: string
      signingMessage: string
      secondarySigners: string[]
      multiAgentSigningMessage: string
      feePayer: string
      feePayerSigningMessage: string
    }>
  >("rawTransactions")
const signed = load<Array<{ name: string; bcs: string; hash: string }>>("signedTransactions")

describe("SDK vectors: type tags", () => {
  it.each(typeTags)("$type", ({ type, bcs }) => {
    const tag = ok(parseTypeTag(type))
    expect(toHex(Bcs.encode(typeTagCodec, tag))).toBe(bcs)
    const decoded = ok(Bcs.decode(typeTagCodec, bytes(bcs)))
    expect(decoded).toEqual(tag)
    expect(ok(parseTypeTag(typeTagToString(decoded)))).toEqual(tag)
  })
})

describe("SDK vectors: raw transactions and signing messages", () => {
  it.each(raws)("$name", (v) => {
    const raw = ok(Bcs.decode(rawTransactionCodec, bytes(v.bcs)))
    expect(toHex(Bcs.encode(rawTransactionCodec, raw))).toBe(v.bcs)
    expect(toHex(signingMessage(raw))).toBe(v.signingMessage)
    const secondary = v.secondarySigners.map(addr)
    expect(toHex(multiAgentSigningMessage(raw, secondary))).toBe(v.multiAgentSigningMessage)
    expect(toHex(feePayerSigningMessage(raw, secondary, addr(v.feePayer)))).toBe(v.feePayerSigningMessage)
  })

  it("encodes an independently built entry-function transaction to the SDK's bytes", () => {
    const u64le = (n: bigint) => {
      const b = new Uint8Array(8)
      new DataView(b.buffer).setBigUint64(0, n, true)
      return b
    }
    const raw: RawTransaction = {
      sender: addressFromNumber(0xa11ce),
      sequenceNumber: 42n,
      payload: {
        _tag: "EntryFunction",
        entryFunction: {
          module: { address: addressFromNumber(1), name: "aptos_account" },
          function: "transfer_coins",
          typeArgs: [ok(parseTypeTag("0x1::aptos_coin::AptosCoin"))],
          args: [addressFromNumber(0xb0b), u64le(1234567890123n)]
        }
      },
      maxGasAmount: 200000n,
      gasUnitPrice: 100n,
      expirationTimestampSecs: 1_900_000_000n,
      chainId: 4
    }
    expect(toHex(Bcs.encode(rawTransactionCodec, raw))).toBe(raws[0]!.bcs)
    expect(replayProtectorOf(raw)).toEqual({ _tag: "SequenceNumber", sequenceNumber: 42n })
  })

  it("reads the orderless transaction's nonce as its replay protector", () => {
    const v = raws.find((r) => r.name === "payload v1 orderless entry function")!
    const raw = ok(Bcs.decode(rawTransactionCodec, bytes(v.bcs)))
    expect(replayProtectorOf(raw)).toEqual({ _tag: "Nonce", nonce: 987654321n })
  })
})

describe("SDK vectors: signed transactions", () => {
  it.each(signed)("$name", ({ bcs, hash }) => {
    const txn = ok(Bcs.decode(signedTransactionCodec, bytes(bcs)))
    expect(toHex(Bcs.encode(signedTransactionCodec, txn))).toBe(bcs)
    expect(toHex(transactionHash({ _tag: "UserTransaction", signed: txn }))).toBe(hash)
  })

  it("decodes the ed25519 authenticator whose signature verifies over our signing message", () => {
    const txn = ok(Bcs.decode(signedTransactionCodec, bytes(signed[0]!.bcs)))
    const auth = txn.authenticator
    if (auth._tag !== "Ed25519") throw new Error(`expected Ed25519, got ${auth._tag}`)
    expect(ed25519.verify(auth.signature, signingMessage(txn.rawTransaction), auth.publicKey)).toBe(true)
  })

  it("decodes the authenticator variants the SDK produced", () => {
    const tags = signed.map(({ bcs }) => ok(Bcs.decode(signedTransactionCodec, bytes(bcs))).authenticator._tag)
    expect(tags).toEqual([
      "Ed25519",
      "MultiEd25519",
      "SingleSender",
      "SingleSender",
      "SingleSender",
      "MultiAgent",
      "FeePayer",
      "FeePayer"
    ])
  })
})
