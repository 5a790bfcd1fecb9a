/**
 * `check_gas` (the reference's `aptos-vm/src/gas.rs`): bounds on size, max gas and price that need
 * no Move code, checked before the prologue runs. Any failure discards the transaction.
 */
import type { StatusName } from "../move/vm/StatusCode.js"
import { intrinsicGas, type TransactionGasParams, toExternalRoundUp } from "./TransactionGasParams.js"

export interface GasCheckInput {
  /** BCS length of the RawTransaction (the authenticator excluded). */
  readonly transactionSize: bigint
  readonly maxGasAmount: bigint
  readonly gasUnitPrice: bigint
  /** A keyless signer adds `txn.keyless.base` to the intrinsic cost. */
  readonly isKeyless: boolean
  /**
   * The sender has no Account resource and the VM will create it lazily (see
   * `shouldCreateAccountResource`): the budget must cover the account's storage.
   */
  readonly createsAccount: boolean
  /** `DEFAULT_ACCOUNT_RESOURCE` (91) on: a zero-price account creation is not checked. */
  readonly defaultAccountResource: boolean
  /** `NEW_ACCOUNTS_DEFAULT_TO_FA_STORE` (90) on: one slot instead of two for the new account. */
  readonly newAccountsDefaultToFaStore: boolean
}

/**
 * The reference's `hack_estimated_fee_for_account_creation` (disk space pricing V2): one slot plus
 * 300 bytes, an over-estimate of an Account resource.
 */
export const estimatedAccountCreationFee = (p: TransactionGasParams): bigint =>
  p.storageFeePerStateSlot + 300n * p.storageFeePerStateByte

/** The first bound the transaction breaks, or undefined. Order as the reference checks. */
export const checkGas = (p: TransactionGasParams, t: GasCheckInput): StatusName | undefined => {
  if (t.transactionSize > p.maxTransactionSizeInBytes) return "EXCEEDED_MAX_TRANSACTION_SIZE"
  if (t.maxGasAmount > p.maximumNumberOfGasUnits) return "MAX_GAS_UNITS_EXCEEDS_MAX_GAS_UNITS_BOUND"
  const intrinsic = intrinsicGas(p, t.transactionSize) + (t.isKeyless ? p.keylessBase : 0n)
  if (t.maxGasAmount < toExternalRoundUp(p, intrinsic)) return "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS"
  if (t.gasUnitPrice < p.minPricePerGasUnit) return "GAS_UNIT_PRICE_BELOW_MIN_BOUND"
  if (t.gasUnitPrice > p.maxPricePerGasUnit) return "GAS_UNIT_PRICE_ABOVE_MAX_BOUND"
  if (t.createsAccount && (t.gasUnitPrice !== 0n || !t.defaultAccountResource)) {
    const slots = t.newAccountsDefaultToFaStore ? 1n : 2n
    const expected = t.gasUnitPrice * 10n + slots * estimatedAccountCreationFee(p)
    if (t.gasUnitPrice * t.maxGasAmount < expected) return "MAX_GAS_UNITS_BELOW_MIN_TRANSACTION_GAS_UNITS"
  }
  return undefined
}
