import { sha3_256 } from "@noble/hashes/sha3.js"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { Bcs, toHex } from "../../src/bcs/index.js"
import { addressFromNumber, addressToShortString } from "../../src/domain/AccountAddress.js"
import { decodeGenesisTransaction } from "../../src/domain/Genesis.js"
import {
  hashPrefix,
  sha3Concat,
  transactionHash,
  transactionHashOfBytes,
  userTransactionHashOfSigned
} from "../../src/domain/hash.js"
import { signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { namedObjectAddress, pairedMetadataAddress, primaryStoreAddress } from "../../src/domain/objectAddress.js"
import { transactionCodec } from "../../src/domain/TransactionCodec.js"
import { parseTypeTag } from "../../src/domain/TypeTagString.js"
import { genesisNamesPresent, loadGenesisBytes } from "../support/genesis.js"
import fc from "fast-check"
import * as A from "./arbitraries.js"

describe("hashing", () => {
  it("sha3Concat is the SHA3-256 of the parts joined, whatever sizes follow one another (scratch views by size, growth past 4 KB)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ minLength: 500, maxLength: 5000 })), {
            maxLength: 3
          }),
          {
            maxLength: 6
          }
        ),
        (calls) => {
          for (const parts of calls) {
            const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
            let at = 0
            for (const p of parts) {
              joined.set(p, at)
              at += p.length
            }
            expect(sha3Concat(...parts)).toEqual(sha3_256(joined))
          }
        }
      ),
      { numRuns: 60 }
    )
  })

  it("prefixes are sha3_256 of APTOS::<type>", () => {
    expect(toHex(hashPrefix("RawTransaction"))).toBe(toHex(sha3_256(new TextEncoder().encode("APTOS::RawTransaction"))))
  })

  it("hashes a transaction the same from its value and from its bytes", () => {
    fc.assert(
      fc.property(A.transaction, (t) => {
        expect(transactionHash(t)).toEqual(transactionHashOfBytes(Bcs.encode(transactionCodec, t)))
      }),
      { numRuns: 50 }
    )
  })

  it("hashes a user transaction the same from its signed transaction's bytes (a submission's hash)", () => {
    fc.assert(
      fc.property(A.signedTransaction, (signed) => {
        expect(userTransactionHashOfSigned(Bcs.encode(signedTransactionCodec, signed))).toEqual(
          transactionHash({ _tag: "UserTransaction", signed })
        )
      }),
      { numRuns: 50 }
    )
  })

  it("decodes both genesis blobs through the full Transaction codec and hashes them", () => {
    for (const name of genesisNamesPresent()) {
      const bytes = loadGenesisBytes(name)
      const t = Bcs.decode(transactionCodec, bytes)
      expect(Result.isSuccess(t)).toBe(true)
      const g = decodeGenesisTransaction(bytes)
      if (Result.isFailure(g) || Result.isFailure(t)) throw new Error("decode failed")
      expect(transactionHash(g.success)).toEqual(transactionHashOfBytes(bytes))
      expect(transactionHash(t.success).length).toBe(32)
    }
  })
})

describe("object addresses", () => {
  it("the APT paired metadata is 0xa", () => {
    const apt = parseTypeTag("0x1::aptos_coin::AptosCoin")
    if (Result.isFailure(apt)) throw new Error()
    expect(addressToShortString(pairedMetadataAddress(apt.success))).toBe("0xa")
  })

  it("other coins' metadata is the named object of 0xa seeded with the canonical type name", () => {
    const t = parseTypeTag(`0x${"cafe".padStart(64, "0")}::usd::USD`)
    if (Result.isFailure(t)) throw new Error()
    expect(pairedMetadataAddress(t.success)).toEqual(
      namedObjectAddress(addressFromNumber(0xa), new TextEncoder().encode("0xcafe::usd::USD"))
    )
  })

  it("the devnet genesis primary stores are exactly sha3(owner ‖ 0xa ‖ 0xFC)", () => {
    const g = decodeGenesisTransaction(loadGenesisBytes("devnet"))
    if (Result.isFailure(g) || g.success.payload._tag !== "Direct") throw new Error("decode failed")
    const entries = g.success.payload.changeSet.writeSet.entries
    const objectGroups = new Set<string>()
    const accounts = new Set<string>()
    for (const e of entries) {
      if (e.key._tag !== "AccessPath") continue
      const p = e.key.path
      if (p._tag === "ResourceGroup" && p.struct.module === "object" && p.struct.name === "ObjectGroup")
        objectGroups.add(toHex(e.key.address))
      if (p._tag === "Resource" && p.struct.module === "account" && p.struct.name === "Account")
        accounts.add(toHex(e.key.address))
    }
    const fa = addressFromNumber(0xa)
    objectGroups.delete(toHex(fa))
    const stores = [...accounts]
      .map((a) => toHex(primaryStoreAddress(Buffer.from(a, "hex"), fa)))
      .filter((s) => objectGroups.has(s))
    expect(objectGroups.size).toBe(7)
    // Every store object belongs to some genesis account (the faucet and the validators' owners).
    expect(new Set(stores).size).toBeGreaterThanOrEqual(6)
    expect(objectGroups.has(toHex(primaryStoreAddress(addressFromNumber(0xa550c18), fa)))).toBe(true)
  })
})
