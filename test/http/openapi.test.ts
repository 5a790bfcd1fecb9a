import { describe, expect, it } from "vitest"
import { makeLedgerHeaders } from "../../src/http/LedgerHeaders.js"
import { openApiDocument } from "../../src/http/OpenApiDoc.js"
import { makeRouteSpecs } from "../../src/http/RequestListener.js"
import { apiRoutes } from "../../src/http/Routes.js"
import { expectGolden, record } from "./golden.js"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

/** The JSON body of a response, untyped (tests inspect it field by field). */
const j = (r: Response): Promise<any> => r.json()

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}")

describe("OpenAPI document", () => {
  const doc = openApiDocument(makeLedgerHeaders("X-SERVICE-"))
  it("lists every served route with its method, and nothing else", () => {
    const served = apiRoutes.map((r) => `${r.method} ${toOpenApiPath(r.path)}`).sort()
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort()
    expect(documented).toEqual(served)
    expect(served).toHaveLength(9)
  })
  it("has a handler for every route of the definition", () => {
    const env = { node: makeTestNode(), config: {} as never, headers: makeLedgerHeaders("X-"), specJson: "{}" }
    expect(Object.keys(makeRouteSpecs(env)).sort()).toEqual(apiRoutes.map((r) => r.id).sort())
  })
  it("every route a request can reach is in the document (probing the server)", async () => {
    const server = await startServer(makeTestNode())
    try {
      const served: Array<string> = []
      const samples: Record<string, string> = { address: "0x1", module_name: "guid", asset_type: "0xa" }
      for (const r of apiRoutes) {
        const url = server.url + r.path.replace(/:([A-Za-z_]+)/g, (_, n) => samples[n]!)
        const res = await fetch(url, { method: r.method, ...(r.method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {}) })
        if (res.status !== 404 || (await j(res)).error_code !== "web_framework_error") served.push(toOpenApiPath(r.path))
      }
      expect(served.sort()).toEqual(Object.keys(doc.paths).sort())
    } finally {
      await server.close()
    }
  })
  it("documents the ledger headers with the configured prefix, the integer balance and BCS", () => {
    const aptos = openApiDocument(makeLedgerHeaders("X-APTOS-"))
    const ok = aptos.paths["/v1/view"].post.responses["200"]
    expect(Object.keys(ok.headers)).toContain("X-APTOS-GAS-USED")
    expect(Object.keys(ok.headers)).toContain("X-APTOS-LEDGER-VERSION")
    expect(ok.content["application/x-bcs"]).toBeDefined()
    expect(aptos.paths["/v1/view"].post.requestBody.content["application/x.aptos.view_function+bcs"]).toBeDefined()
    const balance = aptos.paths["/v1/accounts/{address}/balance/{asset_type}"].get.responses["200"]
    expect(balance.content["application/json"].schema).toEqual({ type: "integer", format: "uint64", minimum: 0 })
    expect(aptos.paths["/v1/accounts/{address}/transaction_summaries"].get.responses["200"].headers["X-APTOS-CURSOR"]).toBeDefined()
  })
  it("requires all eight MoveStruct keys in the reference's order (variants: [] on plain structs)", () => {
    const moveStruct = (doc as any).components.schemas.MoveStruct
    const keys = ["name", "is_native", "is_event", "is_enum", "abilities", "generic_type_params", "fields", "variants"]
    expect(Object.keys(moveStruct.properties)).toEqual(keys)
    expect(moveStruct.required).toEqual(keys)
    expect(moveStruct.properties.variants.type).toBe("array")
  })
  it("is what /v1/spec.json serves", async () => {
    const server = await startServer(makeTestNode())
    try {
      const response = await fetch(server.url + "/v1/spec.json")
      expectGolden("spec", await record(response.clone()))
      const served = await j(response)
      expect(served).toEqual(JSON.parse(JSON.stringify(doc)))
      expect(served.openapi).toMatch(/^3\./)
    } finally {
      await server.close()
    }
  })
})
