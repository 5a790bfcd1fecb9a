import * as Result from "effect/Result"
import type { BcsError } from "../../bcs/index.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import { decodeGenesisTransaction } from "../../domain/Genesis.js"

/** One module published by a genesis write set. */
export interface GenesisModuleRow {
  /** Short form, as the API prints it ("0x1"). */
  readonly address: string
  readonly name: string
  readonly bytes: Uint8Array
}

/**
 * Every module a genesis blob writes (write-set order, i.e. BCS key order): the entries whose key
 * is an access path with a `Code` path and whose op carries data. Pure.
 */
export const listGenesisModules = (
  genesisBytes: Uint8Array
): Result.Result<ReadonlyArray<GenesisModuleRow>, BcsError> =>
  Result.map(decodeGenesisTransaction(genesisBytes), (tx) => {
    if (tx.payload._tag !== "Direct") return []
    const rows: GenesisModuleRow[] = []
    for (const { key, op } of tx.payload.changeSet.writeSet.entries) {
      if (key._tag !== "AccessPath" || key.path._tag !== "Code") continue
      if (!("data" in op)) continue
      rows.push({ address: addressToShortString(key.address), name: key.path.module.name, bytes: op.data })
    }
    return rows
  })
