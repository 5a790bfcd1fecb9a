/**
 * `--api-workers N` on the bundled command (the workers are forked from the script the process
 * runs, so this needs `npm run build`, as test/http/bin.test.ts): N processes serve the public
 * port over the same store, each sees what the writer commits, and submissions and the test
 * controls reach the writer.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, assert, describe, it } from "vitest"
import { waitForLine } from "../support/childProcess.js"

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { bin: { movenode: string } }
const bin = join(repoRoot, pkg.bin.movenode)
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolvePromise) => {
    if (child.exitCode !== null) return resolvePromise(child.exitCode)
    child.once("exit", (code) => resolvePromise(code))
    child.kill("SIGTERM")
  })

describe("--api-workers (bundle)", () => {
  it("the local chain serves its API from 2 worker processes: reads see new blocks, submissions reach the chain", async () => {
    assert.isTrue(existsSync(bin), `${bin} is missing: run \`npm run build\` first`)
    const dataDir = mkdtempSync(join(tmpdir(), "movenode-workers-"))
    dirs.push(dataDir)
    const child = spawn(
      process.execPath,
      [
        bin,
        "--data-dir",
        dataDir,
        "--quiet",
        "--accounts",
        "1",
        "--listen",
        "127.0.0.1:0",
        "--faucet-listen",
        "127.0.0.1:0",
        "--ready-listen",
        "off",
        "--graphql-listen",
        "off",
        "--api-workers",
        "2"
      ],
      { stdio: ["ignore", "pipe", "pipe"] }
    )
    try {
      const [, api, faucet] = await waitForLine(child, /API\s+(http:\S+)\s[\s\S]*Faucet\s+(http:\S+)/, 60_000)
      // Each new connection may go to another worker: with `connection: close`, both show up.
      const pids = new Set<number>()
      for (let i = 0; i < 40 && pids.size < 2; i++) {
        const r = await fetch(api!, { headers: { connection: "close" } })
        const body = (await r.json()) as { follow?: { role: string; pid: number } }
        assert.strictEqual(body.follow?.role, "api_worker")
        pids.add(body.follow!.pid)
      }
      assert.strictEqual(pids.size, 2)
      const who = `0x${"cd".repeat(32)}`
      const funded = await fetch(`${faucet}/fund`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: who, amount: 777 })
      })
      assert.strictEqual(funded.status, 200)
      const [hash] = ((await funded.json()) as { txn_hashes: string[] }).txn_hashes
      // wait_by_hash through a worker answers once the chain's process committed it to the store.
      const waited = await fetch(`${api}/transactions/wait_by_hash/0x${hash}`)
      assert.strictEqual(waited.status, 200)
      assert.strictEqual(((await waited.json()) as { type: string }).type, "user_transaction")
      for (let i = 0; i < 4; i++) {
        const b = await fetch(`${api}/accounts/${who}/balance/0x1::aptos_coin::AptosCoin`, {
          headers: { connection: "close" }
        })
        assert.strictEqual(await b.json(), 777)
      }
      // A submission through a worker reaches the chain's mempool (here refused there: not signed).
      const refused = await fetch(`${api}/transactions`, {
        method: "POST",
        headers: { "content-type": "application/x.aptos.signed_transaction+bcs" },
        body: new Uint8Array([1, 2, 3])
      })
      assert.strictEqual(refused.status, 400)
      assert.match(((await refused.json()) as { message: string }).message, /deserialize/)
      // The test controls through the workers (each on a new connection: any worker): they are the
      // chain's, so snapshot, mine, revert and a dump answer as the chain's own process would.
      const root = api!.replace(/\/v1$/, "")
      const control = async (path: string, body?: unknown) => {
        const r = await fetch(`${root}/__movenode/v1/${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { connection: "close", ...(body === undefined ? {} : { "content-type": "application/json" }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        return { status: r.status, json: (await r.json()) as Record<string, string> }
      }
      const snapshot = await control("snapshot", {})
      assert.strictEqual(snapshot.status, 200)
      const mined = await control("mine", { blocks: 2 })
      assert.strictEqual(mined.status, 200)
      assert.isTrue(BigInt(mined.json.ledger_version!) > BigInt(snapshot.json.ledger_version!))
      const reverted = await control("revert", { id: snapshot.json.id })
      assert.strictEqual(reverted.status, 200)
      assert.strictEqual(reverted.json.ledger_version, snapshot.json.ledger_version)
      for (let i = 0; i < 4; i++) assert.strictEqual((await control("time")).status, 200)
      const bad = await control("revert", { id: "not a number" })
      assert.strictEqual(bad.status, 400)
      const dump = await fetch(`${root}/__movenode/v1/state/dump`, { headers: { connection: "close" } })
      assert.strictEqual(dump.status, 200)
      assert.strictEqual(dump.headers.get("content-type"), "application/octet-stream")
      assert.isTrue((await dump.arrayBuffer()).byteLength > 0)
    } finally {
      assert.strictEqual(await stop(child), 0)
    }
  }, 120_000)
})
