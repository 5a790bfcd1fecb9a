import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isValidIdentifier, parseIdentifier } from "../../src/domain/Identifier.js"
import { moveTypeToString, parseMoveType } from "../../src/domain/MoveType.js"
import {
  parseStructTag,
  parseTypeTag,
  structTagEquals,
  structTagToString,
  typeTagToString
} from "../../src/domain/TypeTagString.js"
import { decodeGenesisTransaction } from "../../src/domain/Genesis.js"
import type { StructTag, TypeTag } from "../../src/domain/TypeTag.js"
import { genesisNamesPresent, loadGenesisBytes } from "../support/genesis.js"
import * as A from "./arbitraries.js"

const ok = <A>(r: Result.Result<A, { message: string }>): A => {
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}

const canonical = (s: string, opts = { allowGenerics: true, allowReferences: true }) => {
  const r = parseMoveType(s, opts)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return moveTypeToString(r.success)
}

describe("Identifier", () => {
  it("follows the Move rules, with $ allowed", () => {
    for (const ok of ["a", "A1", "coin", "_x", "$x", "x$y", "a_b_c", "<SELF>"])
      expect(isValidIdentifier(ok), ok).toBe(true)
    for (const bad of ["", "_", "$", "1a", "a-b", "a b", "a::b", "é"]) expect(isValidIdentifier(bad), bad).toBe(false)
    expect(Result.isFailure(parseIdentifier("a::b"))).toBe(true)
    expect(Result.isSuccess(parseIdentifier("transfer"))).toBe(true)
  })
})

describe("MoveType parser and printer", () => {
  it("prints canonically as the reference does", () => {
    expect(canonical("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>")).toBe(
      "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"
    )
    expect(canonical(" 0x0001 :: coin :: CoinStore < 0x01::aptos_coin::AptosCoin > ")).toBe(
      "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"
    )
    expect(canonical("0x1::pair::Pair<u8,vector<u64>>")).toBe("0x1::pair::Pair<u8, vector<u64>>")
    expect(canonical(`0x${"0".repeat(60)}cafe::m::S`)).toBe("0xcafe::m::S")
    expect(canonical("0XAB::m::S")).toBe("0xab::m::S")
    expect(canonical("&signer")).toBe("&signer")
    expect(canonical("&mut 0x1::m::S<T0>")).toBe("&mut 0x1::m::S<T0>")
    expect(canonical("vector<T1>")).toBe("vector<T1>")
    expect(canonical("i128")).toBe("i128")
  })

  it("rejects malformed input with a message, never throwing", () => {
    for (const bad of [
      "",
      "u9",
      "vector<u8",
      "vector<>",
      "0x1::m",
      "0x1::m::S<>",
      "0x1::m::S<u8,>",
      "0x1::1m::S",
      "0xg::m::S",
      `0x${"1".repeat(65)}::m::S`,
      "u8 u8",
      "&&u8",
      "T0"
    ]) {
      const r = parseMoveType(bad)
      expect(Result.isFailure(r), bad).toBe(true)
      if (Result.isFailure(r)) expect(r.failure.message.length).toBeGreaterThan(0)
    }
    expect(Result.isFailure(parseMoveType("&u8"))).toBe(true)
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        (s) => void parseMoveType(s, { allowGenerics: true, allowReferences: true })
      )
    )
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("vector", "<", ">", "0x1", "::", "m", "S", ",", " ", "u8", "&", "mut "), {
          maxLength: 40
        }),
        (parts) => void parseMoveType(parts.join(""), { allowReferences: true })
      )
    )
  })

  it("enforces the nesting limit (8 by default, configurable) without deep recursion", () => {
    const nest = (n: number) => "vector<".repeat(n) + "u8" + ">".repeat(n)
    expect(Result.isSuccess(parseMoveType(nest(8)))).toBe(true)
    expect(Result.isFailure(parseMoveType(nest(9)))).toBe(true)
    expect(Result.isSuccess(parseMoveType(nest(9), { maxDepth: 9 }))).toBe(true)
    expect(Result.isFailure(parseMoveType(nest(100_000)))).toBe(true)
    // A struct needs one level for its tag: a non-generic struct at depth 8 is over the limit.
    expect(Result.isSuccess(parseMoveType("vector<".repeat(7) + "0x1::m::S" + ">".repeat(7)))).toBe(true)
    expect(Result.isFailure(parseMoveType("vector<".repeat(8) + "0x1::m::S" + ">".repeat(8)))).toBe(true)
  })

  it("round-trips type tags: parse(print(t)) = t", () => {
    fc.assert(
      fc.property(A.typeTag(6, false), (t) => {
        const s = typeTagToString(t)
        const back = parseTypeTag(s, 16)
        if (Result.isFailure(back)) throw new Error(back.failure.message)
        expect(back.success).toEqual(t)
        expect(typeTagToString(back.success)).toBe(s)
      })
    )
  })

  it("a struct tag equals its printed form with whitespace sprinkled between tokens", () => {
    fc.assert(
      fc.property(
        A.structTag(4, false),
        fc.array(fc.constantFrom("", " ", "  ", "\t", "\n"), { minLength: 64, maxLength: 64 }),
        (st, spaces) => {
          let i = 0
          const printed = structTagToString(st).replace(
            /(::|<|>|,)/g,
            (m) => `${spaces[i++ % 64]}${m}${spaces[i++ % 64]}`
          )
          expect(structTagEquals(printed, st)).toBe(true)
        }
      )
    )
  })

  it("compares struct tags ignoring whitespace and address spelling", () => {
    expect(
      structTagEquals(
        "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
        "0x01::coin::CoinStore< 0x1::aptos_coin::AptosCoin >"
      )
    ).toBe(true)
    expect(structTagEquals("0x1::coin::CoinStore<u8>", "0x1::coin::CoinStore<u64>")).toBe(false)
    expect(structTagEquals("0x1::coin::CoinStore", "not a tag")).toBe(false)
    const parsed = parseStructTag("0x1::a::B<u8>")
    expect(Result.isSuccess(parsed) && structTagEquals(parsed.success, "0x0001::a::B<u8>")).toBe(true)
  })

  it("prints and re-parses every struct and type tag in both genesis blobs", () => {
    let n = 0
    const names = genesisNamesPresent()
    for (const name of names) {
      const g = decodeGenesisTransaction(loadGenesisBytes(name))
      if (Result.isFailure(g) || g.success.payload._tag !== "Direct") throw new Error("decode failed")
      const tags: TypeTag[] = []
      const struct = (st: StructTag): TypeTag => ({ _tag: "struct", struct: st })
      for (const e of g.success.payload.changeSet.writeSet.entries)
        if (e.key._tag === "AccessPath" && e.key.path._tag !== "Code") tags.push(struct(e.key.path.struct))
      for (const ev of g.success.payload.changeSet.events) tags.push(ev.typeTag)
      for (const t of tags) {
        const s = typeTagToString(t)
        expect(s).not.toMatch(/0x0[0-9a-f]/)
        expect(ok(parseTypeTag(s))).toEqual(t)
        n++
      }
    }
    // devnet has 145 tags, mainnet (1,323 resources, 1,499 events) the rest.
    expect(n).toBeGreaterThan(names.includes("mainnet") ? 2900 : 140)
  })
})
