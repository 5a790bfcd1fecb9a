#!/usr/bin/env node
// Resident memory of the `movenode` command as each launch path starts it, for the launcher
// (src/bin.ts): `npm start`'s command (`node --max-semi-space-size=8 dist/bin/movenode.js run`),
// the bin run as `movenode` (`node dist/bin/movenode.js run`: on Node.js with process.execve it
// re-executes itself with the flag, on older Node.js it runs without it), each on a fresh data dir.
// Per launch: start to the first 200 on GET /v1, VmRSS after start, then `wrk -t1 -c32` for
// DURATION on balance and module alternately, VmRSS and VmHWM after it. Needs `npm run build` and wrk.
//
//   node scripts/bench-launcher.mjs [--duration 10s] [--rounds 2] [--root DIR] [--genesis FILE]
//   --root: measure the build of another checkout (an older commit, for comparison); --genesis is
//   passed to `run` (older builds had no default genesis)
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { freePort, memoryKb, requireCommand, root } from "./lib.mjs"

requireCommand("wrk")

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? fallback : process.argv[i + 1]
}
const duration = arg("duration", "10s")
const rounds = Number(arg("rounds", "2"))
const bin = join(resolve(arg("root", root)), "dist/bin/movenode.js")
const genesisArgs = arg("genesis", undefined) === undefined ? [] : ["--genesis", resolve(arg("genesis", ""))]

const status = (pid) => {
  const kb = memoryKb(pid)
  return { rss: (kb.VmRSS ?? 0) / 1024, hwm: (kb.VmHWM ?? 0) / 1024 }
}
const until = async (url, ms) => {
  const t0 = Date.now()
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return Date.now() - t0
    } catch {}
    if (Date.now() - t0 > ms) throw new Error(`no answer from ${url}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

const launches = [
  ["npm start: node --max-semi-space-size=8 movenode.js", ["--max-semi-space-size=8", bin]],
  [`bin: node movenode.js (process.execve ${typeof process.execve === "function" ? "present" : "absent"})`, [bin]]
]
for (let r = 0; r < rounds; r++)
  for (const [name, args] of launches) {
    const dir = mkdtempSync(join(tmpdir(), "movenode-launcher-"))
    const port = await freePort()
    const t0 = Date.now()
    const child = spawn(process.execPath, [...args, "run", ...genesisArgs, "--data-dir", dir, "--listen", `127.0.0.1:${port}`, "--quiet"], {
      stdio: "ignore"
    })
    try {
      const base = `http://127.0.0.1:${port}/v1`
      await until(base, 20_000)
      const startMs = Date.now() - t0
      await new Promise((r) => setTimeout(r, 500))
      const atStart = status(child.pid)
      for (const path of ["/accounts/0xa550c18/balance/0x1::aptos_coin::AptosCoin", "/accounts/0x1/module/coin"])
        execFileSync("wrk", ["-t1", "-c32", `-d${duration}`, base + path], { stdio: "ignore" })
      const after = status(child.pid)
      console.log(
        `${name}: first 200 after ${startMs} ms; VmRSS ${atStart.rss.toFixed(1)} MB after start, ` +
          `${after.rss.toFixed(1)} MB after the load (VmHWM ${after.hwm.toFixed(1)} MB)`
      )
    } finally {
      child.kill("SIGTERM")
      await new Promise((r) => child.once("exit", r))
      rmSync(dir, { recursive: true, force: true })
    }
  }
