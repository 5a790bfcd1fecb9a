import { addressEquals, addressFromNumber } from "../../domain/AccountAddress.js"
import type { Transaction } from "../../domain/Transaction.js"
import type { WriteSet, WriteSetEntry } from "../../domain/WriteSet.js"
import type { StateView } from "../../move/vm/StateView.js"
import { OverlayStateView } from "../OverlayStateView.js"

/**
 * The framework a genesis publishes: module writes and each package address's
 * `0x1::code::PackageRegistry` (the packages' metadata), as Creation ops. Nothing in them depends on
 * the chain, so they are copied from an existing genesis (the devnet genesis the package ships).
 */
export interface Framework {
  readonly writeSet: WriteSet
}

const ONE = addressFromNumber(1)

const isFrameworkEntry = (e: WriteSetEntry): boolean =>
  e.key._tag === "AccessPath" &&
  (e.key.path._tag === "Code" ||
    (e.key.path._tag === "Resource" &&
      addressEquals(e.key.path.struct.address, ONE) &&
      e.key.path.struct.module === "code" &&
      e.key.path.struct.name === "PackageRegistry"))

/** The framework of a genesis transaction (a direct write set): its modules and package registries. */
export const frameworkOfGenesis = (genesis: Extract<Transaction, { _tag: "GenesisTransaction" }>): Framework => {
  if (genesis.payload._tag !== "Direct") throw new RangeError("the genesis is a script, not a direct write set")
  return { writeSet: { entries: genesis.payload.changeSet.writeSet.entries.filter(isFrameworkEntry) } }
}

const EMPTY: StateView = {
  module: () => undefined,
  resource: () => undefined,
  resourceGroup: () => undefined,
  tableItem: () => undefined
}

/** State holding only the framework (what the genesis functions run over), at version 0. */
export const frameworkView = (framework: Framework): OverlayStateView =>
  new OverlayStateView(EMPTY, [{ writeSet: framework.writeSet, version: 0n }])
