import SwaggerParser from "@apidevtools/swagger-parser"
import { validate } from "@readme/openapi-parser"
import { describe, expect, it } from "vitest"
import { makeLedgerHeaders } from "../../src/http/LedgerHeaders.js"
import { openApiDocument } from "../../src/http/OpenApiDoc.js"
import { makeRouteSpecs } from "../../src/http/RequestListener.js"
import { apiRoutes, servedRoutes } from "../../src/http/Routes.js"
import { expectGolden, record } from "./golden.js"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

/** The JSON body of a response, untyped (tests inspect it field by field). */
const j = (r: Response): Promise<any> => r.json()

/** A route's path as the document writes it: relative to the `/v1` server, `{param}` segments. */
const toOpenApiPath = (path: string) => path.replace(/^\/v1(\/|$)/, "/").replace(/:([A-Za-z_]+)/g, "{$1}")

type Operation = { path: string; method: string; op: any }
const operationsOf = (doc: any): Array<Operation> =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method, op }))
  )

/** Every object of the document (iteratively), for properties that must hold everywhere. */
const everyNode = (doc: unknown): Array<any> => {
  const out: Array<any> = []
  const stack = [doc]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== "object" || node === null) continue
    out.push(node)
    for (const v of Object.values(node)) stack.push(v)
  }
  return out
}

describe("OpenAPI document", () => {
  const doc = openApiDocument(makeLedgerHeaders("X-SERVICE-"))
  it("lists every served route with its method, and nothing else", () => {
    const served = apiRoutes.map((r) => `${r.method} ${toOpenApiPath(r.path)}`).sort()
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort()
    expect(documented).toEqual(served)
    expect(served).toHaveLength(28)
  })
  it("has a handler for every route of the definition", () => {
    const env = { node: makeTestNode(), config: {} as never, headers: makeLedgerHeaders("X-"), specJson: () => "{}" }
    expect(Object.keys(makeRouteSpecs(env)).sort()).toEqual(servedRoutes.map((r) => r.id).sort())
  })
  it("every route a request can reach is in the document (probing the server)", async () => {
    const server = await startServer(makeTestNode())
    try {
      const served: Array<string> = []
      const samples: Record<string, string> = {
        address: "0x1",
        module_name: "guid",
        asset_type: "0xa",
        txn_hash: `0x${"ab".repeat(32)}`
      }
      for (const r of apiRoutes) {
        const url = server.url + r.path.replace(/:([A-Za-z_]+)/g, (_, n) => samples[n]!)
        const res = await fetch(url, {
          method: r.method,
          ...(r.method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {})
        })
        if (res.status !== 404 || (await j(res)).error_code !== "web_framework_error")
          served.push(toOpenApiPath(r.path))
      }
      // A path served with two methods (GET and POST /transactions) is one entry of the document.
      expect([...new Set(served)].sort()).toEqual(Object.keys(doc.paths).sort())
    } finally {
      await server.close()
    }
  })
  it("passes @readme/openapi-parser and @apidevtools/swagger-parser", async () => {
    for (const prefix of ["X-SERVICE-", "X-APTOS-"]) {
      const document = openApiDocument(makeLedgerHeaders(prefix))
      const readme = await validate(structuredClone(document) as never)
      expect(readme.valid ? [] : readme.errors, prefix).toEqual([])
      await SwaggerParser.validate(structuredClone(document) as never)
    }
  })
  it("names operations as the reference does, with a summary and a description on each", () => {
    const ids = Object.fromEntries(
      operationsOf(doc).map(({ path, method, op }) => [`${method.toUpperCase()} ${path}`, op.operationId])
    )
    expect(ids).toMatchObject({
      "GET /": "get_ledger_info",
      "GET /-/healthy": "healthy",
      "GET /accounts/{address}/transaction_summaries": "get_account_transaction_summaries",
      "GET /accounts/{address}/module/{module_name}": "get_account_module",
      "GET /accounts/{address}/balance/{asset_type}": "get_account_balance",
      "POST /transactions/encode_submission": "encode_submission",
      "GET /estimate_gas_price": "estimate_gas_price",
      "POST /view": "view"
    })
    expect(doc.servers).toEqual([{ url: "/v1" }])
    const all = operationsOf(doc)
    expect(new Set(all.map((o) => o.op.operationId)).size).toBe(all.length)
    for (const { path, op } of all) {
      expect(op.operationId, path).toMatch(/^[a-z][a-z0-9_]*$/)
      expect(typeof op.summary === "string" && op.summary.length > 0, path).toBe(true)
      expect(typeof op.description === "string" && op.description.length > 0, path).toBe(true)
    }
  })
  it("every operation's answers carry the ledger headers: required on success, documented on errors", () => {
    const names = [
      "CHAIN-ID",
      "LEDGER-VERSION",
      "LEDGER-OLDEST-VERSION",
      "LEDGER-TIMESTAMPUSEC",
      "EPOCH",
      "BLOCK-HEIGHT",
      "OLDEST-BLOCK-HEIGHT"
    ]
    for (const { path, op } of operationsOf(doc)) {
      if (path === "/spec.json") continue
      const statuses = Object.keys(op.responses)
      expect(
        statuses.some((s) => s.startsWith("4")),
        path
      ).toBe(true)
      for (const status of statuses) {
        const response = op.responses[status]
        for (const name of names) {
          const header = response.headers?.[`X-SERVICE-${name}`]
          expect(header, `${path} ${status} ${name}`).toBeDefined()
          expect(header.required === true, `${path} ${status} ${name}`).toBe(status.startsWith("2"))
          expect(header.schema).toEqual({ type: "integer", format: name === "CHAIN-ID" ? "uint8" : "uint64" })
        }
        if (!status.startsWith("2"))
          expect(response.content["application/json"].schema, `${path} ${status}`).toEqual({
            $ref: "#/components/schemas/AptosError"
          })
      }
    }
  })
  it("writes integers as the reference does: integer + format for JSON numbers, U64 strings for u64", () => {
    for (const node of everyNode(doc)) {
      expect(JSON.stringify(node.enum ?? [])).not.toContain("Infinity")
      if (node.type === "integer") {
        expect(node.minimum === -Number.MAX_SAFE_INTEGER || node.maximum === Number.MAX_SAFE_INTEGER).toBe(false)
        expect(node.allOf).toBeUndefined()
      }
      if (node.type === "array") expect(node.items ?? node.prefixItems).toBeDefined()
    }
    const schemas = doc.components.schemas
    expect(schemas.IndexResponse.properties.chain_id).toEqual({ type: "integer", format: "uint8" })
    expect(schemas.IndexResponse.properties.ledger_version).toEqual({ $ref: "#/components/schemas/U64" })
    expect(schemas.U64).toMatchObject({ type: "string", format: "uint64" })
    expect(schemas.GasEstimation.properties.gas_estimate).toEqual({ type: "integer", format: "uint64" })
    expect(schemas.GasEstimation.required).toEqual(["gas_estimate"])
    const balance = doc.paths["/accounts/{address}/balance/{asset_type}"].get
    expect(balance.parameters.find((p: any) => p.name === "ledger_version")).toMatchObject({
      in: "query",
      required: false,
      schema: { $ref: "#/components/schemas/U64" }
    })
    const summaries = doc.paths["/accounts/{address}/transaction_summaries"].get
    expect(summaries.parameters.find((p: any) => p.name === "limit").schema).toEqual({
      type: "integer",
      format: "uint16"
    })
  })
  it("documents the ledger headers with the configured prefix, the integer balance and BCS", () => {
    const aptos = openApiDocument(makeLedgerHeaders("X-APTOS-"))
    const ok = aptos.paths["/view"].post.responses["200"]
    expect(Object.keys(ok.headers)).toContain("X-APTOS-GAS-USED")
    expect(Object.keys(ok.headers)).toContain("X-APTOS-LEDGER-VERSION")
    expect(ok.content["application/x-bcs"]).toBeDefined()
    expect(aptos.paths["/view"].post.requestBody.content["application/x.aptos.view_function+bcs"]).toBeDefined()
    const balance = aptos.paths["/accounts/{address}/balance/{asset_type}"].get.responses["200"]
    expect(balance.content["application/json"].schema).toEqual({ type: "integer", format: "uint64" })
    expect(
      aptos.paths["/accounts/{address}/transaction_summaries"].get.responses["200"].headers["X-APTOS-CURSOR"]
    ).toBeDefined()
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
