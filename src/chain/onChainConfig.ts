/**
 * The few on-chain resources the block producer reads, decoded from their BCS (pure; layouts from
 * the framework's structs and the reference's `types/src/on_chain_config`): the epoch and its last
 * reconfiguration, the epoch interval, the chain's clock, the first active validator (the local
 * chain's proposer), feature flags, and what the execution config says about the block end.
 * Every decoder returns undefined for bytes it cannot read (the producer then refuses to make
 * blocks with a clear error rather than guessing).
 */
import { Bcs, BcsReader } from "../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../domain/AccountAddress.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import type { StructTag } from "../domain/TypeTag.js"
import type { StateView } from "../move/vm/StateView.js"

const ONE = addressFromNumber(1)

const framework = (module: string, name: string): StructTag => ({ address: ONE, module, name, typeArgs: [] })

const resourceKey = (address: AccountAddress, struct: StructTag): Uint8Array =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address, path: { _tag: "Resource", struct } })

/** The 0x1 resources read here. */
export const ConfigTags = {
  configuration: framework("reconfiguration", "Configuration"),
  blockResource: framework("block", "BlockResource"),
  timestamp: framework("timestamp", "CurrentTimeMicroseconds"),
  validatorSet: framework("stake", "ValidatorSet"),
  features: framework("features", "Features"),
  executionConfig: framework("execution_config", "ExecutionConfig"),
  chainId: framework("chain_id", "ChainId"),
  randomnessConfig: framework("randomness_config", "RandomnessConfig")
} as const

/** BCS(StateKey) of each, computed once (for key-value readers such as the ledger's). */
export const ConfigKeys = Object.fromEntries(
  Object.entries(ConfigTags).map(([k, tag]) => [k, resourceKey(ONE, tag)])
) as { readonly [K in keyof typeof ConfigTags]: Uint8Array }

/** Reads one of them through a VM `StateView` (over a block's uncommitted writes too). */
export const readConfig = (view: StateView, name: keyof typeof ConfigTags): Uint8Array | undefined =>
  view.resource(ONE, ConfigTags[name])

const attempt = <A>(bytes: Uint8Array | undefined, read: (r: BcsReader) => A): A | undefined => {
  if (bytes === undefined) return undefined
  try {
    return read(new BcsReader(bytes))
  } catch {
    return undefined
  }
}

/** `0x1::reconfiguration::Configuration { epoch, last_reconfiguration_time, events }`. */
export const decodeConfiguration = (bytes: Uint8Array | undefined) =>
  attempt(bytes, (r) => ({ epoch: r.u64(), lastReconfigurationTimeUsec: r.u64() }))

/** `0x1::block::BlockResource { height, epoch_interval (µs), … }`. */
export const decodeBlockResource = (bytes: Uint8Array | undefined) =>
  attempt(bytes, (r) => ({ height: r.u64(), epochIntervalUsec: r.u64() }))

/** `0x1::timestamp::CurrentTimeMicroseconds { microseconds }`. */
export const decodeTimestamp = (bytes: Uint8Array | undefined) => attempt(bytes, (r) => r.u64())

/**
 * Whether `0x1::randomness_config::RandomnessConfig { variant: copyable_any::Any { type_name, data } }`
 * turns randomness on: `ConfigV1` / `ConfigV2` do, `ConfigOff` (and no config at all) does not, as
 * the reference's `OnChainRandomnessConfig::randomness_enabled`.
 */
export const decodeRandomnessEnabled = (bytes: Uint8Array | undefined): boolean =>
  attempt(bytes, (r) => /::randomness_config::ConfigV[12]$/.test(r.string())) ?? false

/** `0x1::chain_id::ChainId { id: u8 }`. */
export const decodeChainId = (bytes: Uint8Array | undefined) => attempt(bytes, (r) => r.u8())

/**
 * The first active validator of `0x1::stake::ValidatorSet { consensus_scheme: u8,
 * active_validators: vector<ValidatorInfo { addr, voting_power: u64, config: ValidatorConfig {
 * consensus_pubkey, network_addresses, fullnode_addresses: vector<u8>, validator_index: u64 } }>, … }`.
 */
export const decodeFirstValidator = (bytes: Uint8Array | undefined) =>
  attempt(bytes, (r) => {
    r.u8()
    if (r.uleb128() === 0) return undefined
    const address = r.fixed(32)
    r.u64()
    r.bytesWithLength()
    r.bytesWithLength()
    r.bytesWithLength()
    return { address, index: r.u64() }
  })

/** Whether feature `flag` is set in `0x1::features::Features { features: vector<u8> }` (bit i of byte i/8). */
export const featureEnabled = (bytes: Uint8Array | undefined, flag: number): boolean =>
  attempt(bytes, (r) => {
    const set = r.bytesWithLength()
    const byte = flag >> 3
    return byte < set.length && (set[byte]! & (1 << (flag & 7))) !== 0
  }) ?? false

/** What the execution config asks of the block end (local-chain.md §8.5). */
export interface BlockEndConfig {
  /** ComplexLimitV1.add_block_limit_outcome_onchain: BlockEpilogue instead of StateCheckpoint. */
  readonly blockEpilogue: boolean
  /** V6+: octas per gas unit burnt, not distributed to the proposer (90 before V6). */
  readonly gasPriceToBurn: bigint
}

const skipShuffler = (r: BcsReader) => {
  const tag = r.uleb128()
  if (tag === 1 || tag === 2) r.u32()
  else if (tag === 4) {
    r.u64()
    r.u64()
    r.u64()
  } else if (tag !== 0 && tag !== 3) r.fail(`unknown TransactionShufflerType ${tag}`)
}

/** BlockGasLimitType: 0 NoLimit, 1 Limit(u64), 2 ComplexLimitV1 {…, add_block_limit_outcome_onchain}. */
const readOutcomeOnChain = (r: BcsReader): boolean => {
  const tag = r.uleb128()
  if (tag === 0) return false
  if (tag === 1) {
    r.u64()
    return false
  }
  if (tag !== 2) return r.fail(`unknown BlockGasLimitType ${tag}`)
  r.u64()
  r.u64()
  r.u64()
  r.u32()
  r.bool()
  r.bool()
  if (r.bool()) r.u64()
  r.bool()
  return r.bool()
}

/**
 * `0x1::execution_config::ExecutionConfig { config: vector<u8> }` holding BCS of
 * `OnChainExecutionConfig` (variants V1, V2, V3, Missing, V4, V5, V6, V7).
 */
export const decodeBlockEndConfig = (bytes: Uint8Array | undefined): BlockEndConfig | undefined =>
  attempt(bytes, (outer) => {
    const r = new BcsReader(outer.bytesWithLength())
    const variant = r.uleb128()
    if (variant <= 3) return { blockEpilogue: false, gasPriceToBurn: 90n }
    if (variant > 7) return r.fail(`unknown OnChainExecutionConfig variant ${variant}`)
    skipShuffler(r)
    const blockEpilogue = readOutcomeOnChain(r)
    if (variant >= 5) r.bool()
    r.uleb128() // transaction_deduper_type (unit variants)
    const gasPriceToBurn = variant >= 6 ? r.u64() : 90n
    return { blockEpilogue, gasPriceToBurn }
  })
