import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toHex } from "../../src/bcs/index.js"
import { wantsBcs } from "../../src/http/Accept.js"
import {
  decodeSegment,
  isStructTagText,
  parseAddressParam,
  parseAssetTypeParam,
  parseIdentifierParam,
  parseU16Query,
  parseU64Query
} from "../../src/http/Params.js"
import { parseQuery } from "../../src/http/Query.js"
import { apiRoutes, makeRouter } from "../../src/http/Routes.js"

describe("Accept negotiation", () => {
  it("follows the contract's table", () => {
    expect(wantsBcs(undefined)).toBe(false)
    expect(wantsBcs("*/*")).toBe(false)
    expect(wantsBcs("text/html")).toBe(false)
    expect(wantsBcs("application/x-bcs")).toBe(true)
    expect(wantsBcs("Application/X-BCS; q=0.9")).toBe(true)
    expect(wantsBcs("application/json, application/x-bcs")).toBe(false)
    expect(wantsBcs("text/html, application/x-bcs, application/json")).toBe(true)
    expect(wantsBcs("application/x-bcs-foo")).toBe(false)
  })
  it("never throws", () => fc.assert(fc.property(fc.string(), (s) => typeof wantsBcs(s) === "boolean")))
})

describe("path parameters", () => {
  it("parses relaxed addresses and rejects the rest", () => {
    const ok = (s: string) => Result.isSuccess(parseAddressParam("address", s))
    expect(ok("0x1")).toBe(true)
    expect(ok("1")).toBe(true)
    expect(ok("0XABCDEF")).toBe(true)
    expect(ok("a".repeat(64))).toBe(true)
    for (const bad of ["", "0x", "xyz", "0x0x12", "a".repeat(65), "0x1 ", "-1"]) expect(ok(bad), bad).toBe(false)
  })
  it("round-trips any 32-byte address in any of its accepted spellings", () =>
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.boolean(),
        fc.boolean(),
        (bytes, prefix, upper) => {
          let hex = toHex(bytes).replace(/^0+(?=.)/, "")
          if (upper) hex = hex.toUpperCase()
          const r = parseAddressParam("address", (prefix ? "0x" : "") + hex)
          return Result.isSuccess(r) && toHex(r.success) === toHex(bytes)
        }
      )
    ))
  it("identifiers", () => {
    for (const ok of ["guid", "a", "_a", "A_1", "coin"])
      expect(Result.isSuccess(parseIdentifierParam("m", ok)), ok).toBe(true)
    for (const bad of ["", "_", "1a", "a-b", "a::b", "a b", "x".repeat(256)])
      expect(Result.isFailure(parseIdentifierParam("m", bad)), bad).toBe(true)
  })
  it("asset types: an address first, else a struct tag", () => {
    const p = (s: string) => parseAssetTypeParam(s)
    expect(Result.getOrThrow(p("a"))._tag).toBe("FungibleAsset")
    expect(Result.getOrThrow(p("0x1::aptos_coin::AptosCoin"))).toEqual({
      _tag: "Coin",
      structTag: "0x1::aptos_coin::AptosCoin"
    })
    expect(Result.getOrThrow(p("0x1::m::S<0x1::m::T<u8>, vector<u64>>"))._tag).toBe("Coin")
    for (const bad of [
      "0x1::m",
      "0x1::m::S<",
      "0x1::m::S>",
      "0x1::m::S<u8>x",
      "zz::m::S",
      "0x1::m::S<a;b>",
      `0x1::m::S${"<u8".repeat(9)}${">".repeat(9)}`
    ])
      expect(Result.isFailure(p(bad)), bad).toBe(true)
    expect(isStructTagText("0x1::a::B<" + "x".repeat(5000) + ">")).toBe(false)
  })
  it("struct tag text: type arguments admit exactly [A-Za-z0-9_:, &] besides brackets, for every UTF-16 unit", () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c)
      const expected = /[A-Za-z0-9_:, &<>]/.test(ch)
      // `<>` and a lone `>` change the nesting; inside `<u8 x>` any allowed unit keeps the tag valid.
      if (ch === "<" || ch === ">") continue
      expect(isStructTagText(`0x1::m::S<u8${ch}>`), `U+${c.toString(16)}`).toBe(expected)
    }
  })
  it("malformed percent-encoding is a failure, not an exception", () => {
    expect(Result.isFailure(decodeSegment("x", "%E0%A4%A"))).toBe(true)
    expect(Result.getOrThrow(decodeSegment("x", "a%3Cb%3E"))).toBe("a<b>")
  })
  it("garbage never throws in any path parser", () =>
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        parseAddressParam("address", s)
        parseIdentifierParam("module_name", s)
        parseAssetTypeParam(s)
        decodeSegment("x", s)
        return true
      })
    ))
})

describe("query values", () => {
  it("u64 and u16 bounds", () => {
    expect(Result.getOrThrow(parseU64Query("v", "18446744073709551615"))).toBe(18446744073709551615n)
    expect(Result.isFailure(parseU64Query("v", "18446744073709551616"))).toBe(true)
    expect(Result.getOrThrow(parseU64Query("v", undefined))).toBeUndefined()
    expect(Result.getOrThrow(parseU16Query("limit", "65535"))).toBe(65535)
    for (const bad of ["", "-1", "1e3", " 1", "0x10", "65536"])
      expect(Result.isFailure(parseU16Query("limit", bad)), bad).toBe(true)
  })
  it("round-trips any u64 and never throws on garbage", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        (v) => Result.getOrThrow(parseU64Query("v", v.toString())) === v
      )
    )
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseU64Query("v", s)
        parseU16Query("l", s)
        return true
      })
    )
  })
  it("query strings: first value wins, escapes decoded, bad escapes reported", () => {
    const q = parseQuery("limit=5&limit=6&start_version=%31%30&flag")
    expect(q).toBeInstanceOf(Map)
    const m = q as Map<string, string>
    expect(m.get("limit")).toBe("5")
    expect(m.get("start_version")).toBe("10")
    expect(m.get("flag")).toBe("")
    expect(typeof parseQuery("a=%E0%A4%A")).toBe("string")
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseQuery(s)
        return true
      })
    )
  })
})

describe("router", () => {
  const route = makeRouter(apiRoutes)
  it("matches every declared route and captures params", () => {
    const m = route("GET", "/v1/accounts/0x1/module/guid")
    expect(m._tag).toBe("Found")
    if (m._tag === "Found") {
      expect(m.route.id).toBe("accounts.module")
      expect(m.params).toEqual({ address: "0x1", module_name: "guid" })
    }
    expect(route("GET", "/v1")._tag).toBe("Found")
    expect(route("HEAD", "/v1/estimate_gas_price")._tag).toBe("Found")
  })
  it("405 for a known path with another method, 404 otherwise", () => {
    expect(route("POST", "/v1/estimate_gas_price")).toEqual({ _tag: "MethodNotAllowed", allow: ["GET"] })
    expect(route("GET", "/v1/accounts//module/guid")._tag).toBe("NotFound")
    expect(route("GET", "/v2")._tag).toBe("NotFound")
    expect(route("GET", "v1")._tag).toBe("NotFound")
  })
  it("never throws on arbitrary paths", () =>
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), fc.constantFrom("GET", "POST", "PUT"), (p, m) => {
        const r = route(m, p)
        return r._tag === "Found" || r._tag === "NotFound" || r._tag === "MethodNotAllowed"
      })
    ))
})

describe("rendering", () => {
  it("summaries JSON prints addresses in the short form and hashes in full", async () => {
    const { summariesJson } = await import("../../src/http/Render.js")
    const { addressToShortString } = await import("../../src/domain/AccountAddress.js")
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (sender, hash) => {
          const [s] = JSON.parse(
            summariesJson([
              { sender, version: 7n, hash, replayProtector: { _tag: "SequenceNumber", sequenceNumber: 3n } }
            ])
          )
          return s.sender === addressToShortString(sender) && s.transaction_hash === "0x" + toHex(hash)
        }
      )
    )
  })
})
