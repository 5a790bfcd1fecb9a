/**
 * Properties of the GraphQL engine fed garbage: random `where` trees (known and unknown columns,
 * every operator and made-up ones, values of every JSON kind, deep nesting, relationship filters),
 * random documents and random request bodies. Every answer is Hasura-shaped JSON — `data`, or
 * `errors` with a message and a code — never an internal error, and no value reaches the SQL text.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import fc from "fast-check"
import { getIntrospectionQuery } from "graphql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeGraphqlEngine } from "../../src/indexer/graphql/GraphqlEngine.js"
import { documentCacheUse } from "../../src/indexer/graphql/plan.js"
import { IndexerStore, type IndexerStoreService } from "../../src/indexer/store/IndexerStore.js"
import { userTransactionRows } from "../support/indexRows.js"

let store: IndexerStoreService
let scope: Scope.Closeable
const statements: string[] = []

beforeAll(async () => {
  scope = await Effect.runPromise(Scope.make())
  const ctx = await Effect.runPromise(
    Layer.buildWithScope(IndexerStore.layer({ _tag: "Sqlite", path: ":memory:" }), scope)
  )
  const inner = ctx.mapUnsafe.get(IndexerStore.key) as IndexerStoreService
  // Record every statement, to check that no input text reaches it.
  store = {
    ...inner,
    select: (sql, params) => {
      statements.push(sql)
      return inner.select(sql, params)
    }
  }
  await Effect.runPromise(
    inner.commit(
      [
        {
          _tag: "Insert",
          table: "user_transactions",
          rows: userTransactionRows([1n, 2n, 3n])
        },
        {
          _tag: "Insert",
          table: "account_transactions",
          rows: [1n, 2n].map((v) => ({ account_address: `0x${"a".repeat(64)}`, transaction_version: v }))
        }
      ],
      { version: 3n, hash: "0x03", timestampUsec: 0n, chainId: 4 },
      ["user_transaction_processor"]
    )
  )
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const engine = makeGraphqlEngine(Effect.sync(() => store))
const answer = (body: unknown) => Effect.runPromise(engine.answer(body))

const MARKER = "zq_marker_"
const hasuraShaped = (text: string) => {
  const parsed = JSON.parse(text)
  if (parsed.errors?.[0]?.extensions?.code === "unexpected") console.log(text)
  if ("data" in parsed) return expect(Object.keys(parsed)).toEqual(["data"])
  expect(Array.isArray(parsed.errors)).toBe(true)
  for (const e of parsed.errors) {
    expect(typeof e.message).toBe("string")
    expect(["validation-failed", "parse-failed", "data-exception", "not-supported"]).toContain(e.extensions.code)
  }
}

const scalar = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => MARKER + s),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 130n), max: 2n ** 130n }).map(String),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    "2026-01-01T00:00:00",
    "2026-13-45",
    "0x1::aptos_account::transfer",
    "%",
    "_",
    "\\",
    "'; DROP TABLE x; --"
  )
)
const columns = [
  "version",
  "sender",
  "sequence_number",
  "timestamp",
  "gas_unit_price",
  "entry_function_id_str",
  "epoch",
  "nope"
]
const operators = [
  "_eq",
  "_neq",
  "_gt",
  "_gte",
  "_lt",
  "_lte",
  "_in",
  "_nin",
  "_is_null",
  "_like",
  "_ilike",
  "_nlike",
  "_nilike",
  "_regex",
  "_x"
]

const where = fc.letrec<{ exp: unknown }>((tie) => ({
  exp: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.dictionary(
      fc.constantFrom(...columns),
      fc.dictionary(fc.constantFrom(...operators), fc.oneof(scalar, fc.array(scalar, { maxLength: 4 })), {
        maxKeys: 3
      }),
      { maxKeys: 3 }
    ),
    fc.record({ _and: fc.array(tie("exp"), { maxLength: 3 }) }),
    fc.record({ _or: fc.array(tie("exp"), { maxLength: 3 }) }),
    fc.record({ _not: tie("exp") }),
    scalar
  )
}))

describe("the GraphQL engine fed garbage", () => {
  it("random where expressions: Hasura-shaped answers, values only as parameters", async () => {
    await fc.assert(
      fc.asyncProperty(where.exp, async (w) => {
        statements.length = 0
        hasuraShaped(
          await answer({
            query: "query q($w: user_transactions_bool_exp) { user_transactions(where: $w) { version } }",
            variables: { w }
          })
        )
        for (const s of statements) expect(s).not.toContain(MARKER)
      }),
      { numRuns: 400 }
    )
  })

  it("relationship filters and aggregates with random where", async () => {
    await fc.assert(
      fc.asyncProperty(where.exp, async (w) => {
        hasuraShaped(
          await answer({
            query:
              "query q($w: user_transactions_bool_exp) { account_transactions_aggregate(where: {user_transaction: $w}) { aggregate { count } } account_transactions(where: {_or: [{user_transaction: $w}]}) { user_transaction { version } } }",
            variables: { w }
          })
        )
      }),
      { numRuns: 200 }
    )
  })

  it("random documents and bodies", async () => {
    const token = fc.constantFrom(
      "{",
      "}",
      "(",
      ")",
      ":",
      "$",
      "!",
      "[",
      "]",
      "...",
      "query",
      "user_transactions",
      "version",
      "where",
      "_eq",
      "limit",
      "1",
      '"x"',
      "fragment",
      "on",
      "__schema",
      "__type",
      "@skip",
      "order_by",
      "asc",
      " "
    )
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(token, { maxLength: 40 }).map((t) => ({ query: t.join(" ") })),
          fc.string({ maxLength: 200 }).map((query) => ({ query })),
          fc.anything()
        ),
        async (body) => hasuraShaped(await answer(body))
      ),
      { numRuns: 400 }
    )
  })

  it("refuses deep and wide documents with a clear error", async () => {
    expect(
      JSON.parse(await answer({ query: "{ user_transactions { __typename } }" })).data.user_transactions
    ).toHaveLength(3)
    const nested = `{ account_transactions { ${"user_transaction { signature { transaction_version } } ".repeat(1)} } }`
    hasuraShaped(await answer({ query: nested }))
    const tooDeep =
      `{ ${"account_transactions { user_transaction { signature { __typename } } } ".repeat(1).replace("__typename", "transaction_version")} }`.replace(
        "{ user_transaction",
        `{ ${"fungible_asset_activities { metadata { __typename } } ".repeat(1)} user_transaction`
      )
    hasuraShaped(await answer({ query: tooDeep }))
    const introspection = JSON.parse(await answer({ query: getIntrospectionQuery() }))
    expect(introspection.data.__schema.queryType.name).toBe("query_root")
    const deepest = `{ ${"account_transactions { ".repeat(1)}${"user_transaction { signature { transaction_version } } ".repeat(1)} } }`
    hasuraShaped(await answer({ query: deepest }))
    const selfNested = (n: number): string => (n === 0 ? "token_data_id" : `composed_nfts { ${selfNested(n - 1)} }`)
    const tooDeepSelection = `{ current_token_ownerships_v2 { ${selfNested(12)} } }`
    expect(JSON.parse(await answer({ query: tooDeepSelection })).errors[0].message).toMatch(/deeper than/)
    const tooDeepWhere = {
      query: `{ user_transactions(where: ${"{_not: ".repeat(200)}{}${"}".repeat(200)}) { version } }`
    }
    const a = JSON.parse(await answer(tooDeepWhere))
    expect(a.errors[0].message).toMatch(/nested|too large|depth|tokens/i)
    const wide = {
      query: `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: user_transactions { version }`).join(" ")} }`
    }
    expect(JSON.parse(await answer(wide)).errors[0].message).toMatch(/root fields/)
    const deepVars = {
      query: "query q($w: user_transactions_bool_exp) { user_transactions(where: $w) { version } }",
      variables: { w: JSON.parse(`${'{"_not":'.repeat(100)}{}${"}".repeat(100)}`) }
    }
    expect(JSON.parse(await answer(deepVars)).errors[0].message).toMatch(/nested too deeply/)
    const bigIn = {
      query: "query q($v: [bigint!]) { user_transactions(where: {version: {_in: $v}}) { version } }",
      variables: { v: Array.from({ length: 5000 }, (_, i) => i) }
    }
    expect(JSON.parse(await answer(bigIn)).errors[0].message).toMatch(/at most/)
  })

  it("keeps parsed documents within a bound of text, however many large valid ones clients send", async () => {
    // Valid and large: ten root fields of 320 aliases each (~55 KB, ~10,000 tokens), each one distinct.
    const big = (i: number) =>
      `{ ${Array.from({ length: 10 }, (_, k) => `r${k}: user_transactions(limit: 1) { ${Array.from({ length: 320 }, (_, j) => `f${i}_${j}: version`).join(" ")} }`).join(" ")} }`
    for (let i = 0; i < 60; i++) {
      const a = JSON.parse(await answer({ query: big(i) }))
      expect(a.errors).toBeUndefined()
      expect(a.data.r0[0][`f${i}_0`]).toBe(1)
    }
    const use = documentCacheUse(engine.schema)
    expect(use.chars).toBeLessThanOrEqual(1 << 20)
    expect(use.entries).toBeLessThan(60)
    // Small documents (the SDK's are 0.3–3 KB) are still kept: the same one asked twice is one entry.
    const small = "{ user_transactions(limit: 1) { version } }"
    await answer({ query: small })
    const once = documentCacheUse(engine.schema)
    await answer({ query: small, variables: { unused: 1 } })
    expect(documentCacheUse(engine.schema)).toEqual(once)
  })

  it("caps limit at 100 and answers a limit of 0", async () => {
    expect(JSON.parse(await answer({ query: "{ user_transactions(limit: 0) { version } }" }))).toEqual({
      data: { user_transactions: [] }
    })
    expect(
      JSON.parse(await answer({ query: "{ user_transactions(limit: 100000) { version } }" })).data.user_transactions
    ).toHaveLength(3)
  })
})
