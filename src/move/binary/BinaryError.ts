import * as Data from "effect/Data"

/** What went wrong, named after the reference's status codes where one exists. */
export type BinaryErrorKind =
  | "BadMagic"
  | "UnknownVersion"
  | "BadHeaderTable"
  | "DuplicateTable"
  | "UnknownTableType"
  | "UnknownSerializedType"
  | "UnknownOpcode"
  | "UnknownAbility"
  | "UnknownNativeStructFlag"
  | "InvalidFlagBits"
  | "UnexpectedEof"
  | "Malformed"
  | "LimitExceeded"
  | "FeatureNotInVersion"
  | "IndexOutOfBounds"

/**
 * The typed failure of reading a compiled module or script. `offset` is the absolute byte position
 * in the input where the problem was found (for bounds errors found after parsing: -1).
 */
export class BinaryError extends Data.TaggedError("BinaryError")<{
  readonly kind: BinaryErrorKind
  readonly message: string
  readonly offset: number
}> {}

/**
 * Thrown inside the reader only (cheap: no stack capture) and turned into a `BinaryError` at the
 * entry points, which never let it escape.
 */
export class BinaryFailure {
  constructor(
    readonly kind: BinaryErrorKind,
    readonly message: string,
    readonly offset: number
  ) {}
}

export const fail = (kind: BinaryErrorKind, message: string, offset = -1): never => {
  throw new BinaryFailure(kind, message, offset)
}
