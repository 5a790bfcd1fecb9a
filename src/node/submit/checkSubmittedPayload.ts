import type { TransactionPayload } from "../../domain/Transaction.js"

/**
 * The reference's `validate_signed_transaction_payload` (api/src/transactions.rs) on a decoded
 * transaction: the format rules its decoder leaves to the API. Identifiers and type-argument
 * nesting are already checked by the BCS decoder (as the reference's `Identifier` and type-tag
 * deserializers do). Returns the 400 message, or undefined when the payload may be submitted.
 */
export const checkSubmittedPayload = (payload: TransactionPayload): string | undefined => {
  switch (payload._tag) {
    case "Script":
      return payload.script.code.length === 0 ? "Script payload bytecode must not be empty" : undefined
    case "EntryFunction":
    case "Multisig":
      return undefined
    case "PayloadV1": {
      const multisig = payload.extraConfig.multisigAddress !== undefined
      switch (payload.executable._tag) {
        case "Script":
          if (payload.executable.script.code.length === 0) return "Script payload bytecode must not be empty"
          return multisig ? "Script transaction payload must not be a multisig transaction" : undefined
        case "EntryFunction":
          return undefined
        case "Empty":
          return multisig ? undefined : "Empty transaction payload must be a multisig transaction"
      }
    }
  }
}
