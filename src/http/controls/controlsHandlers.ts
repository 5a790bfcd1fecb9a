/**
 * Handlers of the test controls (`ControlsApi`): each decodes its body (`controlBodies.ts`), calls
 * the local chain's `ChainControlsService` through the node (`NodeService.controls`), and renders
 * the answer. A node without controls (`movenode run`, any chain that is not a local chain)
 * answers 403 `api_disabled`.
 */
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import { OpenApi } from "effect/http-api"
import {
  type ChainControlsService,
  type ChainPosition,
  type ChainTime,
  MAX_PENDING_LISTED,
  type PendingTransactions
} from "../../chain/controls/ChainControls.js"
import type { MiningRequest } from "../../chain/controls/MiningSwitch.js"
import type { MiningMode } from "../../chain/MiningMode.js"
import { ApiError, ApiErrors } from "../../domain/ApiError.js"
import type { HandlerEnv, RequestInput, RouteSpec } from "../handlers/HandlerTypes.js"
import { JSON_TYPE, type Reply } from "../Reply.js"
import {
  addressField,
  booleanField,
  decode,
  hexField,
  hexListField,
  objectBody,
  ok,
  optionalAddressField,
  requiredU64,
  secsToUsec,
  stringField,
  structTagField,
  u64Field
} from "./controlBodies.js"
import * as Result from "effect/Result"
import { Bcs } from "../../bcs/index.js"
import { stateKeyCodec } from "../../domain/StateKeyCodec.js"
import { controlsRoutes } from "../Routes.js"
import { ControlsApi } from "./ControlsApi.js"

const disabled = new ApiError({
  status: 403,
  code: "api_disabled",
  message:
    "Test controls are served by the local chain only (movenode, movenode local): this node (movenode run, or another chain) has none."
})

const reply = (body: unknown): Reply => ({
  status: 200,
  contentType: JSON_TYPE,
  body: JSON.stringify(body, (_, v) => (typeof v === "bigint" ? v.toString() : v)),
  ledger: undefined
})

const positionJson = (p: ChainPosition) => ({
  ledger_version: p.version,
  block_height: p.height,
  ledger_timestamp: p.timestampUsec,
  epoch: p.epoch
})

const timeJson = (t: ChainTime) => ({
  chain_timestamp_usecs: t.chainUsec,
  next_block_timestamp_usecs: t.nextBlockUsec,
  offset_usecs: t.offsetUsec,
  pinned_next_block_timestamp_usecs: t.nextBlockTimestampUsec ?? null,
  block_interval_usecs: t.blockIntervalUsec ?? null,
  epoch: t.epoch,
  next_epoch_timestamp_usecs: t.nextEpochUsec ?? null,
  wall_clock_usecs: BigInt(Date.now()) * 1000n
})

const JSON_BODY = [JSON_TYPE]

const miningJson = (m: MiningMode) => ({
  mode: m._tag === "Instant" ? "instant" : m._tag === "Interval" ? "interval" : "manual",
  delay_ms: m._tag === "Instant" ? m.delayMs : null,
  idle_block_ms: m._tag === "Instant" ? (m.idleBlockMs ?? null) : null,
  interval_ms: m._tag === "Interval" ? m.intervalMs : null
})

const mempoolJson = (p: PendingTransactions) => ({
  count: p.count,
  transactions: p.transactions.map(({ entry, ready }) => ({
    hash: `0x${entry.hashKey}`,
    sender: `0x${entry.senderKey}`,
    sequence_number: entry.replay._tag === "SequenceNumber" ? entry.replay.sequenceNumber : null,
    replay_protection_nonce: entry.replay._tag === "Nonce" ? entry.replay.nonce : null,
    gas_unit_price: entry.gasUnitPrice,
    max_gas_amount: entry.maxGasAmount,
    expiration_timestamp_secs: entry.expirationSecs,
    ready
  }))
})

const droppedJson = (hashKeys: ReadonlyArray<string>) => ({ dropped: hashKeys.map((h) => `0x${h}`) })

/** The mining mode a `POST …/mining` body asks for (ranges are the service's to check). */
const miningBody = (f: Readonly<Record<string, unknown>>): MiningRequest | ApiError =>
  decode(() => {
    const mode = ok(stringField(f, "mode"))
    const ms = (name: string) => {
      const v = ok(u64Field(f, name))
      // The service checks the range (and names it).
      return v === undefined ? undefined : Number(v)
    }
    const only = (allowed: ReadonlyArray<string>) => {
      for (const name of ["delay_ms", "idle_block_ms", "interval_ms"])
        if (!allowed.includes(name) && f[name] !== undefined)
          throw ApiErrors.badRequest(`${name}: not a setting of the ${mode} mode`)
    }
    switch (mode) {
      case "instant": {
        only(["delay_ms", "idle_block_ms"])
        return {
          _tag: "Instant",
          delayMs: ms("delay_ms"),
          idleBlockMs: f.idle_block_ms === null ? null : ms("idle_block_ms")
        }
      }
      case "interval": {
        only(["interval_ms"])
        const interval = ms("interval_ms")
        if (interval === undefined) throw ApiErrors.badRequest("interval_ms: required for the interval mode")
        return { _tag: "Interval", intervalMs: interval }
      }
      case "manual":
        only([])
        return { _tag: "Manual" }
      default:
        throw ApiErrors.badRequest(
          `mode: expected "instant", "interval" or "manual", got ${mode === undefined ? "nothing" : JSON.stringify(mode)}`
        )
    }
  })

/** A transaction hash field (`0x` and 64 hex digits) as the pool's key (lowercase hex, no `0x`). */
const hashField = (f: Readonly<Record<string, unknown>>, name: string): string | ApiError =>
  decode(() => {
    const v = ok(stringField(f, name))
    if (v === undefined || !/^0x[0-9a-fA-F]{64}$/.test(v))
      throw ApiErrors.badRequest(`${name}: expected a transaction hash (0x and 64 hex digits)`)
    return v.slice(2).toLowerCase()
  })

const impersonationJson = (c: ChainControlsService) => {
  const i = c.impersonation()
  return { auto_impersonate: i.auto, impersonated: i.addresses }
}

const editJson = (e: {
  readonly version: bigint
  readonly height: bigint
  readonly supply?: string
  readonly hash?: string
}) => ({
  ledger_version: e.version,
  block_height: e.height,
  ...(e.supply === undefined ? {} : { supply: e.supply }),
  ...(e.hash === undefined ? {} : { hash: e.hash })
})

let spec: string | undefined
/** The controls' OpenAPI document (built once). */
export const controlsSpecJson = (): string => (spec ??= JSON.stringify(OpenApi.fromApi(ControlsApi)))

/**
 * The handlers of the test controls: the chain's own where this node holds them; on an API worker
 * (`ReplicaHooks.forwardControls`: its writer is the chain, in another process) each passes the
 * request to the writer as received and answers what the writer answered.
 */
export const controlsHandlers = (env: HandlerEnv): Record<ControlsRouteId, RouteSpec> => {
  const own = ownControlsHandlers(env)
  const replica = env.config.replica
  if (env.node.controls !== undefined || replica?.forwardControls !== true) return own
  const out = {} as Record<ControlsRouteId, RouteSpec>
  for (const route of controlsRoutes) {
    const id = route.id as ControlsRouteId
    const method = route.method === "GET" ? "GET" : "POST"
    out[id] = {
      ...own[id],
      handler: (input) =>
        replica.forward({
          method,
          path: route.path,
          contentType: input.mediaType ?? JSON_TYPE,
          accept: undefined,
          body: input.body ?? new Uint8Array()
        })
    }
  }
  return out
}

const ownControlsHandlers = (env: HandlerEnv) => {
  const controls: ChainControlsService | undefined = env.node.controls

  /** A handler over the controls with its body's fields decoded first. */
  const control = (
    allowed: ReadonlyArray<string>,
    run: (c: ChainControlsService, fields: Readonly<Record<string, unknown>>) => Effect.Effect<unknown, ApiError>
  ): RouteSpec => ({
    bodyTypes: JSON_BODY,
    bodyOptional: true,
    handler: (input: RequestInput) => {
      if (controls === undefined) return Effect.fail(disabled)
      const fields = objectBody(input.body, allowed)
      if (fields instanceof ApiError) return Effect.fail(fields)
      return Effect.map(
        Effect.suspend(() => run(controls, fields)),
        reply
      )
    }
  })

  const get = (run: (c: ChainControlsService) => Effect.Effect<unknown, ApiError>): RouteSpec => ({
    handler: () => (controls === undefined ? Effect.fail(disabled) : Effect.map(run(controls), reply))
  })

  const fail = (e: ApiError) => Effect.fail(e)

  return {
    "controls.info": get((c) =>
      Effect.sync(() => {
        const i = c.impersonation()
        return {
          controls: "movenode",
          version: "1",
          auto_impersonate: i.auto,
          impersonated: i.addresses,
          snapshots: c.snapshotIds()
        }
      })
    ),
    "controls.spec": { handler: () => Effect.succeed({ ...reply(null), body: controlsSpecJson() }) },
    "controls.snapshot": control([], (c) =>
      Effect.gen(function* () {
        const id = yield* c.snapshot
        return { id, ...positionJson(yield* c.position) }
      })
    ),
    "controls.dump": {
      handler: () =>
        controls === undefined
          ? Effect.fail(disabled)
          : Effect.map(controls.dump, (bytes) => ({
              status: 200,
              contentType: "application/octet-stream",
              body: bytes,
              ledger: undefined
            }))
    },
    "controls.load": {
      bodyTypes: ["application/octet-stream"],
      handler: (input: RequestInput) =>
        controls === undefined
          ? Effect.fail(disabled)
          : Effect.map(controls.load(input.body ?? new Uint8Array()), (p) => reply(positionJson(p)))
    },
    "controls.snapshots": get((c) => Effect.succeed({ ids: c.snapshotIds() })),
    "controls.revert": control(["id"], (c, f) => {
      const id = requiredU64(f, "id")
      return id instanceof ApiError ? fail(id) : Effect.map(c.revert(id), positionJson)
    }),
    "controls.reset": control([], (c) => Effect.map(c.reset, positionJson)),
    "controls.mine": control(["blocks", "interval_secs"], (c, f) => {
      const d = decode(() => {
        const blocks = ok(u64Field(f, "blocks")) ?? 1n
        const interval = ok(u64Field(f, "interval_secs"))
        return {
          blocks: blocks > 1_000_000n ? 1_000_001 : Number(blocks),
          intervalUsec: interval === undefined ? undefined : ok(secsToUsec(interval, "interval_secs"))
        }
      })
      if (d instanceof ApiError) return fail(d)
      return Effect.map(c.mine(d), (made) => {
        const last = Arr.lastNonEmpty(made)
        return {
          blocks: made.length,
          first_height: made[0].height,
          last_height: last.height,
          ledger_version: last.lastVersion,
          block_height: last.height,
          ledger_timestamp: last.timestampUsec,
          epoch: last.epoch
        }
      })
    }),
    "controls.time": get((c) => Effect.map(c.time, timeJson)),
    "controls.increaseTime": control(["secs", "mine"], (c, f) => {
      const d = decode(() => ({
        usec: ok(secsToUsec(ok(requiredU64(f, "secs")), "secs")),
        mine: ok(booleanField(f, "mine")) ?? false
      }))
      return d instanceof ApiError ? fail(d) : Effect.map(c.increaseTime(d.usec, d.mine), timeJson)
    }),
    "controls.setNextBlockTimestamp": control(["timestamp_usecs"], (c, f) => {
      const ts = requiredU64(f, "timestamp_usecs")
      return ts instanceof ApiError ? fail(ts) : Effect.map(c.setNextBlockTimestamp(ts), timeJson)
    }),
    "controls.setTime": control(["timestamp_usecs"], (c, f) => {
      const ts = requiredU64(f, "timestamp_usecs")
      return ts instanceof ApiError ? fail(ts) : Effect.map(c.setTime(ts), timeJson)
    }),
    "controls.setBlockInterval": control(["secs"], (c, f) => {
      const d = decode(() => {
        const secs = ok(u64Field(f, "secs"))
        return secs === undefined ? undefined : ok(secsToUsec(secs, "secs"))
      })
      return d instanceof ApiError ? fail(d) : Effect.map(c.setBlockInterval(d), timeJson)
    }),
    "controls.advanceEpoch": control([], (c) => Effect.andThen(c.advanceEpoch, Effect.map(c.position, positionJson))),
    "controls.mining": get((c) => Effect.sync(() => miningJson(c.mining()))),
    "controls.setMining": control(["mode", "delay_ms", "idle_block_ms", "interval_ms"], (c, f) => {
      const mode = miningBody(f)
      return mode instanceof ApiError ? fail(mode) : Effect.map(c.setMining(mode), miningJson)
    }),
    "controls.mempool": get((c) => Effect.sync(() => mempoolJson(c.pendingTransactions(MAX_PENDING_LISTED)))),
    "controls.dropTransaction": control(["hash", "sender"], (c, f) => {
      if ((f.hash === undefined) === (f.sender === undefined))
        return fail(ApiErrors.badRequest("exactly one of hash (a pending transaction) or sender (all of its pending)"))
      if (f.sender !== undefined) {
        const sender = addressField(f, "sender")
        return sender instanceof ApiError ? fail(sender) : Effect.map(c.dropSenderTransactions(sender), droppedJson)
      }
      const hash = hashField(f, "hash")
      return hash instanceof ApiError ? fail(hash) : Effect.map(c.dropTransaction(hash), droppedJson)
    }),
    "controls.dropAllTransactions": control([], (c) => Effect.map(c.dropAllTransactions, droppedJson)),
    "edits.impersonate": control(["address"], (c, f) => {
      const a = addressField(f, "address")
      return a instanceof ApiError
        ? fail(a)
        : Effect.andThen(
            c.impersonate(a),
            Effect.sync(() => impersonationJson(c))
          )
    }),
    "edits.stopImpersonating": control(["address"], (c, f) => {
      const a = addressField(f, "address")
      return a instanceof ApiError
        ? fail(a)
        : Effect.andThen(
            c.stopImpersonating(a),
            Effect.sync(() => impersonationJson(c))
          )
    }),
    "edits.autoImpersonate": control(["enabled"], (c, f) => {
      const enabled = booleanField(f, "enabled")
      if (enabled instanceof ApiError) return fail(enabled)
      if (enabled === undefined) return fail(ApiErrors.badRequest("enabled: required (true or false)"))
      return Effect.andThen(
        c.setAutoImpersonate(enabled),
        Effect.sync(() => impersonationJson(c))
      )
    }),
    "edits.setBalance": control(["address", "amount", "asset"], (c, f) => {
      const d = decode(() => ({
        address: ok(addressField(f, "address")),
        amount: ok(requiredU64(f, "amount")),
        asset: ok(optionalAddressField(f, "asset"))
      }))
      return d instanceof ApiError ? fail(d) : Effect.map(c.setBalance(d), editJson)
    }),
    "edits.setResource": control(["address", "type", "value", "bcs", "delete"], (c, f) => {
      const d = decode(() => {
        const address = ok(addressField(f, "address"))
        const type = ok(structTagField(f, "type"))
        const bcs = ok(hexField(f, "bcs"))
        const del = ok(booleanField(f, "delete")) === true
        const given = [f.value !== undefined, bcs !== undefined, del].filter((x) => x).length
        if (given !== 1) throw ApiErrors.badRequest("exactly one of value (JSON), bcs (hex) or delete: true")
        return {
          address,
          type,
          value: del
            ? undefined
            : bcs !== undefined
              ? { _tag: "Bcs" as const, bytes: bcs }
              : { _tag: "Json" as const, value: f.value }
        }
      })
      return d instanceof ApiError ? fail(d) : Effect.map(c.setResource(d.address, d.type, d.value), editJson)
    }),
    "edits.setTableItem": control(["handle", "key", "value"], (c, f) => {
      const d = decode(() => {
        const handle = ok(addressField(f, "handle"))
        const key = ok(hexField(f, "key"))
        if (key === undefined) throw ApiErrors.badRequest("key: required (hex of the key's BCS)")
        return { handle, key, value: ok(hexField(f, "value")) }
      })
      return d instanceof ApiError ? fail(d) : Effect.map(c.setTableItem(d.handle, d.key, d.value), editJson)
    }),
    "edits.setStateValue": control(["key", "value"], (c, f) => {
      const d = decode(() => {
        const keyBytes = ok(hexField(f, "key", 64 * 1024))
        if (keyBytes === undefined) throw ApiErrors.badRequest("key: required (hex of BCS(StateKey))")
        const key = Bcs.decode(stateKeyCodec, keyBytes)
        if (Result.isFailure(key)) throw ApiErrors.badRequest(`key: not a BCS StateKey (${key.failure.message})`)
        return { key: key.success, value: ok(hexField(f, "value")) }
      })
      return d instanceof ApiError ? fail(d) : Effect.map(c.setStateValue(d.key, d.value), editJson)
    }),
    "edits.setAccount": control(["address", "sequence_number", "authentication_key"], (c, f) => {
      const d = decode(() => ({
        address: ok(addressField(f, "address")),
        sequenceNumber: ok(u64Field(f, "sequence_number")),
        authenticationKey: ok(hexField(f, "authentication_key", 32))
      }))
      if (d instanceof ApiError) return fail(d)
      if (d.sequenceNumber === undefined && d.authenticationKey === undefined)
        return fail(ApiErrors.badRequest("sequence_number or authentication_key: at least one"))
      return Effect.map(c.setAccount(d.address, d), editJson)
    }),
    "edits.publish": control(["address", "metadata", "modules"], (c, f) => {
      const d = decode(() => {
        const address = ok(addressField(f, "address"))
        const metadata = ok(hexField(f, "metadata", 1 << 20))
        if (metadata === undefined) throw ApiErrors.badRequest("metadata: required (hex of BCS(PackageMetadata))")
        return { address, metadata, modules: ok(hexListField(f, "modules")) }
      })
      return d instanceof ApiError ? fail(d) : Effect.map(c.publish(d.address, d.metadata, d.modules), editJson)
    })
  } as const
}

type ControlsRouteId = keyof ReturnType<typeof ownControlsHandlers>
