import * as Schema from "effect/Schema"

/** `?ledger_version=`: the version a read is made at (absent = the latest); checked by the node. */
export const ledgerVersionQuery = { ledger_version: Schema.optional(Schema.String) }

/** `?start=&limit=`: a page of a list, its meaning of `start` (a version, a sequence number, a cursor) set by the endpoint. */
export const pageQuery = { start: Schema.optional(Schema.String), limit: Schema.optional(Schema.String) }
