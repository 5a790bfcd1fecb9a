/** Test helper: transactions signed by the TypeScript SDK (the oracle), decoded with our codec. */
import {
  AccountAddress,
  type AccountAuthenticator,
  type Account as SdkAccount,
  ChainId,
  EntryFunction,
  generateSignedTransaction,
  MultiAgentTransaction,
  RawTransaction,
  SimpleTransaction,
  TransactionPayloadEntryFunction,
  U64
} from "@aptos-labs/ts-sdk"
import { Result } from "effect"
import { Bcs } from "../../src/bcs/index.js"
import { signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import type { SignedTransaction } from "../../src/domain/Transaction.js"

export const rawTransfer = (sender: AccountAddress, seq = 7n): RawTransaction =>
  new RawTransaction(
    sender,
    seq,
    new TransactionPayloadEntryFunction(
      EntryFunction.build("0x1::aptos_account", "transfer", [], [AccountAddress.from("0x2"), new U64(1000n)])
    ),
    200_000n,
    100n,
    1_900_000_000n,
    new ChainId(4)
  )

export const decodeSigned = (bytes: Uint8Array): SignedTransaction => {
  const r = Bcs.decode(signedTransactionCodec, bytes)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}

/** A single-signer transaction from `sender`, signed by it. */
export const signedSimple = (sender: SdkAccount, seq = 7n): Uint8Array => {
  const transaction = new SimpleTransaction(rawTransfer(sender.accountAddress, seq))
  return generateSignedTransaction({
    transaction,
    senderAuthenticator: sender.signTransactionWithAuthenticator(transaction)
  })
}

export const signedMultiAgent = (sender: SdkAccount, secondaries: ReadonlyArray<SdkAccount>): Uint8Array => {
  const transaction = new MultiAgentTransaction(
    rawTransfer(sender.accountAddress),
    secondaries.map((s) => s.accountAddress)
  )
  return generateSignedTransaction({
    transaction,
    senderAuthenticator: sender.signTransactionWithAuthenticator(transaction),
    additionalSignersAuthenticators: secondaries.map((s) => s.signTransactionWithAuthenticator(transaction))
  })
}

/**
 * A fee-payer transaction. `signOverZero` lists which of sender / secondaries signed before the fee
 * payer was known (fee payer 0x0 in their message, the SDK's sponsored flow); the others sign over
 * the real fee payer address, as the fee payer itself always does (`signAsFeePayer`).
 */
export const signedFeePayer = (
  sender: SdkAccount,
  secondaries: ReadonlyArray<SdkAccount>,
  feePayer: SdkAccount,
  signOverZero: { sender: boolean; secondaries: boolean }
): Uint8Array => {
  const raw = rawTransfer(sender.accountAddress)
  const addrs = secondaries.map((s) => s.accountAddress)
  const overZero = new MultiAgentTransaction(raw, addrs, AccountAddress.ZERO)
  const overReal = new MultiAgentTransaction(raw, addrs, feePayer.accountAddress)
  const sign = (a: SdkAccount, zero: boolean): AccountAuthenticator =>
    a.signTransactionWithAuthenticator(zero ? overZero : overReal)
  return generateSignedTransaction({
    transaction: overReal,
    senderAuthenticator: sign(sender, signOverZero.sender),
    additionalSignersAuthenticators: secondaries.map((s) => sign(s, signOverZero.secondaries)),
    feePayerAuthenticator: feePayer.signTransactionWithAuthenticator(overReal)
  })
}
