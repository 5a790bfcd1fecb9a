/**
 * encode_submission as a pure function: a parsed request, the chain's modules and its chain id in,
 * the signing message out (aptos-api-behaviour §2.3–2.5). No server, no Effect: a caller who holds
 * the modules (or a test) can produce the exact bytes a wallet signs.
 */
import * as Result from "effect/Result"
import { BcsReader } from "../../bcs/index.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import { multiAgentSigningMessage, signingMessage } from "../../domain/signingMessage.js"
import type {
  EntryFunction,
  RawTransaction,
  Script,
  TransactionArgument,
  TransactionPayload
} from "../../domain/Transaction.js"
import { deserializeScript } from "../../move/binary/deserialize.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import type { MoveTypeLayout } from "../../move/layout/MoveTypeLayout.js"
import { convertArguments, parameterLayout } from "./convertArguments.js"
import { EncodeError } from "./EncodeError.js"
import type { EncodeSubmissionRequest, EntryFunctionRequest, RequestPayload } from "./EncodeSubmissionRequest.js"
import { parseEncodeSubmissionRequest } from "./EncodeSubmissionRequest.js"
import { findEntryFunction } from "./findEntryFunction.js"
import { isSignerParam } from "./jsonTypeName.js"
import { jsonPrefix, quoteString } from "../../domain/boundedText.js"

const U64_MAX = (1n << 64n) - 1n

class Stop {
  constructor(readonly message: string) {}
}
const convertError = (message: string): never => {
  throw new Stop(message)
}
const orStop = <A>(r: Result.Result<A, string>): A => (Result.isSuccess(r) ? r.success : convertError(r.failure))

const entryFunction = (req: EntryFunctionRequest, modules: ModuleSource): EntryFunction => {
  const { address, module: moduleName, name } = req.function
  // Only error messages name the function: built when one is needed.
  const id = () => `${addressToShortString(address)}::${moduleName}::${name}`
  const module = modules(address, moduleName)
  if (module === undefined)
    return convertError(
      `Module ModuleId { address: ${addressToShortString(address)}, name: Identifier(${quoteString(moduleName)}) } can't be found`
    )
  const handle = findEntryFunction(module, name)
  if (handle === undefined) return convertError(`could not find entry function by ${id()}`)
  if (handle.typeParameters.length !== req.typeArguments.length)
    convertError(
      `expect ${handle.typeParameters.length} type arguments for entry function ${id()}, but got ${req.typeArguments.length}`
    )
  const args = orStop(
    convertArguments(module, module.signatures[handle.parameters]!, req.typeArguments, req.arguments, modules)
  )
  return { module: { address, name: moduleName }, function: name, typeArgs: req.typeArguments, args }
}

/** A converted script argument as a `TransactionArgument` (only these layouts are representable). */
const transactionArgument = (layout: MoveTypeLayout, bcs: Uint8Array, json: unknown): TransactionArgument => {
  const r = new BcsReader(bcs)
  switch (layout._tag) {
    case "u8":
      return { _tag: "U8", value: r.u8() }
    case "u16":
      return { _tag: "U16", value: r.u16() }
    case "u32":
      return { _tag: "U32", value: r.u32() }
    case "u64":
      return { _tag: "U64", value: r.u64() }
    case "u128":
      return { _tag: "U128", value: r.u128() }
    case "u256":
      return { _tag: "U256", value: r.u256() }
    case "bool":
      return { _tag: "Bool", value: r.bool() }
    case "address":
      return { _tag: "Address", value: r.fixed(32) }
    case "vector":
      if (layout.element._tag === "u8") return { _tag: "U8Vector", value: r.bytesWithLength() }
      break
  }
  return convertError(`invalid transaction argument: ${jsonPrefix(json)}`)
}

const script = (p: RequestPayload & { _tag: "Script" }, modules: ModuleSource): Script => {
  const compiled = deserializeScript(p.bytecode)
  if (Result.isFailure(compiled)) return convertError("invalid transaction script bytecode")
  const unit = compiled.success
  const params = unit.signatures[unit.parameters]!
  // Count and per-argument errors exactly as entry functions; then each value must fit a TransactionArgument.
  const bcs = orStop(convertArguments(unit, params, p.typeArguments, p.arguments, modules))
  const types = params.filter((t) => !isSignerParam(t))
  const args = types.map((t, i) => {
    const layout = parameterLayout(unit, t, p.typeArguments, modules)
    return Result.isSuccess(layout)
      ? transactionArgument(layout.success, bcs[i]!, p.arguments[i])
      : convertError(layout.failure.message)
  })
  return { code: p.bytecode, typeArgs: p.typeArguments, args }
}

const payloadOf = (req: EncodeSubmissionRequest, modules: ModuleSource): TransactionPayload => {
  const p = req.payload
  const nonce = req.replayProtectionNonce
  switch (p._tag) {
    case "EntryFunction": {
      const entry = entryFunction(p, modules)
      if (nonce === undefined) return { _tag: "EntryFunction", entryFunction: entry }
      return {
        _tag: "PayloadV1",
        executable: { _tag: "EntryFunction", entryFunction: entry },
        extraConfig: { multisigAddress: undefined, replayProtectionNonce: nonce }
      }
    }
    case "Script": {
      const s = script(p, modules)
      if (nonce === undefined) return { _tag: "Script", script: s }
      return {
        _tag: "PayloadV1",
        executable: { _tag: "Script", script: s },
        extraConfig: { multisigAddress: undefined, replayProtectionNonce: nonce }
      }
    }
    case "Multisig": {
      const entry = p.inner === undefined ? undefined : entryFunction(p.inner, modules)
      if (nonce === undefined) return { _tag: "Multisig", multisigAddress: p.multisigAddress, entryFunction: entry }
      return {
        _tag: "PayloadV1",
        executable: entry === undefined ? { _tag: "Empty" } : { _tag: "EntryFunction", entryFunction: entry },
        extraConfig: { multisigAddress: p.multisigAddress, replayProtectionNonce: nonce }
      }
    }
  }
}

/**
 * The RawTransaction of a request: arguments converted against `modules`, `chainId` from the
 * ledger; with a replay-protection nonce, the orderless form (sequence number u64::MAX, payload V1).
 */
export const buildRawTransaction = (
  request: EncodeSubmissionRequest,
  modules: ModuleSource,
  chainId: number
): Result.Result<RawTransaction, EncodeError> => {
  try {
    const payload = payloadOf(request, modules)
    return Result.succeed({
      sender: request.sender,
      sequenceNumber: request.replayProtectionNonce === undefined ? request.sequenceNumber : U64_MAX,
      payload,
      maxGasAmount: request.maxGasAmount,
      gasUnitPrice: request.gasUnitPrice,
      expirationTimestampSecs: request.expirationTimestampSecs,
      chainId
    })
  } catch (e) {
    const message = e instanceof Stop ? e.message : e instanceof Error ? e.message : String(e)
    return Result.fail(new EncodeError("Convert", `Failed to parse transaction payload: ${message}`))
  }
}

/**
 * The signing message of a parsed request: prefix("RawTransaction") ‖ BCS(RawTransaction), or the
 * multi-agent form when `secondarySigners` is present (even empty). `abiOf` gives the modules the
 * target function and argument types are read from (the latest state, for the endpoint).
 */
export const buildSigningMessage = (
  request: EncodeSubmissionRequest,
  abiOf: ModuleSource,
  chainId: number
): Result.Result<Uint8Array, EncodeError> =>
  Result.map(buildRawTransaction(request, abiOf, chainId), (raw) =>
    request.secondarySigners === undefined
      ? signingMessage(raw)
      : multiAgentSigningMessage(raw, request.secondarySigners)
  )

/** Parse, verify, convert and sign-encode a JSON body in one call. Never throws. */
export const encodeSubmission = (
  body: unknown,
  abiOf: ModuleSource,
  chainId: number
): Result.Result<Uint8Array, EncodeError> =>
  Result.flatMap(parseEncodeSubmissionRequest(body), (request) => buildSigningMessage(request, abiOf, chainId))
