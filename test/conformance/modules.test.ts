/**
 * Every module of both genesis blobs through `GET /v1/accounts/{addr}/module/{name}` of a real
 * `movenode run` node equals what the command line says about the same bytes: the JSON `abi`
 * deep-equals the output of `movenode module abi FILE.mv` (run in-process through `main`), the
 * `bytecode` is the stored bytes, and the BCS response is those raw bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Result } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { toHex0x } from "../../src/bcs/index.js"
import { main } from "../../src/cli.js"
import { type GenesisModuleRow, listGenesisModules } from "../../src/move/abi/cli.js"
import { ALL_GENESIS, describeWithGenesis, type GenesisName, loadGenesisBytes } from "../support/genesis.js"
import { type RunningNode, startRun } from "./harness.js"

/** `movenode module abi FILE` in-process: its stdout, parsed. */
const cliAbi = (file: string): unknown => {
  const chunks: Array<string> = []
  const write = process.stdout.write
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString())
    return true
  }) as typeof process.stdout.write
  try {
    main(["module", "abi", file])
  } finally {
    process.stdout.write = write
  }
  return JSON.parse(chunks.join(""))
}

const modulesOf = (name: GenesisName): ReadonlyArray<GenesisModuleRow> => {
  const rows = listGenesisModules(loadGenesisBytes(name))
  if (Result.isFailure(rows)) throw new Error(`${name} genesis does not list its modules`)
  return rows.success
}

for (const blob of ALL_GENESIS) {
  describeWithGenesis(blob, `every module of the ${blob} genesis: endpoint = CLI`, () => {
    let node: RunningNode
    let dir: string
    const rows = modulesOf(blob)
    beforeAll(async () => {
      node = await startRun(blob)
      dir = mkdtempSync(join(tmpdir(), "movenode-modules-"))
    })
    afterAll(async () => {
      await node.close()
      rmSync(dir, { recursive: true, force: true })
    })

    it("the blob holds the framework packages", () => {
      expect(rows.length).toBeGreaterThan(60)
      const names = new Set(rows.map((r) => `${r.address}::${r.name}`))
      for (const m of ["0x1::coin", "0x1::account", "0x1::aptos_account", "0x1::chain_id"])
        expect(names.has(m), m).toBe(true)
    })

    it(`JSON abi deep-equals \`movenode module abi\`, bytecode and BCS are the stored bytes`, async () => {
      let checked = 0
      for (const row of rows) {
        const path = `${node.url}/accounts/${row.address}/module/${row.name}`
        const file = join(dir, `${row.address}_${row.name}.mv`)
        writeFileSync(file, row.bytes)
        const json = (await (await fetch(path)).json()) as { bytecode: string; abi: unknown }
        expect(json.bytecode, `${row.address}::${row.name}`).toBe(toHex0x(row.bytes))
        expect(json.abi, `${row.address}::${row.name}`).toEqual(cliAbi(file))
        const bcs = await fetch(path, { headers: { accept: "application/x-bcs" } })
        expect(bcs.headers.get("content-type")).toBe("application/x-bcs")
        expect(new Uint8Array(await bcs.arrayBuffer()), `${row.address}::${row.name} BCS`).toEqual(row.bytes)
        checked++
      }
      expect(checked).toBe(rows.length)
    })
  })
}
