import { Bcs } from "../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../domain/AccountAddress.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import type { StructTag, TypeTag } from "../domain/TypeTag.js"

/**
 * The state keys the node services read, as the BCS bytes a `StateReader` is keyed by, and the
 * framework struct tags they name.
 */
export const resourceKey = (address: AccountAddress, struct: StructTag): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address, path: { _tag: "Resource", struct } })

export const resourceGroupKey = (address: AccountAddress, struct: StructTag): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address, path: { _tag: "ResourceGroup", struct } })

export const moduleKey = (address: AccountAddress, name: string): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address, path: { _tag: "Code", module: { address, name } } })

const ONE = addressFromNumber(1)

/** A struct of the framework at 0x1. */
export const frameworkStruct = (module: string, name: string, typeArgs: ReadonlyArray<TypeTag> = []): StructTag => ({
  address: ONE,
  module,
  name,
  typeArgs
})
