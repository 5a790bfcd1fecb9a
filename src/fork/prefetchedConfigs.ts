/**
 * The on-chain configs a fork prefetches at start (with the framework's modules): what every block
 * and transaction reads, so the first block and the first transfer find them in the cache.
 */
import { Bcs } from "../bcs/index.js"
import { ConfigKeys } from "../chain/onChainConfig.js"
import { addressFromNumber } from "../domain/AccountAddress.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import type { StructTag } from "../domain/TypeTag.js"

const ONE = addressFromNumber(1)
const fw = (module: string, name: string, typeArgs: StructTag["typeArgs"] = []): StructTag => ({
  address: ONE,
  module,
  name,
  typeArgs
})
const resource = (tag: StructTag) =>
  Bcs.encode(stateKeyCodec, { _tag: "AccessPath", address: ONE, path: { _tag: "Resource", struct: tag } })

/** On-chain configs every block and transaction reads: prefetched at start. */
export const PREFETCHED_CONFIGS: ReadonlyArray<Uint8Array> = [
  ...Object.values(ConfigKeys),
  resource(fw("gas_schedule", "GasScheduleV2")),
  resource(fw("storage_gas", "StorageGas")),
  resource(fw("storage_gas", "StorageGasConfig")),
  resource(fw("state_storage", "StateStorageUsage")),
  resource(fw("version", "Version")),
  resource(fw("consensus_config", "ConsensusConfig")),
  resource(fw("randomness_config", "RandomnessConfig")),
  resource(fw("randomness", "PerBlockRandomness")),
  resource(fw("stake", "ValidatorPerformance")),
  resource(fw("staking_config", "StakingConfig")),
  resource(fw("transaction_fee", "AptosCoinCapabilities")),
  resource(fw("transaction_fee", "AptosFABurnCapabilities")),
  resource(fw("aggregator_factory", "AggregatorFactory")),
  resource(fw("coin", "CoinInfo", [{ _tag: "struct", struct: fw("aptos_coin", "AptosCoin") }])),
  resource(fw("coin", "CoinConversionMap")),
  resource(fw("reconfiguration_state", "State")),
  resource(fw("jwk_consensus_config", "JWKConsensusConfig")),
  resource(fw("account", "OriginatingAddress")),
  resource(fw("chain_status", "GenesisEndMarker")),
  resource(fw("block", "CommitHistory")),
  resource(fw("transaction_validation", "TransactionValidation"))
]
