import { sha3 as sha3_256 } from "../../../domain/hash.js"
import { abortCodeNamed } from "../moduleMetadata.js"
import { ONE } from "./helpers.js"
import { type NativeContext, type NativeFunction, nativeAbort } from "./NativeContext.js"

/**
 * `0x1::transaction_context` in a view: there is no user transaction. The transaction hash is
 * zero, unique addresses are derived from it and a counter, the chain id is the state's; the
 * functions that describe the user transaction abort with the framework's
 * ETRANSACTION_CONTEXT_NOT_AVAILABLE (looked up in the module's error map).
 */
const ZERO_HASH = new Uint8Array(32)

const notAvailable = (ctx: NativeContext): never => {
  const m = ctx.loader.load(ONE, "transaction_context")
  return nativeAbort(ctx, abortCodeNamed(m.metadata, "ETRANSACTION_CONTEXT_NOT_AVAILABLE") ?? 1n)
}

export const transactionContextNatives: Record<string, NativeFunction> = {
  get_txn_hash: () => [Array.from(ZERO_HASH)],
  get_script_hash: () => [[]],
  generate_unique_address: (ctx) => {
    const buf = new Uint8Array(41)
    buf.set(ZERO_HASH, 0)
    new DataView(buf.buffer).setBigUint64(32, ctx.session.uniqueCounter++, true)
    buf[40] = 0xfb
    return [sha3_256(buf)]
  },
  monotonically_increasing_counter_internal: (ctx) => [ctx.session.uniqueCounter++],
  monotonically_increasing_counter_internal_for_test_only: (ctx) => [ctx.session.uniqueCounter++],
  chain_id_internal: (ctx) => [ctx.chainId()],
  is_encrypted_txn_internal: () => [false],
  sender_internal: notAvailable,
  secondary_signers_internal: notAvailable,
  gas_payer_internal: notAvailable,
  max_gas_amount_internal: notAvailable,
  gas_unit_price_internal: notAvailable,
  entry_function_payload_internal: notAvailable,
  multisig_payload_internal: notAvailable
}
