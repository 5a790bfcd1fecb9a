import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import type { LedgerInfo } from "../../src/domain/LedgerInfo.js"
import { answerGraphql, makeGraphqlListener, NOT_AN_INDEXER, rootFields } from "../../src/http/GraphqlStub.js"
import { serveScoped } from "../../src/http/sideServer.js"

const ledger: LedgerInfo = {
  chainId: 4,
  epoch: 2n,
  ledgerVersion: 1234n,
  oldestLedgerVersion: 0n,
  ledgerTimestampUsec: 1_700_000_000_123_456n,
  blockHeight: 77n,
  oldestBlockHeight: 0n
}

/** The SDK's query (src/internal/queries/getProcessorStatus.graphql), as sent. */
const SDK_QUERY = `query getProcessorStatus($where_condition: processor_status_bool_exp) {
  processor_status(where: $where_condition) {
    last_success_version
    processor
    last_updated
  }
}`

describe("GraphqlStub", () => {
  it("answers the SDK's processor_status query with the ledger version for the processor asked", () => {
    assert.deepStrictEqual(
      answerGraphql(
        { query: SDK_QUERY, variables: { where_condition: { processor: { _eq: "fungible_asset_processor" } } } },
        ledger
      ),
      {
        data: {
          processor_status: [
            {
              last_success_version: 1234,
              processor: "fungible_asset_processor",
              last_updated: "2023-11-14T22:13:20.123456"
            }
          ]
        }
      }
    )
    // Unfiltered (getIndexerLastSuccessVersion reads the first row), fields picked, inline filter.
    const all = answerGraphql({ query: "{ processor_status { last_success_version } }" }, ledger)
    assert.deepStrictEqual(all, { data: { processor_status: [{ last_success_version: 1234 }] } })
    const inline = answerGraphql(
      { query: '{ processor_status(where: {processor: {_eq: "x"}}) { processor } }' },
      ledger
    )
    assert.deepStrictEqual(inline, { data: { processor_status: [{ processor: "x" }] } })
  })

  it("answers any other query with an error saying it is not an indexer", () => {
    const r = answerGraphql({ query: "query { current_fungible_asset_balances { amount } }" }, ledger) as {
      errors: Array<{ message: string }>
    }
    assert.strictEqual(r.errors[0]!.message, NOT_AN_INDEXER)
    const two = answerGraphql({ query: "{ processor_status { processor } ledger_infos { chain_id } }" }, ledger) as {
      errors: unknown[]
    }
    assert.ok(Array.isArray(two.errors))
    const badField = answerGraphql({ query: "{ processor_status { nope } }" }, ledger) as {
      errors: Array<{ message: string }>
    }
    assert.match(badField.errors[0]!.message, /nope/)
    assert.ok("errors" in (answerGraphql({}, ledger) as object))
  })

  it("finds root fields past comments, strings, aliases and arguments", () => {
    assert.deepStrictEqual(
      rootFields('# c { x }\nquery Q($a: Int) { s: processor_status(where: {p: "}"}) { processor # z\n } }').map(
        (f) => [f.name, f.selection]
      ),
      [["processor_status", ["processor"]]]
    )
  })

  it("never throws on garbage", () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), (query, variables) => {
        answerGraphql({ query, variables }, ledger)
        rootFields(query)
      })
    )
  })

  it.effect("serves POST /v1/graphql over HTTP", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const a = yield* serveScoped(makeGraphqlListener(Effect.succeed(ledger)), { host: "127.0.0.1", port: 0 })
        const r = yield* Effect.promise(() =>
          fetch(`http://127.0.0.1:${a.port}/v1/graphql`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query: SDK_QUERY, variables: {} })
          }).then(async (res) => [res.status, await res.json()] as const)
        )
        assert.strictEqual(r[0], 200)
        assert.strictEqual(
          (r[1] as { data: { processor_status: Array<{ last_success_version: number }> } }).data.processor_status[0]!
            .last_success_version,
          1234
        )
      })
    )
  )
})
