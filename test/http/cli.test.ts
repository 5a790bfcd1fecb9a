import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { main, parseCommand } from "../../src/cli.js"
import { listGenesisModules } from "../../src/move/abi/cli.js"
import { genesisPath } from "../support/genesis.js"

const parse = (argv: Array<string>, files: Record<string, string> = {}) =>
  parseCommand(argv, (p) => {
    const text = files[p]
    if (text === undefined) throw new Error("ENOENT")
    return text
  })
const ok = (argv: Array<string>, files?: Record<string, string>) => Result.getOrThrow(parse(argv, files))
const err = (argv: Array<string>, files?: Record<string, string>) => {
  const r = parse(argv, files)
  expect(Result.isFailure(r), argv.join(" ")).toBe(true)
  return Result.isFailure(r) ? r.failure : ""
}

describe("movenode command line", () => {
  it("run with defaults", () => {
    const c = ok(["run", "--genesis", "g.blob"])
    expect(c).toMatchObject({
      _tag: "Run",
      options: {
        genesis: "g.blob",
        dataDir: "./data",
        listen: { host: "127.0.0.1", port: 8080 },
        metricsListen: undefined,
        headerPrefix: "X-SERVICE-",
        pruneWindow: undefined,
        quiet: false
      }
    })
  })
  it("run with every flag, in both spellings", () => {
    const c = ok([
      "run",
      "--genesis=g",
      "--data-dir",
      "/d",
      "--listen",
      "0.0.0.0:80",
      "--metrics-listen=127.0.0.1:9100",
      "--header-prefix",
      "X-APTOS-",
      "--prune-window",
      "1000000",
      "--quiet"
    ])
    expect(c).toMatchObject({
      _tag: "Run",
      options: {
        dataDir: "/d",
        listen: { host: "0.0.0.0", port: 80 },
        metricsListen: { host: "127.0.0.1", port: 9100 },
        headerPrefix: "X-APTOS-",
        pruneWindow: 1000000n,
        quiet: true
      }
    })
  })
  it("a config file fills what flags leave out; flags win", () => {
    const files = { "c.json": JSON.stringify({ genesis: "g", listen: "127.0.0.1:1", dataDir: "/x", maxBodyBytes: 100, maxConnections: 7, node: { maxPageSize: 5 } }) }
    expect(ok(["run", "--config", "c.json", "--listen", "127.0.0.1:2"], files)).toMatchObject({
      options: { genesis: "g", dataDir: "/x", listen: { port: 2 }, maxBodyBytes: 100, maxConnections: 7, node: { maxPageSize: 5 } }
    })
    expect(err(["run", "--config", "c.json"], { "c.json": `{"maxConnections": 0}` })).toContain(`"maxConnections" must be a positive integer`)
  })
  it("clear errors for bad flags and values", () => {
    expect(ok(["run"])).toMatchObject({ _tag: "Run", options: { genesis: undefined, dataDir: "./data" } })
    expect(err(["run", "--genesis", "g", "--listen", "nope"])).toContain("expected ADDR:PORT")
    expect(err(["run", "--genesis", "g", "--bogus", "1"])).toBe("unknown argument: --bogus")
    expect(err(["run", "--genesis"])).toBe("--genesis needs a value")
    expect(err(["run", "--genesis", "g", "--genesis", "h"])).toBe("--genesis given twice")
    expect(err(["run", "--genesis", "g", "--prune-window", "-5"])).toContain("--prune-window")
    expect(err(["run", "--genesis", "g", "--header-prefix", "X SERVICE"])).toContain("--header-prefix")
    expect(err(["run", "--config", "missing.json"])).toContain("cannot read missing.json")
    expect(err(["run", "--config", "c.json"], { "c.json": "{" })).toContain("is not JSON")
    expect(err(["run", "--config", "c.json"], { "c.json": `{"genesis": 5}` })).toContain(`"genesis" must be a string`)
    expect(err(["frobnicate"])).toBe("unknown command: frobnicate")
  })
  it("module subcommands", () => {
    expect(ok(["module", "abi", "m.mv"])).toEqual({ _tag: "ModuleAbi", file: "m.mv" })
    expect(ok(["module", "list", "--genesis", "g"])).toEqual({ _tag: "ModuleList", genesis: "g" })
    expect(err(["module", "abi"])).toContain("usage")
    expect(err(["module", "list"])).toContain("--genesis FILE is required")
    expect(err(["module", "x"])).toBe("unknown subcommand: module x")
    expect(ok([])).toEqual({ _tag: "Help" })
    expect(ok(["--help"])).toEqual({ _tag: "Help" })
  })
})

describe("module subcommands, run in-process", () => {
  const GENESIS = genesisPath("devnet")
  const capture = async (f: () => void) => {
    const out: Array<string> = []
    const original = process.stdout.write.bind(process.stdout)
    process.stdout.write = ((c: unknown) => {
      out.push(String(c))
      return true
    }) as typeof process.stdout.write
    try {
      f()
    } finally {
      process.stdout.write = original
    }
    return out.join("")
  }
  it("lists the genesis modules and prints one module's ABI", async () => {
    const listing = await capture(() => main(["module", "list", "--genesis", GENESIS]))
    const lines = listing.trim().split("\n")
    expect(lines.length).toBeGreaterThan(50)
    expect(lines).toContainEqual(expect.stringMatching(/^0x1::guid\t\d+$/))
    const rows = Result.getOrThrow(listGenesisModules(new Uint8Array(readFileSync(GENESIS))))
    const guid = rows.find((r) => r.name === "guid" && r.address === "0x1")!
    const dir = mkdtempSync(join(tmpdir(), "movenode-cli-"))
    try {
      const file = join(dir, "guid.mv")
      writeFileSync(file, guid.bytes)
      const abi = JSON.parse(await capture(() => main(["module", "abi", file])))
      expect(abi.name).toBe("guid")
      expect(abi.address).toBe("0x1")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
