import { test } from "vitest"
import { parseJsonBody } from "../../src/http/Body.js"
import { scanJsonLimits } from "../../src/http/JsonScan.js"

// Run: nice npx vitest bench --run test/http/jsonBody.bench.ts
// The work one JSON POST body can cost the event loop (issue 11): the bounded scan, and the
// largest bodies it admits, parsed. Figures in docs/benchmarks.md ("JSON body scan").

const enc = (s: string) => Buffer.from(s)
const arrays800k = enc(
  `{"function":"0x1::coin::name","type_arguments":[],"arguments":[${Array(800_000).fill("[[[[1]]]]").join(",")}]}`
)
const flat4m = enc(`[${Array(4_000_000).fill("1").join(",")}]`)
const maxContainers = enc(`[${Array(16_383).fill("[1]").join(",")}]`)
const maxValues = enc(`[${Array(32_767).fill("1").join(",")}]`)
const hex8mb = enc(
  JSON.stringify({ function: "0x1::m::f", type_arguments: [], arguments: [`0x${"ab".repeat(4_194_000)}`] })
)
const spaces8mb = enc(`[${" ".repeat(8 * 1024 * 1024 - 2)}]`)
const view = enc(
  JSON.stringify({ function: "0x1::coin::balance", type_arguments: ["0x1::aptos_coin::AptosCoin"], arguments: ["0x1"] })
)

test("refused before JSON.parse (8-10 MB bodies)", async ({ bench }) => {
  await bench.compare(
    bench("800,000 × [[[[1]]]] (the issue's body): parseJsonBody", () => void parseJsonBody(arrays800k)),
    bench("4,000,000 flat numbers: parseJsonBody", () => void parseJsonBody(flat4m))
  )
})

test("the largest bodies admitted, parsed", async ({ bench }) => {
  await bench.compare(
    bench("16,383 small arrays: parseJsonBody", () => void parseJsonBody(maxContainers)),
    bench("32,767 numbers: parseJsonBody", () => void parseJsonBody(maxValues)),
    bench("one 8 MB hex argument: parseJsonBody", () => void parseJsonBody(hex8mb)),
    bench("one 8 MB hex argument: scan only", () => void scanJsonLimits(hex8mb)),
    bench("8 MB of whitespace: scan only", () => void scanJsonLimits(spaces8mb)),
    bench("a usual view body: parseJsonBody", () => void parseJsonBody(view)),
    bench("a usual view body: JSON.parse alone", () => void JSON.parse(view.toString("utf8")))
  )
})
