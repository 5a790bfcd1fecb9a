import * as Schema from "effect/Schema"

/** The genesis blob does not decode, or lacks what a ledger needs from it (the chain id). */
export class GenesisInvalid extends Schema.TaggedError<GenesisInvalid>()("GenesisInvalid", {
  message: Schema.String
}) {}

/** The store was created from another genesis: opening it with this one would mix two chains. */
export class GenesisMismatch extends Schema.TaggedError<GenesisMismatch>()("GenesisMismatch", {
  /** Hex hash of the genesis transaction the store holds. */
  stored: Schema.String,
  /** Hex hash of the genesis transaction given now. */
  given: Schema.String
}) {
  override get message(): string {
    return `the ledger store holds another chain: its genesis transaction hash is 0x${this.stored}, the genesis given hashes to 0x${this.given}`
  }
}

export type GenesisError = GenesisInvalid | GenesisMismatch
