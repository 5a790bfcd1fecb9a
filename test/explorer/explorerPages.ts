/**
 * Test helper: loads one Explorer page in headless Chromium and says what went wrong on it, the
 * way a person watching the browser's network and console panes would: GraphQL answers carrying
 * `errors` (or not 200), requests to the chain that failed or answered 4xx / 5xx, console errors
 * and uncaught exceptions. Answers the reference gives too are recorded, not counted, each with
 * its reason (`expected`): 404s (the Explorer probes for resources an account may not have, a
 * multisig account say) and view functions that abort (400 with a Move abort: the Explorer asks
 * `0x1::confidential_asset` for pools nobody made); Chromium's console line for such an answer
 * is judged by its request alone.
 *
 * Requests leaving loopback (fonts, analytics, prices, token lists) are aborted as on a machine
 * without internet, and listed; the console errors the Explorer prints for them are in
 * `offlineConsoleErrors`. React's hydration warning #418 is the Explorer's own: its server render
 * of the shell assumes mainnet (it renders `local` in the browser only), so the first client
 * render differs on every `local` page, with the reference as with movenode.
 */
import type { Browser, BrowserContext, Page, Request, Response } from "playwright-core"

export interface PageReport {
  readonly url: string
  /** What the page shows, as text (`innerText` of the body). */
  readonly text: string
  /** Everything that makes the page fail, one line each. */
  readonly problems: ReadonlyArray<string>
  /** GraphQL documents the page sent (operation or first root field) and their outcome. */
  readonly graphql: ReadonlyArray<{
    readonly query: string
    readonly outcome: string
    readonly request?: string
    /** The answer's first 2,000 characters (rows a page shows nothing of are often the clue). */
    readonly answer: string
  }>
  /** Answers from the node the reference gives too (404 probes, aborting views), with the reason. */
  readonly expected: ReadonlyArray<string>
  /** Requests that would have left the machine, stubbed. */
  readonly external: ReadonlyArray<string>
}

export const chromiumFlags = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

const isLoopback = (url: string): boolean => {
  try {
    const host = new URL(url).hostname
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]"
  } catch {
    return false
  }
}

/** The GraphQL root fields a request body asks for, for reports (`user_transactions, …`). */
const describeQuery = (body: string | null): string => {
  if (body === null) return "(no body)"
  try {
    const { query } = JSON.parse(body) as { query?: string }
    if (query === undefined) return "(no query)"
    const operation = /^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1]
    // Root fields: identifiers followed by `(` or `{` at selection depth 1.
    const roots: string[] = []
    let depth = 0
    for (const m of query.matchAll(/[{}]|(\w+)\s*(?=[({])/g)) {
      if (m[0] === "{") depth++
      else if (m[0] === "}") depth--
      else if (depth === 1 && m[1] !== undefined) roots.push(m[1])
    }
    return `${operation ?? "anonymous"}: ${roots.join(", ")}`
  } catch {
    return "(unparsable body)"
  }
}

/** A browser context with the routes every page needs (external requests stubbed, no service worker). */
export const newExplorerContext = async (browser: Browser): Promise<BrowserContext> => {
  const context = await browser.newContext({ serviceWorkers: "block", viewport: { width: 1280, height: 900 } })
  await context.route(
    (url) => !isLoopback(url.toString()) && !url.toString().startsWith("data:"),
    (route) => route.abort("internetdisconnected")
  )
  return context
}

/** Console errors the Explorer prints when the internet is out of reach (see the header). */
const offlineConsoleErrors: ReadonlyArray<RegExp> = [/^Error fetching aptos price from CoinGecko/]
/** React's minified hydration text-mismatch error (see the header). */
const hydrationMismatch = /^Minified React error #418;/

/** A step a person takes on the page once it shows `ready` (expanding a collapsed entry, say). */
export type PageAction = (page: Page) => Promise<void>

/** The text a person sees (rendered: hidden elements left out), not the DOM's `textContent`. */
// biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point
const shownText = (page: Page): Promise<string> => page.innerText("body").catch(() => "")

/**
 * Text a page must show: a string, whitespace ignored (cells, tabs and line breaks come and go with
 * layout, and an amount's unit is often spaced by CSS alone: `999,750MNC` in `innerText`), or a test
 * of the text as shown (a `RegExp`, say, or `cell`), where a substring would be found by accident;
 * its `String()` names it in a report.
 */
export type Expected = string | { readonly test: (text: string) => boolean; readonly toString: () => string }

/**
 * `value` shown on its own, between whitespace, as a table's cell is: a version or a block height in
 * a list. As a substring, `87` is also found in a timestamp's `17.287` or a hash, so the page could
 * pass without listing it.
 */
export const cell = (value: string): Expected => ({
  test: (text) => text.split(/\s+/).includes(value),
  toString: () => `a cell showing ${value}`
})

const shows = (text: string, expected: Expected): boolean =>
  typeof expected === "string" ? text.replace(/\s+/g, "").includes(expected.replace(/\s+/g, "")) : expected.test(text)

const settle = async (page: Page, expected: ReadonlyArray<Expected>, timeoutMs: number): Promise<string> => {
  const deadline = Date.now() + timeoutMs
  let text = ""
  for (;;) {
    text = await shownText(page)
    if (expected.every((e) => shows(text, e)) || Date.now() > deadline) break
    await page.waitForTimeout(250)
  }
  // Let late requests (second page of a query, a count) finish before judging.
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined)
  return shownText(page)
}

/**
 * Opens `url`, waits (up to `timeoutMs`) until every `expected` string shows, takes a screenshot to
 * `screenshot` and reports. The page is closed after.
 */
export const visit = async (
  context: BrowserContext,
  url: string,
  expected: ReadonlyArray<Expected>,
  screenshot: string,
  options: { readonly ready?: ReadonlyArray<string>; readonly action?: PageAction; readonly timeoutMs?: number } = {}
): Promise<PageReport> => {
  const timeoutMs = options.timeoutMs ?? 20_000
  const page = await context.newPage()
  const problems: string[] = []
  const graphql: Array<{ query: string; outcome: string; request?: string; answer: string }> = []
  const expectedAnswers: string[] = []
  const consoleErrors: Array<{ text: string; url: string }> = []
  const external: string[] = []
  const pending: Array<Promise<void>> = []

  page.on("request", (request: Request) => {
    if (!isLoopback(request.url())) external.push(request.url().slice(0, 120))
  })
  page.on("requestfailed", (request: Request) => {
    if (isLoopback(request.url()) && request.failure()?.errorText !== "net::ERR_ABORTED")
      problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`)
  })
  page.on("response", (response: Response) => {
    const request = response.request()
    const target = response.url()
    if (!isLoopback(target) || target.startsWith(new URL(url).origin)) return
    const status = response.status()
    if (target.includes("/v1/graphql") && request.method() === "POST") {
      const query = describeQuery(request.postData())
      pending.push(
        response.text().then(
          (body) => {
            let outcome = `HTTP ${status}`
            try {
              const parsed = JSON.parse(body) as { errors?: Array<{ message: string }> }
              if (parsed.errors !== undefined) outcome = `errors: ${parsed.errors.map((e) => e.message).join("; ")}`
              else if (status === 200) outcome = "ok"
            } catch {
              outcome = `HTTP ${status}, not JSON: ${body.slice(0, 80)}`
            }
            // Every document keeps its request and the start of its answer, for whoever fixes the server.
            graphql.push({ query, outcome, request: request.postData() ?? "", answer: body.slice(0, 2_000) })
            if (outcome !== "ok") problems.push(`GraphQL ${query} → ${outcome}`)
          },
          () => undefined
        )
      )
    } else if (status === 404) {
      expectedAnswers.push(`404 (a probe): ${request.method()} ${target}`)
    } else if (status >= 400) {
      pending.push(
        response.text().then(
          (body) => {
            const line = `HTTP ${status}: ${request.method()} ${target} ${request.postData() ?? ""} → ${body.slice(0, 300)}`
            // A view function that aborts answers 400 with the abort (vm_error_code 4016, ABORTED), as the reference does.
            if (status === 400 && target.endsWith("/v1/view") && /"vm_error_code":4016/.test(body))
              expectedAnswers.push(`400 (Move abort in a view): ${line}`)
            else problems.push(line)
          },
          () => undefined
        )
      )
    }
  })
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push({ text: message.text(), url: message.location().url })
  })
  page.on("pageerror", (error) => {
    if (!hydrationMismatch.test(error.message)) problems.push(`uncaught: ${error.message.slice(0, 400)}`)
  })

  let text = ""
  try {
    await page.goto(url, { waitUntil: "load", timeout: timeoutMs })
    if (options.action !== undefined) {
      await settle(page, options.ready ?? [], timeoutMs)
      await options.action(page)
    }
    text = await settle(page, expected, timeoutMs)
    await page.screenshot({ path: screenshot })
  } catch (e) {
    problems.push(`navigation: ${(e as Error).message.split("\n")[0]}`)
  }
  await Promise.all(pending)
  await page.close()
  for (const { text: line, url: where } of consoleErrors) {
    // Chromium logs a line for every answer >= 400 and every failed request: those are judged above, from the network.
    if (/^Failed to load resource/.test(line)) continue
    if (offlineConsoleErrors.some((r) => r.test(line))) continue
    problems.push(`console error: ${line.slice(0, 400)} (${where})`)
  }
  for (const e of expected)
    if (!shows(text, e)) problems.push(`missing text: ${typeof e === "string" ? JSON.stringify(e) : String(e)}`)
  return { url, text, problems, graphql, expected: expectedAnswers, external: [...new Set(external)] }
}
