/**
 * What the scripts share (each script's own header says what it measures or checks):
 *
 *   root, loadDist()          the repository and its built library (`npm run build` first)
 *   cliArgs(argv?)            `--name value` options: `arg` (string), `num` (number), `has` (a flag)
 *   sleep(ms), freePort()
 *   stopOnExit(child)         a child process (a node the script started) is sent SIGTERM when the
 *                             script exits, an uncaught error included, rather than left running
 *   openLoop({ rate, seconds, senders, send, tick?, start? })
 *                             an open-loop load: an operation falls due every 1/rate s whatever the
 *                             node does, each to a free sender, oldest first; how many went late
 *   fetchJson(url, init?)     `{ status, body }` of a JSON answer
 *   failRun(message)          a checking script's verdict on its first inconsistency: one JSON line
 *                             `{ ok: false, message }`, exit code 1
 *   spawnMovenode(args, options?)
 *                             the built `movenode` as a child process, resolved once its banner
 *                             names the API (and the GraphQL endpoint, when asked for)
 *   startMovenode(args, options?), stopMovenode(child, killAfterMs?)
 *                             the built `movenode` started as `npm start` starts it (stopped if the
 *                             script exits), and stopped: SIGTERM, then SIGKILL
 *   waitForNode(child, url, options?)
 *                             until a node the script started answers `url` with 200 (bounded; fails
 *                             at once if the node exits)
 *   localSigners(lib, n)      the local chain's first n pre-funded accounts (the derivation behind
 *                             `--accounts`), signing with node:crypto's Ed25519 (tens of µs a
 *                             signature, so a generator takes little of the CPU it shares with the node)
 *   aptTransfer(lib, from, to, amount, expiration, options?)
 *                             a signed `0x1::aptos_account::transfer` from a signer (its `next`
 *                             sequence number, then advanced): the BCS bytes and the hash
 *   loadAverage()             /proc/loadavg's three figures, for a result's context
 *   median(xs)                the median (with an even count, the mean of the two middle values)
 *   cpuSecs(pid, {mainThread}) a process's (or its main thread's) CPU seconds so far (/proc);
 *                             cpuSecsOfStat(text) the same from a /proc stat file already read
 *   memoryKb(pid)             /proc/<pid>/status's kB figures by name (VmRSS, VmHWM, RssAnon, …)
 *   threadCpuNs()             the calling thread's CPU time so far, in nanoseconds
 *                             (/proc/thread-self/schedstat: not the machine's load, no 10 ms ticks)
 *   threadCpu(pid), cpuSplit(before, after)
 *                             a process's CPU seconds per thread (/proc), and what each part took
 *                             between two readings: the main thread (the event loop), the busiest
 *                             other thread (the indexer's worker, when one runs) and the rest (GC
 *                             helpers, libuv's pool)
 *
 * Scripts run on the built bundle rather than the sources so that they measure what `npm start` runs.
 */
import { spawn, spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { createPrivateKey, sign as nodeSign } from "node:crypto"
import { createServer } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { ed25519 } from "@noble/curves/ed25519.js"

export const root = join(dirname(fileURLToPath(import.meta.url)), "..")

let dist
/** The built library (`dist/index.js`), loaded once. */
export const loadDist = () => (dist ??= import(pathToFileURL(join(root, "dist", "index.js")).href))

/** `--name value` options of a command line (`process.argv.slice(2)` by default). */
export const cliArgs = (argv = process.argv.slice(2)) => {
  const at = (name) => argv.indexOf(`--${name}`)
  return {
    argv,
    arg: (name, fallback) => (at(name) < 0 ? fallback : argv[at(name) + 1]),
    num: (name, fallback) => (at(name) < 0 ? fallback : Number(argv[at(name) + 1])),
    has: (name) => at(name) >= 0
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Children to stop when this process exits (`stopOnExit`); one `exit` listener for all of them. */
const children = new Set()
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM")
})

/**
 * Sends `child` SIGTERM when this script exits, however it exits (an uncaught error or a failed
 * assertion included): a node left running would hold its ports, its data directory and any pipe
 * the script's output went to (a `| tail` would then wait for it). Returns `child`.
 */
export const stopOnExit = (child) => {
  children.add(child)
  child.once("exit", () => children.delete(child))
  return child
}

/**
 * The built `movenode` (`dist/bin/movenode.js`, or `bin`: a staged copy of it) started as `npm start`
 * starts it (Node with the launcher's one flag, `--max-semi-space-size=8`): `nodeArgs` are Node's,
 * `args` movenode's. Its stdout is ignored unless `stdout` (a descriptor) is given, its stderr is the
 * script's unless `stderr: "pipe"`; it is stopped if the script exits (`stopOnExit`). Returns the
 * child process.
 */
export const startMovenode = (
  args,
  { nodeArgs = [], stdout = "ignore", stderr = "inherit", env = process.env, bin = join(root, "dist", "bin", "movenode.js") } = {}
) =>
  stopOnExit(
    spawn(process.execPath, ["--max-semi-space-size=8", ...nodeArgs, bin, ...args], {
      stdio: ["ignore", stdout, stderr],
      env
    })
  )

/** Stops a node the script started: SIGTERM, SIGKILL after `killAfterMs`; resolves once it has exited. */
export const stopMovenode = async (child, killAfterMs = 15_000) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once("exit", r))
  child.kill("SIGTERM")
  const killer = setTimeout(() => child.kill("SIGKILL"), killAfterMs)
  await exited
  clearTimeout(killer)
}

/**
 * Fails if a node the script started has exited (a start that failed: its own message is on
 * stderr), so that no wait for it goes on forever.
 */
export const assertRunning = (child) => {
  if (child.exitCode !== null || child.signalCode !== null)
    throw new Error(`movenode exited before it was ready (${child.exitCode !== null ? `code ${child.exitCode}` : child.signalCode})`)
}

/**
 * Waits until a node the script started answers `url` with 200, polling every `intervalMs`
 * (`assertRunning` each time), for `timeoutMs` at most. `output()`, when given, is what the node
 * printed (a script that pipes its stderr): quoted in the error when it exits or never answers.
 */
export const waitForNode = async (child, url, { intervalMs = 5, timeoutMs = 120_000, output } = {}) => {
  const until = performance.now() + timeoutMs
  const said = () => (output === undefined ? "" : `; it said: ${output()}`)
  for (;;) {
    try {
      assertRunning(child)
    } catch (e) {
      throw new Error(`${e.message}${said()}`)
    }
    try {
      if ((await fetch(url)).status === 200) return
    } catch {}
    if (performance.now() > until) throw new Error(`movenode did not answer ${url} within ${timeoutMs / 1000} s${said()}`)
    await sleep(intervalMs)
  }
}

/**
 * Drives an open-loop load for `seconds`: operation k (from 0) falls due (k + 1)/rate s after the
 * start whatever the node does, and goes to a free sender, oldest first. One that falls due while
 * every sender still waits for its last waits for one, and counts as `late` when it is sent more
 * than one interval after it fell due: a slow spell shows as lateness (and in any latency the
 * caller counts from `dueMs`) instead of silently lowering the offered rate (coordinated omission).
 *
 * `send(sender, dueMs, k)` runs operation k and must not reject (`dueMs`: when it fell due, in ms
 * after `start`, a performance.now() reading the caller may give; now by default); its sender is
 * free again when it settles. `tick(elapsedMs)`, awaited once a turn (every ~1 ms), is the
 * caller's place for its own readings. Resolves once every operation sent has settled: `start`,
 * `sent`, `late`, `lateMaxMs` (the longest any operation waited after falling due), `unsent` (due
 * when the time ran out, never sent).
 */
export const openLoop = async ({ rate, seconds, senders, send, tick, start = performance.now() }) => {
  const interval = 1000 / rate
  const free = [...senders]
  /** Due times (ms after `start`) of the operations due and not yet sent, oldest first. */
  const waiting = []
  const inflight = new Set()
  let due = 0
  let sent = 0
  let late = 0
  let lateMaxMs = 0
  for (let elapsed = 0; elapsed < seconds * 1000; elapsed = performance.now() - start) {
    if (tick !== undefined) await tick(elapsed)
    for (const now = Math.floor(elapsed / interval); due < now; due++) waiting.push((due + 1) * interval)
    while (waiting.length > 0 && free.length > 0) {
      const dueMs = waiting.shift()
      const sender = free.shift()
      const waited = performance.now() - start - dueMs
      if (waited > interval) late++
      if (waited > lateMaxMs) lateMaxMs = waited
      const p = send(sender, dueMs, sent++).finally(() => {
        free.push(sender)
        inflight.delete(p)
      })
      inflight.add(p)
    }
    await sleep(1)
  }
  await Promise.all(inflight)
  return { start, sent, late, lateMaxMs: +lateMaxMs.toFixed(1), unsent: waiting.length }
}

/** `fetch` of a JSON answer: its status and parsed body. */
export const fetchJson = async (url, init) => {
  const r = await fetch(url, init)
  return { status: r.status, body: await r.json() }
}

/** Ends a checking script on its first inconsistency: one JSON line `{ ok: false, message }`, exit code 1. */
export const failRun = (message) => {
  console.log(JSON.stringify({ ok: false, message }))
  process.exit(1)
}

/**
 * Ends a script at its start when a program it drives (wrk, haproxy) is not installed, naming the
 * Debian package, instead of a stack trace from the first `execFileSync` minutes into the run.
 */
export const requireCommand = (command, debianPackage = command) => {
  const r = spawnSync(command, ["--version"], { stdio: "ignore" })
  if (r.error?.code === "ENOENT") failRun(`${command} is not installed: apt-get install ${debianPackage}`)
}

/** A free port (bound once, released), for a node that has to be told its port before it starts. */
export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/**
 * Starts `node dist/bin/movenode.js ...args` (stdout and stderr piped) and resolves with the child
 * once its banner has printed the API's URL (`child.api`, ending in `/v1`) and, with
 * `{ graphql: true }`, the GraphQL endpoint's (`child.graphql`); rejects with its stderr if it exits
 * first. `nodeArgs` go to Node itself (e.g. `--cpu-prof`).
 */
export const spawnMovenode = (args, { graphql = false, env = process.env, nodeArgs = [] } = {}) =>
  new Promise((resolve, reject) => {
    const child = stopOnExit(spawn(process.execPath, [...nodeArgs, join(root, "dist", "bin", "movenode.js"), ...args], { stdio: ["ignore", "pipe", "pipe"], env }))
    let out = ""
    let err = ""
    child.stderr.on("data", (d) => (err = (err + d).slice(-4000)))
    child.stdout.on("data", (d) => {
      if (child.api !== undefined) return
      out += d
      const api = /API\s+(http:\/\/\S+\/v1)/.exec(out)
      const gql = /GraphQL\s+(http:\/\/\S+\/v1\/graphql)/.exec(out)
      if (api !== null && (!graphql || gql !== null)) {
        child.graphql = gql?.[1]
        child.api = api[1]
        resolve(child)
      }
    })
    child.on("exit", (code, signal) => {
      if (child.api === undefined) reject(new Error(`movenode exited (${code ?? signal}) before listening: ${err.slice(0, 2000)}`))
    })
  })

const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex")

/** A signer over an Ed25519 private key: `{ address, publicKey, privateKey, sign, next }`. */
export const signerOf = ({ address, privateKey }) => {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, privateKey]), format: "der", type: "pkcs8" })
  return { address, privateKey, publicKey: ed25519.getPublicKey(privateKey), sign: (m) => new Uint8Array(nodeSign(null, m, key)), next: 0n }
}

/** The local chain's first `n` pre-funded accounts as signers (sequence numbers from 0). */
export const localSigners = (lib, n) => lib.localKeys({ ...lib.defaultLocalChainConfig, accounts: n }).accounts.map(signerOf)

/**
 * A signed APT transfer of `amount` octas from `from` (at `sequenceNumber`, default `from.next++`)
 * to the address `to`, expiring at `expiration` (seconds, bigint): `{ raw, bytes, hash }`, the hash
 * as `0x…` hex.
 */
export const aptTransfer = (lib, from, to, amount, expiration, { sequenceNumber, chainId = 4, maxGasAmount = 20_000n, gasUnitPrice = 100n } = {}) => {
  const { Bcs, signingMessage, signedTransactionCodec, addressFromNumber, toHex, transactionHashOfBytes } = lib
  const raw = {
    sender: from.address,
    sequenceNumber: sequenceNumber ?? from.next++,
    payload: {
      _tag: "EntryFunction",
      entryFunction: { module: { address: addressFromNumber(1), name: "aptos_account" }, function: "transfer", typeArgs: [], args: [to, Bcs.encode(Bcs.u64, BigInt(amount))] }
    },
    maxGasAmount,
    gasUnitPrice,
    expirationTimestampSecs: expiration,
    chainId
  }
  const bytes = Bcs.encode(signedTransactionCodec, {
    rawTransaction: raw,
    authenticator: { _tag: "Ed25519", publicKey: from.publicKey, signature: from.sign(signingMessage(raw)) }
  })
  // The transaction's hash covers the `Transaction::UserTransaction` variant tag (0) before the bytes.
  const tagged = new Uint8Array(bytes.length + 1)
  tagged.set(bytes, 1)
  return { raw, bytes, hash: `0x${toHex(transactionHashOfBytes(tagged))}` }
}

/** The median (with an even count, the mean of the two middle values). */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const h = s.length >> 1
  return s.length % 2 === 1 ? s[h] : (s[h - 1] + s[h]) / 2
}

/**
 * One `loadgen.mjs throughput --seconds S` run of the checkout at `cwd` (its own generator), with
 * `env` added to this process's environment: its JSON result (the last line it prints). Stopped after
 * the load plus 240 s (the node's start and loadgen's own bounded waits). For the scripts that compare
 * runs (compare-builds.mjs, compare-env.mjs).
 */
export const runThroughput = ({ cwd, seconds, env = {} }) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/loadgen.mjs", "throughput", "--seconds", String(seconds)], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.stdout.setEncoding("utf8").on("data", (s) => {
      out = (out + s).slice(-64 * 1024)
    })
    const timer = setTimeout(() => child.kill("SIGTERM"), (seconds + 240) * 1000)
    child.on("exit", (code, signal) => {
      clearTimeout(timer)
      const last = out.trim().split("\n").pop() ?? ""
      try {
        if (code !== 0) throw new Error(`exit ${code ?? signal}`)
        resolve(JSON.parse(last))
      } catch (e) {
        reject(new Error(`loadgen in ${cwd}: ${e instanceof Error ? e.message : String(e)}: ${last.slice(0, 200)}`))
      }
    })
  })

/** The load average's three figures as /proc/loadavg prints them ("1.02 0.98 0.91"). */
export const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")

/**
 * User + system CPU seconds so far of process `pid`, or with `mainThread` of its main thread alone
 * (the event loop's: /proc/<pid>/task/<pid>/stat); clock ticks of 10 ms.
 */
export const cpuSecs = (pid, { mainThread = false } = {}) =>
  cpuSecsOfStat(readFileSync(`/proc/${pid}${mainThread ? `/task/${pid}` : ""}/stat`, "utf8"))

/**
 * User + system CPU seconds so far of the processes whose parent is `pid` (Linux /proc): the node's
 * front process and the extra acceptors' helpers, which `cpuSecs(pid)` does not count.
 */
export const childrenCpuSecs = (pid) => {
  let secs = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) secs += cpuSecsOfStat(stat)
    } catch {}
  }
  return secs
}

/** User + system CPU seconds in the text of a /proc `stat` file (a process's or a thread's). */
export const cpuSecsOfStat = (stat) => {
  // After the command's name, which is in parentheses and may itself hold ") ".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** The kB figures of /proc/<pid>/status by name (`VmRSS`, `VmHWM`, `RssAnon`, `RssFile`, …). */
export const memoryKb = (pid) =>
  Object.fromEntries(
    Array.from(readFileSync(`/proc/${pid}/status`, "utf8").matchAll(/^(\w+):\s+(\d+) kB$/gm), (m) => [m[1], Number(m[2])])
  )

/** The calling thread's CPU time so far, ns (/proc/thread-self/schedstat). */
export const threadCpuNs = () => Number(readFileSync("/proc/thread-self/schedstat", "latin1").split(" ")[0])

/** CPU seconds (user + system) so far of every thread of `pid`, by thread id (/proc/<pid>/task/<tid>/stat, 10 ms ticks). */
export const threadCpu = (pid) => {
  const out = new Map()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(Number(tid), cpuSecsOfStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")))
    } catch {}
  }
  return out
}

/**
 * The CPU seconds between two `threadCpu` readings of `pid`: `main` (the event loop's thread),
 * `busiestOther` (the thread other than main that used the most: the indexer's worker thread when
 * one runs), `secondOther` (the next: the mempool's admission worker under a load of submissions),
 * `rest` (every thread but main and the busiest other: V8's GC and compiler helpers, libuv's pool —
 * and the second), `restBeyondTwo` (the same without the second) and `total`. Threads carry no
 * names here (all `node`), hence "busiest": the figures name the roles they had in the runs measured.
 */
export const cpuSplit = (pid, before, after) => {
  const delta = [...after].map(([tid, secs]) => [tid, secs - (before.get(tid) ?? 0)])
  const main = delta.find(([tid]) => tid === pid)?.[1] ?? 0
  const others = delta.filter(([tid]) => tid !== pid).map(([, secs]) => secs).sort((a, b) => b - a)
  const r = (x) => Math.round(x * 100) / 100
  const total = main + others.reduce((a, b) => a + b, 0)
  const first = others[0] ?? 0
  const second = others[1] ?? 0
  return {
    main: r(main),
    busiestOther: r(first),
    secondOther: r(second),
    rest: r(total - main - first),
    restBeyondTwo: r(total - main - first - second),
    total: r(total)
  }
}
