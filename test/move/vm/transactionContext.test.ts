/**
 * `0x1::transaction_context` answered from the session: the user transaction's fields, the
 * session hash and the counters derived from it, and ETRANSACTION_CONTEXT_NOT_AVAILABLE without a
 * user transaction.
 */
import { describe, expect, it } from "vitest"
import { BcsReader, toHex } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { sha3 } from "../../../src/domain/hash.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { type SessionId, sessionCounter, sessionIdHash } from "../../../src/move/vm/SessionId.js"
import type { UserTransactionContext } from "../../../src/move/vm/TransactionContext.js"
import { genesisState } from "./genesisState.js"

const ONE = addressFromNumber(1)
const SENDER = addressFromNumber(0x5e4d)
const PAYER = addressFromNumber(0xfee)
const devnet = genesisState("devnet")
const vm = new MoveVm()
const id: SessionId = { _tag: "Txn", sender: SENDER, sequenceNumber: 7n, scriptHash: new Uint8Array() }
const user: UserTransactionContext = {
  sender: SENDER,
  secondarySigners: [addressFromNumber(0x2d)],
  gasPayer: PAYER,
  maxGasAmount: 5000n,
  gasUnitPrice: 150n,
  chainId: 243,
  entryFunction: {
    module: { address: ONE, name: "aptos_account" },
    function: "transfer",
    typeArgs: [],
    args: [new Uint8Array([1, 2])]
  },
  multisig: undefined,
  transactionIndex: 3
}

const call = (fn: string, u: UserTransactionContext | undefined) => {
  const o = vm
    .session(devnet.view, { id, user: u })
    .execute({ module: { address: ONE, name: "transaction_context" }, function: fn, tyArgs: [], signers: [], args: [] })
  return o
}
const value = (fn: string): BcsReader => {
  const o = call(fn, user)
  if (o._tag !== "Success") throw new Error(`${fn}: ${o._tag}`)
  return new BcsReader(o.values[0]!)
}

describe("transaction_context", () => {
  it("answers from the user transaction", () => {
    expect(toHex(value("sender").fixed(32))).toBe(toHex(SENDER))
    expect(toHex(value("gas_payer").fixed(32))).toBe(toHex(PAYER))
    expect(value("max_gas_amount").u64()).toBe(5000n)
    expect(value("gas_unit_price").u64()).toBe(150n)
    expect(value("chain_id").u8()).toBe(243)
    const signers = value("secondary_signers")
    expect(signers.uleb128()).toBe(1)
    // entry_function_payload(): Option<EntryFunctionPayload> (an enum Option in this framework: tag 1 = Some).
    const payload = value("entry_function_payload")
    expect(payload.uleb128()).toBe(1)
    expect(toHex(payload.fixed(32))).toBe(toHex(ONE))
    expect(payload.string()).toBe("aptos_account")
    expect(payload.string()).toBe("transfer")
  })

  it("the transaction hash is the session id's hash, and AUIDs are derived from it", () => {
    const h = sessionIdHash(id)
    expect(toHex(value("get_transaction_hash").bytesWithLength())).toBe(toHex(h))
    const buf = new Uint8Array(41)
    buf.set(h)
    new DataView(buf.buffer).setBigUint64(32, 1n, true)
    buf[40] = 0xfb
    expect(toHex(value("generate_auid_address").fixed(32))).toBe(toHex(sha3(buf)))
  })

  it("monotonically_increasing_counter packs time, transaction index, session counter and a local counter", () => {
    const n = value("monotonically_increasing_counter").u128()
    // devnet genesis time is 0: only the transaction index, the session counter and 1 remain.
    expect(n).toBe((3n << 24n) | (BigInt(sessionCounter(id)) << 16n) | 1n)
  })

  it("without a user transaction the user fields abort with invalid_state(1)", () => {
    const o = call("sender", undefined)
    expect(o._tag === "Abort" && o.code).toBe(0x30001n)
  })
})
