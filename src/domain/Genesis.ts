/**
 * Decoding a genesis blob: the BCS of a `Transaction` that must be the GenesisTransaction variant
 * (index 1) carrying a `WriteSetPayload`. Pure; the caller reads the file.
 */
import * as Result from "effect/Result"
import { BcsError, BcsReader, type BcsLimits } from "../bcs/index.js"
import { readWriteSetPayload } from "./ChangeSetCodec.js"
import type { Transaction } from "./Transaction.js"

/** Genesis blobs are large (mainnet ~1 MB, one write-set entry of ~560 KB): the default limits fit. */
export const decodeGenesisTransaction = (
  bytes: Uint8Array,
  limits?: BcsLimits
): Result.Result<Extract<Transaction, { _tag: "GenesisTransaction" }>, BcsError> => {
  try {
    const r = new BcsReader(bytes, limits)
    const tag = r.uleb128()
    if (tag !== 1) {
      r.offset = 0
      r.fail(`expected a GenesisTransaction (variant 1), found variant ${tag}`)
    }
    const payload = readWriteSetPayload(r)
    r.expectEnd()
    return Result.succeed({ _tag: "GenesisTransaction", payload })
  } catch (e) {
    if (e instanceof BcsError) return Result.fail(e)
    return Result.fail(new BcsError(e instanceof Error ? e.message : String(e), -1))
  }
}
