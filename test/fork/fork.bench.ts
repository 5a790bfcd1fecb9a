// Run: npx vitest bench --run test/fork/fork.bench.ts
// A fork of a movenode local chain, the source on loopback behind a counting proxy that adds 0 or
// 20 ms to every request (the latency a nearby fullnode adds). Measured:
// - start → first transfer committed, on a cold fork (empty cache) and a warm one (the cache of an
//   earlier fork of the same source and version, a new data directory);
// - source requests per transfer and per view once warm (printed; the goal is 0);
// - the same view (0x1::coin::balance) on the fork and on the source.
// FORK_BENCH_LOG=1 prints every request the source is sent (what a cold start asks for).
import { createServer, request } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account, Aptos, AptosConfig, Network } from "@aptos-labs/ts-sdk"
import { Effect, Exit, Scope } from "effect"
import { afterAll, test } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"

const start = async (config: Parameters<typeof LocalChain.spawn>[0]) => {
  const scope = await Effect.runPromise(Scope.make())
  const chain = await Effect.runPromise(Scope.provide(LocalChain.spawn(config), scope))
  return { chain, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
const sdkFor = (chain: LocalChainInfo) =>
  new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))

/** A proxy to `target` adding `delayMs` to every request; `count` = requests seen. */
const delayProxy = async (target: string, delayMs: number) => {
  const t = new URL(target)
  let count = 0
  const server = createServer((req, res) => {
    count++
    if (process.env.FORK_BENCH_LOG) console.log(`REQ ${delayMs} ${req.method} ${req.url}`)
    setTimeout(() => {
      const up = request(
        { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers)
          r.pipe(res)
        }
      )
      up.on("error", () => res.destroy())
      req.pipe(up)
    }, delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port
  return { url: `http://127.0.0.1:${port}/v1`, count: () => count, close: () => server.close() }
}

const source = await start({ accounts: 0, mining: MiningMode.instant(0) })
const src = sdkFor(source.chain)
const alice = Account.generate()
await src.fundAccount({
  accountAddress: alice.accountAddress,
  amount: 100_000_000_000,
  options: { waitForIndexer: false }
})
const pinned = BigInt(((await (await fetch(source.chain.apiUrl)).json()) as { ledger_version: string }).ledger_version)
const proxies = { 0: await delayProxy(source.chain.apiUrl, 0), 20: await delayProxy(source.chain.apiUrl, 20) }
const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "movenode-fork-bench-"))
  dirs.push(d)
  return d
}
const cacheOf = { 0: tmp(), 20: tmp() }

const bob = Account.generate().accountAddress
/** A transfer to `recipient` (a new account each time unless given). */
const transfer = async (aptos: Aptos, recipient = Account.generate().accountAddress) => {
  const txn = await aptos.transferCoinTransaction({ sender: alice.accountAddress, recipient, amount: 1 })
  const sent = await aptos.signAndSubmitTransaction({ signer: alice, transaction: txn })
  await aptos.waitForTransaction({ transactionHash: sent.hash })
}
const balanceView = {
  function: "0x1::coin::balance" as const,
  typeArguments: ["0x1::aptos_coin::AptosCoin"],
  functionArguments: [alice.accountAddress]
}

/** Starts a fork through the proxy with `cacheDir`, makes one transfer; the requests it took. */
const startAndTransfer = async (delay: 0 | 20, cacheDir: string, inMemory = false) => {
  const before = proxies[delay].count()
  const fork = await start({
    accounts: 0,
    mining: MiningMode.instant(0),
    fork: { url: proxies[delay].url, version: pinned, cacheDir },
    dataDir: inMemory ? undefined : tmp()
  })
  await transfer(sdkFor(fork.chain))
  const requests = proxies[delay].count() - before
  return { fork, requests }
}

const report: string[] = []
// Warm the caches once per latency (and count what a cold start costs), then what a warm fork asks.
for (const delay of [0, 20] as const) {
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const cold = await startAndTransfer(delay, cacheOf[delay])
  const cpu = process.cpuUsage(cpu0)
  report.push(
    `+${delay} ms: cold start → first transfer ${(performance.now() - t0).toFixed(0)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, source's serving included), ${cold.requests} source requests`
  )
  {
    const t1 = performance.now()
    const cpu1 = process.cpuUsage()
    const warm = await startAndTransfer(delay, cacheOf[delay])
    const used = process.cpuUsage(cpu1)
    report.push(
      `+${delay} ms: warm start → first transfer ${(performance.now() - t1).toFixed(0)} ms (CPU ${((used.user + used.system) / 1000).toFixed(0)} ms), ${warm.requests} source requests`
    )
    await warm.fork.stop()
  }
  const aptos = sdkFor(cold.fork.chain)
  await aptos.view({ payload: balanceView })
  let before = proxies[delay].count()
  await transfer(aptos, bob)
  before = proxies[delay].count()
  for (let i = 0; i < 20; i++) await transfer(aptos, bob)
  report.push(
    `+${delay} ms: warm fork, 20 transfers to an account it knows: ${proxies[delay].count() - before} source requests`
  )
  before = proxies[delay].count()
  for (let i = 0; i < 20; i++) await transfer(aptos)
  report.push(
    `+${delay} ms: warm fork, 20 transfers to new accounts: ${proxies[delay].count() - before} source requests`
  )
  before = proxies[delay].count()
  for (let i = 0; i < 50; i++) await aptos.view({ payload: balanceView })
  report.push(`+${delay} ms: warm fork, 50 views: ${proxies[delay].count() - before} source requests`)
  await cold.fork.stop()
}
console.log(`\n${report.join("\n")}\n`)

// In memory, as the source is: the view compares the fork's state path with the source's, not LMDB with memory.
const warmFork = await startAndTransfer(0, cacheOf[0], true)
const forkSdk = sdkFor(warmFork.fork.chain)

// CPU time per view (this process: the SDK client and the node it asks, the same for both), which
// the machine's load does not change the way it changes wall-clock latency: 5 rounds of 100 each,
// alternating, the best round of each.
{
  const cpuPerView = async (aptos: Aptos) => {
    const c0 = process.cpuUsage()
    for (let i = 0; i < 100; i++) await aptos.view({ payload: balanceView })
    const c = process.cpuUsage(c0)
    return (c.user + c.system) / 100
  }
  const best = { fork: Number.POSITIVE_INFINITY, source: Number.POSITIVE_INFINITY }
  for (let round = 0; round < 5; round++) {
    best.fork = Math.min(best.fork, await cpuPerView(forkSdk))
    best.source = Math.min(best.source, await cpuPerView(src))
  }
  console.log(
    `\nthe same view, CPU per request (client + node, best of 5 × 100): fork ${best.fork.toFixed(0)} µs, source ${best.source.toFixed(0)} µs\n`
  )
}

afterAll(async () => {
  await warmFork.fork.stop()
  await source.stop()
  proxies[0].close()
  proxies[20].close()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const once = { time: 0, iterations: 3, warmupIterations: 0 }

test("fork: start → first transfer committed (source on loopback)", async ({ bench }) => {
  await bench.compare(
    bench("cold (empty cache)", async () => {
      const { fork } = await startAndTransfer(0, tmp())
      await fork.stop()
    }),
    bench("warm (the cache of an earlier fork)", async () => {
      const { fork } = await startAndTransfer(0, cacheOf[0])
      await fork.stop()
    }),
    once
  )
})

test("fork: start → first transfer committed (+20 ms per source request)", async ({ bench }) => {
  await bench.compare(
    bench("cold (empty cache)", async () => {
      const { fork } = await startAndTransfer(20, tmp())
      await fork.stop()
    }),
    bench("warm (the cache of an earlier fork)", async () => {
      const { fork } = await startAndTransfer(20, cacheOf[20])
      await fork.stop()
    }),
    once
  )
})

test("the same view (0x1::coin::balance over HTTP, SDK client)", async ({ bench }) => {
  await bench.compare(
    bench("on the fork (warm)", async () => {
      await forkSdk.view({ payload: balanceView })
    }),
    bench("on the source", async () => {
      await src.view({ payload: balanceView })
    }),
    { time: 3000 }
  )
})
