/**
 * How a user transaction is protected from replay: a payload-V1 transaction whose extra config
 * carries a nonce is orderless (its sequence number field is ignored, conventionally u64::MAX);
 * everything else uses its sequence number.
 */
import type { RawTransaction, ReplayProtector } from "./Transaction.js"

export const replayProtectorOf = (raw: RawTransaction): ReplayProtector => {
  const p = raw.payload
  if (p._tag === "PayloadV1" && p.extraConfig.replayProtectionNonce !== undefined)
    return { _tag: "Nonce", nonce: p.extraConfig.replayProtectionNonce }
  return { _tag: "SequenceNumber", sequenceNumber: raw.sequenceNumber }
}
