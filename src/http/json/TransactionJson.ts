import * as Schema from "effect/Schema"

/**
 * The transaction shapes of the read endpoints (the reference's `Transaction` union, discriminated by
 * `type`), as rendered by `src/node/render`. Each kind lists its fields; nested Move values, payloads
 * and signatures are open JSON. Unlisted fields are kept (a newer reference field passes through).
 */
const open = <F extends Schema.Struct.Fields>(fields: F, identifier: string) =>
  Schema.StructWithRest(Schema.Struct(fields), [Schema.Record(Schema.String, Schema.Unknown)]).annotate({ identifier })

export const EventGuidJson = Schema.Struct({ creation_number: Schema.String, account_address: Schema.String }).annotate(
  {
    identifier: "EventGuid"
  }
)

export const EventJson = Schema.Struct({
  guid: EventGuidJson,
  sequence_number: Schema.String,
  type: Schema.String,
  data: Schema.Unknown
}).annotate({ identifier: "Event" })

export const VersionedEventJson = Schema.Struct({
  version: Schema.String,
  guid: EventGuidJson,
  sequence_number: Schema.String,
  type: Schema.String,
  data: Schema.Unknown
}).annotate({ identifier: "VersionedEvent" })

/** `write_resource`, `delete_resource`, `write_module`, `delete_module`, `write_table_item`, `delete_table_item`. */
export const WriteSetChangeJson = open(
  {
    type: Schema.Literals([
      "write_resource",
      "delete_resource",
      "write_module",
      "delete_module",
      "write_table_item",
      "delete_table_item"
    ]),
    state_key_hash: Schema.String
  },
  "WriteSetChange"
)

const info = {
  version: Schema.String,
  hash: Schema.String,
  state_change_hash: Schema.String,
  event_root_hash: Schema.String,
  state_checkpoint_hash: Schema.NullOr(Schema.String),
  gas_used: Schema.String,
  success: Schema.Boolean,
  vm_status: Schema.String,
  accumulator_root_hash: Schema.String,
  changes: Schema.Array(WriteSetChangeJson)
}

/**
 * The reference's `UserTransactionRequestInner` without the replay nonce, whose optionality differs
 * by use: the fields every request and every user transaction starts with (payload as open JSON).
 */
export const userTransactionRequestFields = {
  sender: Schema.String,
  sequence_number: Schema.String,
  max_gas_amount: Schema.String,
  gas_unit_price: Schema.String,
  expiration_timestamp_secs: Schema.String,
  payload: Schema.Record(Schema.String, Schema.Unknown)
}

const request = {
  ...userTransactionRequestFields,
  signature: Schema.Record(Schema.String, Schema.Unknown),
  replay_protection_nonce: Schema.NullOr(Schema.String)
}

export const UserTransactionJson = open(
  {
    type: Schema.Literal("user_transaction"),
    ...info,
    ...request,
    events: Schema.Array(EventJson),
    timestamp: Schema.String
  },
  "UserTransaction"
)

export const PendingTransactionJson = open(
  { type: Schema.Literal("pending_transaction"), hash: Schema.String, ...request },
  "PendingTransaction"
)

export const GenesisTransactionJson = open(
  {
    type: Schema.Literal("genesis_transaction"),
    ...info,
    payload: Schema.Record(Schema.String, Schema.Unknown),
    events: Schema.Array(EventJson)
  },
  "GenesisTransaction"
)

export const BlockMetadataTransactionJson = open(
  {
    type: Schema.Literal("block_metadata_transaction"),
    ...info,
    id: Schema.String,
    epoch: Schema.String,
    round: Schema.String,
    events: Schema.Array(EventJson),
    previous_block_votes_bitvec: Schema.Array(Schema.Number),
    proposer: Schema.String,
    failed_proposer_indices: Schema.Array(Schema.Number),
    timestamp: Schema.String
  },
  "BlockMetadataTransaction"
)

export const StateCheckpointTransactionJson = open(
  { type: Schema.Literal("state_checkpoint_transaction"), ...info, timestamp: Schema.String },
  "StateCheckpointTransaction"
)

export const BlockEpilogueTransactionJson = open(
  {
    type: Schema.Literal("block_epilogue_transaction"),
    ...info,
    timestamp: Schema.String,
    block_end_info: Schema.NullOr(
      Schema.Struct({
        block_gas_limit_reached: Schema.Boolean,
        block_output_limit_reached: Schema.Boolean,
        block_effective_block_gas_units: Schema.Number,
        block_approx_output_size: Schema.Number
      })
    )
  },
  "BlockEpilogueTransaction"
)

export const ValidatorTransactionJson = open(
  { type: Schema.Literal("validator_transaction"), ...info, events: Schema.Array(EventJson), timestamp: Schema.String },
  "ValidatorTransaction"
)

/** Any transaction the read endpoints return (committed, or pending from the mempool). */
export const TransactionJson = Schema.Union([
  UserTransactionJson,
  PendingTransactionJson,
  GenesisTransactionJson,
  BlockMetadataTransactionJson,
  StateCheckpointTransactionJson,
  BlockEpilogueTransactionJson,
  ValidatorTransactionJson
]).annotate({ identifier: "Transaction" })

export const BlockJson = Schema.Struct({
  block_height: Schema.String,
  block_hash: Schema.String,
  block_timestamp: Schema.String,
  first_version: Schema.String,
  last_version: Schema.String,
  /** null unless `with_transactions=true`. */
  transactions: Schema.NullOr(Schema.Array(TransactionJson))
}).annotate({ identifier: "Block" })
