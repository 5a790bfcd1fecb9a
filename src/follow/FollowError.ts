import * as Schema from "effect/Schema"

/**
 * Why a follower stops or waits. Only `SourceUnavailable` is retried (the source is down, slow, or
 * answered 5xx/429); the others stop the follower with their message: applying anything more
 * would store a history this follower cannot vouch for.
 */

/** The source could not be asked (connection refused, timeout, 5xx, 429): try again later. */
export class SourceUnavailable extends Schema.TaggedError<SourceUnavailable>()("SourceUnavailable", {
  message: Schema.String
}) {}

/** The source answered something that fails a check (a hash, a version, its encoding). */
export class SourceInvalid extends Schema.TaggedError<SourceInvalid>()("SourceInvalid", {
  message: Schema.String
}) {}

/** The source's history differs from what this follower already holds (another chain, a reset). */
export class SourceDiverged extends Schema.TaggedError<SourceDiverged>()("SourceDiverged", {
  message: Schema.String
}) {}

export type FollowError = SourceUnavailable | SourceInvalid | SourceDiverged
