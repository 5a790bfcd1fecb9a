/**
 * The fork's source, over HTTP: any Aptos REST API (a fullnode, another movenode). Every call is
 * bounded (a timeout per attempt, a few attempts) and retried with exponential backoff on 429, 5xx
 * and connection failures, so a slow or flaky source gives an error after a bounded time, never a
 * hang. Nothing here caches: `ForkStateSource` does.
 *
 * What is asked (docs/fork.md): `GET /v1` (chain id, latest version), `GET /v1/blocks/by_version/V`
 * (the block holding the pinned version), `POST /v1/experimental/state_values/raw?ledger_version=V`
 * (any state key: BCS StateKey in, BCS StateValue with its metadata out; 404
 * `state_value_not_found` = absent), `GET /v1/accounts/A/modules?ledger_version=V` in BCS (the
 * framework's modules in bulk at start), and the history endpoints for versions at or below V.
 */
import { BcsReader, toHex } from "../bcs/index.js"
import { Bcs } from "../bcs/index.js"
import type { AccountAddress } from "../domain/AccountAddress.js"
import { addressToLongString } from "../domain/AccountAddress.js"
import { type StateValue, stateValueCodec } from "../domain/StateValueCodec.js"
import { describeStateKey } from "./describeStateKey.js"
import { accessPathBytes } from "../domain/StateKeyCodec.js"
import { BcsWriter } from "../bcs/index.js"

export interface ForkSourceOptions {
  /** The source's REST API (`http://host:8080` or `…/v1`). */
  readonly url: string
  /** Extra headers on every request (an API key: `Authorization: Bearer …`). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Attempts per call (default 6). */
  readonly attempts?: number | undefined
  /** Per attempt (default 15 s). */
  readonly timeoutMs?: number | undefined
  /** The first backoff; doubled per retry, capped at 5 s (default 100 ms). */
  readonly backoffMs?: number | undefined
}

/** Why the source could not answer (after the retries), naming what was asked. */
export class ForkSourceError extends Error {
  readonly _tag = "ForkSourceError"
  constructor(message: string) {
    super(message)
    this.name = "ForkSourceError"
  }
}

/** What `GET /v1` says, the fields a fork needs. */
export interface SourceLedgerInfo {
  readonly chainId: number
  readonly ledgerVersion: bigint
  readonly oldestLedgerVersion: bigint
  readonly oldestBlockHeight: bigint
  readonly blockHeight: bigint
  readonly epoch: bigint
  readonly ledgerTimestampUsec: bigint
}

export interface SourceBlock {
  readonly height: bigint
  readonly firstVersion: bigint
  readonly lastVersion: bigint
  readonly timestampUsec: bigint
}

/** A raw state value at the pinned version, or `undefined`: the source has none there. */
export type RawAnswer = StateValue | undefined

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const retryable = (status: number) => status === 429 || status >= 500

/** `http://host:port[/v1]` → `http://host:port/v1` (no trailing slash). */
export const apiBaseOf = (url: string): string => {
  const trimmed = url.replace(/\/+$/, "")
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`
}

/** Parses `Name: value` (`--fork-header`). */
export const parseHeader = (s: string): readonly [string, string] | undefined => {
  const i = s.indexOf(":")
  if (i <= 0) return undefined
  const name = s.slice(0, i).trim()
  const value = s.slice(i + 1).trim()
  return /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name) ? [name, value] : undefined
}

export interface ForkSourceClient {
  readonly base: string
  /** Requests sent (attempts included): what the benchmarks count. */
  readonly requests: () => number
  readonly ledgerInfo: () => Promise<SourceLedgerInfo>
  readonly blockByVersion: (version: bigint) => Promise<SourceBlock>
  /** The value of `keyBytes` (BCS StateKey) at `version`; undefined = absent there. */
  readonly rawStateValue: (keyBytes: Uint8Array, version: bigint) => Promise<RawAnswer>
  /** Every module of `address` at `version`: BCS(StateKey) of each and its bytes. */
  readonly modules: (
    address: AccountAddress,
    version: bigint
  ) => Promise<ReadonlyArray<{ readonly keyBytes: Uint8Array; readonly bytes: Uint8Array }>>
  /** A GET of `path` (under /v1) as JSON, or undefined on a 404. */
  readonly getJson: (path: string) => Promise<unknown>
  /** A GET of `path` (under /v1) as BCS, or undefined on a 404. */
  readonly getBcs: (path: string) => Promise<Uint8Array | undefined>
  /** The same with the page's cursor (the `X-Aptos-Cursor` header), for paged listings. */
  readonly getBcsPage: (
    path: string
  ) => Promise<{ readonly bytes: Uint8Array | undefined; readonly cursor: string | undefined }>
}

export const makeForkSourceClient = (options: ForkSourceOptions): ForkSourceClient => {
  const base = apiBaseOf(options.url)
  const attempts = Math.max(1, options.attempts ?? 6)
  const timeoutMs = options.timeoutMs ?? 15_000
  const backoffMs = options.backoffMs ?? 100
  let requests = 0

  /** One call with retries; `what` names it in errors. Returns the final response (any status < 500 but 429). */
  const call = async (
    what: string,
    path: string,
    init: RequestInit
  ): Promise<{ status: number; body: Uint8Array; headers: Headers }> => {
    let last = ""
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(Math.min(5000, backoffMs * 2 ** (attempt - 1)))
      requests++
      try {
        const res = await fetch(`${base}${path}`, {
          ...init,
          headers: { ...options.headers, ...(init.headers as Record<string, string>) },
          signal: AbortSignal.timeout(timeoutMs)
        })
        const body = new Uint8Array(await res.arrayBuffer())
        if (!retryable(res.status)) return { status: res.status, body, headers: res.headers }
        last = `HTTP ${res.status} ${new TextDecoder().decode(body.subarray(0, 300))}`
      } catch (e) {
        last =
          e instanceof Error
            ? `${e.name}: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}`
            : String(e)
      }
    }
    throw new ForkSourceError(`the fork source ${base} could not answer ${what} after ${attempts} attempts: ${last}`)
  }

  const errorOf = (what: string, r: { status: number; body: Uint8Array }) =>
    new ForkSourceError(
      `the fork source ${base} answered ${what} with HTTP ${r.status}: ${new TextDecoder().decode(r.body.subarray(0, 300))}`
    )

  const errorCode = (body: Uint8Array): string | undefined => {
    try {
      const parsed = JSON.parse(new TextDecoder().decode(body)) as { error_code?: unknown }
      return typeof parsed.error_code === "string" ? parsed.error_code : undefined
    } catch {
      return undefined
    }
  }

  const getJson = async (path: string): Promise<unknown> => {
    const r = await call(`GET ${path}`, path, { headers: { accept: "application/json" } })
    if (r.status === 404) return undefined
    if (r.status !== 200) throw errorOf(`GET ${path}`, r)
    try {
      return JSON.parse(new TextDecoder().decode(r.body))
    } catch {
      throw new ForkSourceError(`the fork source ${base} answered GET ${path} with JSON that does not parse`)
    }
  }

  const getBcs = async (path: string): Promise<Uint8Array | undefined> => {
    const r = await call(`GET ${path}`, path, { headers: { accept: "application/x-bcs" } })
    if (r.status === 404) return undefined
    if (r.status !== 200) throw errorOf(`GET ${path}`, r)
    return r.body
  }

  const getBcsPage = async (path: string) => {
    const r = await call(`GET ${path}`, path, { headers: { accept: "application/x-bcs" } })
    if (r.status === 404) return { bytes: undefined, cursor: undefined }
    if (r.status !== 200) throw errorOf(`GET ${path}`, r)
    const cursor = r.headers.get("x-aptos-cursor")
    return { bytes: r.body, cursor: cursor === null || cursor === "" ? undefined : cursor }
  }

  const bigintField = (o: Record<string, unknown>, name: string, what: string): bigint => {
    const v = o[name]
    if (typeof v === "string" && /^[0-9]{1,20}$/.test(v)) return BigInt(v)
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v)
    throw new ForkSourceError(`the fork source ${base} answered ${what} without a valid ${name}`)
  }

  const ledgerInfo = async (): Promise<SourceLedgerInfo> => {
    const j = (await getJson("")) as Record<string, unknown> | undefined
    if (j === undefined || typeof j !== "object")
      throw new ForkSourceError(`the fork source ${base} has no ledger info (GET /v1)`)
    return {
      chainId: Number(bigintField(j, "chain_id", "GET /v1")),
      ledgerVersion: bigintField(j, "ledger_version", "GET /v1"),
      oldestLedgerVersion: bigintField(j, "oldest_ledger_version", "GET /v1"),
      oldestBlockHeight: bigintField(j, "oldest_block_height", "GET /v1"),
      blockHeight: bigintField(j, "block_height", "GET /v1"),
      epoch: bigintField(j, "epoch", "GET /v1"),
      ledgerTimestampUsec: bigintField(j, "ledger_timestamp", "GET /v1")
    }
  }

  const blockByVersion = async (version: bigint): Promise<SourceBlock> => {
    const path = `/blocks/by_version/${version}`
    const j = (await getJson(path)) as Record<string, unknown> | undefined
    if (j === undefined) throw new ForkSourceError(`the fork source ${base} has no block holding version ${version}`)
    return {
      height: bigintField(j, "block_height", `GET ${path}`),
      firstVersion: bigintField(j, "first_version", `GET ${path}`),
      lastVersion: bigintField(j, "last_version", `GET ${path}`),
      timestampUsec: bigintField(j, "block_timestamp", `GET ${path}`)
    }
  }

  const rawStateValue = async (keyBytes: Uint8Array, version: bigint): Promise<RawAnswer> => {
    const what = `${describeStateKey(keyBytes)} at version ${version}`
    const r = await call(what, `/experimental/state_values/raw?ledger_version=${version}`, {
      method: "POST",
      headers: { accept: "application/x-bcs", "content-type": "application/json" },
      body: JSON.stringify({ key: toHex(keyBytes) })
    })
    if (r.status === 200) {
      const decoded = Bcs.decode(stateValueCodec, r.body)
      if (decoded._tag === "Failure")
        throw new ForkSourceError(
          `the fork source ${base} answered ${what} with bytes that are not a StateValue: ${decoded.failure.message}`
        )
      return decoded.success
    }
    // Absent at that version; pre-1.9 nodes said table_item_not_found.
    const code = r.status === 404 ? errorCode(r.body) : undefined
    if (code === "state_value_not_found" || code === "table_item_not_found") return undefined
    throw errorOf(what, r)
  }

  const modules = async (address: AccountAddress, version: bigint) => {
    const out: Array<{ keyBytes: Uint8Array; bytes: Uint8Array }> = []
    let start: string | undefined
    for (let page = 0; page < 1000; page++) {
      const path = `/accounts/${addressToLongString(address)}/modules?ledger_version=${version}&limit=9999${start === undefined ? "" : `&start=${encodeURIComponent(start)}`}`
      const r = await call(`GET ${path}`, path, { headers: { accept: "application/x-bcs" } })
      if (r.status === 404) return out
      if (r.status !== 200) throw errorOf(`GET ${path}`, r)
      try {
        // BTreeMap<MoveModuleId, bytes>: a MoveModuleId serializes as its text ("0x1::coin").
        const reader = new BcsReader(r.body)
        const n = reader.uleb128()
        for (let i = 0; i < n; i++) {
          const id = reader.string()
          const name = id.slice(id.lastIndexOf("::") + 2)
          if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not a module id: ${id}`)
          const moduleAddress = address
          const bytes = reader.bytesWithLength()
          const w = new BcsWriter(64)
          w.u8(0)
            .fixed(moduleAddress)
            .bytesWithLength(accessPathBytes({ _tag: "Code", module: { address: moduleAddress, name } }))
          out.push({ keyBytes: w.toBytes(), bytes })
        }
        reader.expectEnd()
      } catch (e) {
        throw new ForkSourceError(
          `the fork source ${base} answered GET ${path} with bytes that are not a module map: ${String(e)}`
        )
      }
      const cursor = r.headers.get("x-aptos-cursor")
      if (cursor === null || cursor === "") return out
      start = cursor
    }
    return out
  }

  return {
    base,
    requests: () => requests,
    ledgerInfo,
    blockByVersion,
    rawStateValue,
    modules,
    getJson,
    getBcs,
    getBcsPage
  }
}
