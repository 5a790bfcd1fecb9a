/**
 * The `movenode` command as shipped: package.json's `bin` (the rolldown bundle built by
 * `npm run build`), started as a child process on the genesis it ships (genesis/devnet.blob). The other tests run the
 * sources; this one proves the bundle starts, serves, runs a view on its bundled worker thread and
 * shuts down cleanly on SIGTERM.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, assert, describe, it } from "vitest"
import { waitForLine } from "../support/childProcess.js"

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { bin: { movenode: string } }
const bin = join(repoRoot, pkg.bin.movenode)
const dataDir = mkdtempSync(join(tmpdir(), "movenode-bin-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const exitOf = (child: ChildProcess, ms: number): Promise<number | null> =>
  new Promise((resolvePromise, reject) => {
    if (child.exitCode !== null) return resolvePromise(child.exitCode)
    const timer = setTimeout(() => reject(new Error(`still running ${ms} ms after SIGTERM`)), ms)
    child.once("exit", (code) => {
      clearTimeout(timer)
      resolvePromise(code)
    })
  })

describe("the movenode command (bundle)", () => {
  it("serves the shipped devnet genesis (no --genesis), runs a view on its worker, and stops on SIGTERM", async () => {
    assert.isTrue(existsSync(bin), `${bin} is missing: run \`npm run build\` first`)
    const child = spawn(process.execPath, [bin, "run", "--data-dir", dataDir, "--listen", "127.0.0.1:0"], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const collect = (c: Buffer) => {
      output += c.toString()
    }
    child.stdout!.on("data", collect)
    child.stderr!.on("data", collect)
    try {
      // The start-up line: what was imported, where it listens.
      const [line, base] = await waitForLine(child, /^movenode: .*listening on (http:\/\/\S+\/v1)$/m, 20_000)
      assert.match(line!, /^movenode: imported the shipped devnet genesis \(chain id 243\) into /)
      const balance = await fetch(`${base}/accounts/0xa550c18/balance/0xa`)
      assert.strictEqual(balance.status, 200)
      assert.strictEqual(await balance.text(), "18446744073709551615")
      const view = await fetch(`${base}/view`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ function: "0x1::chain_id::get", type_arguments: [], arguments: [] })
      })
      assert.strictEqual(view.status, 200)
      assert.deepStrictEqual(await view.json(), [243])
      child.kill("SIGTERM")
      assert.strictEqual(await exitOf(child, 10_000), 0)
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL")
    }
    // The view ran on the bundled worker, not on the fallback thread.
    assert.notInclude(output, "could not start")
    assert.include(output, "POST /v1/view 200")
  }, 60_000)
})

describe("the movenode command's help, version and usage errors (bundle)", () => {
  const run = (...args: Array<string>) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", timeout: 20_000 })

  it("every command and group answers --help with exit code 0", () => {
    for (const argv of [
      ["--help"],
      ["-h"],
      ["help"],
      ["help", "run"],
      ["run", "--help"],
      ["module", "--help"],
      ["module", "abi", "--help"],
      ["module", "list", "--help"]
    ]) {
      const r = run(...argv)
      assert.strictEqual(r.status, 0, `${argv.join(" ")}: ${r.stderr}`)
      assert.match(r.stdout, /movenode/, argv.join(" "))
      assert.strictEqual(r.stderr, "", argv.join(" "))
    }
  })

  it("--quiet still prints the start-up line (reopening the store: what it holds)", async () => {
    const child = spawn(process.execPath, [bin, "run", "--data-dir", dataDir, "--listen", "127.0.0.1:0", "--quiet"], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    try {
      const [line] = await waitForLine(child, /^movenode: .*listening on http:\/\/\S+\/v1$/m, 20_000)
      assert.match(line!, /^movenode: opened .* \(chain id 243, ledger version 0\); listening on /)
      child.kill("SIGTERM")
      assert.strictEqual(await exitOf(child, 10_000), 0)
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL")
    }
  })

  it("--version prints the package's version", () => {
    const r = run("--version")
    assert.strictEqual(r.status, 0)
    const { version } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }
    assert.strictEqual(r.stdout, `movenode ${version}\n`)
  })

  it("a usage error is one message naming the command once, exit code 2", () => {
    const r = run("run", "--listen", "nope")
    assert.strictEqual(r.status, 2)
    const lines = r.stderr.trim().split("\n")
    assert.strictEqual(lines[0], `movenode run: --listen: expected ADDR:PORT (like 127.0.0.1:8080), got "nope"`)
    assert.strictEqual(lines.length, 2)
    assert.notInclude(r.stderr, "movenode: movenode")
    assert.strictEqual(run("frobnicate").status, 2)
  })
})
