import { Bcs, toHex } from "../bcs/index.js"
import { addressToShortString } from "../domain/AccountAddress.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import { structTagToString } from "../domain/TypeTagString.js"

/**
 * A state key as a person reads it, for errors that name the key a fork could not get
 * (`resource 0x1::coin::CoinStore<…> of 0xcafe (state key 0x…)`); the hex alone when it does not decode.
 */
export const describeStateKey = (keyBytes: Uint8Array): string => {
  const raw = `state key 0x${toHex(keyBytes)}`
  const decoded = Bcs.decode(stateKeyCodec, keyBytes)
  if (decoded._tag === "Failure") return raw
  const k = decoded.success
  switch (k._tag) {
    case "AccessPath": {
      const at = addressToShortString(k.address)
      const what =
        k.path._tag === "Code"
          ? `module ${addressToShortString(k.path.module.address)}::${k.path.module.name}`
          : k.path._tag === "Resource"
            ? `resource ${structTagToString(k.path.struct)} of ${at}`
            : `resource group ${structTagToString(k.path.struct)} of ${at}`
      return `${what} (${raw})`
    }
    case "TableItem":
      return `item 0x${toHex(k.key)} of table ${addressToShortString(k.handle)} (${raw})`
    case "Raw":
      return raw
  }
}
