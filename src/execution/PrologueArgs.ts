/**
 * `0x1::transaction_validation::PrologueArgs`, the argument of `versioned_prologue`, as the
 * reference's `PrologueBuilder` fills it (local-chain.md §8.2), written as BCS by the enum's
 * declaration in the framework in state (`frameworkLayout`), never by a remembered field list.
 */
import { withScratchWriter } from "../bcs/index.js"
import type { AccountAddress } from "../domain/AccountAddress.js"
import type { ReplayProtector } from "../domain/Transaction.js"
import type { ModuleSource } from "../move/layout/ModuleSource.js"
import { encodeToBytesWith, LayoutMismatch } from "./encodeByLayout.js"
import { frameworkLayout } from "./frameworkLayout.js"

export interface PrologueArgsV1 {
  /** True exactly for a FeePayer authenticator (fee payer 0x0 included). */
  readonly needsFeePayerAuthCheck: boolean
  /** The sender's authentication key (`optional_auth_key` of its proof); undefined = skip. */
  readonly senderAuthKey: Uint8Array | undefined
  readonly feePayerAuthKey: Uint8Array | undefined
  readonly replayProtector: ReplayProtector
  readonly secondarySignerAddresses: ReadonlyArray<AccountAddress>
  readonly secondarySignerAuthKeys: ReadonlyArray<Uint8Array | undefined>
  readonly gasUnitPrice: bigint
  readonly maxGasAmount: bigint
  readonly expirationTimestampSecs: bigint
  readonly chainId: number
  readonly isSimulation: boolean
}

/** The value in the shape `encodeByLayout` walks (field names as the framework declares them). */
const value = (a: PrologueArgsV1) => ({
  variant: "V1",
  fields: {
    needs_fee_payer_auth_check: a.needsFeePayerAuthCheck,
    txn_sender_public_key: a.senderAuthKey,
    fee_payer_public_key_hash: a.feePayerAuthKey,
    replay_protector:
      a.replayProtector._tag === "Nonce"
        ? { variant: "Nonce", fields: { _0: a.replayProtector.nonce } }
        : { variant: "SequenceNumber", fields: { _0: a.replayProtector.sequenceNumber } },
    secondary_signer_addresses: a.secondarySignerAddresses,
    secondary_signer_public_key_hashes: a.secondarySignerAuthKeys,
    txn_gas_price: a.gasUnitPrice,
    txn_max_gas_units: a.maxGasAmount,
    txn_expiration_time: a.expirationTimestampSecs,
    chain_id: a.chainId,
    is_simulation: a.isSimulation,
    // Staking-limit requests (TransactionExtraConfig with a limits request) are not decoded yet.
    txn_limits_request: undefined
  }
})

/** BCS of `PrologueArgs::V1`, or why the framework in state has no such type we can fill. */
export const encodePrologueArgs = (source: ModuleSource, args: PrologueArgsV1): Uint8Array | string => {
  const layout = frameworkLayout(source, "transaction_validation", "PrologueArgs")
  if (typeof layout === "string") return layout
  try {
    // A reused writer (once per transaction): no buffer to allocate and grow each time.
    return withScratchWriter(encodeToBytesWith, { layout, value: value(args), path: "PrologueArgs" })
  } catch (e) {
    if (e instanceof LayoutMismatch) return e.message
    throw e
  }
}
