/**
 * The on-chain feature flags (`0x1::features::Features { features: vector<u8> }`, a bitset: flag n
 * is bit n % 8 of byte n / 8), read from state once per transaction. Only the flags the executor
 * branches on are named (numbers from the reference's `FeatureFlag`).
 */
import { Bcs, BcsReader } from "../bcs/index.js"
import { addressFromNumber } from "../domain/AccountAddress.js"
import type { StructTag } from "../domain/TypeTag.js"
import { structTagCodec } from "../domain/TypeTagCodec.js"
import type { StateView } from "../move/vm/StateView.js"

export const FeatureFlag = {
  STRUCT_CONSTRUCTORS: 15,
  STORAGE_SLOT_METADATA: 19,
  CHARGE_INVARIANT_VIOLATION: 20,
  MODULE_EVENT: 26,
  EMIT_FEE_STATEMENT: 27,
  STORAGE_DELETION_REFUND: 28,
  SINGLE_SENDER_AUTHENTICATOR: 33,
  SPONSORED_AUTOMATIC_ACCOUNT_V1_CREATION: 34,
  WEBAUTHN_SIGNATURE: 44,
  REFUNDABLE_BYTES: 51,
  ABORT_IF_MULTISIG_PAYLOAD_MISMATCH: 70,
  ALLOW_SERIALIZED_SCRIPT_ARGS: 72,
  TRANSACTION_SIMULATION_ENHANCEMENT: 78,
  ACCOUNT_ABSTRACTION: 85,
  DERIVABLE_ACCOUNT_ABSTRACTION: 88,
  NEW_ACCOUNTS_DEFAULT_TO_FA_STORE: 90,
  DEFAULT_ACCOUNT_RESOURCE: 91,
  TRANSACTION_PAYLOAD_V2: 93,
  ORDERLESS_TRANSACTIONS: 94,
  VERSIONED_TRANSACTION_VALIDATION: 112
} as const

export type FeatureFlagName = keyof typeof FeatureFlag

export class Features {
  constructor(readonly bits: Uint8Array) {}

  isEnabled(flag: FeatureFlagName | number): boolean {
    const n = typeof flag === "number" ? flag : FeatureFlag[flag]
    const byte = n >>> 3
    return byte < this.bits.length && (this.bits[byte]! & (1 << (n & 7))) !== 0
  }

  /** The reference's `is_storage_deletion_refund_enabled` (needs module events and the fee statement). */
  get storageDeletionRefund(): boolean {
    return (
      this.isEnabled("MODULE_EVENT") &&
      this.isEnabled("EMIT_FEE_STATEMENT") &&
      this.isEnabled("STORAGE_DELETION_REFUND")
    )
  }

  /** With either account-abstraction flag on, the meter starts at `max_aa_gas` until validation ends. */
  get accountAbstraction(): boolean {
    return this.isEnabled("ACCOUNT_ABSTRACTION") || this.isEnabled("DERIVABLE_ACCOUNT_ABSTRACTION")
  }
}

const FEATURES_TAG: StructTag = { address: addressFromNumber(1), module: "features", name: "Features", typeArgs: [] }
/** BCS(FEATURES_TAG), built once (read once per transaction). */
const FEATURES_TAG_BYTES = Bcs.encode(structTagCodec, FEATURES_TAG)

const EMPTY = new Features(new Uint8Array(0))
let last: { bytes: Uint8Array; features: Features } | undefined

/** The flags in `view` (none when the resource is absent or unreadable, as the reference defaults). */
export const readFeatures = (view: StateView): Features => {
  const bytes = view.resource(FEATURES_TAG.address, FEATURES_TAG, FEATURES_TAG_BYTES)
  if (bytes === undefined) return EMPTY
  if (last !== undefined && last.bytes === bytes) return last.features
  let features: Features
  try {
    const r = new BcsReader(bytes)
    features = new Features(r.bytesWithLength())
  } catch {
    features = EMPTY
  }
  last = { bytes, features }
  return features
}
