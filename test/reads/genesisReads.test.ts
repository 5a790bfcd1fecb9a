/**
 * The read endpoints on each genesis blob (devnet always, mainnet when ../shared has it), compared
 * with values decoded independently from the genesis write set (`genesisOracle.ts`, the SDK's BCS
 * reader; `abiDecoder.ts`, a second Move value decoder driven by module ABIs): every account's
 * resources (types and JSON data) walked page by page, 0x1::account::Account of 0xa550c18,
 * resource-group members, the modules list, the genesis transaction (write set and events), block 0.
 */
import { sha3_256 } from "@noble/hashes/sha3.js"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type AbiModule, decodeAll } from "./abiDecoder.js"
import { type GenesisOracle, readGenesis } from "./genesisOracle.js"
import { type ReadsNode, startReadsNode } from "./readsNode.js"
import * as Result from "effect/Result"
import { compareStructTags } from "../../src/domain/StructTagOrder.js"
import { parseStructTag } from "../../src/domain/TypeTagString.js"
import { describeEachGenesis, genesisNamesPresent, loadGenesisBytes } from "../support/genesis.js"

/** Group members as the reference lists them (`BTreeMap<StructTag, _>` order; 0xa's case is checked by name below). */
const inTagOrder = <M extends { readonly type: string }>(members: ReadonlyArray<M>): M[] =>
  [...members].sort((a, b) =>
    compareStructTags(Result.getOrThrow(parseStructTag(a.type)), Result.getOrThrow(parseStructTag(b.type)))
  )

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`
const stateKeyHash = (encoded: Uint8Array) =>
  hex(sha3_256(Uint8Array.from([...sha3_256(new TextEncoder().encode("APTOS::StateKey")), ...encoded])))

describeEachGenesis(genesisNamesPresent(), "reads over the %s genesis", (name) => {
  let n: ReadsNode
  let oracle: GenesisOracle
  const abis = new Map<string, AbiModule>()
  /** The ABI of every module in the genesis, read through the module endpoint once. */
  const abiOf = (address: string, module: string): AbiModule => {
    const abi = abis.get(`${address}::${module}`)
    if (abi === undefined) throw new Error(`no ABI for ${address}::${module}`)
    return abi
  }

  beforeAll(async () => {
    n = await startReadsNode(name)
    oracle = readGenesis(loadGenesisBytes(name))
    for (const w of oracle.writes)
      if (w.path.kind === "code") {
        const [address, module] = w.path.module.split("::") as [string, string]
        const r = await n.get(`/v1/accounts/${address}/module/${module}`)
        abis.set(w.path.module, ((await r.json()) as { abi: AbiModule }).abi)
      }
  }, 120_000)
  afterAll(() => n.close())

  const getJson = async (path: string) => {
    const r = await n.get(path)
    expect(r.status, `${path}: ${r.status}`).toBe(200)
    return { body: (await r.json()) as any, cursor: r.headers.get("x-aptos-cursor") }
  }

  it("every account's resources, page by page, are the genesis's (groups flattened), each visited once", async () => {
    const accounts = new Map<string, Array<{ type: string; bytes: Uint8Array }>>()
    for (const w of oracle.writes) {
      if (w.path.kind === "code") continue
      const list = accounts.get(w.address) ?? []
      if (w.path.kind === "resource") list.push({ type: w.path.type, bytes: w.bytes })
      else list.push(...w.path.members)
      accounts.set(w.address, list)
    }
    let checked = 0
    for (const [address, expected] of accounts) {
      const limit = 1 + (checked % 4)
      const seen: Array<{ type: string; data: unknown }> = []
      let start: string | null = null
      for (let pages = 0; pages <= expected.length + 1; pages++) {
        const page = await getJson(
          `/v1/accounts/${address}/resources?limit=${limit}${start === null ? "" : `&start=${start}`}`
        )
        expect(page.body.length).toBeLessThanOrEqual(limit * 16) // a group may add its members to one entry
        seen.push(...page.body)
        start = page.cursor
        if (start === null) break
      }
      expect(start, `${address}: the walk ended`).toBeNull()
      const byType = (xs: ReadonlyArray<{ type: string }>) => xs.map((x) => x.type).sort()
      expect(byType(seen), address).toEqual(byType(expected))
      for (const e of expected) {
        const served = seen.find((s) => s.type === e.type)!
        expect(served.data, `${address} ${e.type}`).toEqual(decodeAll(e.type, e.bytes, abiOf))
        checked++
      }
    }
    expect(checked).toBeGreaterThan(90)
  }, 300_000)

  it("0x1::account::Account of 0xa550c18 (devnet; mainnet's first account): the account endpoint and the resource agree with the genesis bytes", async () => {
    const accounts = oracle.writes.filter((x) => x.path.kind === "resource" && x.path.type === "0x1::account::Account")
    const w = accounts.find((x) => x.address === "0xa550c18") ?? accounts[0]!
    if (name === "devnet") expect(w.address).toBe("0xa550c18")
    const decoded = decodeAll("0x1::account::Account", w.bytes, abiOf) as {
      authentication_key: string
      sequence_number: string
    }
    expect((await getJson(`/v1/accounts/${w.address}`)).body).toEqual({
      sequence_number: decoded.sequence_number,
      authentication_key: decoded.authentication_key
    })
    expect((await getJson(`/v1/accounts/${w.address}/resource/0x1::account::Account`)).body).toEqual({
      type: "0x1::account::Account",
      data: decoded
    })
    // Percent-encoded and spaced generic types are the same resource.
    const coin = oracle.writes.find((x) => x.path.kind === "resource" && x.path.type.includes("<"))
    if (coin !== undefined && coin.path.kind === "resource") {
      const spaced = encodeURIComponent(coin.path.type.replace("<", " < ").replace(/>$/, " > "))
      expect((await getJson(`/v1/accounts/${coin.address}/resource/${spaced}`)).body.type).toBe(coin.path.type)
    }
  })

  it("resource-group members are readable one by one by their own type", async () => {
    const groups = oracle.writes.filter((w) => w.path.kind === "group")
    if (name === "devnet") expect(groups.length).toBeGreaterThan(0)
    for (const g of groups)
      if (g.path.kind === "group")
        for (const m of g.path.members) {
          const { body } = await getJson(`/v1/accounts/${g.address}/resource/${encodeURIComponent(m.type)}`)
          expect(body).toEqual({ type: m.type, data: decodeAll(m.type, m.bytes, abiOf) })
        }
  })

  it("0xa's object group lists its members in the reference's order, in /resources and in the genesis changes", async () => {
    const stored = oracle.writes.find((w) => w.address === "0xa" && w.path.kind === "group")
    // Mainnet's genesis predates APT's fungible asset: the genesis transaction's test covers its groups.
    if (stored === undefined && name === "mainnet") return
    if (stored?.path.kind !== "group") throw new Error("no group at 0xa")
    const expected = [
      "0x1::coin::PairedCoinType",
      "0x1::coin::PairedFungibleAssetRefs",
      "0x1::fungible_asset::ConcurrentSupply",
      "0x1::fungible_asset::Metadata",
      "0x1::object::ObjectCore",
      "0x1::primary_fungible_store::DeriveRefPod"
    ].filter((t) => stored.path.kind === "group" && stored.path.members.some((m) => m.type === t))
    expect(expected.length).toBeGreaterThanOrEqual(3)
    // Stored in BCS key order (identifiers are length-prefixed: object before fungible_asset),
    // which is not the order served.
    expect(stored.path.members.map((m) => m.type)).not.toEqual(expected)
    const { body } = await getJson("/v1/accounts/0xa/resources")
    const types = (body as Array<{ type: string }>).map((r) => r.type)
    expect(types.filter((t) => expected.includes(t))).toEqual(expected)
    const { body: t } = await getJson("/v1/transactions/by_version/0")
    const groupHash = stateKeyHash(stored.keyBytes)
    const changes = (t.changes as any[]).filter((c) => c.state_key_hash === groupHash)
    expect(changes.map((c) => c.data.type)).toEqual(expected)
  })

  it("the modules list of each account is its genesis modules, bytecode and ABI", async () => {
    const byAccount = new Map<string, Array<{ module: string; bytes: Uint8Array }>>()
    for (const w of oracle.writes)
      if (w.path.kind === "code")
        byAccount.set(w.address, [...(byAccount.get(w.address) ?? []), { module: w.path.module, bytes: w.bytes }])
    for (const [address, expected] of byAccount) {
      const served: any[] = []
      let start: string | null = null
      do {
        const page = await getJson(`/v1/accounts/${address}/modules?limit=40${start === null ? "" : `&start=${start}`}`)
        served.push(...page.body)
        start = page.cursor
      } while (start !== null)
      expect(served.map((m) => `${m.abi.address}::${m.abi.name}`).sort()).toEqual(expected.map((e) => e.module).sort())
      for (const e of expected)
        expect(served.find((m) => `${m.abi.address}::${m.abi.name}` === e.module).bytecode).toBe(hex(e.bytes))
    }
  }, 120_000)

  it("the genesis transaction by version: its write set and events as the genesis holds them", async () => {
    const { body: t } = await getJson("/v1/transactions/by_version/0")
    expect(t.type).toBe("genesis_transaction")
    expect(t.version).toBe("0")
    expect(t.success).toBe(true)
    expect(t.payload.type).toBe("write_set_payload")
    expect(t.payload.write_set.type).toBe("direct_write_set")
    const changes = t.payload.write_set.changes as any[]
    expect(t.changes).toEqual(changes)
    const expected: Array<{ type: string; hash: string; check: (c: any) => void }> = []
    for (const w of oracle.writes) {
      const hash = stateKeyHash(w.keyBytes)
      if (w.path.kind === "code")
        expected.push({ type: "write_module", hash, check: (c) => expect(c.data.bytecode).toBe(hex(w.bytes)) })
      else if (w.path.kind === "resource") {
        const type = w.path.type
        expected.push({
          type: "write_resource",
          hash,
          check: (c) => expect(c.data).toEqual({ type, data: decodeAll(type, w.bytes, abiOf) })
        })
      }
      // Members in the reference's struct-tag order, not their stored (BCS) order.
      else
        for (const m of inTagOrder(w.path.members))
          expected.push({
            type: "write_resource",
            hash,
            check: (c) => expect(c.data).toEqual({ type: m.type, data: decodeAll(m.type, m.bytes, abiOf) })
          })
    }
    const tableKeyTypes = new Set<string>()
    for (const tw of oracle.tableWrites) {
      // The state key's storage encoding: 1 ‖ handle ‖ key bytes (no length).
      const encoded = Uint8Array.from([1, ...Buffer.from(tw.handle.slice(2), "hex"), ...tw.key])
      expected.push({
        type: "write_table_item",
        hash: stateKeyHash(encoded),
        check: (c) => {
          expect([c.handle, c.key, c.value]).toEqual([tw.handle, hex(tw.key), hex(tw.bytes)])
          // Every table written at genesis is held by a resource written there: its types are known,
          // and the key and value decode (with the independent ABI decoder) as the types say.
          expect(c.data, `table ${tw.handle}`).not.toBeNull()
          expect(Object.keys(c.data)).toEqual(["key", "key_type", "value", "value_type"])
          expect(c.data.key).toEqual(decodeAll(c.data.key_type, tw.key, abiOf))
          expect(c.data.value).toEqual(decodeAll(c.data.value_type, tw.bytes, abiOf))
          tableKeyTypes.add(c.data.key_type)
        }
      })
    }
    expect(changes.length).toBe(expected.length)
    // The write set is in BCS key order in both; the changes follow it.
    changes.forEach((c, i) => {
      expect([c.type, c.state_key_hash]).toEqual([expected[i]!.type, expected[i]!.hash])
      expected[i]!.check(c)
    })
    // The coin-to-FA pairing map the SDK's table test reads at version 0.
    if (name === "devnet") expect([...tableKeyTypes]).toContain("0x1::type_info::TypeInfo")
    const events = t.events as any[]
    expect(t.payload.write_set.events).toEqual(events)
    expect(events.length).toBe(oracle.events.length)
    events.forEach((e, i) => {
      const o = oracle.events[i]!
      expect(e.type).toBe(o.type)
      expect(e.guid).toEqual(
        o.key === undefined
          ? { creation_number: "0", account_address: "0x0" }
          : { creation_number: o.key.creationNumber.toString(), account_address: o.key.address }
      )
      expect(e.sequence_number).toBe(o.sequenceNumber.toString())
      expect(e.data).toEqual(decodeAll(o.type, o.data, abiOf))
    })
  }, 120_000)

  it("block 0 holds the genesis alone; the same transaction text every way it is read", async () => {
    const block = await getJson("/v1/blocks/by_height/0")
    expect(block.body).toEqual({
      block_height: "0",
      block_hash: `0x${"0".repeat(64)}`,
      block_timestamp: "0",
      first_version: "0",
      last_version: "0",
      transactions: null
    })
    expect((await getJson("/v1/blocks/by_version/0")).body).toEqual(block.body)
    const byVersion = await (await n.get("/v1/transactions/by_version/0")).text()
    const withTxns = await (await n.get("/v1/blocks/by_height/0?with_transactions=true")).text()
    expect(withTxns.endsWith(`"transactions":[${byVersion}]}`)).toBe(true)
    expect(await (await n.get("/v1/transactions?start=0&limit=1")).text()).toBe(`[${byVersion}]`)
    expect(await (await n.get("/v1/transactions")).text()).toBe(`[${byVersion}]`)
  })
})
