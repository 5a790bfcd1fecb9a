/**
 * Every GraphQL document the Aptos Explorer sends (its account, coin, fungible-asset, token,
 * transaction and transactions pages, and the validators' delegation pages), taken from the
 * Explorer's own source at run time (`explorerQueries.ts`), sent to a local chain's GraphQL API
 * over the history the browser test browses (`makeHistory.ts`): none may answer with `errors`, and
 * those of the account, coin and transaction pages must find the history's rows (the page would be
 * empty otherwise). Variables are given per name, as the Explorer fills them (an address, the
 * transfer's version, the fungible asset's metadata address…); a document with a variable the test
 * has no value for fails, so a new Explorer query is noticed.
 *
 * No browser, fixed ports or Explorer build needed: only its source. It skips, saying so, without
 * one (MOVENODE_EXPLORER_SOURCE: a checkout or bare clone; or MOVENODE_EXPLORER_DIST: a build
 * with source maps; docs/explorer.md).
 */
import { Effect, Exit, Scope } from "effect"
import { type DocumentNode, Kind, parse, type TypeNode } from "graphql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"
import { type ExplorerDocument, explorerDocuments, explorerSource, FUNCTION_FILTERS } from "./explorerQueries.js"
import { type History, makeHistory } from "./makeHistory.js"

const source = explorerSource()
const documents = "missing" in source ? [] : await explorerDocuments(source)

/**
 * Operations of the account, coin and transaction pages that must find rows in the history, by the
 * first root field's list (or aggregate count); the others (delegations, token activity counts of a
 * token nobody moved…) only must not fail.
 */
const MUST_FIND_ROWS = new Set([
  "AccountTransactionsCount",
  "AccountTransactionsData",
  "CoinsData",
  "GetFungibleAssetCount",
  "GetAccountTokensCount",
  "GetOwnedTokens",
  "GetTokenData",
  "GetTokenOwnersData",
  "GetTokenActivitiesCount",
  "GetFungibleAssetActivities",
  "GetFungibleAssetActivitiesCursor",
  "GetFungibleAssetActivitiesFirstPage",
  "GetFirstFungibleAssetActivity",
  "GetFungibleAssetBalances",
  "ModulePublishHistory",
  "TableItemsData",
  "TableItemsMetadata",
  "UserTransactions",
  "UserTransactionFunctionInfo",
  "AccountUserTransactionsByFunction",
  "AccountUserTransactionsByFunctionCount",
  "UserTransactionsByFunction",
  "UserTransactionsByFunctionCount",
  "TransactionQuery"
])

const baseName = (d: ExplorerDocument) => d.name.replace(/ \(filter: .*\)$/, "")

interface Facts {
  readonly ledgerVersion: number
  readonly tableVersion: number
  readonly tableHandles: ReadonlyArray<string>
}

/** The value the Explorer would put in variable `name`, for this history. */
const variableValue = (name: string, type: TypeNode, h: History, f: Facts): unknown => {
  const alice = h.alice.toStringLong()
  const values: Record<string, unknown> = {
    // an account page's address (and a delegator's, on the validator pages)
    address: alice,
    owner_address: alice,
    owner: alice,
    sender: alice,
    addresses: [alice],
    pool: alice,
    poolAddress: alice,
    // a fungible asset's page: its metadata object (a coin page: the coin type, below)
    asset: h.faMetadata.toStringLong(),
    coin_type: h.faMetadata.toStringLong(),
    // a transaction page: the fungible-asset transfer (balance changes); one with table items
    txn_version: Number(h.faTransfer.version),
    transaction_version: f.tableVersion,
    handles: f.tableHandles,
    // a token page
    token_data_id: h.tokens[1]!.toStringLong(),
    token_id: h.tokens[0]!.toStringLong(),
    // lists: the first page, newest first
    limit: 25,
    offset: 0,
    start_version: f.ledgerVersion,
    cursor: f.ledgerVersion + 1,
    order_by: [{ last_transaction_version: "desc" }, { token_data_id: "desc" }],
    // the function filter (the built documents)
    entry_function_contract_address: "0x0000000000000000000000000000000000000000000000000000000000000001",
    entry_function_module_name: FUNCTION_FILTERS[0].module,
    entry_function_function_name: FUNCTION_FILTERS[0].functionName
  }
  if (!(name in values)) throw new Error(`the test has no value for variable $${name} (type ${JSON.stringify(type)})`)
  return values[name]
}

const variablesOf = (doc: DocumentNode, h: History, f: Facts): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const d of doc.definitions)
    if (d.kind === Kind.OPERATION_DEFINITION)
      for (const v of d.variableDefinitions ?? [])
        out[v.variable.name.value] = variableValue(v.variable.name.value, v.type, h, f)
  return out
}

/** Rows the answer's first root field holds (an aggregate: its count). */
const rowsOf = (data: Record<string, unknown>): number => {
  const first = Object.values(data)[0]
  if (Array.isArray(first)) return first.length
  const count = (first as { aggregate?: { count?: number } } | null)?.aggregate?.count
  return typeof count === "number" ? count : first === null || first === undefined ? 0 : 1
}

const post = async (url: string, query: string, variables: Record<string, unknown>) => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables })
  })
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; errors?: unknown } }
}

describe.skipIf("missing" in source)(
  `the Explorer's GraphQL documents (${"missing" in source ? source.missing : source.origin})`,
  () => {
    const scope = Effect.runSync(Scope.make())
    let chain: LocalChainInfo
    let history: History
    let facts: Facts

    beforeAll(async () => {
      chain = await Effect.runPromise(
        Scope.provide(
          LocalChain.spawn({
            accounts: 0,
            graphql: { host: "127.0.0.1", port: 0 },
            mining: MiningMode.instant(50),
            // the in-node indexer, embedded (the test preset has none)
            indexer: { _tag: "Embedded" }
          }),
          scope
        )
      )
      history = await makeHistory(chain)
      // A transaction page's table items: the newest transaction that wrote any (the history's
      // own write none: its objects and fungible stores are resources; genesis does).
      const handles = await post(
        chain.graphqlUrl!,
        "{ table_items(order_by: {transaction_version: desc}, limit: 100) { table_handle transaction_version } }",
        {}
      )
      const items = (handles.body.data?.table_items ?? []) as Array<{
        table_handle: string
        transaction_version: number
      }>
      const ledger = (await (await fetch(`${chain.apiUrl}`)).json()) as { ledger_version: string }
      facts = {
        ledgerVersion: Number(ledger.ledger_version),
        tableVersion: items[0]?.transaction_version ?? -1,
        tableHandles: [
          ...new Set(
            items.filter((r) => r.transaction_version === items[0]?.transaction_version).map((r) => r.table_handle)
          )
        ]
      }
    }, 120_000)
    afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

    it("finds the documents of the account, coin and transaction pages in the source", () => {
      const names = new Set(documents.map(baseName))
      for (const n of MUST_FIND_ROWS) expect(names, `${n} in the Explorer's source`).toContain(n)
      // the function filter's documents are built, not written out (5 builders, 2 filters each)
      expect(documents.filter((d) => d.name.includes("(filter:")).length).toBeGreaterThanOrEqual(10)
    })

    it("answers every one without a GraphQL error, and the pages' documents with the history's rows", async () => {
      expect(facts.tableHandles.length).toBeGreaterThan(0)
      const report: string[] = []
      const failures: string[] = []
      for (const d of documents) {
        const doc = parse(d.text)
        const variables = variablesOf(doc, history, facts)
        const { status, body } = await post(chain.graphqlUrl!, d.text, variables)
        const rows = body.data === undefined ? -1 : rowsOf(body.data)
        report.push(`${d.file} ${d.name}: ${status} ${body.errors === undefined ? `${rows} rows` : "ERRORS"}`)
        if (status !== 200 || body.errors !== undefined || body.data === undefined)
          failures.push(`${d.file} ${d.name}: ${status} ${JSON.stringify(body.errors ?? body).slice(0, 400)}`)
        else if (MUST_FIND_ROWS.has(baseName(d)) && rows === 0)
          failures.push(`${d.file} ${d.name}: no rows (variables ${JSON.stringify(variables)})`)
      }
      console.log(`${documents.length} Explorer documents:\n${report.join("\n")}`)
      expect(failures).toEqual([])
    }, 120_000)
  }
)
