import type { AccountAddress } from "../../domain/AccountAddress.js"
import type { EntryFunction } from "../../domain/Transaction.js"

/**
 * The user transaction a session runs for, as `0x1::transaction_context` natives report it (the
 * reference's `UserTransactionContext`). Sessions without one (views, system calls such as the
 * block prologue and genesis) answer those natives with ETRANSACTION_CONTEXT_NOT_AVAILABLE.
 */
export interface UserTransactionContext {
  readonly sender: AccountAddress
  readonly secondarySigners: ReadonlyArray<AccountAddress>
  /** The fee payer, or the sender when there is none. */
  readonly gasPayer: AccountAddress
  readonly maxGasAmount: bigint
  readonly gasUnitPrice: bigint
  readonly chainId: number
  /** The entry function of the payload (undefined for scripts and multisig payloads). */
  readonly entryFunction: EntryFunction | undefined
  readonly multisig:
    | { readonly multisigAddress: AccountAddress; readonly entryFunction: EntryFunction | undefined }
    | undefined
  /**
   * The transaction's index in its block (part of `monotonically_increasing_counter`); undefined
   * when not known (the native then aborts ETRANSACTION_INDEX_NOT_AVAILABLE).
   */
  readonly transactionIndex: number | undefined
  /** Validation or simulation rather than block execution (the counter's top byte is 1, not 0). */
  readonly validationOrSimulation?: boolean
}
