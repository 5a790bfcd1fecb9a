/**
 * The object-related resources one transaction wrote, by address (pv2's
 * `ObjectAggregatedDataMapping`): an object's core, and the fungible-asset resources that live in
 * the same resource group (store, metadata, supply, concurrent balance). Processors look a store's
 * owner or a metadata object's creator up here.
 */
import type { IndexerTransaction, JsonValue } from "./input/IndexerTransaction.js"
import { addressField, boolField, uintField } from "./moveValues.js"

export interface ObjectCore {
  readonly owner: string
  readonly allowUngatedTransfer: boolean
  readonly guidCreationNum: bigint
  readonly stateKeyHash: string
}

export interface AddressResources {
  objectCore?: ObjectCore
  untransferable?: boolean
  fungibleStore?: JsonValue
  metadata?: JsonValue
  supply?: JsonValue
  concurrentSupply?: JsonValue
  concurrentBalance?: JsonValue
  pairedCoinType?: JsonValue
}

/** `0x1::object::ObjectCore`'s JSON, read (undefined when malformed). */
export const objectCoreOf = (data: JsonValue | undefined, stateKeyHash: string): ObjectCore | undefined => {
  const owner = addressField(data, "owner")
  const allowUngatedTransfer = boolField(data, "allow_ungated_transfer")
  const guidCreationNum = uintField(data, "guid_creation_num")
  if (owner === undefined || allowUngatedTransfer === undefined || guidCreationNum === undefined) return undefined
  return { owner, allowUngatedTransfer, guidCreationNum, stateKeyHash }
}

const SLOTS: Readonly<Record<string, keyof AddressResources>> = {
  "0x1::fungible_asset::FungibleStore": "fungibleStore",
  "0x1::fungible_asset::Metadata": "metadata",
  "0x1::fungible_asset::Supply": "supply",
  "0x1::fungible_asset::ConcurrentSupply": "concurrentSupply",
  "0x1::fungible_asset::ConcurrentFungibleBalance": "concurrentBalance",
  "0x1::coin::PairedCoinType": "pairedCoinType"
}

/** Per transaction (several processors ask for the same one): garbage collected with it. */
const memo = new WeakMap<IndexerTransaction, ReadonlyMap<string, AddressResources>>()

export const resourcesByAddress = (t: IndexerTransaction): ReadonlyMap<string, AddressResources> => {
  const known = memo.get(t)
  if (known !== undefined) return known
  const out = new Map<string, AddressResources>()
  memo.set(t, out)
  for (const c of t.changes) {
    if (c.type !== "write_resource") continue
    let entry = out.get(c.address)
    if (entry === undefined) out.set(c.address, (entry = {}))
    if (c.typeStr === "0x1::object::ObjectCore") {
      const core = objectCoreOf(c.data(), c.stateKeyHash)
      if (core !== undefined) entry.objectCore = core
      continue
    }
    if (c.typeStr === "0x1::object::Untransferable") {
      entry.untransferable = true
      continue
    }
    const slot = SLOTS[c.typeStr]
    if (slot !== undefined) {
      const data = c.data()
      if (data !== undefined) (entry as Record<string, unknown>)[slot] = data
    }
  }
  return out
}
