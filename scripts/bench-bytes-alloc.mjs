#!/usr/bin/env node
/**
 * What a short-lived byte array costs to make, by size and by where its bytes live (docs/benchmarks.md,
 * "Session 57"; `src/bcs/slabBytes.ts`): V8 keeps a typed array of up to 64 bytes in its heap and
 * gives a longer one an off-heap backing store (calloc, an extension the scavenges process, a free on
 * the sweeper thread). Each case makes N arrays, writes a byte, and keeps none, so the collectors'
 * share is in the figure. Run after `npm run build`.
 *
 *   node scripts/bench-bytes-alloc.mjs [--count 2000000] [--rounds 3]
 */
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { cliArgs, root } from "./lib.mjs"

const { num } = cliArgs()
const count = num("count", 2_000_000)
const rounds = num("rounds", 3)
const { slabBytes } = await import(pathToFileURL(join(root, "dist", "bcs", "slabBytes.js")).href)

const cases = [
  ["new Uint8Array(64) (in V8's heap)", () => new Uint8Array(64)],
  ["new Uint8Array(65) (off-heap)", () => new Uint8Array(65)],
  ["new Uint8Array(300) (off-heap)", () => new Uint8Array(300)],
  ["Buffer.allocUnsafe(300) (Node's 8 KB pool)", () => Buffer.allocUnsafe(300)],
  ["slabBytes(300) (32 KB slabs)", () => slabBytes(300)]
]

const results = {}
for (let r = 0; r < rounds; r++)
  for (const [name, make] of cases) {
    let sink = 0
    for (let i = 0; i < 10_000; i++) sink += make()[1] // warm-up
    const cpu0 = process.cpuUsage()
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < count; i++) {
      const a = make()
      a[1] = i & 0xff
      sink += a[1]
    }
    const wallNs = Number(process.hrtime.bigint() - t0) / count
    const cpu = process.cpuUsage(cpu0)
    // The process's CPU (every thread: the sweeper's frees included) per array.
    const cpuNs = ((cpu.user + cpu.system) * 1000) / count
    ;(results[name] ??= []).push({ wallNs: Math.round(wallNs), cpuNs: Math.round(cpuNs) })
    if (sink < 0) console.log(sink)
  }
for (const [name, runs] of Object.entries(results))
  console.log(`${name}: wall ${runs.map((r) => r.wallNs).join(", ")} ns; process CPU ${runs.map((r) => r.cpuNs).join(", ")} ns an array`)
