/**
 * The faucet's funder where the root key is not ours: a fork of a real network (or of a movenode
 * chain started with another seed) has a `@core_resources` account we cannot sign for, or none at
 * all, and no mint capability anyone can use. The faucet then funds from an account whose key it
 * holds, by an ordinary signed `0x1::aptos_account::transfer` (a user transaction, as the SDK's
 * `fundAccount` expects; the framework creates the receiver's account and primary store as on the
 * source), and this file gives that account what it needs as state edits (the test controls'
 * balance control, `controls/balanceEdits.ts`), committed before a funding that needs them:
 *
 * - its `0x1::account::Account` (authentication key = its key's, sequence number 0) when absent;
 * - APT: its primary store created when absent and set to `TOP_UP` whenever it falls below what a
 *   funding takes plus `FLOOR`; the APT supply moves with it, so the faucet's APT is minted as on
 *   a chain of our own.
 */
import { BcsWriter } from "../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../domain/AccountAddress.js"
import type { StateReader } from "../ledger/Ledger.js"
import { ACCOUNT_TAG, accountResourceKey } from "./accountSequenceNumber.js"
import { CORE_RESOURCES, ed25519AuthKey } from "./buildLocalGenesis.js"
import { APT_COIN, planBalance } from "./controls/balanceEdits.js"
import type { KeyEdit } from "./controls/stateEdits.js"

const APT_METADATA = addressFromNumber(0xa)

/** What the funder is set to when it runs low: 10 billion APT (u64 holds 184 billion). */
export const TOP_UP = 10n ** 18n
/** The balance kept above a funding's amount (its gas and the fundings in flight). */
const FLOOR = 10n ** 16n

/** Whether `rootPublicKey` signs for the chain's `@core_resources` account (false: absent, or another key). */
export const rootKeyHeld = (state: StateReader, rootPublicKey: Uint8Array): boolean => {
  const account = state.get(accountResourceKey(CORE_RESOURCES))
  if (account === undefined || account.length < 33 || account[0] !== 32) return false
  return Buffer.compare(account.subarray(1, 33), ed25519AuthKey(rootPublicKey)) === 0
}

/**
 * `0x1::account::Account` of a new account: `authentication_key`, `sequence_number` 0,
 * `guid_creation_num` 2 (its two event handles took 0 and 1), no capability offers.
 */
export const newAccountResource = (address: AccountAddress, authenticationKey: Uint8Array): Uint8Array => {
  const w = new BcsWriter(160)
  w.bytesWithLength(authenticationKey)
  w.u64(0n)
  w.u64(2n)
  for (const creationNumber of [0n, 1n]) {
    w.u64(0n) // counter
    w.u64(creationNumber)
    w.fixed(address)
  }
  w.u8(0) // rotation_capability_offer: none
  w.u8(0) // signer_capability_offer: none
  return w.toBytes()
}

/**
 * The edits that let `funder` (whose Ed25519 public key is `publicKey`) pay `amount` and its gas:
 * none when it already can; a message when its stores cannot be read or the amount is beyond
 * what the top-up gives.
 */
export const provisionEdits = (
  state: StateReader,
  funder: AccountAddress,
  publicKey: Uint8Array,
  amount: bigint
): ReadonlyArray<KeyEdit> | string => {
  if (amount > TOP_UP - FLOOR) return `the faucet funds at most ${TOP_UP - FLOOR} octas at once on this chain`
  const edits: KeyEdit[] = []
  if (state.get(accountResourceKey(funder)) === undefined)
    edits.push({
      key: { _tag: "AccessPath", address: funder, path: { _tag: "Resource", struct: ACCOUNT_TAG } },
      value: newAccountResource(funder, ed25519AuthKey(publicKey))
    })
  // What it holds now (a plan to hold 0 reads it without creating anything).
  const now = planBalance(state, funder, APT_METADATA, APT_COIN, 0n)
  if (typeof now === "string" && now !== "no-store") return `the faucet's funder: ${now}`
  const held = typeof now === "string" ? 0n : now.before
  if (held < amount + FLOOR) {
    const plan = planBalance(state, funder, APT_METADATA, APT_COIN, TOP_UP, { createStore: true })
    if (typeof plan === "string")
      return plan === "no-store"
        ? "the chain has no APT metadata object (0xa): the faucet's funder cannot be given APT"
        : `the faucet's funder: ${plan}`
    edits.push(...plan.edits)
  }
  return edits
}
