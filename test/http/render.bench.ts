import { test } from "vitest"
import { toHex } from "../../src/bcs/index.js"
import { addressToShortString } from "../../src/domain/AccountAddress.js"
import { wantsBcs } from "../../src/http/Accept.js"
import { summariesBcs, summariesJson } from "../../src/http/Render.js"
import { SUMMARIES } from "./TestNode.js"

// Run: npx vitest bench --run test/http/render.bench.ts
// Per-request rendering work of the HTTP layer (the load test is scripts/bench-http.mjs).

const page = Array.from({ length: 25 }, (_, i) => ({ ...SUMMARIES[i % 3]!, version: BigInt(i) }))

const viaJsHex = () =>
  "[" +
  page
    .map(
      (s) =>
        `{"sender":"${addressToShortString(s.sender)}","version":"${s.version}","transaction_hash":"0x${toHex(s.hash)}"}`
    )
    .join(",") +
  "]"

test("summaries page of 25", async ({ bench }) => {
  await bench.compare(
    bench("summariesJson (bytes written into one scratch buffer)", () => void summariesJson(page)),
    bench("through bcs/hex and addressToShortString", () => void viaJsHex()),
    bench("summariesBcs", () => void summariesBcs(page))
  )
})

test("Accept negotiation", async ({ bench }) => {
  await bench.compare(
    bench("absent", () => void wantsBcs(undefined)),
    bench("browser header", () => void wantsBcs("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")),
    bench("bcs first", () => void wantsBcs("application/x-bcs, application/json"))
  )
})
