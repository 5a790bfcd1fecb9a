/**
 * Test helper: user transactions against the devnet genesis state, executed by the real executor,
 * with reads that go around the executor (view functions run by the VM, resources decoded from
 * the state) so that assertions do not trust what they check.
 */
import { BcsReader, BcsWriter } from "../../src/bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { RawTransaction, SignedTransaction, TransactionPayload } from "../../src/domain/Transaction.js"
import type { TransactionAuthenticator } from "../../src/domain/TransactionAuthenticator.js"
import type { StructTag, TypeTag } from "../../src/domain/TypeTag.js"
import { overlayStateView } from "../../src/execution/OverlayStateView.js"
import type { TransactionOutput } from "../../src/execution/TransactionOutput.js"
import { MoveVm } from "../../src/move/vm/MoveVm.js"
import type { StateView } from "../../src/move/vm/StateView.js"
import { genesisState } from "../move/vm/genesisState.js"

export const ONE = addressFromNumber(1)
export const ROOT = addressFromNumber(0xa550c18)
export const DEVNET_CHAIN_ID = 243
export const U64_MAX = (1n << 64n) - 1n

export const devnetView = (): StateView => genesisState("devnet").view
export const vm = new MoveVm()

const aptosCoin: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
}

export const u64 = (n: bigint): Uint8Array => new BcsWriter(8).u64(n).toBytes()

/** A fresh address, different for each `n`. */
export const addressOf = (n: number): AccountAddress => {
  const a = new Uint8Array(32)
  a[0] = 0x42
  a[28] = (n >>> 24) & 0xff
  a[29] = (n >>> 16) & 0xff
  a[30] = (n >>> 8) & 0xff
  a[31] = n & 0xff
  return a
}

const single = (view: StateView, module: string, fn: string, tyArgs: TypeTag[], args: Uint8Array[]): BcsReader => {
  const o = vm.call(view, { module: { address: ONE, name: module }, function: fn, tyArgs, args })
  if (o._tag !== "Success")
    throw new Error(`${module}::${fn}: ${JSON.stringify(o, (_, v) => (typeof v === "bigint" ? `${v}` : v))}`)
  return new BcsReader(o.values[0]!)
}

/** `0x1::coin::balance<AptosCoin>(a)` (coin store plus the paired primary fungible store). */
export const aptBalance = (view: StateView, a: AccountAddress): bigint =>
  single(view, "coin", "balance", [aptosCoin], [a]).u64()

/** `0x1::coin::supply<AptosCoin>()`: Option<u128>. */
export const aptSupply = (view: StateView): bigint => {
  const r = single(view, "coin", "supply", [aptosCoin], [])
  if (r.uleb128() !== 1) throw new Error("no supply")
  return r.u128()
}

/** `0x1::account::get_sequence_number(a)` (0 for an address without an Account, flag 91). */
export const sequenceNumber = (view: StateView, a: AccountAddress): bigint =>
  single(view, "account", "get_sequence_number", [], [a]).u64()

const ACCOUNT: StructTag = { address: ONE, module: "account", name: "Account", typeArgs: [] }
export const hasAccountResource = (view: StateView, a: AccountAddress): boolean =>
  view.resource(a, ACCOUNT) !== undefined

export const entry = (
  module: string,
  fn: string,
  args: Uint8Array[],
  tyArgs: TypeTag[] = [],
  address = ONE
): TransactionPayload => ({
  _tag: "EntryFunction",
  entryFunction: { module: { address, name: module }, function: fn, typeArgs: tyArgs, args }
})

export const transferPayload = (to: AccountAddress, amount: bigint): TransactionPayload =>
  entry("aptos_account", "transfer", [to, u64(amount)])

/** A simulation authenticator: no key, so the prologue skips the key check. */
export const NO_ACCOUNT: TransactionAuthenticator = { _tag: "SingleSender", sender: { _tag: "NoAccountAuthenticator" } }

export const signed = (
  sender: AccountAddress,
  payload: TransactionPayload,
  over: Partial<RawTransaction> = {},
  authenticator: TransactionAuthenticator = NO_ACCOUNT
): SignedTransaction => ({
  rawTransaction: {
    sender,
    sequenceNumber: 0n,
    payload,
    maxGasAmount: 200_000n,
    gasUnitPrice: 100n,
    expirationTimestampSecs: 4_000_000_000n,
    chainId: DEVNET_CHAIN_ID,
    ...over
  },
  authenticator
})

/** The state after a kept output (its write set on top of `view`). */
export const applied = (view: StateView, out: TransactionOutput): StateView =>
  out.status._tag === "Keep" ? overlayStateView(view, [{ writeSet: out.writeSet, version: 1n }]) : view

export const stringify = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    typeof x === "bigint" ? `${x}` : x instanceof Uint8Array ? Buffer.from(x).toString("hex") : x
  )
