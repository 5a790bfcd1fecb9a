import { sha3 as sha3_256 } from "../../../domain/hash.js"
import type { EntryFunction } from "../../../domain/Transaction.js"
import { typeTagToString } from "../../../domain/TypeTagString.js"
import type { UserTransactionContext } from "../TransactionContext.js"
import { fromBytes, StructValue, type Value } from "../Value.js"
import { chargeParam, makeOption, makeString } from "./helpers.js"
import { type NativeContext, type NativeFunction, nativeAbort } from "./NativeContext.js"

/**
 * `0x1::transaction_context`, answered from the session: its hash (the session id's, see
 * `SessionId`) for `get_txn_hash` and unique addresses, and the user transaction for the rest.
 * Without a user transaction (views, system calls) the user-transaction functions abort with
 * `invalid_state(ETRANSACTION_CONTEXT_NOT_AVAILABLE)`, as the reference's do.
 */
const ETRANSACTION_CONTEXT_NOT_AVAILABLE = 0x30001n
const EMONOTONICALLY_INCREASING_COUNTER_OVERFLOW = 0x30002n
const ETRANSACTION_INDEX_NOT_AVAILABLE = 0x30005n
/** Domain separator of AUID addresses (`DERIVE_AUID_ADDRESS_SCHEME`). */
const AUID_SCHEME = 0xfb

const user = (ctx: NativeContext): UserTransactionContext =>
  ctx.session.user ?? nativeAbort(ctx, ETRANSACTION_CONTEXT_NOT_AVAILABLE)

const utf8Length = (s: string): number => new TextEncoder().encode(s).length

/** `EntryFunctionPayload { account_address, module_name, function_name, ty_args_names, args }`. */
const entryFunctionPayload = (ctx: NativeContext, f: EntryFunction, perByte: string): StructValue => {
  const tyArgs = f.typeArgs.map(typeTagToString)
  // The reference charges per byte of the address, names, type-argument names and arguments.
  let n = 32 + utf8Length(f.module.name) + utf8Length(f.function)
  for (const t of tyArgs) n += utf8Length(t)
  for (const a of f.args) n += a.length
  chargeParam(ctx, perByte, n)
  return new StructValue(-1, [
    f.module.address,
    makeString(f.module.name),
    makeString(f.function),
    tyArgs.map(makeString),
    f.args.map((a) => fromBytes(a) as Value)
  ])
}

export const transactionContextNatives: Record<string, NativeFunction> = {
  get_txn_hash: (ctx) => [fromBytes(ctx.session.txnHash)],
  get_script_hash: (ctx) => [fromBytes(ctx.session.scriptHash)],
  generate_unique_address: (ctx) => {
    // sha3-256(session hash ‖ u64 little-endian counter ‖ 0xFB); the counter starts at 1.
    const buf = new Uint8Array(41)
    buf.set(ctx.session.txnHash, 0)
    new DataView(buf.buffer).setBigUint64(32, ++ctx.session.auidCounter, true)
    buf[40] = AUID_SCHEME
    return [sha3_256(buf)]
  },
  monotonically_increasing_counter_internal: (ctx, _t, [timestamp]) => monotonic(ctx, timestamp),
  /** The test-only variant: the local counter alone, no transaction needed. */
  monotonically_increasing_counter_internal_for_test_only: (ctx) => [BigInt(nextLocal(ctx).localCounter)],
  chain_id_internal: (ctx) => [ctx.session.user?.chainId ?? ctx.chainId()],
  is_encrypted_txn_internal: () => [false],
  sender_internal: (ctx) => [user(ctx).sender],
  secondary_signers_internal: (ctx) => {
    const signers = user(ctx).secondarySigners
    chargeParam(ctx, "aptos_framework.transaction_context.secondary_signers.per_signer", signers.length)
    return [[...signers]]
  },
  gas_payer_internal: (ctx) => [user(ctx).gasPayer],
  max_gas_amount_internal: (ctx) => [user(ctx).maxGasAmount],
  gas_unit_price_internal: (ctx) => [user(ctx).gasUnitPrice],
  entry_function_payload_internal: (ctx) => {
    const f = user(ctx).entryFunction
    return [
      makeOption(
        ctx,
        f === undefined
          ? undefined
          : entryFunctionPayload(
              ctx,
              f,
              "aptos_framework.transaction_context.entry_function_payload.per_abstract_memory_unit"
            )
      )
    ]
  },
  multisig_payload_internal: (ctx) => {
    const m = user(ctx).multisig
    if (m === undefined) return [makeOption(ctx, undefined)]
    const inner =
      m.entryFunction === undefined
        ? undefined
        : entryFunctionPayload(
            ctx,
            m.entryFunction,
            "aptos_framework.transaction_context.multisig_payload.per_abstract_memory_unit"
          )
    return [makeOption(ctx, new StructValue(-1, [m.multisigAddress, makeOption(ctx, inner)]))]
  }
}

/**
 * `reserved_byte << 120 | timestamp_us << 56 | transaction_index << 24 | session_counter << 16 |
 * local_counter` (the reserved byte is 1 in validation and simulation), as the reference's.
 */
const monotonic = (ctx: NativeContext, timestamp: Value): Value[] => {
  const session = nextLocal(ctx)
  const u = user(ctx)
  if (u.transactionIndex === undefined) return nativeAbort(ctx, ETRANSACTION_INDEX_NOT_AVAILABLE)
  return [
    (BigInt(u.validationOrSimulation === true ? 1 : 0) << 120n) |
      ((timestamp as bigint) << 56n) |
      (BigInt(u.transactionIndex >>> 0) << 24n) |
      (BigInt(session.sessionCounter & 0xff) << 16n) |
      BigInt(session.localCounter)
  ]
}

/** The session's next local counter value (u16; aborts at its maximum). */
const nextLocal = (ctx: NativeContext) => {
  const session = ctx.session
  if (session.localCounter === 0xffff) return nativeAbort(ctx, EMONOTONICALLY_INCREASING_COUNTER_OVERFLOW)
  session.localCounter++
  return session
}
