import * as Schema from "effect/Schema"

/** A version above the latest committed one. */
export class VersionNotFound extends Schema.TaggedError<VersionNotFound>()("VersionNotFound", {
  version: Schema.BigInt
}) {}

/** A version (or block) below the pruning window. */
export class VersionPruned extends Schema.TaggedError<VersionPruned>()("VersionPruned", {
  version: Schema.BigInt
}) {}

export class BlockPruned extends Schema.TaggedError<BlockPruned>()("BlockPruned", {
  height: Schema.BigInt
}) {}

export class TransactionNotFound extends Schema.TaggedError<TransactionNotFound>()("TransactionNotFound", {
  query: Schema.String
}) {}

export class BlockNotFound extends Schema.TaggedError<BlockNotFound>()("BlockNotFound", {
  query: Schema.String
}) {}

/** Storage failed or holds something it cannot decode: an internal error, never the client's fault. */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  message: Schema.String
}) {}

export type LedgerError =
  | VersionNotFound
  | VersionPruned
  | BlockPruned
  | TransactionNotFound
  | BlockNotFound
  | StorageError
