/**
 * Signing messages (what a wallet signs), as `encode_submission` returns them:
 * - single signer: prefix("RawTransaction") ‖ BCS(RawTransaction);
 * - multi-agent: prefix("RawTransactionWithData") ‖ BCS(RawTransactionWithData::MultiAgent
 *   {raw_txn, secondary_signer_addresses}) (variant 0);
 * - fee payer: the same prefix and variant 1 {raw_txn, secondary_signer_addresses, fee_payer_address}.
 */
import { BcsWriter } from "../bcs/index.js"
import type { AccountAddress } from "./AccountAddress.js"
import { hashPrefix } from "./hash.js"
import { writeRawTransaction } from "./PayloadCodec.js"
import type { RawTransaction } from "./Transaction.js"

const start = (typeName: string): BcsWriter => new BcsWriter(512).fixed(hashPrefix(typeName))

export const signingMessage = (raw: RawTransaction): Uint8Array => {
  const w = start("RawTransaction")
  writeRawTransaction(w, raw)
  return w.toBytes()
}

const writeAddresses = (w: BcsWriter, xs: ReadonlyArray<AccountAddress>): void => {
  w.uleb128(xs.length)
  for (const x of xs) w.fixed(x)
}

export const multiAgentSigningMessage = (
  raw: RawTransaction,
  secondarySignerAddresses: ReadonlyArray<AccountAddress>
): Uint8Array => {
  const w = start("RawTransactionWithData").u8(0)
  writeRawTransaction(w, raw)
  writeAddresses(w, secondarySignerAddresses)
  return w.toBytes()
}

export const feePayerSigningMessage = (
  raw: RawTransaction,
  secondarySignerAddresses: ReadonlyArray<AccountAddress>,
  feePayerAddress: AccountAddress
): Uint8Array => {
  const w = start("RawTransactionWithData").u8(1)
  writeRawTransaction(w, raw)
  writeAddresses(w, secondarySignerAddresses)
  w.fixed(feePayerAddress)
  return w.toBytes()
}
