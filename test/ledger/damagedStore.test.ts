/**
 * Issue 11 item 5: one process per data directory (a clear error for the second), and a damaged
 * store (truncated or zeroed data.mdb) is a clear error at open, not SIGBUS/SIGSEGV. Each case
 * runs in a child process (a signal there must not take the test runner down).
 */
import { type ChildProcess, spawn } from "node:child_process"
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkLmdbFile } from "../../src/ledger/checkLmdbFile.js"
import { LOCK_FILE, lockDataDir } from "../../src/ledger/dataDirLock.js"
import { genesisPath } from "../support/genesis.js"

const child = fileURLToPath(new URL("./storeChild.mjs", import.meta.url))
const compiled = fileURLToPath(new URL("../../dist/ledger/index.js", import.meta.url))
const GENESIS = genesisPath("devnet")

interface Outcome {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

const run = (mode: "open" | "hold", path: string, onOutput?: (proc: ChildProcess, out: string) => void) =>
  new Promise<Outcome>((resolve) => {
    const proc = spawn(process.execPath, [child, mode, path, GENESIS], { stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    proc.stdout!.on("data", (d) => {
      stdout += d
      onOutput?.(proc, stdout)
    })
    proc.stderr!.on("data", (d) => (stderr += d))
    proc.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr }))
  })

let root: string
let pristine: string
beforeAll(async () => {
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`npm run build\` first`)
  root = mkdtempSync(join(tmpdir(), "movenode-damaged-"))
  pristine = join(root, "pristine")
  const made = await run("open", pristine)
  expect(made.stdout).toBe("ok 0\n")
}, 60_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A copy of the pristine store, damaged by `harm` (given the copy's data.mdb). */
const damaged = (name: string, harm: (file: string) => void): string => {
  const dir = join(root, name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  copyFileSync(join(pristine, "data.mdb"), join(dir, "data.mdb"))
  harm(join(dir, "data.mdb"))
  return dir
}

describe("a damaged store is a clear error at open, never a signal", () => {
  const cases: ReadonlyArray<readonly [string, (file: string) => void, RegExp]> = [
    ["truncated to half", (f) => truncateSync(f, Math.floor(statSync(f).size / 2 / 4096) * 4096), /truncated/],
    ["truncated to 4 KB", (f) => truncateSync(f, 4096), /fewer than its two meta pages/],
    ["truncated mid-page", (f) => truncateSync(f, statSync(f).size - 100), /truncated/],
    ["zeroed", (f) => writeFileSync(f, Buffer.alloc(statSync(f).size)), /zeroed or not an LMDB store/],
    ["garbage", (f) => writeFileSync(f, Buffer.alloc(statSync(f).size, 0x5a)), /zeroed or not an LMDB store/]
  ]
  for (const [name, harm, why] of cases)
    it(`data.mdb ${name}`, async () => {
      const dir = damaged(name.replace(/ /g, "-"), harm)
      const out = await run("open", dir)
      expect(out.signal).toBeNull()
      expect(out.code).toBe(3)
      expect(out.stderr).toContain(`the store ${join(dir, "data.mdb")} is damaged`)
      expect(out.stderr).toMatch(why)
    })

  it("an intact store and a missing or empty data.mdb pass the check", () => {
    expect(() => checkLmdbFile(pristine)).not.toThrow()
    expect(() => checkLmdbFile(join(root, "nothing-here"))).not.toThrow()
    const empty = damaged("empty", (f) => writeFileSync(f, ""))
    expect(() => checkLmdbFile(empty)).not.toThrow()
    expect(readFileSync(join(pristine, "data.mdb")).readUInt32LE(24)).toBe(0xbeefc0de)
  })
})

describe("a store another process is writing is never judged damaged", () => {
  it("checks made while a writer commits find every meta's pages in the file", async () => {
    const dir = join(root, "live")
    mkdirSync(dir, { recursive: true })
    const writer = spawn(
      process.execPath,
      [fileURLToPath(new URL("./lmdbWriterChild.mjs", import.meta.url)), dir, "4"],
      {
        stdio: ["ignore", "pipe", "inherit"]
      }
    )
    const exited = new Promise<number | null>((resolve) => writer.on("exit", (code) => resolve(code)))
    // Its first commit is done (or it failed: then the test fails here, not by its timeout).
    await Promise.race([
      new Promise<void>((resolve) => writer.stdout!.on("data", () => resolve())),
      exited.then((code) => {
        throw new Error(`the writer exited (${code}) before its first commit`)
      })
    ])
    // The writer commits hundreds of times a second; the check is synchronous, so a turn of checks
    // is followed by a pause for the writer's output (and this test's timers) to move.
    let checks = 0
    const judged: string[] = []
    const until = Date.now() + 2_500
    while (Date.now() < until) {
      for (const end = Date.now() + 20; Date.now() < end; checks++) {
        try {
          checkLmdbFile(dir)
        } catch (e) {
          judged.push(e instanceof Error ? e.message : String(e))
        }
      }
      await new Promise((r) => setTimeout(r, 1))
    }
    expect(await exited).toBe(0)
    // With the file's length read before the meta, ~0.3 % of checks failed here (tens of thousands
    // of checks on this machine; a few thousand already make a pass by luck unlikely).
    expect(checks).toBeGreaterThan(2_000)
    expect(judged.slice(0, 3)).toEqual([])
    expect(() => checkLmdbFile(dir)).not.toThrow()
  }, 30_000)
})

describe("one process per data directory", () => {
  it("a second process gets a clear error naming the holder; after the holder exits, the store opens", async () => {
    let holder: ChildProcess | undefined
    const held = new Promise<void>((resolve) => {
      void run("hold", pristine, (proc, out) => {
        holder = proc
        if (out.includes("ok 0")) resolve()
      })
    })
    await held
    const second = await run("open", pristine)
    expect(second.code).toBe(3)
    expect(second.stderr).toContain(`the data directory ${pristine} is in use by another process (pid ${holder!.pid})`)
    // kill -9: the lock file stays behind, naming a process that is gone; the next open takes it over.
    holder!.kill("SIGKILL")
    await new Promise((r) => holder!.once("exit", r))
    expect(readFileSync(join(pristine, LOCK_FILE), "utf8").trim()).toBe(String(holder!.pid))
    expect((await run("open", pristine)).stdout).toBe("ok 0\n")
  })

  it("the same process cannot take a directory twice; release frees it", () => {
    const dir = join(root, "twice")
    const release = lockDataDir(dir)
    expect(() => lockDataDir(dir)).toThrow(/already open in this process/)
    release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    lockDataDir(dir)()
  })
})
