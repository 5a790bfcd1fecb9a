/**
 * A fast, conservative stand-in for decoding the encode_submission body with its Schemas (the
 * node's `EncodeSubmissionRequestJson` and the Api's looser one). It only ever answers "certainly
 * valid": when it says no, the caller decodes with the Schema, which decides and words the error.
 * So the Schemas stay the one source of every error message, and a valid body (the common case)
 * skips the Schema machinery, which costs more than the rest of parsing.
 *
 * Soundness: `true` only for plain objects (as `JSON.parse` builds them) whose fields have the
 * types the Schemas require; everything unusual (other prototypes, explicit `undefined`) says no.
 */

const isPlainObject = (u: unknown): u is Record<string, unknown> => {
  if (typeof u !== "object" || u === null) return false
  const proto = Object.getPrototypeOf(u)
  return proto === Object.prototype || proto === null
}

const isStringArray = (u: unknown): boolean => {
  if (!Array.isArray(u)) return false
  for (let i = 0; i < u.length; i++) if (typeof u[i] !== "string") return false
  return true
}

/** An optional field: absent (not merely `undefined`), `null` when `nullable`, or a value that `ok` accepts. */
const optionalField = (
  o: Record<string, unknown>,
  key: string,
  nullable: boolean,
  ok: (v: unknown) => boolean
): boolean => {
  const v = o[key]
  if (v === undefined) return !(key in o)
  if (v === null) return nullable
  return ok(v)
}

const isString = (v: unknown): boolean => typeof v === "string"

const isEntryFunctionPayload = (p: Record<string, unknown>): boolean =>
  typeof p.function === "string" && isStringArray(p.type_arguments) && Array.isArray(p.arguments)

const isPayload = (u: unknown): boolean => {
  if (!isPlainObject(u)) return false
  switch (u.type) {
    case "entry_function_payload":
      return isEntryFunctionPayload(u)
    case "script_payload":
      return (
        isPlainObject(u.code) &&
        typeof u.code.bytecode === "string" &&
        isStringArray(u.type_arguments) &&
        Array.isArray(u.arguments)
      )
    case "multisig_payload":
      return (
        typeof u.multisig_address === "string" &&
        optionalField(
          u,
          "transaction_payload",
          true,
          (t) => isPlainObject(t) && t.type === "entry_function_payload" && isEntryFunctionPayload(t)
        )
      )
    case "module_bundle_payload":
      return true
    default:
      return false
  }
}

/**
 * Whether `u` certainly decodes with the request Schemas. `nullable`: whether the optional fields
 * may be `null` (the node's Schema allows it, serde's `Option`; the Api's Schema does not, so the
 * HTTP layer passes false and leaves a `null` to its Schema).
 */
export const hasRequestShape = (u: unknown, nullable: boolean): boolean => {
  if (!isPlainObject(u)) return false
  return (
    typeof u.sender === "string" &&
    typeof u.sequence_number === "string" &&
    typeof u.max_gas_amount === "string" &&
    typeof u.gas_unit_price === "string" &&
    typeof u.expiration_timestamp_secs === "string" &&
    isPayload(u.payload) &&
    optionalField(u, "secondary_signers", nullable, isStringArray) &&
    optionalField(u, "replay_protection_nonce", nullable, isString)
  )
}
