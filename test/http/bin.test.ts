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
import { alive, childrenOf } from "../support/procfs.js"

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

/**
 * `npm start` runs the command through `sh -c "…"`, and the shell stays between npm and the node
 * (Debian's `dash` neither execs the command nor passes a signal on). A harness that stops npm alone
 * (`child.kill()`, `timeout`) ends npm and the shell, and the node would be left serving, orphaned.
 * Started by a package manager's script, the command stops when its parent goes (`runMain`).
 */
describe.runIf(process.platform === "linux" && existsSync("/bin/sh"))(
  "the movenode command under a package manager's script",
  () => {
    const until = async (check: () => boolean, ms: number): Promise<boolean> => {
      const end = Date.now() + ms
      while (Date.now() < end) {
        if (check()) return true
        await new Promise((r) => setTimeout(r, 50))
      }
      return check()
    }

    /**
     * Starts the command under `sh -c` as npm does (`true &&` first, so that no shell execs it), stops
     * the shell with SIGTERM once it listens, and answers whether the node was still running `waitMs`
     * later; the node is stopped in the end either way.
     */
    const orphanedAfter = async (env: NodeJS.ProcessEnv, waitMs: number): Promise<boolean> => {
      const dir = mkdtempSync(join(tmpdir(), "movenode-orphan-"))
      const command = `true && "${process.execPath}" "${bin}" run --data-dir "${dir}" --listen 127.0.0.1:0 --quiet`
      const shell = spawn("/bin/sh", ["-c", command], { env, stdio: ["ignore", "pipe", "pipe"] })
      let node: number | undefined
      try {
        const [, base] = await waitForLine(shell, /^movenode: .*listening on (http:\/\/\S+\/v1)$/m, 30_000)
        node = childrenOf(shell.pid!)[0]
        assert.isDefined(node, "the node under the shell")
        shell.kill("SIGTERM")
        assert.isTrue(await until(() => shell.exitCode !== null || shell.signalCode !== null, 5_000), "the shell ended")
        const stopped = await until(() => !alive(node!), waitMs)
        if (stopped) {
          const answered = await fetch(`${base}/-/healthy`).then(
            () => true,
            () => false
          )
          assert.isFalse(answered, "nothing listens any more")
        }
        return !stopped
      } finally {
        if (node !== undefined && alive(node)) {
          process.kill(node, "SIGTERM")
          await until(() => !alive(node!), 10_000)
        }
        if (shell.exitCode === null && shell.signalCode === null) shell.kill("SIGKILL")
        rmSync(dir, { recursive: true, force: true })
      }
    }

    it("stops when npm's shell is stopped under it (npm_lifecycle_event set)", async () => {
      assert.isFalse(await orphanedAfter({ ...process.env, npm_lifecycle_event: "start" }, 10_000))
    }, 60_000)

    it("started otherwise, it outlives its parent (nohup, supervisors): the check is what stops it above", async () => {
      const env = { ...process.env }
      delete env.npm_lifecycle_event
      assert.isTrue(await orphanedAfter(env, 2_000))
    }, 60_000)
  }
)
