import type { AccountAddress } from "./AccountAddress.js"
import type { TypeTag } from "./TypeTag.js"

/** BCS enum: 0 handle event (V1), 1 module event (V2). */
export type ContractEvent =
  | {
      readonly _tag: "V1"
      readonly key: { readonly creationNumber: bigint; readonly accountAddress: AccountAddress }
      readonly sequenceNumber: bigint
      readonly typeTag: TypeTag
      readonly data: Uint8Array
    }
  | { readonly _tag: "V2"; readonly typeTag: TypeTag; readonly data: Uint8Array }
