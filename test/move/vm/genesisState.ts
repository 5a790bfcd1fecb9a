/**
 * Test helper: global state right after a genesis blob, as a `StateView` for the VM, built straight
 * from the genesis write set (every value written at version 0).
 */
import { Result } from "effect"
import { toHex } from "../../../src/bcs/index.js"
import { decodeGenesisTransaction } from "../../../src/domain/Genesis.js"
import type { WriteSetEntry } from "../../../src/domain/WriteSet.js"
import { type KeyValueReader, type StateView, stateViewFromReader } from "../../../src/move/vm/StateView.js"
import { type GenesisName, loadGenesisBytes } from "../../support/genesis.js"

export interface GenesisState {
  readonly reader: KeyValueReader
  readonly view: StateView
  readonly entries: ReadonlyArray<WriteSetEntry>
}

const cache = new Map<GenesisName, GenesisState>()

export const genesisState = (name: GenesisName): GenesisState => {
  const hit = cache.get(name)
  if (hit !== undefined) return hit
  const decoded = decodeGenesisTransaction(loadGenesisBytes(name))
  if (Result.isFailure(decoded)) throw new Error(decoded.failure.message)
  const payload = decoded.success.payload
  if (payload._tag !== "Direct") throw new Error("expected a direct write set")
  const map = new Map<string, Uint8Array>()
  const entries = payload.changeSet.writeSet.entries
  for (const e of entries) {
    const op = e.op
    if ("data" in op) map.set(toHex(e.keyBytes), op.data)
  }
  const reader: KeyValueReader = {
    get: (k) => map.get(toHex(k)),
    getVersioned: (k) => {
      const v = map.get(toHex(k))
      return v === undefined ? undefined : { value: v, version: 0n }
    }
  }
  const state = { reader, view: stateViewFromReader(reader), entries }
  cache.set(name, state)
  return state
}
