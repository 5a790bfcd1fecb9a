import { Result } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { fromHex } from "../../../src/bcs/index.js"
import { listGenesisModules, moduleAbiCommand } from "../../../src/move/abi/cli.js"
import { hasGenesis, loadGenesisBytes } from "../../support/genesis.js"

const golden = JSON.parse(readFileSync(new URL("../../fixtures/move/guid_module_golden.json", import.meta.url), "utf8"))

describe("moduleAbiCommand", () => {
  it("pretty-prints the ABI of a .mv file", () => {
    const out = Result.getOrThrow(moduleAbiCommand(fromHex(golden.bytecode)!))
    expect(out.split("\n")[1]).toBe('  "address": "0x1",')
    expect(JSON.parse(out).exposed_functions.length).toBe(8)
  })

  it("returns a typed error for bytes that are not a module", () => {
    const r = moduleAbiCommand(new Uint8Array([1, 2, 3]))
    expect(Result.isFailure(r) && r.failure.kind).toBe("BadMagic")
  })
})

describe("listGenesisModules", () => {
  it("lists address, name and bytes of each module", () => {
    const devnet = Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet")))
    expect(devnet.length).toBe(190)
    expect(new Set(devnet.map((r) => r.address))).toEqual(new Set(["0x1", "0x3", "0x4", "0x5", "0x7"]))
  })

  it.skipIf(!hasGenesis("mainnet"))("lists the 2022 mainnet's modules", () => {
    const rows = Result.getOrThrow(listGenesisModules(loadGenesisBytes("mainnet")))
    expect(rows.length).toBe(70)
    expect(new Set(rows.map((r) => r.address))).toEqual(new Set(["0x1", "0x3"]))
    const coin = rows.find((r) => r.name === "coin")!
    expect(coin.address).toBe("0x1")
    expect([...coin.bytes.subarray(0, 4)]).toEqual([0xa1, 0x1c, 0xeb, 0x0b])
  })

  it("fails on a blob that is not a genesis transaction", () => {
    expect(Result.isFailure(listGenesisModules(new Uint8Array([0])))).toBe(true)
  })
})
