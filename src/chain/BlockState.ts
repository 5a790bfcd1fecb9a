import type { WriteSet } from "../domain/WriteSet.js"
import { writeOpValue } from "../ledger/writeOpValue.js"
import type { ChainState } from "./ChainVm.js"

const keyOf = (k: Uint8Array): string => Buffer.from(k.buffer, k.byteOffset, k.byteLength).toString("latin1")

/**
 * The state a block's transactions run on: the committed state at the block's parent version,
 * with the write sets of the block's earlier transactions laid over it, each at the version it
 * will be committed at (so what the VM caches by version stays true after the commit). Nothing is
 * written to the ledger until the whole block commits.
 */
export class BlockState implements ChainState {
  private readonly writes = new Map<string, { readonly value: Uint8Array | undefined; readonly version: bigint }>()
  private current: bigint

  constructor(private readonly base: ChainState) {
    this.current = base.version
  }

  /** The version of the last transaction applied (the parent version before any). */
  get version(): bigint {
    return this.current
  }

  /** Lays the next transaction's write set over the state (it takes the next version). */
  apply(writeSet: WriteSet): void {
    this.current++
    for (const e of writeSet.entries)
      this.writes.set(keyOf(e.keyBytes), { value: writeOpValue(e.op), version: this.current })
  }

  get(keyBytes: Uint8Array): Uint8Array | undefined {
    const w = this.writes.get(keyOf(keyBytes))
    return w === undefined ? this.base.get(keyBytes) : w.value
  }

  getVersioned(keyBytes: Uint8Array): { readonly value: Uint8Array; readonly version: bigint } | undefined {
    const w = this.writes.get(keyOf(keyBytes))
    if (w === undefined) return this.base.getVersioned(keyBytes)
    return w.value === undefined ? undefined : { value: w.value, version: w.version }
  }
}
