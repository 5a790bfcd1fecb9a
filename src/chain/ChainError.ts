/**
 * Why the chain refused a submission, in the reference's mempool terms
 * (`MempoolStatusCode` + the VM's validation status). `src/node/apiErrorFromChain.ts` maps each to
 * the API's error once. Keep/Discard of executed transactions are data, not errors.
 */
import * as Schema from "effect/Schema"

/** `MempoolIsFull` / `TooManyTransactions`: 507 `mempool_is_full`. */
export class MempoolFull extends Schema.TaggedError<MempoolFull>()("MempoolFull", {
  message: Schema.String
}) {}

/** `InvalidSeqNumber` (below what the pool already knows): 400 `sequence_number_too_old`. */
export class SequenceNumberTooOld extends Schema.TaggedError<SequenceNumberTooOld>()("SequenceNumberTooOld", {
  message: Schema.String
}) {}

/** `InvalidUpdate` (same sender and sequence number or nonce, another transaction): 400 `invalid_transaction_update`. */
export class InvalidTransactionUpdate extends Schema.TaggedError<InvalidTransactionUpdate>()(
  "InvalidTransactionUpdate",
  { message: Schema.String }
) {}

/** `VmError`: validation refused it (signature, prologue): 400 `vm_error` with `vm_error_code`. */
export class InvalidTransaction extends Schema.TaggedError<InvalidTransaction>()("InvalidTransaction", {
  statusCode: Schema.BigInt,
  statusName: Schema.String
}) {}

/** The chain could not answer (storage failure, a VM defect): 500. */
export class ChainUnavailable extends Schema.TaggedError<ChainUnavailable>()("ChainUnavailable", {
  message: Schema.String
}) {}

/**
 * A key-less transaction for an address the chain does not impersonate (test controls): 400
 * `vm_error` INVALID_SIGNATURE, the reference's answer to a transaction without a signature, with
 * the reason (how to impersonate) after it.
 */
export class ImpersonationRefused extends Schema.TaggedError<ImpersonationRefused>()("ImpersonationRefused", {
  message: Schema.String
}) {}

export type SubmitError =
  | ImpersonationRefused
  | MempoolFull
  | SequenceNumberTooOld
  | InvalidTransactionUpdate
  | InvalidTransaction
  | ChainUnavailable
