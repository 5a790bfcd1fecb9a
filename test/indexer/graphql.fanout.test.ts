/**
 * One request's answer is bounded in rows rendered, not only in rows read: a relationship cycle
 * (a token's ownerships → each ownership's token → its ownerships → …) renders the same few rows
 * again at every level, so 40 owners of one token, four array levels deep (within the depth limit),
 * are 40^4 ≈ 2.6 million rows of JSON (226 MB, ten seconds of the thread before the bound) from 41
 * rows read. It is refused with a Hasura-shaped error; two levels (40^2 rows) are answered.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MAX_RENDERED_ROWS } from "../../src/indexer/graphql/execute.js"
import { makeGraphqlEngine } from "../../src/indexer/graphql/GraphqlEngine.js"
import { IndexerStore, type IndexerStoreService } from "../../src/indexer/store/IndexerStore.js"

const OWNERS = 40
const TOKEN = `0x${"7".repeat(64)}`
let store: IndexerStoreService
let scope: Scope.Closeable

beforeAll(async () => {
  scope = await Effect.runPromise(Scope.make())
  const ctx = await Effect.runPromise(
    Layer.buildWithScope(IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }), scope)
  )
  store = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStoreService
  const common = { last_transaction_timestamp: "2026-01-01T00:00:00", last_transaction_version: 2n }
  await Effect.runPromise(
    store.commit(
      [
        {
          _tag: "Insert",
          table: "current_token_datas_v2",
          rows: [
            {
              ...common,
              token_data_id: TOKEN,
              collection_id: `0x${"c".repeat(64)}`,
              description: "",
              token_name: "shared",
              token_standard: "v1",
              token_uri: ""
            }
          ]
        },
        {
          _tag: "Insert",
          table: "current_token_ownerships_v2",
          rows: Array.from({ length: OWNERS }, (_, i) => ({
            ...common,
            token_data_id: TOKEN,
            property_version_v1: "0",
            owner_address: `0x${i.toString(16).padStart(64, "0")}`,
            storage_id: `0x${"5".repeat(64)}`,
            amount: "1",
            token_standard: "v1"
          }))
        }
      ],
      { version: 2n, hash: "0x02", timestampUsec: 0n, chainId: 4 },
      ["token_v2_processor"]
    )
  )
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const engine = makeGraphqlEngine(Effect.sync(() => store))
const answer = async (query: string) => JSON.parse(await Effect.runPromise(engine.answer({ query })))

/** `levels` array levels of the cycle under the token. */
const cycle = (levels: number): string => {
  let inner = "owner_address"
  for (let i = 0; i < levels; i++)
    inner =
      i === 0 ? `current_token_ownerships { ${inner} }` : `current_token_ownerships { current_token_data { ${inner} } }`
  return `{ current_token_datas_v2 { token_data_id ${inner} } }`
}

describe("the GraphQL engine on a relationship cycle", () => {
  it("answers while the rendered rows stay within the bound", async () => {
    expect(OWNERS ** 2).toBeLessThan(MAX_RENDERED_ROWS)
    const a = await answer(cycle(2))
    expect(a.errors).toBeUndefined()
    const ownerships = a.data.current_token_datas_v2[0].current_token_ownerships
    expect(ownerships).toHaveLength(OWNERS)
    expect(ownerships[0].current_token_data.current_token_ownerships).toHaveLength(OWNERS)
  })

  it("refuses, promptly and in Hasura's shape, an answer that would render more rows than the bound", async () => {
    expect(OWNERS ** 4).toBeGreaterThan(MAX_RENDERED_ROWS)
    const a = await answer(cycle(4))
    expect(a.data).toBeUndefined()
    expect(a.errors[0].message).toMatch(/more than .* rows/)
    expect(a.errors[0].extensions.code).toBe("validation-failed")
  })
})
