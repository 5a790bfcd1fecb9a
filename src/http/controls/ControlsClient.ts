/**
 * A typed client for the test controls (`/__movenode/v1/…`, `ControlsApi`), over `fetch`, with
 * Promises: what a test suite written with the TypeScript SDK calls (`movenode/testing` wraps it in
 * Hardhat-style helpers). Answers are typed as the controls' JSON; a non-2xx answer throws
 * `ControlsError` carrying the Aptos error body's fields.
 */

/** A u64 in a request: a bigint, a safe integer, or a decimal string. */
export type U64Input = bigint | number | string

export interface ChainPositionJson {
  readonly ledger_version: string
  readonly block_height: string
  readonly ledger_timestamp: string
  readonly epoch: string
}

export interface SnapshotJson extends ChainPositionJson {
  readonly id: string
}

export interface MinedJson extends ChainPositionJson {
  readonly blocks: number
  readonly first_height: string
  readonly last_height: string
}

export interface ChainTimeJson {
  readonly chain_timestamp_usecs: string
  readonly next_block_timestamp_usecs: string
  readonly offset_usecs: string
  readonly pinned_next_block_timestamp_usecs: string | null
  readonly block_interval_usecs: string | null
  readonly epoch: string
  readonly next_epoch_timestamp_usecs: string | null
  readonly wall_clock_usecs: string
}

export interface ControlsInfoJson {
  readonly controls: "movenode"
  readonly version: string
  readonly auto_impersonate: boolean
  readonly impersonated: ReadonlyArray<string>
  readonly snapshots: ReadonlyArray<string>
}

/** A refused control: the HTTP status and the Aptos error body. */
export class ControlsError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    message: string
  ) {
    super(message)
    this.name = "ControlsError"
  }
}

const u64 = (v: U64Input): string => (typeof v === "string" ? v : BigInt(v).toString())

/** `http://host:port`, `…/v1` or `…/__movenode/v1` → the controls' base URL. */
export const controlsUrlOf = (url: string): string => {
  const trimmed = url.replace(/\/+$/, "")
  if (trimmed.endsWith("/__movenode/v1")) return trimmed
  return `${trimmed.replace(/\/v1$/, "")}/__movenode/v1`
}

export class ControlsClient {
  readonly baseUrl: string

  /** `url`: the node's API URL (`http://127.0.0.1:8080/v1`, as the SDK's `fullnode`) or its origin. */
  constructor(url: string) {
    this.baseUrl = controlsUrlOf(url)
  }

  private async call<A>(method: "GET" | "POST", path: string, body?: Record<string, unknown>): Promise<A> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const text = await response.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    if (!response.ok) {
      const o = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>
      throw new ControlsError(
        response.status,
        typeof o.error_code === "string" ? o.error_code : undefined,
        typeof o.message === "string" ? o.message : `HTTP ${response.status}: ${text.slice(0, 200)}`
      )
    }
    return json as A
  }

  info(): Promise<ControlsInfoJson> {
    return this.call("GET", "/info")
  }
  /** Remembers the whole chain; resolves to the snapshot's id (evm_snapshot). */
  async snapshot(): Promise<string> {
    return (await this.call<SnapshotJson>("POST", "/snapshot")).id
  }
  snapshots(): Promise<{ readonly ids: ReadonlyArray<string> }> {
    return this.call("GET", "/snapshots")
  }
  /** Back to snapshot `id` (used up, with every later one). */
  revert(id: U64Input): Promise<ChainPositionJson> {
    return this.call("POST", "/revert", { id: u64(id) })
  }
  reset(): Promise<ChainPositionJson> {
    return this.call("POST", "/reset")
  }
  mine(blocks: number = 1, options: { readonly intervalSecs?: U64Input } = {}): Promise<MinedJson> {
    return this.call("POST", "/mine", {
      blocks,
      ...(options.intervalSecs === undefined ? {} : { interval_secs: u64(options.intervalSecs) })
    })
  }
  time(): Promise<ChainTimeJson> {
    return this.call("GET", "/time")
  }
  increaseTime(secs: U64Input, options: { readonly mine?: boolean } = {}): Promise<ChainTimeJson> {
    return this.call("POST", "/time/increase", { secs: u64(secs), mine: options.mine ?? false })
  }
  setNextBlockTimestamp(timestampUsecs: U64Input): Promise<ChainTimeJson> {
    return this.call("POST", "/time/next_block", { timestamp_usecs: u64(timestampUsecs) })
  }
  setTime(timestampUsecs: U64Input): Promise<ChainTimeJson> {
    return this.call("POST", "/time/set", { timestamp_usecs: u64(timestampUsecs) })
  }
  setBlockInterval(secs: U64Input | null): Promise<ChainTimeJson> {
    return this.call("POST", "/time/interval", { secs: secs === null ? null : u64(secs) })
  }
  advanceEpoch(): Promise<ChainPositionJson> {
    return this.call("POST", "/epoch/advance")
  }

  /** When blocks are made now. */
  mining(): Promise<MiningJson> {
    return this.call("GET", "/mining")
  }
  /**
   * Changes when blocks are made (evm_setAutomine, evm_setIntervalMining): `{ mode: "manual" }`
   * (blocks only from `mine`), `{ mode: "interval", intervalMs }`, or `{ mode: "instant" }` (with
   * `delayMs`, and `idleBlockMs`: null for no idle blocks).
   */
  setMining(
    mode:
      | { readonly mode: "manual" }
      | { readonly mode: "interval"; readonly intervalMs: number }
      | { readonly mode: "instant"; readonly delayMs?: number; readonly idleBlockMs?: number | null }
  ): Promise<MiningJson> {
    return this.call("POST", "/mining", {
      mode: mode.mode,
      ...(mode.mode === "interval" ? { interval_ms: mode.intervalMs } : {}),
      ...(mode.mode === "instant" && mode.delayMs !== undefined ? { delay_ms: mode.delayMs } : {}),
      ...(mode.mode === "instant" && mode.idleBlockMs !== undefined ? { idle_block_ms: mode.idleBlockMs } : {})
    })
  }
  /** The pending transactions: how many, and the first 1,000 in arrival order (txpool_content). */
  mempool(): Promise<MempoolJson> {
    return this.call("GET", "/mempool")
  }
  /** Takes a pending transaction out of the pool (anvil_dropTransaction); throws 404 when it is not pending. */
  dropTransaction(hash: string): Promise<DroppedJson> {
    return this.call("POST", "/mempool/drop", { hash })
  }
  /** Takes every pending transaction of `sender` out of the pool (anvil_removePoolTransactions). */
  dropSenderTransactions(sender: string): Promise<DroppedJson> {
    return this.call("POST", "/mempool/drop", { sender })
  }
  /** Empties the pool (anvil_dropAllTransactions). */
  dropAllTransactions(): Promise<DroppedJson> {
    return this.call("POST", "/mempool/clear")
  }

  /** The whole chain after genesis as one file (what `load` and `--load-state` read). */
  async dump(): Promise<Uint8Array> {
    const response = await fetch(`${this.baseUrl}/state/dump`)
    if (!response.ok) throw new ControlsError(response.status, undefined, await response.text())
    return new Uint8Array(await response.arrayBuffer())
  }
  /** Replaces the chain after genesis with a dump of a chain on the same genesis. */
  async load(dump: Uint8Array): Promise<ChainPositionJson> {
    const response = await fetch(`${this.baseUrl}/state/load`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: dump
    })
    const json = (await response.json()) as ChainPositionJson & { message?: string; error_code?: string }
    if (!response.ok)
      throw new ControlsError(response.status, json.error_code, json.message ?? `HTTP ${response.status}`)
    return json
  }

  /** Key-less transactions from `address` are accepted from now on (anvil_impersonateAccount). */
  impersonate(address: string): Promise<ImpersonationJson> {
    return this.call("POST", "/impersonate", { address })
  }
  stopImpersonating(address: string): Promise<ImpersonationJson> {
    return this.call("POST", "/impersonate/stop", { address })
  }
  autoImpersonate(enabled: boolean): Promise<ImpersonationJson> {
    return this.call("POST", "/impersonate/auto", { enabled })
  }
  /** APT (or the fungible asset `asset`, a metadata address) balance of `address` set to `amount`. */
  setBalance(address: string, amount: U64Input, asset?: string): Promise<EditJson> {
    return this.call("POST", "/balance", { address, amount: u64(amount), ...(asset === undefined ? {} : { asset }) })
  }
  /** Writes a resource from its JSON (as the API renders it) or BCS (`{ bcs: "0x…" }`); `null` deletes it. */
  setResource(
    address: string,
    type: string,
    value: { readonly json: unknown } | { readonly bcs: string } | null
  ): Promise<EditJson> {
    return this.call("POST", "/resource", {
      address,
      type,
      ...(value === null ? { delete: true } : "bcs" in value ? { bcs: value.bcs } : { value: value.json })
    })
  }
  setTableItem(handle: string, key: string, value: string | null): Promise<EditJson> {
    return this.call("POST", "/table_item", { handle, key, value })
  }
  setStateValue(key: string, value: string | null): Promise<EditJson> {
    return this.call("POST", "/state_value", { key, value })
  }
  setAccount(
    address: string,
    changes: { readonly sequenceNumber?: U64Input; readonly authenticationKey?: string }
  ): Promise<EditJson> {
    return this.call("POST", "/account", {
      address,
      ...(changes.sequenceNumber === undefined ? {} : { sequence_number: u64(changes.sequenceNumber) }),
      ...(changes.authenticationKey === undefined ? {} : { authentication_key: changes.authenticationKey })
    })
  }
  /** Publishes a package at `address` without its key (hex metadata and modules). */
  publish(
    address: string,
    metadata: string,
    modules: ReadonlyArray<string>
  ): Promise<EditJson & { readonly hash: string }> {
    return this.call("POST", "/publish", { address, metadata, modules })
  }
}

export interface MiningJson {
  readonly mode: "instant" | "interval" | "manual"
  readonly delay_ms: number | null
  readonly idle_block_ms: number | null
  readonly interval_ms: number | null
}

export interface PooledTransactionJson {
  readonly hash: string
  readonly sender: string
  readonly sequence_number: string | null
  readonly replay_protection_nonce: string | null
  readonly gas_unit_price: string
  readonly max_gas_amount: string
  readonly expiration_timestamp_secs: string
  /** Whether it goes in the next block (false: parked behind a sequence-number gap). */
  readonly ready: boolean
}

export interface MempoolJson {
  readonly count: number
  readonly transactions: ReadonlyArray<PooledTransactionJson>
}

export interface DroppedJson {
  readonly dropped: ReadonlyArray<string>
}

export interface ImpersonationJson {
  readonly auto_impersonate: boolean
  readonly impersonated: ReadonlyArray<string>
}

export interface EditJson {
  readonly ledger_version: string
  readonly block_height: string
  readonly supply?: string
}
