import { BcsWriter } from "../bcs/index.js"
import { addressFromNumber } from "../domain/AccountAddress.js"
import { writeStateKey } from "../domain/StateKeyCodec.js"
import type { StructTag } from "../domain/TypeTag.js"
import { writeTypeTag } from "../domain/TypeTagCodec.js"
import { IDLE_BLOCK_EPILOGUE, IDLE_BLOCK_METADATA } from "./recordSamples.js"

/**
 * The LZ4 dictionary of the `txns` table: bytes the transaction records of a chain repeat, which
 * LZ4 then references instead of storing. It is the BCS of the state keys (at 0x1) and type tags of
 * the framework's resources and events that every block and every APT transfer write, in this
 * order (format 4), then the two records of an idle block (`recordSamples.ts`, format 5; the
 * epilogue's constant hashes kept since format 6: ~30 % less per idle block in all). A record compressed with it can only be read with the very same bytes:
 * changing `TYPES` (or the encodings) changes the store's format, and
 * test/ledger/recordDictionary.test.ts pins the bytes' hash for that reason.
 */
const TYPES: ReadonlyArray<readonly [module: string, name: string]> = [
  ["account", "Account"],
  ["object", "ObjectGroup"],
  ["object", "ObjectCore"],
  ["fungible_asset", "FungibleStore"],
  ["fungible_asset", "ConcurrentSupply"],
  ["fungible_asset", "Metadata"],
  ["fungible_asset", "Withdraw"],
  ["fungible_asset", "Deposit"],
  ["primary_fungible_store", "DeriveRefPod"],
  ["transaction_fee", "FeeStatement"],
  ["coin", "CoinWithdraw"],
  ["coin", "CoinDeposit"],
  ["block", "BlockResource"],
  ["block", "CommitHistory"],
  ["block", "NewBlockEvent"],
  ["block", "NewBlock"],
  ["stake", "ValidatorPerformance"],
  ["stake", "PendingTransactionFee"],
  ["randomness", "PerBlockRandomness"],
  ["decryption", "PerBlockDecryptionKey"],
  ["timestamp", "CurrentTimeMicroseconds"]
]

const build = (): Buffer => {
  const w = new BcsWriter(8192)
  const one = addressFromNumber(1)
  for (const [module, name] of TYPES) {
    const struct: StructTag = { address: one, module, name, typeArgs: [] }
    writeStateKey(w, { _tag: "AccessPath", address: one, path: { _tag: "Resource", struct } })
    writeTypeTag(w, { _tag: "struct", struct })
  }
  // Last: LZ4 keeps the latest place of each byte sequence, so matches go to the whole records.
  w.fixed(Buffer.from(IDLE_BLOCK_METADATA, "hex"))
  w.fixed(Buffer.from(IDLE_BLOCK_EPILOGUE, "hex"))
  const bytes = w.toBytes()
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

let built: Buffer | undefined

/** The dictionary's bytes (built once). */
export const recordDictionary = (): Buffer => (built ??= build())
