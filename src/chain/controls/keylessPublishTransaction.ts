import { BcsWriter } from "../../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../../domain/AccountAddress.js"
import type { SignedTransaction } from "../../domain/Transaction.js"

/** Gas for a publish: enough for large packages (the sender needs max gas × price = 2 APT). */
const MAX_GAS = 2_000_000n
const GAS_PRICE = 100n

/**
 * `0x1::code::publish_package_txn(metadata_serialized, code)` from `sender` with the key-less
 * authenticator (`SingleSender(NoAccountAuthenticator)`): what "publish without a signer" submits
 * while the chain impersonates the sender, so the package goes through the framework's own path
 * (registry, upgrade policy, compatibility checks) and the VM's module caches follow the commit.
 */
export const keylessPublishTransaction = (options: {
  readonly sender: AccountAddress
  readonly sequenceNumber: bigint
  readonly metadata: Uint8Array
  readonly modules: ReadonlyArray<Uint8Array>
  readonly chainId: number
  readonly expirationSecs: bigint
}): SignedTransaction => {
  const metadata = new BcsWriter(options.metadata.length + 8).bytesWithLength(options.metadata).toBytes()
  const code = new BcsWriter(1024)
  code.uleb128(options.modules.length)
  for (const m of options.modules) code.bytesWithLength(m)
  return {
    rawTransaction: {
      sender: options.sender,
      sequenceNumber: options.sequenceNumber,
      payload: {
        _tag: "EntryFunction",
        entryFunction: {
          module: { address: addressFromNumber(1), name: "code" },
          function: "publish_package_txn",
          typeArgs: [],
          args: [metadata, code.toBytes()]
        }
      },
      maxGasAmount: MAX_GAS,
      gasUnitPrice: GAS_PRICE,
      expirationTimestampSecs: options.expirationSecs,
      chainId: options.chainId
    },
    authenticator: { _tag: "SingleSender", sender: { _tag: "NoAccountAuthenticator" } }
  }
}
