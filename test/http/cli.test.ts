import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { main, parseCommand, versionLine } from "../../src/cli.js"
import { formatUsageError } from "../../src/commandLine.js"
import { listGenesisModules } from "../../src/move/abi/cli.js"
import { genesisPath } from "../support/genesis.js"

const parse = (argv: Array<string>, files: Record<string, string> = {}) =>
  parseCommand(argv, (p) => {
    const text = files[p]
    if (text === undefined) throw new Error("ENOENT")
    return text
  })
/** The command `argv` parses to (fails the test on a usage error, help or version). */
const ok = (argv: Array<string>, files?: Record<string, string>) => {
  const r = Result.getOrThrow(parse(argv, files))
  if (r._tag !== "Command") throw new Error(`${argv.join(" ")}: ${r._tag}`)
  return r.command
}
/** The one-line message of the usage error `argv` gives. */
const err = (argv: Array<string>, files?: Record<string, string>) => {
  const r = parse(argv, files)
  expect(Result.isFailure(r), argv.join(" ")).toBe(true)
  return Result.isFailure(r) ? r.failure.message : ""
}
const helpOf = (argv: Array<string>) => {
  const r = Result.getOrThrow(parse(argv))
  expect(r._tag, argv.join(" ")).toBe("Help")
  return r._tag === "Help" ? r.text : ""
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
        quiet: false,
        cors: undefined
      }
    })
    expect(ok(["run"])).toMatchObject({ _tag: "Run", options: { genesis: undefined, dataDir: "./data" } })
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
      "--no-cors",
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
        cors: false,
        quiet: true
      }
    })
  })
  it("a config file fills what flags leave out; flags win", () => {
    const files = {
      "c.json": JSON.stringify({
        genesis: "g",
        listen: "127.0.0.1:1",
        dataDir: "/x",
        maxBodyBytes: 100,
        maxConnections: 7,
        cors: ["https://a.example"],
        node: { maxPageSize: 5, gasEstimation: { fullBlockTxns: 10 } }
      })
    }
    expect(ok(["run", "--config", "c.json", "--listen", "127.0.0.1:2"], files)).toMatchObject({
      options: {
        genesis: "g",
        dataDir: "/x",
        listen: { port: 2 },
        maxBodyBytes: 100,
        maxConnections: 7,
        cors: ["https://a.example"],
        node: { maxPageSize: 5 }
      }
    })
    expect(err(["run", "--config", "c.json"], { "c.json": `{"maxConnections": 0}` })).toContain(
      `"maxConnections" must be a positive integer`
    )
    expect(err(["run", "--config", "c.json"], { "c.json": `{"cors": "yes"}` })).toContain(`"cors" must be`)
    expect(ok(["run", "--config", "c.json"], { "c.json": `{"cors": true}` })).toMatchObject({
      options: { cors: "any" }
    })
  })
  it("refuses unknown config keys by name, at every level", () => {
    const e = err(["run", "--config", "c.json"], { "c.json": `{"datadir": "/x"}` })
    expect(e).toContain(`unknown key "datadir"`)
    expect(e).toContain("dataDir")
    expect(e).toContain("c.json")
    expect(err(["run", "--config", "c.json"], { "c.json": `{"node": {"maxPagesize": 5}}` })).toContain(
      `unknown key "maxPagesize" in "node"`
    )
    expect(
      err(["run", "--config", "c.json"], { "c.json": `{"node": {"gasEstimation": {"full_block_txns": 5}}}` })
    ).toContain(`unknown key "full_block_txns" in "node.gasEstimation"`)
    expect(
      ok(["run", "--config", "c.json"], {
        "c.json": `{"node": {"viewFilter": {"allowlist": []}, "viewDeadlineMs": 5}}`
      })
    ).toMatchObject({
      _tag: "Run"
    })
  })
  it("clear errors for bad flags and values, naming the command once", () => {
    expect(err(["run", "--genesis", "g", "--listen", "nope"])).toContain("expected ADDR:PORT")
    expect(err(["run", "--genesis", "g", "--bogus", "1"])).toBe("unknown argument: --bogus")
    expect(err(["run", "--genesis"])).toBe("--genesis needs a value (FILE)")
    expect(err(["run", "--genesis", "g", "--genesis", "h"])).toBe("--genesis given twice")
    expect(err(["run", "--quiet=yes"])).toBe("--quiet takes no value")
    expect(err(["run", "extra"])).toBe("unexpected argument: extra")
    expect(err(["run", "--genesis", "g", "--prune-window", "-5"])).toContain("--prune-window")
    expect(err(["run", "--genesis", "g", "--header-prefix", "X SERVICE"])).toContain("--header-prefix")
    expect(err(["run", "--config", "missing.json"])).toContain("cannot read missing.json")
    expect(err(["run", "--config", "c.json"], { "c.json": "{" })).toContain("is not JSON")
    expect(err(["run", "--config", "c.json"], { "c.json": `{"genesis": 5}` })).toContain(`"genesis" must be a string`)
    expect(err(["frobnicate"])).toBe("unknown command: frobnicate")
    const r = parse(["run", "--listen", "nope"])
    const e = Result.isFailure(r) ? formatUsageError("movenode", r.failure) : ""
    expect(e.split("\n")[0]).toBe(`movenode run: --listen: expected ADDR:PORT (like 127.0.0.1:8080), got "nope"`)
    expect(e).not.toContain("movenode: movenode")
  })
  it("module subcommands", () => {
    expect(ok(["module", "abi", "m.mv"])).toEqual({ _tag: "ModuleAbi", file: "m.mv" })
    expect(ok(["module", "list", "--genesis", "g"])).toEqual({ _tag: "ModuleList", genesis: "g" })
    expect(ok(["module", "list"])).toEqual({ _tag: "ModuleList", genesis: undefined })
    expect(err(["module", "abi"])).toBe("expected FILE.mv")
    expect(err(["module", "abi", "a.mv", "b.mv"])).toBe("unexpected argument: b.mv")
    expect(err(["module", "x"])).toBe("unknown subcommand: x (known: abi, list)")
    expect(err(["module"])).toBe("needs a subcommand: abi, list")
  })
  it("--help on every command and group, help COMMAND, and --version", () => {
    const overview = helpOf(["--help"]) // no command runs the local chain (test/localCommand.test.ts)
    for (const argv of [["--help"], ["-h"], ["help"]]) expect(helpOf(argv)).toBe(overview)
    expect(overview).toContain("movenode run")
    expect(overview).toContain("movenode module abi FILE.mv")
    expect(overview).toContain("movenode --version")
    const run = helpOf(["run", "--help"])
    expect(run).toMatch(/^usage: movenode run \[options\]/)
    for (const flag of [
      "--genesis FILE",
      "--data-dir DIR",
      "--listen ADDR:PORT",
      "--config FILE.json",
      "--quiet",
      "--no-cors"
    ])
      expect(run).toContain(flag)
    expect(helpOf(["help", "run"])).toBe(run)
    expect(helpOf(["run", "--data-dir", "x", "-h"])).toBe(run)
    expect(helpOf(["module", "--help"])).toContain("movenode module list")
    expect(helpOf(["help", "module"])).toContain("movenode module abi")
    expect(helpOf(["module", "abi", "--help"])).toMatch(/^usage: movenode module abi FILE.mv/)
    expect(helpOf(["module", "list", "--help"])).toContain("--genesis FILE")
    for (const argv of [["--version"], ["-V"], ["version"]])
      expect(Result.getOrThrow(parse(argv))).toEqual({ _tag: "Version" })
    expect(versionLine()).toBe(
      `movenode ${JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version}`
    )
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
