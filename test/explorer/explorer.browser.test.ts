/**
 * The Aptos Explorer, built from its own source, browsing a movenode local chain — and a fork of
 * one, whose indexer holds the fork's own blocks — in headless Chromium: every page issue 20 lists, each failing on GraphQL errors, failed requests, console
 * errors and missing content (amounts, addresses, names a person would look for). Screenshots go
 * to MOVENODE_EXPLORER_SCREENSHOTS (default: a temp folder), one PNG per page, and a summary of
 * every page's GraphQL documents to `report.json` beside them.
 *
 * Opt-in: it needs a built Explorer (`dist/client` of a build with SPA mode, see docs/explorer.md)
 * at MOVENODE_EXPLORER_DIST or in the cache folder ~/.cache/movenode/aptos-explorer, and Debian's
 * /usr/bin/chromium (or MOVENODE_CHROMIUM); it skips, saying which is missing, otherwise. The
 * Explorer's `local` network is fixed at 127.0.0.1:8080 (REST) and 127.0.0.1:8090 (GraphQL), so the
 * chain listens there: run it inside a network namespace on a shared machine
 * (`ip netns exec NAME npx vitest run test/explorer`).
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { homedir, tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import type { Browser, BrowserContext } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isExplorerBuild, serveExplorer } from "../../scripts/serve-explorer.mjs"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain } from "../../src/LocalChain.js"
import {
  cell,
  chromiumFlags,
  type Expected,
  newExplorerContext,
  type PageAction,
  type PageReport,
  visit
} from "./explorerPages.js"
import { FA_COIN_NAME, FA_COIN_SYMBOL } from "./faCoinModule.js"
import { COLLECTION_DESCRIPTION, COLLECTION_NAME, type History, makeHistory, TOKEN_NAMES } from "./makeHistory.js"

const dist = process.env.MOVENODE_EXPLORER_DIST ?? join(homedir(), ".cache", "movenode", "aptos-explorer")
const chromiumPath = process.env.MOVENODE_CHROMIUM ?? "/usr/bin/chromium"
const skipReason = !isExplorerBuild(dist)
  ? `no Explorer build at ${dist} (set MOVENODE_EXPLORER_DIST; docs/explorer.md says how to build one)`
  : !existsSync(chromiumPath)
    ? `no Chromium at ${chromiumPath} (apt-get install chromium, or set MOVENODE_CHROMIUM)`
    : undefined

/**
 * The landing page's count: the ledger's version from GET /v1 as the page shows it (`-` until it
 * has read it), exactly `n`, the version read before the pages opened (the test's chain is still:
 * no idle blocks, so nothing moves it).
 */
const totalTransactions = (n: number): Expected => ({
  test: (text) => {
    const shown = /TOTAL TRANSACTIONS: ([\d,]+)/.exec(text)?.[1]
    return shown !== undefined && Number(shown.replace(/,/g, "")) === n
  },
  toString: () => `TOTAL TRANSACTIONS: ${n.toLocaleString("en-US")}`
})

/** How the Explorer shortens an address in lists: `0x1234…cdef`. */
const short = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`

interface PageSpec {
  readonly name: string
  readonly path: (h: History, c: ChainFacts) => string
  /** Text a person would look for on the page. */
  readonly expected: (h: History, c: ChainFacts) => ReadonlyArray<Expected>
  /** Text that must not show (a token given away, say), looked for once `expected` shows. */
  readonly absent?: (h: History) => ReadonlyArray<string>
  /** A step taken once `ready` shows (expanding an entry), before `expected` is looked for. */
  readonly ready?: ReadonlyArray<string>
  readonly action?: PageAction
}

/** What the pages are checked against besides the history, read over REST before they open. */
interface ChainFacts {
  /** The block holding the collection's creation: its height and first and last versions. */
  readonly block: { readonly height: string; readonly first: string; readonly last: string }
  readonly latestBlock: string
  readonly ledgerVersion: string
  /** Alice's APT balance as the Explorer prints it (`98.70581411 APT`). */
  readonly aliceApt: string
}

/** Octas as the Explorer prints APT: 8 decimals, trailing zeros dropped, thousands separated. */
const formatApt = (octas: bigint): string => {
  const whole = (octas / 100_000_000n).toLocaleString("en-US")
  const fraction = (octas % 100_000_000n).toString().padStart(8, "0").replace(/0+$/, "")
  return `${whole}${fraction === "" ? "" : `.${fraction}`} APT`
}

const transferOverview = (h: History): ReadonlyArray<string> => [
  h.aptTransfer.version,
  h.aptTransfer.hash,
  short(h.alice.toStringLong()),
  short(h.bob.toStringLong()),
  "aptos_account::transfer_coins",
  "1.23456789 APT"
]

const pages: ReadonlyArray<PageSpec> = [
  {
    name: "landing",
    path: () => "/",
    expected: (_h, c) => ["Aptos Explorer", totalTransactions(Number(c.ledgerVersion))]
  },
  {
    name: "transactions-all",
    path: () => "/transactions?type=all",
    expected: (_h, c) => ["All Transactions", cell(c.ledgerVersion)]
  },
  {
    name: "transactions-user",
    path: () => "/transactions?type=user",
    expected: (h) => ["User Transactions", cell(h.aptTransfer.version), cell(h.tokenTransfer.version)]
  },
  { name: "blocks", path: () => "/blocks", expected: (_h, c) => ["Latest Blocks", cell(c.latestBlock)] },
  {
    name: "transaction-by-version",
    path: (h) => `/txn/${h.aptTransfer.version}/userTxnOverview`,
    expected: transferOverview
  },
  {
    name: "transaction-by-hash",
    path: (h) => `/txn/${h.aptTransfer.hash}/userTxnOverview`,
    expected: transferOverview
  },
  {
    name: "transaction-balance-changes",
    path: (h) => `/txn/${h.aptTransfer.version}/balanceChange`,
    // "Gas Fee" comes from the indexer's activities only (the Explorer's fallback parses events, which have none).
    expected: (h) => [
      "Gas Fee",
      "-1.23456789 APT",
      "+1.23456789 APT",
      short(h.alice.toStringLong()),
      short(h.bob.toStringLong())
    ]
  },
  {
    name: "transaction-fa-balance-changes",
    path: (h) => `/txn/${h.faTransfer.version}/balanceChange`,
    expected: (h) => ["Gas Fee", `-250 ${FA_COIN_SYMBOL}`, `+250 ${FA_COIN_SYMBOL}`, short(h.bob.toStringLong())]
  },
  {
    name: "transaction-events",
    path: (h) => `/txn/${h.faTransfer.version}/events`,
    expected: () => [
      "0x1::fungible_asset::Withdraw",
      '"amount":"25000000000"',
      "0x1::fungible_asset::Deposit",
      "FeeStatement"
    ]
  },
  {
    name: "transaction-payload",
    path: (h) => `/txn/${h.faTransfer.version}/payload`,
    expected: (h) => [
      '"0x1::primary_fungible_store::transfer"',
      '"0x1::fungible_asset::Metadata"',
      `"inner":"${h.faMetadata.toStringLong()}"`,
      h.bob.toStringLong()
    ]
  },
  {
    name: "transaction-changes",
    path: (h) => `/txn/${h.faTransfer.version}/changes`,
    expected: () => ["write_resource", "0x1::fungible_asset::FungibleStore", "0x1::fungible_asset::ConcurrentSupply"]
  },
  {
    name: "block-transactions",
    path: (_h, c) => `/block/${c.block.height}/transactions`,
    expected: (_h, c) => [cell(c.block.first), cell(c.block.last)]
  },
  {
    name: "block",
    path: (_h, c) => `/block/${c.block.height}/overview`,
    expected: (_h, c) => [cell(c.block.height), cell(c.block.first), cell(c.block.last)]
  },
  {
    name: "account-transactions",
    path: (h) => `/account/${h.alice}/transactions`,
    // 8: the faucet's deposit and her own 7 (transfer, publish, MNC transfer, collection, 2 mints, token transfer).
    expected: (h) => [
      h.alice.toStringLong(),
      "8 transactions",
      cell(h.aptTransfer.version),
      cell(h.faTransfer.version),
      cell(h.tokenTransfer.version)
    ]
  },
  {
    name: "account-coins",
    path: (h) => `/account/${h.alice}/coins`,
    expected: () => ["Aptos Coin", "APT", FA_COIN_NAME, `999,750 ${FA_COIN_SYMBOL}`]
  },
  {
    name: "account-tokens",
    path: (h) => `/account/${h.alice}/tokens`,
    // Alice kept #2; #1 went to bob (her ownership row is kept with amount 0, which the tab filters out).
    expected: () => [`${TOKEN_NAMES[1]}${COLLECTION_NAME}`],
    absent: () => [TOKEN_NAMES[0]]
  },
  {
    name: "account-resources",
    path: (h) => `/account/${h.alice}/resources`,
    expected: () => ["0x1::account::Account", "0x1::code::PackageRegistry", '"name":"fa_coin"', '"sequence_number":"7"']
  },
  {
    name: "account-modules",
    path: (h) => `/account/${h.alice}/modules`,
    expected: () => ["MovenodeCoin", "Compatible"]
  },
  {
    name: "account-module-code",
    path: (h) => `/account/${h.alice}/modules/code/fa_coin`,
    expected: () => ["fa_coin", "0 entry functions", "Bytecode"]
  },
  {
    name: "account-info",
    path: (h) => `/account/${h.alice}/info`,
    expected: (h, c) => [h.alice.toStringLong(), c.aliceApt, "Sequence Number", "Ed25519"]
  },
  {
    name: "coin-apt",
    path: () => "/coin/0x1::aptos_coin::AptosCoin/info",
    expected: () => ["Aptos Coin", "APT", "Decimals"]
  },
  {
    name: "coin-apt-holders",
    path: () => "/coin/0x1::aptos_coin::AptosCoin/holders",
    // Bob: 50 APT from the faucet and 1.23456789 from alice.
    expected: (h, c) => [short(h.alice.toStringLong()), c.aliceApt, short(h.bob.toStringLong()), "51.23456789 APT"]
  },
  {
    name: "fungible-asset",
    path: (h) => `/fungible_asset/${h.faMetadata}/info`,
    expected: () => [FA_COIN_NAME, FA_COIN_SYMBOL, "1,000,000"]
  },
  {
    name: "fungible-asset-holders",
    path: (h) => `/fungible_asset/${h.faMetadata}/holders`,
    expected: (h) => [
      short(h.alice.toStringLong()),
      `999,750 ${FA_COIN_SYMBOL}`,
      short(h.bob.toStringLong()),
      `250 ${FA_COIN_SYMBOL}`
    ]
  },
  {
    name: "fungible-asset-transactions",
    path: (h) => `/fungible_asset/${h.faMetadata}/transactions`,
    expected: (h) => [`${h.faTransfer.version}Deposit${short(h.bob.toStringLong())}`, `${h.faTransfer.version}Withdraw`]
  },
  {
    name: "collection",
    path: (h) => `/object/${h.collection}/resources`,
    ready: ["0x4::collection::Collection"],
    action: (page) => page.getByText("0x4::collection::Collection", { exact: true }).click(),
    expected: () => ["0x4::collection::Collection", COLLECTION_NAME, COLLECTION_DESCRIPTION]
  },
  {
    name: "token",
    path: (h) => `/token/${h.tokens[1]}/overview`,
    // Alice owns #2 and made the collection; 2 minted of at most 100.
    expected: (h) => [
      TOKEN_NAMES[1],
      COLLECTION_NAME,
      `Owner(s):${short(h.alice.toStringLong())}`,
      "Supply:2",
      "Maximum:100"
    ]
  },
  {
    name: "token-object",
    path: (h) => `/object/${h.tokens[1]}/resources`,
    expected: () => [
      "0x1::object::ObjectCore",
      "0x4::aptos_token::AptosToken",
      "0x4::token::Token",
      "0x4::token::TokenIdentifiers"
    ]
  },
  {
    name: "token-activities",
    path: (h) => `/token/${h.tokens[0]}/activities`,
    // Its mint, then its transfer from alice to bob at the transfer's version.
    expected: (h) => [
      "MintEvent",
      `${h.tokenTransfer.version}0x1::object::Transfer${short(h.alice.toStringLong())}${short(h.bob.toStringLong())}`
    ]
  }
]

if (skipReason !== undefined) {
  describe("the Aptos Explorer against movenode", () => {
    it.skip(`shows a movenode chain (skipped: ${skipReason})`, () => {})
  })
} else {
  /**
   * The chain the Explorer browses: a local chain of its own, or a fork of one (its source on any
   * free port; the fork, with its own indexer over its own blocks, where the Explorer looks).
   */
  const chains = [
    { name: "a local chain", fork: false },
    { name: "a fork of a local chain", fork: true }
  ]
  const shotsRoot = process.env.MOVENODE_EXPLORER_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "explorer-shots-"))
  describe.each(chains)("the Aptos Explorer against movenode: $name", ({ fork }) => {
    const scope = Effect.runSync(Scope.make())
    const shots = join(shotsRoot, fork ? "fork" : "chain")
    const reports: Record<string, PageReport> = {}
    let history: History
    let facts: ChainFacts
    let explorer: { url: string; close: () => Promise<void> }
    let browser: Browser
    let context: BrowserContext

    beforeAll(async () => {
      mkdirSync(shots, { recursive: true })
      const source = fork
        ? await Effect.runPromise(
            LocalChain.spawn({ accounts: 0, mining: MiningMode.instant(0) }).pipe(Scope.provide(scope))
          )
        : undefined
      const chain = await Effect.runPromise(
        LocalChain.spawn({
          accounts: 0,
          api: { host: "127.0.0.1", port: 8080 },
          faucet: { host: "127.0.0.1", port: 8081 },
          graphql: { host: "127.0.0.1", port: 8090 },
          // A still chain (no idle block a second): the versions and heights read before the pages
          // open are still the newest when a page lists the latest transactions or blocks,
          // however slowly the browser starts (an idle block a second pushed the ledger's version
          // off the transactions page once on CI).
          mining: MiningMode.still(50),
          // The in-node indexer, embedded (the test preset has none): the GraphQL on 8090 the pages read.
          indexer: { _tag: "Embedded" },
          ...(source === undefined ? {} : { fork: { url: source.apiUrl } })
        }).pipe(Scope.provide(scope))
      )
      history = await makeHistory(chain)
      // The Blocks page lists the latest 20 by height (asking for negative heights on a younger
      // chain, as it would of a reference localnet just started): a few empty blocks, as a running
      // chain makes.
      const read = async <A>(path: string): Promise<A> => (await fetch(`${chain.apiUrl}${path}`)).json() as Promise<A>
      for (let i = 0; i < 25; i++) await Effect.runPromise(chain.mine)
      const block = await read<{ block_height: string; first_version: string; last_version: string }>(
        `/blocks/by_version/${history.collectionCreate.version}`
      )
      const ledger = await read<{ block_height: string; ledger_version: string }>("")
      // A bare JSON number with all its digits: read as text.
      const aliceApt = await (
        await fetch(`${chain.apiUrl}/accounts/${history.alice}/balance/0x1::aptos_coin::AptosCoin`)
      ).text()
      facts = {
        block: { height: block.block_height, first: block.first_version, last: block.last_version },
        latestBlock: ledger.block_height,
        ledgerVersion: ledger.ledger_version,
        aliceApt: formatApt(BigInt(aliceApt))
      }
      explorer = await serveExplorer(dist, 0)
      const { chromium } = await import("playwright-core")
      browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags })
      context = await newExplorerContext(browser)
    }, 180_000)

    afterAll(async () => {
      writeFileSync(join(shots, "report.json"), JSON.stringify(reports, null, 2))
      console.log(`Explorer screenshots and report.json: ${shots}`)
      await context?.close()
      await browser?.close()
      await explorer?.close()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    })

    // MOVENODE_EXPLORER_PAGES=token,account-coins runs only those pages (while fixing one).
    const only = process.env.MOVENODE_EXPLORER_PAGES?.split(",").map((n) => n.trim())
    for (const spec of pages.filter((p) => only === undefined || only.includes(p.name))) {
      it(`${spec.name} page`, async () => {
        const path = spec.path(history, facts)
        const url = `${explorer.url}${path}${path.includes("?") ? "&" : "?"}network=local`
        const report = await visit(context, url, spec.expected(history, facts), join(shots, `${spec.name}.png`), {
          ...(spec.ready === undefined ? {} : { ready: spec.ready }),
          ...(spec.action === undefined ? {} : { action: spec.action })
        })
        reports[spec.name] = report
        const shown = (spec.absent?.(history) ?? []).filter((t) => report.text.includes(t))
        expect(
          [...report.problems, ...shown.map((t) => `shows what it must not: ${JSON.stringify(t)}`)],
          `${spec.name} (${url})`
        ).toEqual([])
      }, 90_000)
    }
  })
}
