import { Aptos, AptosConfig, Network, TypeTagAddress, TypeTagU64 } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer } from "./serverHarness.js"
import { type Calls, makeTestNode } from "./TestNode.js"

/** The TypeScript SDK, as an independent client, against the server over the test double. */
const calls: Calls = { balance: [], summaries: [], view: [], encode: [] }
let server: Awaited<ReturnType<typeof startServer>>
let aptos: Aptos
beforeAll(async () => {
  server = await startServer(makeTestNode(calls), { headerPrefix: "X-APTOS-" })
  aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: `${server.url}/v1` }))
})
afterAll(() => server.close())

describe("the TypeScript SDK", () => {
  it("reads the ledger info", async () => {
    const info = await aptos.getLedgerInfo()
    expect(info).toMatchObject({ chain_id: 4, ledger_version: "1000", block_height: "50" })
  })
  it("calls a view function with a JSON body (viewJson)", async () => {
    calls.view.length = 0
    const out = await aptos.viewJson({
      payload: {
        function: "0x1::coin::balance",
        typeArguments: ["0x1::aptos_coin::AptosCoin"],
        functionArguments: ["0x1"]
      }
    })
    expect(out).toEqual(["100", 8])
    const sent = calls.view[0] as { _tag: string; body: { function: string; type_arguments: Array<string> } }
    expect(sent._tag).toBe("Json")
    expect(sent.body.function).toBe("0x1::coin::balance")
    expect(sent.body.type_arguments).toEqual(["0x1::aptos_coin::AptosCoin"])
  })
  it("calls a view function with a BCS body (view with a local ABI)", async () => {
    calls.view.length = 0
    const out = await aptos.view({
      payload: {
        function: "0x1::coin::balance",
        typeArguments: ["0x1::aptos_coin::AptosCoin"],
        functionArguments: ["0x1"],
        abi: {
          typeParameters: [{ constraints: [] }],
          parameters: [new TypeTagAddress()],
          returnTypes: [new TypeTagU64()]
        }
      }
    })
    expect(out).toEqual(["100", 8])
    const sent = calls.view[0] as { _tag: string; body: Uint8Array }
    expect(sent._tag).toBe("Bcs")
    // BCS(ViewFunction): ModuleId(0x1 as 32 bytes, "coin"), "balance", [type tag], [[address bytes]].
    expect(sent.body[31]).toBe(1)
    expect(Buffer.from(sent.body.subarray(33, 37)).toString()).toBe("coin")
  })
  it("reads the gas estimate and a module", async () => {
    expect(await aptos.getGasPriceEstimation()).toEqual({
      deprioritized_gas_estimate: 100,
      gas_estimate: 100,
      prioritized_gas_estimate: 150
    })
    const m = await aptos.getAccountModule({ accountAddress: "0x1", moduleName: "guid" })
    expect(m.abi?.name).toBe("guid")
  })
  it("surfaces our error body as the SDK's API error", async () => {
    await expect(aptos.getAccountModule({ accountAddress: "0x1", moduleName: "nope" })).rejects.toMatchObject({
      status: 404,
      data: { error_code: "module_not_found", vm_error_code: null }
    })
  })
})
