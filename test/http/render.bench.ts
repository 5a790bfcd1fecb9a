import { bench, describe } from "vitest"
import { toHex } from "../../src/bcs/index.js"
import { addressToShortString } from "../../src/domain/AccountAddress.js"
import { wantsBcs } from "../../src/http/Accept.js"
import { summariesBcs, summariesJson } from "../../src/http/Render.js"
import { SUMMARIES } from "./TestNode.js"

const page = Array.from({ length: 25 }, (_, i) => ({ ...SUMMARIES[i % 3]!, version: BigInt(i) }))

describe("summaries page of 25", () => {
  bench("summariesJson (native hex)", () => {
    summariesJson(page)
  })
  bench("the same through bcs/hex and addressToShortString", () => {
    const parts = page.map(
      (s) =>
        `{"sender":"${addressToShortString(s.sender)}","version":"${s.version}","transaction_hash":"0x${toHex(s.hash)}"}`
    )
    return "[" + parts.join(",") + "]"
  })
  bench("summariesBcs", () => {
    summariesBcs(page)
  })
})

describe("Accept negotiation", () => {
  bench("absent", () => {
    wantsBcs(undefined)
  })
  bench("browser header", () => {
    wantsBcs("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
  })
  bench("bcs first", () => {
    wantsBcs("application/x-bcs, application/json")
  })
})
