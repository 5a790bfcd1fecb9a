/**
 * The test controls' HTTP surface, under `/__movenode/v1/` (a prefix no Aptos client uses), as its
 * own `HttpApi`: its OpenAPI document is served at `/__movenode/v1/spec.json`, apart from the
 * Aptos API's (`/v1/spec.json`), and its routes join the server's table (`Routes.ts`). Bodies are
 * JSON; u64 values are decimal strings in answers and strings or safe-integer numbers in requests;
 * every error is the Aptos error body. Served by the local chain only: `movenode run` answers 403
 * `api_disabled`. What each control does: docs/controls.md.
 */
import * as Schema from "effect/Schema"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import type { HttpRouter } from "effect/http"
import { endpointDoc } from "../endpointDoc.js"
import { ErrorBody } from "../ErrorBody.js"
import { U64String } from "../IntegerSchemas.js"
import { HttpApiSchema } from "effect/http-api"

const at = (status: number) => ErrorBody.pipe(HttpApiSchema.status(status))
const controlErrors = [at(400), at(403), at(404), at(411), at(413), at(415), at(500)] as const

/** An endpoint's OpenAPI entry: operationId, summary, description (`endpointDoc`). */
type Doc = readonly [operationId: string, summary: string, description: string]

/** A control read: its answer's schema, the Aptos error bodies, its OpenAPI entry. */
const controlGet = <
  const Name extends string,
  const Path extends HttpRouter.PathInput,
  const Success extends HttpApiEndpoint.SuccessConstraint
>(
  name: Name,
  path: Path,
  success: Success,
  doc: Doc
) => HttpApiEndpoint.get(name, path, { success, error: controlErrors }).annotateMerge(endpointDoc(...doc))

/** A control action: its JSON body's schema if it takes one, its answer's, the Aptos error bodies, its OpenAPI entry. */
const controlPost = <
  const Name extends string,
  const Path extends HttpRouter.PathInput,
  const Success extends HttpApiEndpoint.SuccessConstraint,
  Payload extends HttpApiEndpoint.PayloadConstraintCodecs<"POST"> = never
>(
  name: Name,
  path: Path,
  options: { readonly payload?: Payload; readonly success: Success },
  doc: Doc
) => HttpApiEndpoint.post(name, path, { ...options, error: controlErrors }).annotateMerge(endpointDoc(...doc))

const U64Input = Schema.Union([U64String, Schema.Int]).annotate({
  description: "A u64: a decimal string, or a JSON number when it is a safe integer"
})

export const ChainPositionJson = Schema.Struct({
  ledger_version: U64String,
  block_height: U64String,
  ledger_timestamp: U64String,
  epoch: U64String
}).annotate({ identifier: "ChainPosition", description: "Where the ledger ends after the control" })

export const SnapshotJson = Schema.Struct({ id: U64String, ...ChainPositionJson.fields }).annotate({
  identifier: "Snapshot"
})

export const MinedJson = Schema.Struct({
  blocks: Schema.Int,
  first_height: U64String,
  last_height: U64String,
  ...ChainPositionJson.fields
}).annotate({ identifier: "Mined" })

export const ChainTimeJson = Schema.Struct({
  chain_timestamp_usecs: U64String,
  next_block_timestamp_usecs: U64String,
  offset_usecs: Schema.String,
  pinned_next_block_timestamp_usecs: Schema.NullOr(U64String),
  block_interval_usecs: Schema.NullOr(U64String),
  epoch: U64String,
  next_epoch_timestamp_usecs: Schema.NullOr(U64String),
  wall_clock_usecs: U64String
}).annotate({
  identifier: "ChainTime",
  description:
    "The chain's clock: the last block's timestamp, what the next block would get, how far ahead of the wall clock it runs, the pinned next timestamp and fixed interval if set, the epoch and when the next one starts (µs)"
})

export const SnapshotsJson = Schema.Struct({ ids: Schema.Array(U64String) }).annotate({ identifier: "Snapshots" })

export const ControlsInfoJson = Schema.Struct({
  controls: Schema.Literal("movenode"),
  version: Schema.String,
  auto_impersonate: Schema.Boolean,
  impersonated: Schema.Array(Schema.String),
  snapshots: Schema.Array(U64String)
}).annotate({ identifier: "ControlsInfo" })

export const MiningJson = Schema.Struct({
  mode: Schema.Literals(["instant", "interval", "manual"]),
  delay_ms: Schema.NullOr(Schema.Int),
  idle_block_ms: Schema.NullOr(Schema.Int),
  interval_ms: Schema.NullOr(Schema.Int)
}).annotate({
  identifier: "Mining",
  description:
    "When blocks are made: instant (as soon as transactions are ready, after `delay_ms`; an empty block after `idle_block_ms` without any, null = never), interval (one every `interval_ms`), or manual (only POST …/mine)"
})

export const PooledTransactionJson = Schema.Struct({
  hash: Schema.String,
  sender: Schema.String,
  sequence_number: Schema.NullOr(U64String),
  replay_protection_nonce: Schema.NullOr(U64String),
  gas_unit_price: U64String,
  max_gas_amount: U64String,
  expiration_timestamp_secs: U64String,
  ready: Schema.Boolean
}).annotate({ identifier: "PooledTransaction" })

export const MempoolJson = Schema.Struct({
  count: Schema.Int,
  transactions: Schema.Array(PooledTransactionJson)
}).annotate({
  identifier: "Mempool",
  description:
    "How many transactions are pending, and the first of them (at most 1,000) in arrival order; `ready`: it goes in the next block (false: parked behind a sequence-number gap)"
})

export const DroppedJson = Schema.Struct({ dropped: Schema.Array(Schema.String) }).annotate({
  identifier: "Dropped",
  description: "The hashes of the transactions taken out of the pool"
})

export class ControlsGroup extends HttpApiGroup.make("controls")
  .add(
    controlGet("info", "/__movenode/v1/info", ControlsInfoJson, [
      "controls_info",
      "Controls info",
      "Says this is a movenode local chain with test controls, and their state (anvil's anvil_nodeInfo)."
    ]),
    controlGet("spec", "/__movenode/v1/spec.json", Schema.Unknown, [
      "controls_spec",
      "OpenAPI document of the controls",
      "This document."
    ]),
    controlPost("snapshot", "/__movenode/v1/snapshot", { success: SnapshotJson }, [
      "snapshot",
      "Take a snapshot",
      "Remembers the whole chain (ledger, state, every index, the pending transactions, the clock's settings) and answers its id (evm_snapshot). Body: none or {}."
    ]),
    controlGet("snapshots", "/__movenode/v1/snapshots", SnapshotsJson, [
      "snapshots",
      "List snapshots",
      "The ids of the snapshots held, ascending."
    ]),
    controlPost(
      "revert",
      "/__movenode/v1/revert",
      { payload: Schema.Struct({ id: U64Input }), success: ChainPositionJson },
      [
        "revert",
        "Revert to a snapshot",
        "Goes back to snapshot `id` (evm_revert): every transaction committed since is gone everywhere (by_hash answers 404, the same signed bytes can be submitted again), the clock is as it was, the transactions pending then are pending again. The id is used up, and every later snapshot discarded."
      ]
    ),
    controlPost("reset", "/__movenode/v1/reset", { success: ChainPositionJson }, [
      "reset",
      "Reset to genesis",
      "Goes back to genesis (anvil_reset): every block after it, the pending transactions, the clock's settings and all snapshots go."
    ]),
    controlPost(
      "mine",
      "/__movenode/v1/mine",
      {
        payload: Schema.Struct({ blocks: Schema.optional(U64Input), interval_secs: Schema.optional(U64Input) }),
        success: MinedJson
      },
      [
        "mine",
        "Mine blocks",
        "Makes `blocks` blocks now (default 1, at most 10,000; anvil_mine), each with its block metadata (so the clock advances) and whatever transactions are ready; `interval_secs` spaces their timestamps."
      ]
    ),
    controlGet("time", "/__movenode/v1/time", ChainTimeJson, [
      "get_time",
      "Get the chain's clock",
      "The chain's clock: build transaction expiries from `next_block_timestamp_usecs` when time was moved ahead."
    ]),
    controlPost(
      "increaseTime",
      "/__movenode/v1/time/increase",
      { payload: Schema.Struct({ secs: U64Input, mine: Schema.optional(Schema.Boolean) }), success: ChainTimeJson },
      [
        "increase_time",
        "Increase time",
        "Moves the chain's clock `secs` seconds ahead (evm_increaseTime); with `mine: true` makes a block at the new time."
      ]
    ),
    controlPost(
      "setNextBlockTimestamp",
      "/__movenode/v1/time/next_block",
      { payload: Schema.Struct({ timestamp_usecs: U64Input }), success: ChainTimeJson },
      [
        "set_next_block_timestamp",
        "Set the next block's timestamp",
        "The next block's timestamp in µs (evm_setNextBlockTimestamp); it must be after the chain's. Later blocks continue from it."
      ]
    ),
    controlPost(
      "setTime",
      "/__movenode/v1/time/set",
      { payload: Schema.Struct({ timestamp_usecs: U64Input }), success: ChainTimeJson },
      [
        "set_time",
        "Set the clock",
        "Sets the clock's \"now\" (evm_setTime). Blocks stay strictly after the chain's last one: a time in the past holds the clock until the wall clock catches up."
      ]
    ),
    controlPost(
      "setBlockInterval",
      "/__movenode/v1/time/interval",
      { payload: Schema.Struct({ secs: Schema.NullOr(U64Input) }), success: ChainTimeJson },
      [
        "set_block_interval",
        "Set a fixed block interval",
        "Each block's timestamp is the last one's plus `secs` (anvil_setBlockTimestampInterval); null goes back to the wall clock."
      ]
    ),
    controlGet("dump", "/__movenode/v1/state/dump", Schema.Unknown, [
      "dump_state",
      "Dump the chain",
      "The whole chain after genesis (blocks, transactions, state changes) and the clock's settings, as one application/octet-stream body (anvil_dumpState): what --dump-state writes and POST …/state/load or --load-state reads."
    ]),
    controlPost("load", "/__movenode/v1/state/load", { success: ChainPositionJson }, [
      "load_state",
      "Load a dumped chain",
      "Replaces the chain after genesis with a dump (application/octet-stream) of a chain on the same genesis, in one atomic step (anvil_loadState); the pending transactions and snapshots are dropped. Bodies above the server's body limit (8 MiB by default): use --load-state."
    ]),
    controlGet("mining", "/__movenode/v1/mining", MiningJson, [
      "get_mining",
      "Get the mining mode",
      "When blocks are made now."
    ]),
    controlPost(
      "setMining",
      "/__movenode/v1/mining",
      {
        payload: Schema.Struct({
          mode: Schema.Literals(["instant", "interval", "manual"]),
          delay_ms: Schema.optional(Schema.Int),
          idle_block_ms: Schema.optional(Schema.NullOr(Schema.Int)),
          interval_ms: Schema.optional(Schema.Int)
        }),
        success: MiningJson
      },
      [
        "set_mining",
        "Set the mining mode",
        "Changes when blocks are made, at once (evm_setAutomine, evm_setIntervalMining): `instant` (optional `delay_ms`, 0..60,000, and `idle_block_ms`, 1..3,600,000 or null for no idle blocks; left out, the chain's own as started: 20 and 1,000 by default), `interval` (`interval_ms`, 1..3,600,000: one block every interval, empty or not) or `manual` (blocks only from POST …/mine). A block being made is finished first. Not kept in snapshots."
      ]
    ),
    controlGet("mempool", "/__movenode/v1/mempool", MempoolJson, [
      "get_mempool",
      "List the pending transactions",
      "How many transactions the pool holds, and the first 1,000 in arrival order with whether each goes in the next block (txpool_content)."
    ]),
    controlPost(
      "dropTransaction",
      "/__movenode/v1/mempool/drop",
      {
        payload: Schema.Struct({ hash: Schema.optional(Schema.String), sender: Schema.optional(Schema.String) }),
        success: DroppedJson
      },
      [
        "drop_transaction",
        "Drop pending transactions",
        "Takes the pending transaction `hash` out of the pool (anvil_dropTransaction), or every pending transaction of `sender` (anvil_removePoolTransactions): they will not commit; a client waiting for one (wait_by_hash) is answered 404. A sender's later transactions wait for the gap to fill. A `hash` that is not pending: 404."
      ]
    ),
    controlPost("dropAllTransactions", "/__movenode/v1/mempool/clear", { success: DroppedJson }, [
      "drop_all_transactions",
      "Drop every pending transaction",
      "Empties the pool (anvil_dropAllTransactions); answers the dropped hashes."
    ]),
    controlPost("advanceEpoch", "/__movenode/v1/epoch/advance", { success: ChainPositionJson }, [
      "advance_epoch",
      "Advance to the next epoch",
      "Makes one block at the first timestamp that reconfigures (last reconfiguration + epoch interval, or now if later): the next epoch starts, stake lockups and unlocks settle, and what governance set for the next epoch (feature flags, configs) takes effect."
    ])
  )
  .annotateMerge(OpenApi.annotations({ title: "Test controls" })) {}

export const ImpersonationJson = Schema.Struct({
  auto_impersonate: Schema.Boolean,
  impersonated: Schema.Array(Schema.String)
}).annotate({ identifier: "Impersonation" })

export const EditJson = Schema.Struct({
  ledger_version: U64String,
  block_height: U64String,
  supply: Schema.optional(Schema.String),
  hash: Schema.optional(Schema.String)
}).annotate({ identifier: "Edit", description: "The version and block of the transaction that made the edit" })

const AddressBody = Schema.Struct({ address: Schema.String })

export class StateEditsGroup extends HttpApiGroup.make("edits")
  .add(
    controlPost("impersonate", "/__movenode/v1/impersonate", { payload: AddressBody, success: ImpersonationJson }, [
      "impersonate",
      "Impersonate an address",
      "From now on a transaction sent by `address` with the key-less authenticator (SingleSender(NoAccountAuthenticator), what the TypeScript SDK builds for simulation) is accepted through POST /v1/transactions and executed with gas charged as usual (anvil_impersonateAccount). Framework addresses (0x1, …) too."
    ]),
    controlPost(
      "stopImpersonating",
      "/__movenode/v1/impersonate/stop",
      { payload: AddressBody, success: ImpersonationJson },
      ["stop_impersonating", "Stop impersonating an address", "anvil_stopImpersonatingAccount."]
    ),
    controlPost(
      "autoImpersonate",
      "/__movenode/v1/impersonate/auto",
      { payload: Schema.Struct({ enabled: Schema.Boolean }), success: ImpersonationJson },
      ["auto_impersonate", "Impersonate every address", "anvil_autoImpersonateAccount; --auto-impersonate at start."]
    ),
    controlPost(
      "setBalance",
      "/__movenode/v1/balance",
      {
        payload: Schema.Struct({ address: Schema.String, amount: U64Input, asset: Schema.optional(Schema.String) }),
        success: EditJson
      },
      [
        "set_balance",
        "Set a balance",
        "Sets `address`'s balance of APT (or of the fungible asset whose metadata address is `asset`) to `amount` octas, as a committed transaction of its own; `supply` says how the asset's supply followed (docs/controls.md)."
      ]
    ),
    controlPost(
      "setResource",
      "/__movenode/v1/resource",
      {
        payload: Schema.Struct({
          address: Schema.String,
          type: Schema.String,
          value: Schema.optional(Schema.Unknown),
          bcs: Schema.optional(Schema.String),
          delete: Schema.optional(Schema.Boolean)
        }),
        success: EditJson
      },
      [
        "set_resource",
        "Write or delete a resource",
        "Writes the resource `type` at `address` from `value` (JSON, read through the type's layout, as the API renders resources) or `bcs` (hex), or deletes it (`delete: true`). A resource-group member is written inside its group."
      ]
    ),
    controlPost(
      "setTableItem",
      "/__movenode/v1/table_item",
      {
        payload: Schema.Struct({ handle: Schema.String, key: Schema.String, value: Schema.NullOr(Schema.String) }),
        success: EditJson
      },
      [
        "set_table_item",
        "Write or delete a table item",
        "`key` and `value` are hex of their BCS; a null value deletes the item."
      ]
    ),
    controlPost(
      "setStateValue",
      "/__movenode/v1/state_value",
      { payload: Schema.Struct({ key: Schema.String, value: Schema.NullOr(Schema.String) }), success: EditJson },
      [
        "set_state_value",
        "Write or delete any state key",
        "`key` is hex of BCS(StateKey) (what /v1/experimental/state_values/raw takes), `value` hex bytes or null."
      ]
    ),
    controlPost(
      "setAccount",
      "/__movenode/v1/account",
      {
        payload: Schema.Struct({
          address: Schema.String,
          sequence_number: Schema.optional(U64Input),
          authentication_key: Schema.optional(Schema.String)
        }),
        success: EditJson
      },
      [
        "set_account",
        "Set a sequence number or authentication key",
        "Edits `0x1::account::Account` at `address` (anvil_setNonce; an authentication key of your own is the other way to act as an account)."
      ]
    ),
    controlPost(
      "publish",
      "/__movenode/v1/publish",
      {
        payload: Schema.Struct({
          address: Schema.String,
          metadata: Schema.String,
          modules: Schema.Array(Schema.String)
        }),
        success: EditJson
      },
      [
        "publish",
        "Publish a package without its key",
        "Publishes `modules` (hex bytecode) with `metadata` (hex of BCS(PackageMetadata)) at `address` through 0x1::code::publish_package_txn sent key-less while the chain impersonates `address`: the framework's checks apply, the registry is updated, caches follow. The address pays the gas (it needs 2 APT)."
      ]
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "State edits and impersonation" })) {}

/** The controls' API: its own document and route table. */
export class ControlsApi extends HttpApi.make("movenode-controls")
  .add(ControlsGroup)
  .add(StateEditsGroup)
  .annotateMerge(
    OpenApi.annotations({
      title: "movenode test controls",
      version: "0.1.0",
      description:
        "Snapshots, mining, time, epochs, the pool, impersonation and state edits for tests, on a movenode local chain (docs/controls.md). Errors are the Aptos error body."
    })
  ) {}
