import { Bcs, BcsReader } from "../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../domain/AccountAddress.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import type { KeyValueReader } from "../move/vm/StateView.js"

const ACCOUNT = { address: addressFromNumber(1), module: "account", name: "Account", typeArgs: [] }

/** BCS(StateKey) of `0x1::account::Account` at `address`. */
export const accountResourceKey = (address: AccountAddress): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address, path: { _tag: "Resource", struct: ACCOUNT } })

/**
 * The sender's on-chain sequence number: `sequence_number` of its `0x1::account::Account
 * { authentication_key: vector<u8>, sequence_number: u64, … }`, or 0 when it has none (a stateless
 * account under DEFAULT_ACCOUNT_RESOURCE, or one that does not exist yet: the prologue decides).
 */
export const accountSequenceNumber = (state: KeyValueReader, address: AccountAddress): bigint => {
  const bytes = state.get(accountResourceKey(address))
  if (bytes === undefined) return 0n
  const r = new BcsReader(bytes)
  r.bytesWithLength()
  return r.u64()
}
