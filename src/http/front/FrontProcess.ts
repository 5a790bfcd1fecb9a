/**
 * The node's front process (issue 22, "no request waits behind the event loop"): a small child
 * process (`frontMain.ts`) holds the listening sockets of the API and the readiness server. It
 * accepts each new API connection and reads its requests' heads: reads of committed state it
 * answers itself from the node's LMDB store when given one (`readsFrom`, `frontReads.ts`); at the
 * first other request it hands the connection — descriptor and bytes read — to this process, whose
 * HTTP server parses those bytes first and serves the connection from then on, as if it had
 * accepted it. The readiness server it answers itself from the state this process sends it four
 * times a second.
 *
 * Why a process: the event loop under a flood of submissions executes blocks, and a new connection
 * accepted by it waits for one turn to be accepted and another to be read; a thread that is busy
 * answers probes no sooner (docs/benchmarks.md, session 29), and Node cannot move a socket between
 * threads, only between processes (SCM_RIGHTS, as node:cluster does). The front stays idle: the
 * clients that submit live here, from their first submission on.
 *
 * A front that dies is started again (after a second) on the same ports; connections already handed
 * over are not affected.
 */
import { type ChildProcess, fork } from "node:child_process"
import { existsSync } from "node:fs"
import type { Server as HttpServer } from "node:http"
import type { Socket } from "node:net"
import { fileURLToPath } from "node:url"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { ListenAddress } from "../HttpConfig.js"
import type { FromFront, FrontReadsSpec, FrontSiteOptions, ReadinessState, ToFront } from "./protocol.js"

export interface FrontProcessService {
  /**
   * Accepts `server`'s connections at `at` for the scope's lifetime: each is handed to `server`
   * (its `connection` event) with its first bytes. Resolves with the address listened on.
   */
  readonly serveApi: (
    at: ListenAddress,
    server: HttpServer,
    settings: ApiSettings
  ) => Effect.Effect<ListenAddress, Error, Scope.Scope>
  /** Answers the readiness server at `at` from `state()`, asked every `READINESS_EVERY_MS`. */
  readonly serveReadiness: (
    at: ListenAddress,
    state: () => Promise<ReadinessState>
  ) => Effect.Effect<ListenAddress, Error, Scope.Scope>
}

/** What a front serving reads needs to answer as the node's server does (`FrontReadsSpec`). */
export type ApiSettings = Omit<FrontReadsSpec, "dataDir">

export interface FrontProcessOptions {
  /** The front's program; by default the build's `frontMain.js` beside this module. */
  readonly scriptUrl?: URL | undefined
  readonly log?: ((line: string) => void) | undefined
  /** How many front processes accept (default `DEFAULT_FRONT_PROCESSES`). */
  readonly processes?: number | undefined
  /**
   * The LMDB ledger directory the node writes: the fronts answer reads of committed state from it
   * themselves (`frontReads.ts`). None: every API connection is handed to the node.
   */
  readonly readsFrom?: string | undefined
}

/**
 * Front processes accepting on the API's socket: one. It answers the probes and reads itself, so
 * they never wait for a handover; what crosses is a submitting client's connection, once, one per
 * turn of the node's event loop (Node's IPC waits for the receiver's acknowledgement of each
 * descriptor): a flood's 512 opening connections took seconds to cross with one front (session
 * 29), a little less with two, whose probes' p99 under a flood was the same (session 30) for a
 * second process's memory (~47 MB at start, ~90–110 MB once it has served reads).
 */
export const DEFAULT_FRONT_PROCESSES = 1

/** The build's front program beside this module (the bundle's `dist/bin/frontMain.js`), if built. */
export const defaultFrontProcessUrl = (): URL | undefined => {
  const url = new URL("./frontMain.js", import.meta.url)
  return existsSync(fileURLToPath(url)) ? url : undefined
}

export const READINESS_EVERY_MS = 250
const RESTART_AFTER_MS = 1000
const LISTEN_WAIT_MS = 15_000
/** The most a site's close waits for its fronts (which give their kept connections 2 s to take their last answers). */
const CLOSE_WAIT_MS = 5000

interface Site {
  readonly options: FrontSiteOptions
  readonly server: HttpServer | undefined
  address: ListenAddress | undefined
  /** The API's listening socket, as the first front process bound it: the others accept on it too. */
  shared: { close?: () => void } | undefined
  onListening: ((r: { readonly address: ListenAddress } | { readonly error: Error }) => void) | undefined
  /** Front processes yet to say they stopped accepting, while the site closes. */
  closing: number
  onClosed: (() => void) | undefined
}

const makeFront = (script: string, log: (line: string) => void, count: number, readsFrom: string | undefined) => {
  const sites = new Map<number, Site>()
  let nextSite = 0
  let closing = false
  const children: Array<ChildProcess | undefined> = Array.from({ length: count }, () => undefined)

  const sendTo = (i: number, m: ToFront, handle?: unknown) => {
    try {
      if (handle === undefined) children[i]?.send(m)
      else children[i]?.send(m, handle as never, { keepOpen: true })
    } catch {}
  }
  /** A site gone: forgotten, and the API's listening socket shared with the fronts closed here. */
  const forget = (id: number, site: Site | undefined) => {
    sites.delete(id)
    site?.shared?.close?.()
  }
  const siteClosed = (id: number) => {
    const site = sites.get(id)
    if (site === undefined || site.onClosed === undefined || --site.closing > 0) return
    forget(id, site)
    site.onClosed()
  }

  const onMessage = (i: number) => (m: FromFront, handle: unknown) => {
    switch (m._tag) {
      case "Connection": {
        sendTo(i, { _tag: "Taken" })
        const socket = handle as Socket | undefined
        const site = sites.get(m.site)
        if (socket === undefined || socket === null) return
        if (site?.server === undefined || closing) return void socket.destroy()
        if (m.head.length > 0) socket.unshift(Buffer.from(m.head, "latin1"))
        site.server.emit("connection", socket)
        return
      }
      case "Listening": {
        const site = sites.get(m.site)
        if (site === undefined) return
        site.address = { host: m.host, port: m.port }
        site.onListening?.({ address: site.address })
        site.onListening = undefined
        return
      }
      case "Shared": {
        const site = sites.get(m.site)
        if (site === undefined || handle === undefined || handle === null) return
        site.shared = handle as Site["shared"]
        for (let j = 1; j < count; j++) sendTo(j, { _tag: "ListenShared", site: m.site, options: site.options }, handle)
        return
      }
      case "ListenFailed": {
        const site = sites.get(m.site)
        if (site === undefined) return
        const error = Object.assign(new Error(m.message), { code: m.code })
        if (site.onListening !== undefined) {
          site.onListening({ error })
          site.onListening = undefined
        } else
          log(
            `movenode: a front process could not listen on ${site.address?.host}:${site.address?.port} again: ${m.message}`
          )
        return
      }
      case "SiteClosed":
        return siteClosed(m.site)
      case "ReadsFailed":
        return log(
          `movenode: a front process cannot serve reads (the node serves them; tried again in ${m.retryInMs / 1000} s): ${m.message}`
        )
    }
  }

  /** Has child `i` (again) serve every site it serves: the first binds, the others accept on the first's socket. */
  const listenAll = (i: number) => {
    for (const [id, site] of sites) {
      if (site.options.kind === "api" && site.shared !== undefined)
        sendTo(i, { _tag: "ListenShared", site: id, options: site.options }, site.shared)
      else if (i === 0) {
        const at = site.address ?? { host: site.options.host, port: site.options.port }
        sendTo(i, { _tag: "Listen", site: id, options: { ...site.options, host: at.host, port: at.port } })
      }
    }
  }

  const start = (i: number) => {
    // A lean process: none of the node's flags (heap sizes, --import of benchmarks' monitors).
    const c = fork(script, [], { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"], serialization: "json" })
    children[i] = c
    c.on("message", onMessage(i))
    c.on("error", (e) => log(`movenode: a front process failed: ${e.message}`))
    c.on("exit", (code, signal) => {
      if (children[i] !== c) return
      children[i] = undefined
      // A site closing does not wait for a process that is gone.
      for (const id of [...sites.keys()]) siteClosed(id)
      if (closing) return
      log(`movenode: a front process exited (${signal ?? code}); starting another in ${RESTART_AFTER_MS} ms`)
      setTimeout(() => {
        if (closing) return
        start(i)
        listenAll(i)
      }, RESTART_AFTER_MS).unref()
    })
    // The scope stops it; the node's process does not wait for it otherwise.
    c.unref()
    ;(c.channel as { unref?: () => void } | undefined)?.unref?.()
  }
  for (let i = 0; i < count; i++) start(i)

  const open = (options: FrontSiteOptions, server: HttpServer | undefined) =>
    Effect.acquireRelease(
      Effect.callback<{ readonly id: number; readonly address: ListenAddress }, Error>((resume) => {
        const id = nextSite++
        // A front that cannot start (no program, no process) fails the start instead of holding it.
        const timer = setTimeout(() => {
          const site = sites.get(id)
          if (site?.onListening === undefined) return
          site.onListening({
            error: new Error(
              `the front process did not listen on ${options.host}:${options.port} within ${LISTEN_WAIT_MS} ms`
            )
          })
          site.onListening = undefined
        }, LISTEN_WAIT_MS)
        sites.set(id, {
          options,
          server,
          address: undefined,
          shared: undefined,
          onListening: (r) => {
            clearTimeout(timer)
            if ("error" in r) {
              sites.delete(id)
              resume(Effect.fail(r.error))
            } else resume(Effect.succeed({ id, address: r.address }))
          },
          closing: 0,
          onClosed: undefined
        })
        sendTo(0, { _tag: "Listen", site: id, options })
      }),
      ({ id }) =>
        Effect.callback<void>((resume) => {
          const site = sites.get(id)
          const live = children.flatMap((c, i) => (c === undefined ? [] : [i]))
          const asked = site?.options.kind === "api" ? live : live.filter((i) => i === 0)
          if (site === undefined || asked.length === 0) {
            forget(id, site)
            return resume(Effect.void)
          }
          site.closing = asked.length
          // Ref'd, unlike the channel: the process does not end (its other finalizers unrun) while
          // a front closes; and bounded: a front that does not answer is not waited for past it.
          const timer = setTimeout(() => {
            forget(id, site)
            resume(Effect.void)
          }, CLOSE_WAIT_MS)
          site.onClosed = () => {
            clearTimeout(timer)
            resume(Effect.void)
          }
          for (const i of asked) sendTo(i, { _tag: "CloseSite", site: id })
        })
    )

  const serveApi: FrontProcessService["serveApi"] = (at, server, settings) => {
    const reads: FrontReadsSpec | undefined = readsFrom === undefined ? undefined : { dataDir: readsFrom, ...settings }
    return Effect.map(open({ host: at.host, port: at.port, kind: "api", reads }, server), ({ address }) => address)
  }

  const serveReadiness: FrontProcessService["serveReadiness"] = (at, state) =>
    Effect.gen(function* () {
      const { id, address } = yield* open({ host: at.host, port: at.port, kind: "readiness" }, undefined)
      let asking = false
      const pump = () => {
        if (asking) return
        asking = true
        state().then(
          (s) => {
            asking = false
            sendTo(0, { _tag: "Readiness", site: id, state: s })
          },
          () => {
            asking = false
          }
        )
      }
      pump()
      const timer = setInterval(pump, READINESS_EVERY_MS)
      timer.unref()
      yield* Effect.addFinalizer(() => Effect.sync(() => clearInterval(timer)))
      return address
    })

  const close = () =>
    Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            closing = true
            if (c === undefined || c.exitCode !== null || c.signalCode !== null) return resolve()
            const timer = setTimeout(() => c.kill("SIGKILL"), 2000)
            c.once("exit", () => {
              clearTimeout(timer)
              resolve()
            })
            c.disconnect()
          })
      )
    ).then(() => undefined)
  return { serveApi, serveReadiness, close }
}

export class FrontProcess extends Context.Service<FrontProcess, FrontProcessService>()("movenode/http/FrontProcess") {
  /** Fails when there is no front program (an unbuilt checkout without `scriptUrl`). */
  static readonly layer = (options: FrontProcessOptions = {}): Layer.Layer<FrontProcess, Error> =>
    Layer.effect(
      FrontProcess,
      Effect.gen(function* () {
        const url = options.scriptUrl ?? defaultFrontProcessUrl()
        if (url === undefined)
          return yield* Effect.fail(
            new Error("the front process's program (frontMain.js) is not built: run `npm run build`")
          )
        const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
        const front = yield* Effect.acquireRelease(
          Effect.sync(() =>
            makeFront(
              fileURLToPath(url),
              log,
              Math.max(1, options.processes ?? DEFAULT_FRONT_PROCESSES),
              options.readsFrom
            )
          ),
          (f) => Effect.promise(() => f.close())
        )
        return FrontProcess.of({ serveApi: front.serveApi, serveReadiness: front.serveReadiness })
      })
    )
}
