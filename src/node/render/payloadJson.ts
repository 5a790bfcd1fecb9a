import * as Result from "effect/Result"
import { BcsWriter } from "../../bcs/index.js"
import { addressToShortString } from "../../domain/AccountAddress.js"
import { writeTransactionArgument } from "../../domain/ScriptCodec.js"
import type {
  EntryFunction,
  Script,
  TransactionArgument,
  TransactionPayload,
  WriteSetPayload
} from "../../domain/Transaction.js"
import type { TypeTag } from "../../domain/TypeTag.js"
import { typeTagToString } from "../../domain/TypeTagString.js"
import { scriptAbi } from "../../move/abi/scriptAbi.js"
import type { CommonTables } from "../../move/binary/CompiledModule.js"
import { deserializeScript } from "../../move/binary/deserialize.js"
import type { SignatureToken } from "../../move/binary/SignatureToken.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { signatureToTypeTag } from "../../move/layout/signatureToTypeTag.js"
import { eventsJson } from "./eventsJson.js"
import { hexJson, type JsonObject, type JsonValue, moveValueJson } from "./moveJson.js"
import { noTableTypes, type TableTypes } from "../tableInfo/TableInfoIndex.js"
import { writeSetChangesJson } from "./writeSetJson.js"

/** A payload that has no JSON form in the reference (an empty executable without a multisig address). */
export class PayloadRenderError {
  readonly _tag = "PayloadRenderError"
  constructor(readonly message: string) {}
}

/** A parameter's type for argument rendering: signers (by value or reference) are not arguments. */
const argumentType = (unit: CommonTables, token: SignatureToken, typeArgs: ReadonlyArray<TypeTag>): TypeTag | null => {
  const inner = token._tag === "Reference" || token._tag === "MutableReference" ? token.to : token
  if (inner._tag === "Signer" || inner._tag === "Function") return null
  return signatureToTypeTag(unit, inner, typeArgs)
}

/**
 * Arguments rendered by their parameters' types, as the reference's `view_arguments_impl`: signer
 * parameters dropped, type parameters instantiated, each argument's BCS read with its layout. Any
 * failure (a module or function missing, counts differing, bytes not of the type) renders every
 * argument as its hex bytes instead, as the reference falls back.
 */
const argumentsJson = (
  modules: ModuleSource,
  unit: CommonTables | undefined,
  params: ReadonlyArray<SignatureToken> | undefined,
  typeArgs: ReadonlyArray<TypeTag>,
  args: ReadonlyArray<Uint8Array>
): JsonValue[] => {
  const asHex = () => args.map(hexJson)
  if (unit === undefined || params === undefined) return asHex()
  try {
    const types = params.map((t) => argumentType(unit, t, typeArgs)).filter((t): t is TypeTag => t !== null)
    if (types.length !== args.length) return asHex()
    const out: JsonValue[] = []
    for (let i = 0; i < args.length; i++) {
      const v = moveValueJson(modules, types[i]!, args[i]!)
      if (Result.isFailure(v)) return asHex()
      out.push(v.success)
    }
    return out
  } catch {
    // A signature token without a type tag (a bad index in stored bytecode): show the bytes.
    return asHex()
  }
}

const entryFunctionArguments = (modules: ModuleSource, f: EntryFunction): JsonValue[] => {
  const module = modules(f.module.address, f.module.name)
  if (module === undefined) return argumentsJson(modules, undefined, undefined, f.typeArgs, f.args)
  const def = module.functionDefs.find(
    (d) => module.identifiers[module.functionHandles[d.function]!.name] === f.function
  )
  const params = def === undefined ? undefined : module.signatures[module.functionHandles[def.function]!.parameters]
  return argumentsJson(modules, module, params, f.typeArgs, f.args)
}

/** `{"function", "type_arguments", "arguments"}` of an entry function call, arguments by its ABI. */
export const entryFunctionPayloadJson = (modules: ModuleSource, f: EntryFunction): JsonObject => ({
  function: `${addressToShortString(f.module.address)}::${f.module.name}::${f.function}`,
  type_arguments: f.typeArgs.map(typeTagToString),
  arguments: entryFunctionArguments(modules, f),
  type: "entry_function_payload"
})

/** A script argument's value bytes (`convert_txn_args`): its BCS without the variant, or the serialized bytes. */
export const transactionArgumentBytes = (a: TransactionArgument): Uint8Array => {
  if (a._tag === "Serialized") return a.value
  const w = new BcsWriter(40)
  writeTransactionArgument(w, a)
  // Every variant index is below 128: its ULEB128 is one byte.
  return w.toBytes().subarray(1)
}

/** `{"code": {"bytecode", "abi"}, "type_arguments", "arguments"}`, arguments by the script's parameters. */
export const scriptPayloadJson = (modules: ModuleSource, s: Script): JsonObject => {
  const decoded = deserializeScript(s.code)
  const script = Result.isSuccess(decoded) ? decoded.success : undefined
  const args = s.args.map(transactionArgumentBytes)
  return {
    code: {
      bytecode: hexJson(s.code),
      abi: script === undefined ? null : (scriptAbi(script) as unknown as JsonObject)
    },
    type_arguments: s.typeArgs.map(typeTagToString),
    arguments: argumentsJson(modules, script, script?.signatures[script.parameters], s.typeArgs, args),
    type: "script_payload"
  }
}

const multisigJson = (modules: ModuleSource, address: Uint8Array, f: EntryFunction | undefined): JsonObject => ({
  multisig_address: addressToShortString(address),
  transaction_payload: f === undefined ? null : entryFunctionPayloadJson(modules, f),
  type: "multisig_payload"
})

/**
 * A user transaction's payload as the API shows it (the reference's `try_into_transaction_payload`):
 * entry function, script or multisig; the V1 payload (orderless, or multisig through the extra
 * config) shows as the legacy shape it stands for. An empty executable outside a multisig has no
 * JSON form (the reference fails the same way).
 */
export const payloadJson = (
  modules: ModuleSource,
  p: TransactionPayload
): Result.Result<JsonObject, PayloadRenderError> => {
  switch (p._tag) {
    case "EntryFunction":
      return Result.succeed(entryFunctionPayloadJson(modules, p.entryFunction))
    case "Script":
      return Result.succeed(scriptPayloadJson(modules, p.script))
    case "Multisig":
      return Result.succeed(multisigJson(modules, p.multisigAddress, p.entryFunction))
    case "PayloadV1": {
      const e = p.executable
      const multisig = p.extraConfig.multisigAddress
      if (multisig !== undefined) {
        if (e._tag === "Script")
          return Result.fail(new PayloadRenderError("Script executable is not supported for multisig transactions"))
        return Result.succeed(multisigJson(modules, multisig, e._tag === "EntryFunction" ? e.entryFunction : undefined))
      }
      if (e._tag === "EntryFunction") return Result.succeed(entryFunctionPayloadJson(modules, e.entryFunction))
      if (e._tag === "Script") return Result.succeed(scriptPayloadJson(modules, e.script))
      return Result.fail(new PayloadRenderError("Empty executable is not supported for non-multisig transactions"))
    }
  }
}

/** A script write set's `script`: a `ScriptPayload` object, not a payload union member (no `type`). */
const scriptWriteSetScript = (modules: ModuleSource, s: Script): JsonObject => {
  const { type: _type, ...script } = scriptPayloadJson(modules, s)
  return script
}

/**
 * The genesis payload: `{"write_set": {"changes", "events", "type": "direct_write_set"},
 * "type": "write_set_payload"}`, or a script write set `{"execute_as", "script"}`.
 */
export const writeSetPayloadJson = (
  modules: ModuleSource,
  p: WriteSetPayload,
  tables: TableTypes = noTableTypes
): JsonObject => ({
  write_set:
    p._tag === "Direct"
      ? {
          changes: writeSetChangesJson(modules, p.changeSet.writeSet, tables),
          events: eventsJson(modules, p.changeSet.events),
          type: "direct_write_set"
        }
      : {
          execute_as: addressToShortString(p.executeAs),
          script: scriptWriteSetScript(modules, p.script),
          type: "script_write_set"
        },
  type: "write_set_payload"
})
