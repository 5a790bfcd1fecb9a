import { fileURLToPath } from "node:url"
import { Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readGitHash } from "../../src/gitHash.js"
import { type RunningNode, startRun } from "../conformance/harness.js"

/**
 * The whole stack of `movenode run` (LMDB ledger with the devnet genesis, the node services, the
 * server) started in-process, read through the TypeScript SDK as an independent client.
 */
describe("movenode run over the devnet genesis", () => {
  let node: RunningNode
  let url: string
  beforeAll(async () => {
    node = await startRun("devnet")
    url = node.url
  })
  afterAll(() => node.close())

  const sdk = () => new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: url }))

  it("the SDK reads the ledger info (chain id from genesis)", async () => {
    const info = await sdk().getLedgerInfo()
    expect(info.chain_id).toBeGreaterThan(0)
    expect(info.ledger_version).toBe("0")
    expect(info.node_role).toBe("full_node")
    // Not configured: the commit of the checkout the node runs from (absent outside one).
    const body = (await (await fetch(url)).json()) as { git_hash?: string }
    expect(body.git_hash).toBe(readGitHash(fileURLToPath(new URL("../..", import.meta.url))))
  })
  it("the SDK reads a module with its ABI", async () => {
    const m = await sdk().getAccountModule({ accountAddress: "0x1", moduleName: "guid" })
    expect(m.bytecode.startsWith("0xa11ceb0b")).toBe(true)
    expect(m.abi?.name).toBe("guid")
    expect(m.abi?.exposed_functions.length).toBeGreaterThan(0)
  })
  it("the SDK reads the gas estimate", async () => {
    const g = await sdk().getGasPriceEstimation()
    expect(typeof g.gas_estimate).toBe("number")
  })
  it("serves X-APTOS- ledger headers, and the module as raw BCS bytes", async () => {
    const r = await fetch(`${url}/accounts/0x1/module/guid`, { headers: { accept: "application/x-bcs" } })
    expect(r.status).toBe(200)
    expect(r.headers.get("x-aptos-ledger-version")).toBe("0")
    const bytes = new Uint8Array(await r.arrayBuffer())
    expect([...bytes.subarray(0, 4)]).toEqual([0xa1, 0x1c, 0xeb, 0x0b])
  })
  it("a balance of an account without a store is 0, a missing module 404", async () => {
    expect(await (await fetch(`${url}/accounts/0x1234/balance/0xa`)).text()).toBe("0")
    const r = await fetch(`${url}/accounts/0x1/module/no_such_module`)
    expect(r.status).toBe(404)
    expect(((await r.json()) as { error_code: string }).error_code).toBe("module_not_found")
  })
})
