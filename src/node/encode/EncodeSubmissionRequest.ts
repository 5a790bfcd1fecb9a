/**
 * The `POST /transactions/encode_submission` body (aptos-api-behaviour §2.1–2.2): its wire shape as
 * effect Schemas, and the typed request it is parsed and verified into. Unknown extra fields (e.g.
 * `signature`) are ignored, as the reference does; every number is a decimal string.
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { parseIdentifier } from "../../domain/Identifier.js"
import type { TypeTag } from "../../domain/TypeTag.js"
import { parseTypeTag } from "../../domain/TypeTagString.js"
import { addressFromJson, decimalIntegerFromJson, hexBytesFromJson } from "../../move/json/jsonToBcs.js"
import { EncodeError } from "./EncodeError.js"
import { hasRequestShape } from "./requestShape.js"
import { quoteString } from "../../domain/boundedText.js"

const EntryFunctionPayloadJson = Schema.Struct({
  type: Schema.Literal("entry_function_payload"),
  function: Schema.String,
  type_arguments: Schema.Array(Schema.String),
  arguments: Schema.Array(Schema.Unknown)
})

const ScriptPayloadJson = Schema.Struct({
  type: Schema.Literal("script_payload"),
  code: Schema.Struct({ bytecode: Schema.String }),
  type_arguments: Schema.Array(Schema.String),
  arguments: Schema.Array(Schema.Unknown)
})

const MultisigPayloadJson = Schema.Struct({
  type: Schema.Literal("multisig_payload"),
  multisig_address: Schema.String,
  transaction_payload: Schema.optionalKey(Schema.NullOr(EntryFunctionPayloadJson))
})

const ModuleBundlePayloadJson = Schema.Struct({ type: Schema.Literal("module_bundle_payload") })

/** `TransactionPayload`, internally tagged by `type`. */
export const TransactionPayloadJson = Schema.Union([
  EntryFunctionPayloadJson,
  ScriptPayloadJson,
  MultisigPayloadJson,
  ModuleBundlePayloadJson
])

/**
 * `EncodeSubmissionRequest`: the flattened `UserTransactionRequestInner` plus `secondary_signers`.
 * Optional fields may be absent or `null` (serde's `Option`): both mean absent.
 */
export const EncodeSubmissionRequestJson = Schema.Struct({
  sender: Schema.String,
  sequence_number: Schema.String,
  max_gas_amount: Schema.String,
  gas_unit_price: Schema.String,
  expiration_timestamp_secs: Schema.String,
  payload: TransactionPayloadJson,
  secondary_signers: Schema.optionalKey(Schema.NullOr(Schema.Array(Schema.String))),
  replay_protection_nonce: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type EncodeSubmissionRequestJson = typeof EncodeSubmissionRequestJson.Type

/** `0x1::module::function`, split at the last `::` as the reference's `EntryFunctionId`. */
export interface EntryFunctionId {
  readonly address: AccountAddress
  readonly module: string
  readonly name: string
}

export interface EntryFunctionRequest {
  readonly function: EntryFunctionId
  readonly typeArguments: ReadonlyArray<TypeTag>
  readonly arguments: ReadonlyArray<unknown>
}

export type RequestPayload =
  | ({ readonly _tag: "EntryFunction" } & EntryFunctionRequest)
  | {
      readonly _tag: "Script"
      readonly bytecode: Uint8Array
      readonly typeArguments: ReadonlyArray<TypeTag>
      readonly arguments: ReadonlyArray<unknown>
    }
  | {
      readonly _tag: "Multisig"
      readonly multisigAddress: AccountAddress
      readonly inner: EntryFunctionRequest | undefined
    }

/** A parsed and verified request, ready to convert against the chain's ABIs. */
export interface EncodeSubmissionRequest {
  readonly sender: AccountAddress
  readonly sequenceNumber: bigint
  readonly maxGasAmount: bigint
  readonly gasUnitPrice: bigint
  readonly expirationTimestampSecs: bigint
  readonly payload: RequestPayload
  /** Present (even empty) = the multi-agent signing message. */
  readonly secondarySigners: ReadonlyArray<AccountAddress> | undefined
  /** Present = an orderless transaction. */
  readonly replayProtectionNonce: bigint | undefined
}

/** Thrown inside parsing, turned into a Result at the boundary. */
class Stop {
  constructor(readonly error: EncodeError) {}
}

const parseError = (message: string): never => {
  throw new Stop(new EncodeError("Parse", `parse request payload error: ${message}`))
}
const verifyError = (message: string): never => {
  throw new Stop(new EncodeError("Verify", `'UserTransactionRequest' invalid: ${message}`))
}

/** A field value parsed by the JSON converter, named in the parse error. */
const field = <A>(name: string, r: Result.Result<A, { readonly message: string }>): A =>
  Result.isSuccess(r) ? r.success : parseError(`failed to parse "${name}": ${r.failure.message}`)

/** At most 19 decimal digits always fit a u64 (10^19 - 1 < 2^64 - 1): no range check or error path needed. */
const isShortDecimal = (s: string): boolean => {
  if (s.length === 0 || s.length > 19) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

const u64 = (name: string, s: string): bigint =>
  isShortDecimal(s) ? BigInt(s) : field(name, decimalIntegerFromJson(s, "u64"))
const address = (name: string, s: string): AccountAddress => field(name, addressFromJson(s))

/**
 * `EntryFunctionId::from_str`: `<address>::<module>::<function>`, split at the last `::`, both names
 * valid identifiers. A failure is a body parse error, as the reference parses the id with the body.
 */
const parseEntryFunctionId = (s: string): EntryFunctionId => {
  const bad = (why: string): never =>
    parseError(`failed to parse "string(EntryFunctionId)": invalid entry function id ${quoteString(s)}: ${why}`)
  const last = s.lastIndexOf("::")
  const moduleId = last < 0 ? "" : s.slice(0, last)
  const first = moduleId.lastIndexOf("::")
  if (last < 0 || first < 0) return bad("expected <address>::<module>::<function>")
  const addr = addressFromJson(moduleId.slice(0, first))
  if (Result.isFailure(addr)) return bad(addr.failure.message)
  const module = moduleId.slice(first + 2)
  const name = s.slice(last + 2)
  if (Result.isFailure(parseIdentifier(module))) bad(`invalid module name ${quoteString(module)}`)
  if (Result.isFailure(parseIdentifier(name))) bad(`invalid function name ${quoteString(name)}`)
  return { address: addr.success, module, name }
}

/** `verify`: type arguments parse, nested at most 8 deep (`MAX_RECURSIVE_TYPES_ALLOWED`). */
const verifyEntryFunction = (p: typeof EntryFunctionPayloadJson.Type): EntryFunctionRequest => {
  const fn = parseEntryFunctionId(p.function)
  return { function: fn, typeArguments: verifyTypeArguments(p.type_arguments), arguments: p.arguments }
}

const verifyTypeArguments = (args: ReadonlyArray<string>): ReadonlyArray<TypeTag> =>
  args.map((s) => {
    const t = parseTypeTag(s)
    return Result.isSuccess(t) ? t.success : verifyError(t.failure.message)
  })

const toPayload = (p: EncodeSubmissionRequestJson["payload"]): RequestPayload => {
  switch (p.type) {
    case "entry_function_payload":
      return { _tag: "EntryFunction", ...verifyEntryFunction(p) }
    case "script_payload": {
      const bytecode = field("code.bytecode", hexBytesFromJson(p.code.bytecode))
      return { _tag: "Script", bytecode, typeArguments: verifyTypeArguments(p.type_arguments), arguments: p.arguments }
    }
    case "multisig_payload":
      return {
        _tag: "Multisig",
        multisigAddress: address("multisig_address", p.multisig_address),
        inner: p.transaction_payload == null ? undefined : verifyEntryFunction(p.transaction_payload)
      }
    case "module_bundle_payload":
      return verifyError("Module bundle payload has been removed")
  }
}

const decodeShape = Schema.decodeUnknownResult(EncodeSubmissionRequestJson)

/**
 * Parses and verifies a JSON body (already `JSON.parse`d): the first two checks of §2.6. Never
 * throws. Field values parse before the payload is verified, as the reference parses the whole
 * body before calling `verify`.
 */
export const parseEncodeSubmissionRequest = (body: unknown): Result.Result<EncodeSubmissionRequest, EncodeError> => {
  let j: EncodeSubmissionRequestJson
  // The usual, well-formed body skips the Schema (same answer, see requestShape); the Schema words any error.
  if (hasRequestShape(body, true)) j = body as EncodeSubmissionRequestJson
  else {
    const shape = decodeShape(body)
    if (Result.isFailure(shape))
      return Result.fail(new EncodeError("Parse", `parse request payload error: ${shape.failure.message}`))
    j = shape.success
  }
  try {
    // In this order: the scalar fields parse before the payload is verified.
    const sender = address("sender", j.sender)
    const sequenceNumber = u64("sequence_number", j.sequence_number)
    const maxGasAmount = u64("max_gas_amount", j.max_gas_amount)
    const gasUnitPrice = u64("gas_unit_price", j.gas_unit_price)
    const expirationTimestampSecs = u64("expiration_timestamp_secs", j.expiration_timestamp_secs)
    const secondarySigners = j.secondary_signers?.map((s) => address("secondary_signers", s)) ?? undefined
    const replayProtectionNonce =
      j.replay_protection_nonce == null ? undefined : u64("replay_protection_nonce", j.replay_protection_nonce)
    return Result.succeed({
      sender,
      sequenceNumber,
      maxGasAmount,
      gasUnitPrice,
      expirationTimestampSecs,
      secondarySigners,
      replayProtectionNonce,
      payload: toPayload(j.payload)
    })
  } catch (e) {
    if (e instanceof Stop) return Result.fail(e.error)
    return Result.fail(new EncodeError("Parse", `parse request payload error: ${String(e)}`))
  }
}
