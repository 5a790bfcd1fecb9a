#!/usr/bin/env node
/**
 * The fixed cost of a block (issue 22, latency at 100 transfers/s, where every transfer is its own
 * block), in one process, on the built library (`npm run build` first), over an LMDB data
 * directory with the indexer, manual mining:
 *
 *   1. warm-up: 2,000 transfers in blocks of 250, then 300 empty blocks (not measured);
 *   2. `--blocks` empty blocks (block metadata and block end only), each mined alone;
 *   3. `--blocks` blocks of one transfer (submitted through POST /v1/transactions outside the
 *      measured part), each mined alone.
 *
 * For each of 2 and 3, per block: the CPU of the whole process and of the event loop's thread
 * (its schedstat, nanoseconds), and how often the event loop's thread gave up
 * its core (voluntary: waits) or lost it (preempted) while the block was made.
 *
 *   node scripts/bench-small-blocks.mjs [--blocks 1000] [--profile PREFIX]
 *
 * `--profile PREFIX`: a CPU profile of each measured phase (`PREFIX-empty.cpuprofile`,
 * `PREFIX-one.cpuprofile`, sampled every 200 µs).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { aptTransfer, cliArgs, loadAverage, loadDist, localSigners, threadCpuNs } from "./lib.mjs"

const lib = await loadDist()
const { LocalChain, MiningMode } = lib
const { num, arg } = cliArgs()
const BLOCKS = num("blocks", 1000)
const PROFILE = arg("profile", undefined)

const switches = () => {
  const status = readFileSync("/proc/thread-self/status", "utf8")
  return [Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)[1]), Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)[1])]
}
const processUs = () => {
  const u = process.cpuUsage()
  return u.user + u.system
}

const dir = mkdtempSync(join(tmpdir(), "movenode-small-blocks-"))
const signers = localSigners(lib, 64)
const scope = Effect.runSync(Scope.make())
const results = []
try {
  const info = await Effect.runPromise(
    Scope.provide(scope)(LocalChain.spawn({ accounts: 64, dataDir: join(dir, "chain"), mining: MiningMode.manual }))
  )
  const expiration = BigInt(Math.floor(Date.now() / 1000) + 3600)
  let n = 0
  const nextTransfer = () => aptTransfer(lib, signers[n % 64], signers[(n++ + 1) % 64].address, 1n, expiration).bytes
  const submit = async (body) => {
    const r = await fetch(`${info.apiUrl}/transactions`, { method: "POST", headers: { "content-type": "application/x.aptos.signed_transaction+bcs" }, body })
    if (r.status !== 202) throw new Error(`submit: ${r.status} ${await r.text()}`)
  }
  for (let w = 0; w < 8; w++) {
    await Promise.all(Array.from({ length: 250 }, () => submit(nextTransfer())))
    await Effect.runPromise(info.mine)
  }
  for (let w = 0; w < 300; w++) await Effect.runPromise(info.mine)

  for (const kind of ["empty", "one"]) {
    const signed = kind === "one" ? Array.from({ length: BLOCKS }, nextTransfer) : []
    const session = PROFILE === undefined ? undefined : new Session()
    if (session !== undefined) {
      session.connect()
      await session.post("Profiler.enable")
      await session.post("Profiler.setSamplingInterval", { interval: 200 })
      await session.post("Profiler.start")
    }
    let processTotal = 0
    let mainTotal = 0
    let waits = 0
    let preempted = 0
    for (let i = 0; i < BLOCKS; i++) {
      if (kind === "one") await submit(signed[i])
      const [p0, m0, s0] = [processUs(), threadCpuNs(), switches()]
      const block = await Effect.runPromise(info.mine)
      const s1 = switches()
      processTotal += processUs() - p0
      mainTotal += threadCpuNs() - m0
      waits += s1[0] - s0[0]
      preempted += s1[1] - s0[1]
      const expected = kind === "one" ? 2n : 1n
      if (block.lastVersion - block.firstVersion !== expected) throw new Error(`a ${kind} block held ${block.lastVersion - block.firstVersion + 1n} versions`)
    }
    if (session !== undefined) {
      const { profile } = await session.post("Profiler.stop")
      writeFileSync(`${PROFILE}-${kind}.cpuprofile`, JSON.stringify(profile))
      session.disconnect()
    }
    results.push({
      blocks: kind === "one" ? "one transfer" : "empty",
      count: BLOCKS,
      processMsPerBlock: +(processTotal / 1000 / BLOCKS).toFixed(3),
      eventLoopMsPerBlock: +(mainTotal / 1e6 / BLOCKS).toFixed(3),
      eventLoopWaitsPerBlock: +(waits / BLOCKS).toFixed(2),
      eventLoopPreemptedPerBlock: +(preempted / BLOCKS).toFixed(2)
    })
  }
} finally {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
}
console.table(results)
console.log(JSON.stringify({ load: loadAverage(), results }))
