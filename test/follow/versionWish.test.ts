import { assert, describe, it } from "vitest"
import fc from "fast-check"
import { ApiError } from "../../src/domain/ApiError.js"
import { MIN_LEDGER_VERSION_HEADER, versionWishOf, WAIT_MS_HEADER } from "../../src/http/versionGate.js"

describe("versionWishOf (the consistency headers)", () => {
  it("reads the headers and the ledger_version query; caps the wait", () => {
    assert.isUndefined(versionWishOf({}, new Map([["ledger_version", "5"]]), 5000))
    assert.deepStrictEqual(versionWishOf({ [MIN_LEDGER_VERSION_HEADER]: "7" }, new Map(), 5000), {
      target: 7n,
      required: true,
      waitMs: 0
    })
    assert.deepStrictEqual(versionWishOf({ [WAIT_MS_HEADER]: "90000" }, new Map([["ledger_version", "9"]]), 5000), {
      target: 9n,
      required: false,
      waitMs: 5000
    })
    assert.instanceOf(versionWishOf({ [MIN_LEDGER_VERSION_HEADER]: "18446744073709551616" }, new Map(), 5000), ApiError)
    assert.instanceOf(versionWishOf({ [MIN_LEDGER_VERSION_HEADER]: ["1", "2"] }, new Map(), 5000), ApiError)
  })

  it("garbage headers and queries give a wish, nothing, or a 400 — never a throw", () => {
    fc.assert(
      fc.property(
        fc.option(fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }))),
        fc.option(fc.string({ maxLength: 30 })),
        fc.option(fc.string({ maxLength: 30 })),
        (min, wait, lv) => {
          const headers: Record<string, string | string[] | undefined> = {}
          if (min !== null) headers[MIN_LEDGER_VERSION_HEADER] = min
          if (wait !== null) headers[WAIT_MS_HEADER] = wait
          const r = versionWishOf(headers, new Map(lv === null ? [] : [["ledger_version", lv]]), 5000)
          if (r instanceof ApiError) assert.strictEqual(r.status, 400)
          else if (r !== undefined) assert.isTrue(r.waitMs >= 0 && r.waitMs <= 5000)
        }
      ),
      { numRuns: 2000 }
    )
  })
})
