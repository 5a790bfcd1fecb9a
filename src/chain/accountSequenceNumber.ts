import { Bcs, BcsReader } from "../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../domain/AccountAddress.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import type { KeyValueReader, StateView } from "../move/vm/StateView.js"

export const ACCOUNT_TAG = { address: addressFromNumber(1), module: "account", name: "Account", typeArgs: [] }

/** BCS(StateKey) of `0x1::account::Account` at `address`. */
export const accountResourceKey = (address: AccountAddress): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address, path: { _tag: "Resource", struct: ACCOUNT_TAG } })

/**
 * The sender's on-chain sequence number: `sequence_number` of its `0x1::account::Account
 * { authentication_key: vector<u8>, sequence_number: u64, … }`, or 0 when it has none (a stateless
 * account under DEFAULT_ACCOUNT_RESOURCE, or one that does not exist yet: the prologue decides).
 */
export const accountSequenceNumber = (state: KeyValueReader, address: AccountAddress): bigint =>
  sequenceNumberOf(state.get(accountResourceKey(address)))

/** The same through a VM `StateView`. */
export const accountSequenceNumberIn = (view: StateView, address: AccountAddress): bigint =>
  sequenceNumberOf(view.resource(address, ACCOUNT_TAG))

const sequenceNumberOf = (bytes: Uint8Array | undefined): bigint => {
  if (bytes === undefined) return 0n
  const r = new BcsReader(bytes)
  r.bytesWithLength()
  return r.u64()
}
