import * as Schema from "effect/Schema"

/** `GET /v1/accounts/{address}`. */
export const AccountDataJson = Schema.Struct({
  sequence_number: Schema.String,
  authentication_key: Schema.String
}).annotate({ identifier: "AccountData" })

/** A resource: its struct tag and its value as Move JSON. */
export const MoveResourceJson = Schema.Struct({
  type: Schema.String,
  data: Schema.Unknown
}).annotate({ identifier: "MoveResource" })

/** `POST /v1/tables/{handle}/item`'s body: the key as Move JSON of `key_type`, the value's type. */
export const TableItemRequestJson = Schema.Struct({
  key_type: Schema.String,
  value_type: Schema.String,
  key: Schema.Unknown
}).annotate({ identifier: "TableItemRequest" })

/** `POST /v1/tables/{handle}/raw_item`'s body: the key's BCS bytes in hex. */
export const RawTableItemRequestJson = Schema.Struct({ key: Schema.String }).annotate({
  identifier: "RawTableItemRequest"
})

/** `POST /v1/experimental/state_values/raw`'s body: BCS(StateKey) in hex. */
export const RawStateValueRequestJson = Schema.Struct({ key: Schema.String }).annotate({
  identifier: "RawStateValueRequest"
})
