import { BcsReader } from "../../../bcs/index.js"
import type { NativeFunction } from "./NativeContext.js"

/** `LeaderReputationType`: ProposerAndVoter / ProposerAndVoterV2, both over `ProposerAndVoterConfig`. */
const skipLeaderReputation = (r: BcsReader): void => {
  const tag = r.uleb128()
  if (tag > 1) r.fail(`LeaderReputationType ${tag}`)
  r.u64() // active_weight
  r.u64() // inactive_weight
  r.u64() // failed_weight
  r.u32() // failure_threshold_percent
  r.u64() // proposer_window_num_validators_multiplier
  r.u64() // voter_window_num_validators_multiplier
  r.bool() // weight_by_voting_power
  r.u32() // use_history_from_previous_epoch_max_count
}

/** `ConsensusConfigV1 { decoupled_execution, back_pressure_limit, exclude_round, proposer_election_type, max_failed_authors_to_store }`. */
const skipConsensusConfigV1 = (r: BcsReader): void => {
  r.bool()
  r.u64()
  r.u64()
  const election = r.uleb128()
  if (election === 0 || election === 1) r.u32()
  else if (election === 2) skipLeaderReputation(r)
  else if (election === 3) {
    const n = r.length(40)
    for (let i = 0; i < n; i++) {
      r.u64()
      r.fixed(32)
    }
  } else r.fail(`ProposerElectionType ${election}`)
  r.u64()
}

/** `ConsensusAlgorithmConfig`: 0 Jolteon {main, quorum_store}, 1 DAG, 2 JolteonV2 {main, quorum_store, order_vote}. */
const skipAlgorithm = (r: BcsReader): void => {
  const tag = r.uleb128()
  if (tag === 0 || tag === 2) {
    skipConsensusConfigV1(r)
    r.bool()
    if (tag === 2) r.bool()
  } else if (tag === 1) {
    r.u64() // dag_ordering_causal_history_window
    const mode = r.uleb128() // AnchorElectionMode: 0 RoundRobin, 1 LeaderReputation
    if (mode === 1) skipLeaderReputation(r)
    else if (mode !== 0) r.fail(`AnchorElectionMode ${mode}`)
  } else r.fail(`ConsensusAlgorithmConfig ${tag}`)
}

/**
 * Whether an `OnChainConsensusConfig` (BCS) enables validator transactions: V1/V2 never; V3–V5
 * when their `ValidatorTxnConfig` is V1. Bytes that do not decode read as disabled.
 */
export const validatorTxnEnabled = (bytes: Uint8Array): boolean => {
  try {
    const r = new BcsReader(bytes)
    const version = r.uleb128()
    if (version <= 1) return false
    if (version > 4) return false
    skipAlgorithm(r)
    return r.uleb128() === 1
  } catch {
    return false
  }
}

/** `0x1::consensus_config::validator_txn_enabled_internal(config_bytes): bool`. */
export const consensusConfigNatives: Record<string, NativeFunction> = {
  validator_txn_enabled_internal: (_c, _t, [config]) => [validatorTxnEnabled(Uint8Array.from(config as number[]))]
}
