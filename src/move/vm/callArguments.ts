import { BcsError, BcsReader } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import type { LoadedFunction, Loader } from "./Loader.js"
import { K, type StructKind, substituteAll, type Type } from "./Type.js"
import { fromBytes, Ref, signerValue, type StructValue, type Value } from "./Value.js"
import { deserializeValue } from "./ValueBcs.js"
import { VmError, vmError } from "./VmError.js"

/** `signer` or `&signer`. */
export const isSignerParam = (t: Type): boolean =>
  t.k === K.Signer || ((t.k === K.Ref || t.k === K.MutRef) && (t as { to: Type }).to.k === K.Signer)

/** A signer argument for a `signer` / `&signer` parameter. */
export const signerArg = (param: Type, address: AccountAddress): Value =>
  param.k === K.Signer ? signerValue(address) : new Ref([signerValue(address)], 0, undefined)

/** Leading signer parameters of `params`. */
export const leadingSigners = (params: ReadonlyArray<Type>): number => {
  let n = 0
  while (n < params.length && isSignerParam(params[n]!)) n++
  return n
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

const isStdString = (t: Type): boolean =>
  t.k === K.Struct && t.def.module === "string" && t.def.name === "String" && isOne(t.def.address)

const isOne = (a: Uint8Array): boolean => {
  if (a[31] !== 1) return false
  for (let i = 0; i < 31; i++) if (a[i] !== 0) return false
  return true
}

/** `0x1::string::String` arguments must hold UTF-8 (the reference builds them with `string::utf8`). */
const checkStringArgs = (v: Value, t: Type): void => {
  if (t.k === K.Vector) {
    if (t.elem.k === K.Struct || t.elem.k === K.Vector) for (const x of v as Value[]) checkStringArgs(x, t.elem)
    return
  }
  if (isStdString(t)) {
    try {
      utf8.decode(Uint8Array.from((v as StructValue).fields[0] as number[]))
    } catch {
      vmError("FAILED_TO_DESERIALIZE_ARGUMENT", "invalid UTF-8 in a String argument")
    }
  }
}

/**
 * BCS arguments decoded by parameter type, with no restriction on the types (views and system
 * calls: the prologue takes enum arguments). A reference parameter gets a reference to the value.
 */
export const decodeArguments = (params: ReadonlyArray<Type>, raw: ReadonlyArray<Uint8Array>): Value[] => {
  if (raw.length !== params.length)
    return vmError("NUMBER_OF_ARGUMENTS_MISMATCH", `expected ${params.length} arguments, got ${raw.length}`)
  return params.map((p, i) => {
    const isRef = p.k === K.Ref || p.k === K.MutRef
    const t = isRef ? (p as { to: Type }).to : p
    let v: Value
    try {
      v = deserializeValue(raw[i]!, t)
    } catch (e) {
      if (e instanceof VmError) throw new VmError("FAILED_TO_DESERIALIZE_ARGUMENT", `argument ${i}: ${e.detail}`)
      throw e
    }
    checkStringArgs(v, t)
    return isRef ? new Ref([v], 0, undefined) : v
  })
}

/** The structs a transaction argument may be (built by these constructors from their BCS). */
const CONSTRUCTORS: ReadonlyArray<readonly [module: string, struct: string, fn: string]> = [
  ["string", "String", "utf8"],
  ["object", "Object", "address_to_object"],
  ["option", "Option", "from_vec"],
  ["fixed_point32", "FixedPoint32", "create_from_raw_value"],
  ["fixed_point64", "FixedPoint64", "create_from_raw_value"]
]

const constructorOf = (t: StructKind): string | undefined => {
  if (!isOne(t.def.address)) return undefined
  for (const [m, s, f] of CONSTRUCTORS) if (t.def.module === m && t.def.name === s) return f
  return undefined
}

/**
 * Whether `t` may be a transaction argument (`is_valid_txn_arg`), and whether it holds an allowed
 * struct that must be built by its constructor. Depth is bounded by the type's (a signature type).
 */
const validTxnArg = (t: Type): { valid: boolean; construct: boolean } => {
  switch (t.k) {
    case K.Vector:
      return validTxnArg(t.elem)
    case K.Struct:
      return constructorOf(t) === undefined ? NOT_VALID : CONSTRUCT
    case K.Signer:
    case K.Ref:
    case K.MutRef:
    case K.TyParam:
    case K.Function:
      return NOT_VALID
    default:
      return PLAIN
  }
}
const NOT_VALID = { valid: false, construct: false }
const CONSTRUCT = { valid: true, construct: true }
const PLAIN = { valid: true, construct: false }

/** Runs a constructor (unmetered, as the reference does) and returns its one result. */
export type Construct = (fn: LoadedFunction, tyArgs: ReadonlyArray<Type>, args: Value[]) => Value

/**
 * The arguments of a user payload (`validate_combine_signer_and_txn_args`): no return values; the
 * leading signer parameters take `signers` (their count must match when there are any); every other
 * parameter must be a valid transaction argument, decoded from `raw` (allowed structs built by their
 * constructors: String, Object, Option, FixedPoint32/64).
 */
export const entryArguments = (
  fn: LoadedFunction,
  params: ReadonlyArray<Type>,
  signers: ReadonlyArray<AccountAddress>,
  raw: ReadonlyArray<Uint8Array>,
  loader: Loader,
  construct: Construct
): Value[] => {
  if (fn.returns.length > 0)
    return vmError("INVALID_MAIN_FUNCTION_SIGNATURE", "an entry function must not return values")
  let signerCount = 0
  for (const p of params) if (isSignerParam(p)) signerCount++
  const rest = params.slice(signerCount)
  const needs: boolean[] = []
  for (const p of rest) {
    const v = validTxnArg(p)
    if (!v.valid) return vmError("INVALID_MAIN_FUNCTION_SIGNATURE", "parameter type not allowed in a transaction")
    needs.push(v.construct)
  }
  if (signerCount + raw.length !== params.length)
    return vmError(
      "NUMBER_OF_ARGUMENTS_MISMATCH",
      `expected ${params.length - signerCount} arguments, got ${raw.length}`
    )
  if (signerCount > 0 && signers.length !== signerCount)
    return vmError(
      "NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH",
      `the function takes ${signerCount} signers, the transaction has ${signers.length}`
    )
  const values: Value[] = []
  for (let i = 0; i < signerCount; i++) values.push(signerArg(params[i]!, signers[i]!))
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i]!
    if (!needs[i]) {
      values.push(decodeArguments([t], [raw[i]!])[0])
      continue
    }
    const r = new BcsReader(raw[i]!)
    let v: Value
    try {
      v = constructArg(r, t, loader, construct)
    } catch (e) {
      if (e instanceof BcsError) throw new VmError("FAILED_TO_DESERIALIZE_ARGUMENT", `argument ${i}: ${e.message}`)
      throw e
    }
    if (r.remaining !== 0)
      return vmError("FAILED_TO_DESERIALIZE_ARGUMENT", "The serialized arguments to constructor contained extra data")
    values.push(v)
  }
  return values
}

/** One argument read from `r`, allowed structs built by running their constructors. */
const constructArg = (r: BcsReader, t: Type, loader: Loader, construct: Construct): Value => {
  switch (t.k) {
    case K.Vector: {
      if (t.elem.k === K.U8) return fromBytes(r.bytesWithLength())
      const n = r.length(1)
      const out: Value[] = new Array(n)
      for (let i = 0; i < n; i++) out[i] = constructArg(r, t.elem, loader, construct)
      return out
    }
    case K.Struct: {
      const name = constructorOf(t)
      if (name === undefined) return vmError("INVALID_MAIN_FUNCTION_SIGNATURE", "struct argument not allowed")
      const fn = loader.load(t.def.address, t.def.module).function(name)
      if (fn === undefined) return vmError("FUNCTION_RESOLUTION_FAILURE", `constructor ${t.def.qualifiedName}::${name}`)
      // Each constructor's type parameters are its struct's, in order (type-argument inference).
      const tyArgs = t.args
      const params = substituteAll(fn.params, tyArgs)
      const args = params.map((p) => constructArg(r, p, loader, construct))
      return construct(fn, tyArgs, args)
    }
    case K.Bool:
      return r.bool()
    case K.U8:
      return r.u8()
    case K.U16:
      return r.u16()
    case K.U32:
      return r.u32()
    case K.U64:
      return r.u64()
    case K.U128:
      return r.u128()
    case K.U256:
      return r.u256()
    case K.I8:
      return r.signed(8)
    case K.I16:
      return r.signed(16)
    case K.I32:
      return r.signed(32)
    case K.I64:
      return r.signed(64)
    case K.I128:
      return r.signed(128)
    case K.I256:
      return r.signed(256)
    case K.Address:
      return r.fixed(32).slice()
    default:
      return vmError("INVALID_MAIN_FUNCTION_SIGNATURE", "parameter type not allowed in a transaction")
  }
}
