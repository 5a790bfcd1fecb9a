/**
 * A small synthetic chain for the block-production tests, independent of the real VM: a genesis
 * holding only what the producer reads (epoch, block resource, clock, one validator, features,
 * execution config, chain id), and a fake `ChainVm` with the framework's rules in miniature:
 * the prologue advances the clock and reconfigures after the epoch interval; a user transaction
 * runs only at the sender's sequence number (or an unused nonce) before its expiry, bumps the
 * sequence number and emits a FeeStatement last. Special entry functions: `0x1::fake::fail`
 * (kept, failed), `0x1::fake::reconfigure` (ends the epoch), a signature of all 0xff = invalid.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { Effect, Layer } from "effect"
import { Bcs, BcsReader, BcsWriter } from "../../src/bcs/index.js"
import {
  accountResourceKey,
  accountSequenceNumber,
  accountSequenceNumberIn
} from "../../src/chain/accountSequenceNumber.js"
import {
  ChainVm,
  type ChainVmService,
  type SystemCallResult,
  type UserTransactionResult
} from "../../src/chain/ChainVm.js"
import {
  ConfigKeys,
  decodeBlockResource,
  decodeConfiguration,
  decodeTimestamp,
  readConfig
} from "../../src/chain/onChainConfig.js"
import type { KeyValueReader, StateView } from "../../src/move/vm/StateView.js"
import { type AccountAddress, addressEquals, addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import { signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { replayProtectorOf } from "../../src/domain/ReplayProtector.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import type { RawTransaction, SignedTransaction } from "../../src/domain/Transaction.js"
import { writeTransaction } from "../../src/domain/TransactionCodec.js"
import type { StructTag } from "../../src/domain/TypeTag.js"
import type { WriteSet, WriteSetEntry } from "../../src/domain/WriteSet.js"
import { sortWriteSet } from "../../src/domain/WriteSetCodec.js"

export const ONE = addressFromNumber(1)
export const VALIDATOR = addressFromNumber(0xbeef)
const struct = (module: string, name: string): StructTag => ({ address: ONE, module, name, typeArgs: [] })

const u64s = (...vs: bigint[]) => {
  const w = new BcsWriter(8 * vs.length)
  for (const v of vs) w.u64(v)
  return w.toBytes()
}
const eventHandle = (creation: bigint) => {
  const w = new BcsWriter(48)
  w.u64(0n)
  w.u64(creation)
  w.fixed(ONE)
  return w.toBytes()
}
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

const raw = (keyBytes: Uint8Array, data: Uint8Array): WriteSetEntry => ({
  key: Bcs.decodeOrThrow(stateKeyCodec, keyBytes),
  keyBytes,
  op: { _tag: "Modification", data }
})

export interface SyntheticOptions {
  readonly epochIntervalUsec?: bigint
  /** ComplexLimitV1.add_block_limit_outcome_onchain (BlockEpilogue); default true. */
  readonly blockEpilogue?: boolean
  /** Feature 96 (BlockEpilogue V1 with fee distribution); default true. */
  readonly feeDistribution?: boolean
}

const executionConfig = (outcomeOnChain: boolean): Uint8Array => {
  const w = new BcsWriter(80)
  w.uleb128(7) // V7
  w.uleb128(4) // UseCaseAware
  w.u64(32n)
  w.u64(0n)
  w.u64(4n)
  w.uleb128(2) // ComplexLimitV1
  w.u64(20_000n)
  w.u64(1n)
  w.u64(1n)
  w.u32(9)
  w.bool(false)
  w.bool(true)
  w.u8(1)
  w.u64(4n * 1024n * 1024n)
  w.bool(true)
  w.bool(outcomeOnChain)
  w.bool(false) // enable_per_block_gas_limit
  w.uleb128(1) // TxnHashAndAuthenticatorV1
  w.u64(90n)
  w.u8(1)
  const inner = w.toBytes()
  const outer = new BcsWriter(inner.length + 2)
  outer.bytesWithLength(inner)
  return outer.toBytes()
}

/** BCS of a GenesisTransaction with the resources the producer reads. */
export const syntheticGenesis = (o: SyntheticOptions = {}): Uint8Array => {
  const features = new Uint8Array(16)
  if (o.feeDistribution ?? true) features[12] = 1 // bit 96
  const featuresBytes = new BcsWriter(20)
  featuresBytes.bytesWithLength(features)
  const validatorSet = (() => {
    const w = new BcsWriter(128)
    w.u8(0)
    w.uleb128(1)
    w.fixed(VALIDATOR)
    w.u64(100n)
    w.bytesWithLength(new Uint8Array(48))
    w.bytesWithLength(new Uint8Array(0))
    w.bytesWithLength(new Uint8Array(0))
    w.u64(0n)
    w.uleb128(0)
    w.uleb128(0)
    w.u128(100n)
    w.u128(0n)
    return w.toBytes()
  })()
  const entries = [
    raw(ConfigKeys.configuration, concat(u64s(1n, 0n), eventHandle(2n))),
    raw(
      ConfigKeys.blockResource,
      concat(u64s(0n, o.epochIntervalUsec ?? 3_600_000_000n), eventHandle(3n), eventHandle(4n))
    ),
    raw(ConfigKeys.timestamp, u64s(0n)),
    raw(ConfigKeys.validatorSet, validatorSet),
    raw(ConfigKeys.features, featuresBytes.toBytes()),
    raw(ConfigKeys.executionConfig, executionConfig(o.blockEpilogue ?? true)),
    raw(ConfigKeys.chainId, Uint8Array.of(4))
  ]
  const w = new BcsWriter(4096)
  writeTransaction(w, {
    _tag: "GenesisTransaction",
    payload: { _tag: "Direct", changeSet: { writeSet: sortWriteSet({ entries }), events: [] } }
  })
  return w.toBytes()
}

const v2 = (module: string, name: string, data: Uint8Array): ContractEvent => ({
  _tag: "V2",
  typeTag: { _tag: "struct", struct: struct(module, name) },
  data
})

const newEpochEvent = (epoch: bigint): ContractEvent => ({
  _tag: "V1",
  key: { creationNumber: 2n, accountAddress: ONE },
  sequenceNumber: epoch,
  typeTag: { _tag: "struct", struct: struct("reconfiguration", "NewEpochEvent") },
  data: u64s(epoch)
})

const ws = (entries: ReadonlyArray<readonly [Uint8Array, Uint8Array]>): WriteSet =>
  sortWriteSet({ entries: entries.map(([k, d]) => raw(k, d)) })

const nonceKey = (sender: AccountAddress, nonce: bigint): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "TableItem", handle: sender, key: u64s(nonce) })

const accountBytes = (address: AccountAddress, seq: bigint) => {
  const w = new BcsWriter(64)
  w.bytesWithLength(address)
  w.u64(seq)
  return w.toBytes()
}

export const status = {
  INVALID_SIGNATURE: { code: 1n, name: "INVALID_SIGNATURE" },
  SEQUENCE_NUMBER_TOO_OLD: { code: 3n, name: "SEQUENCE_NUMBER_TOO_OLD" },
  SEQUENCE_NUMBER_TOO_NEW: { code: 4n, name: "SEQUENCE_NUMBER_TOO_NEW" },
  TRANSACTION_EXPIRED: { code: 6n, name: "TRANSACTION_EXPIRED" },
  NONCE_ALREADY_USED: { code: 35n, name: "NONCE_ALREADY_USED" }
} as const

const nowOf = (view: StateView) => decodeTimestamp(readConfig(view, "timestamp")) ?? 0n

/** Checks shared by validation and execution: undefined = runs. */
const check = (state: StateView, t: SignedTransaction) => {
  const r = t.rawTransaction
  if (t.authenticator._tag === "Ed25519" && t.authenticator.signature.every((b) => b === 0xff))
    return status.INVALID_SIGNATURE
  if (r.expirationTimestampSecs * 1_000_000n <= nowOf(state)) return status.TRANSACTION_EXPIRED
  const replay = replayProtectorOf(r)
  if (replay._tag === "Nonce")
    return state.tableItem(r.sender, u64s(replay.nonce)) === undefined ? undefined : status.NONCE_ALREADY_USED
  const onChain = accountSequenceNumberIn(state, r.sender)
  if (replay.sequenceNumber < onChain) return status.SEQUENCE_NUMBER_TOO_OLD
  if (replay.sequenceNumber > onChain) return status.SEQUENCE_NUMBER_TOO_NEW
  return undefined
}

export interface FakeVm extends ChainVmService {
  readonly epilogueCalls: Array<ReadonlyArray<readonly [bigint, bigint]>>
}

export const makeFakeVm = (): FakeVm => {
  const epilogueCalls: Array<ReadonlyArray<readonly [bigint, bigint]>> = []
  const blockPrologue = (state: StateView, m: Parameters<ChainVmService["blockPrologue"]>[1]): SystemCallResult => {
    const now = nowOf(state)
    if (!addressEquals(m.proposer, VALIDATOR)) return { _tag: "Failure", message: "EINVALID_PROPOSER" }
    if (m.timestampUsecs <= now) return { _tag: "Failure", message: "ENOT_OPERATING: time must advance" }
    const config = decodeConfiguration(readConfig(state, "configuration"))!
    const block = decodeBlockResource(readConfig(state, "blockResource"))!
    const writes: Array<readonly [Uint8Array, Uint8Array]> = [
      [ConfigKeys.timestamp, u64s(m.timestampUsecs)],
      [
        ConfigKeys.blockResource,
        concat(u64s(block.height + 1n, block.epochIntervalUsec), eventHandle(3n), eventHandle(4n))
      ]
    ]
    const events: ContractEvent[] = [v2("block", "NewBlock", u64s(block.height + 1n))]
    if (m.timestampUsecs - config.lastReconfigurationTimeUsec >= block.epochIntervalUsec) {
      writes.push([ConfigKeys.configuration, concat(u64s(config.epoch + 1n, m.timestampUsecs), eventHandle(2n))])
      events.push(newEpochEvent(config.epoch + 1n))
    }
    return { _tag: "Success", writeSet: ws(writes), events }
  }
  const executeUser = (state: StateView, t: SignedTransaction): UserTransactionResult => {
    const bad = check(state, t)
    if (bad !== undefined) return { _tag: "Discard", status: bad }
    const r = t.rawTransaction
    const replay = replayProtectorOf(r)
    const writes: Array<readonly [Uint8Array, Uint8Array]> =
      replay._tag === "Nonce"
        ? [[nonceKey(r.sender, replay.nonce), Uint8Array.of(1)]]
        : [[accountResourceKey(r.sender), accountBytes(r.sender, replay.sequenceNumber + 1n)]]
    const fn =
      r.payload._tag === "EntryFunction"
        ? r.payload.entryFunction.function
        : r.payload._tag === "PayloadV1" && r.payload.executable._tag === "EntryFunction"
          ? r.payload.executable.entryFunction.function
          : ""
    const events: ContractEvent[] = []
    if (fn === "reconfigure") {
      const config = decodeConfiguration(readConfig(state, "configuration"))!
      writes.push([ConfigKeys.configuration, concat(u64s(config.epoch + 1n, nowOf(state)), eventHandle(2n))])
      events.push(newEpochEvent(config.epoch + 1n))
    }
    events.push(v2("transaction_fee", "FeeStatement", u64s(10n, 6n, 4n, 0n, 0n)))
    const success = fn !== "fail"
    return {
      _tag: "Keep",
      writeSet: ws(writes),
      events,
      gasUsed: 10n,
      status: success
        ? { _tag: "Success" }
        : {
            _tag: "MoveAbort",
            location: { _tag: "Module", module: { address: ONE, name: "fake" } },
            code: 1n,
            info: undefined
          },
      vmStatus: success ? "Executed successfully" : "Move abort in 0x1::fake: EFAIL(0x1): failed on purpose"
    }
  }
  return {
    epilogueCalls,
    validate: (state, t) => {
      const bad = check(state, t)
      return bad === undefined ? { _tag: "Valid" } : { _tag: "Invalid", status: bad }
    },
    blockPrologue,
    executeUser,
    blockEpilogue: (_state, _id, fees) => {
      epilogueCalls.push(fees)
      return { _tag: "Success", writeSet: { entries: [] }, events: [] }
    }
  }
}

export const fakeVmLayer = (vm: FakeVm = makeFakeVm()) => Layer.succeed(ChainVm, vm)

// ---------------------------------------------------------------------------------------------
// Transactions

export interface TxOptions {
  readonly function?: string
  readonly nonce?: bigint
  readonly gasUnitPrice?: bigint
  readonly expiration?: bigint
  readonly badSignature?: boolean
}

export const signedTxn = (sender: number, sequenceNumber: bigint, o: TxOptions = {}): SignedTransaction => {
  const entryFunction = {
    module: { address: ONE, name: "fake" },
    function: o.function ?? "transfer",
    typeArgs: [],
    args: [u64s(sequenceNumber)]
  }
  const rawTransaction: RawTransaction = {
    sender: addressFromNumber(sender),
    sequenceNumber: o.nonce === undefined ? sequenceNumber : 0xffffffffffffffffn,
    payload:
      o.nonce === undefined
        ? { _tag: "EntryFunction", entryFunction }
        : {
            _tag: "PayloadV1",
            executable: { _tag: "EntryFunction", entryFunction },
            extraConfig: { multisigAddress: undefined, replayProtectionNonce: o.nonce }
          },
    maxGasAmount: 2000n,
    gasUnitPrice: o.gasUnitPrice ?? 100n,
    expirationTimestampSecs: o.expiration ?? 4_000_000_000n,
    chainId: 4
  }
  const signature = new Uint8Array(64).fill(o.badSignature === true ? 0xff : 1)
  return {
    rawTransaction,
    authenticator: {
      _tag: "Ed25519",
      publicKey: ed25519.getPublicKey(new Uint8Array(32).fill(sender & 0xff)),
      signature
    }
  }
}

export const bcsOf = (t: SignedTransaction): Uint8Array => Bcs.encode(signedTransactionCodec, t)

/** Reads the fake sender's on-chain sequence number. */
export const seqOf = (state: KeyValueReader, sender: number): bigint =>
  accountSequenceNumber(state, addressFromNumber(sender))

/** For tests that want the u64 of a FeeStatement back. */
export const readU64 = (bytes: Uint8Array, at: number) => new BcsReader(bytes.subarray(at)).u64()

export { Effect }
