import type { AccountAddress } from "../../domain/AccountAddress.js"

/** `0x1::genesis::ValidatorConfiguration`: one validator created at genesis. */
export interface ValidatorConfiguration {
  readonly ownerAddress: AccountAddress
  readonly operatorAddress: AccountAddress
  readonly voterAddress: AccountAddress
  /** Octas minted to the owner and staked (within the staking config's min and max). */
  readonly stakeAmount: bigint
  /** BLS12-381 min-pk public key, 48 bytes. */
  readonly consensusPubkey: Uint8Array
  /** Its proof of possession, 96 bytes (checked by `bls12381::public_key_from_bytes_with_pop`). */
  readonly proofOfPossession: Uint8Array
  /** Stored unparsed (BCS of `vector<NetworkAddress>`; `[0]` = none). */
  readonly networkAddresses: Uint8Array
  readonly fullNodeNetworkAddresses: Uint8Array
}

/**
 * Everything the framework's genesis functions are called with (the reference's
 * `encode_genesis_change_set` inputs). Byte fields are BCS of the Move value the function takes,
 * so a value read from an existing chain's state can be passed back unchanged.
 */
export interface GenesisParams {
  readonly chainId: number
  /** BCS of `0x1::gas_schedule::GasScheduleV2`. */
  readonly gasSchedule: Uint8Array
  /** `0x1::version::Version.major`. */
  readonly initialVersion: bigint
  /** BCS of `OnChainConsensusConfig` / `OnChainExecutionConfig` (the resources' inner bytes). */
  readonly consensusConfig: Uint8Array
  readonly executionConfig: Uint8Array
  readonly epochIntervalUsecs: bigint
  readonly minimumStake: bigint
  readonly maximumStake: bigint
  readonly recurringLockupDurationSecs: bigint
  readonly allowValidatorSetChange: boolean
  readonly rewardsRate: bigint
  readonly rewardsRateDenominator: bigint
  readonly votingPowerIncreaseLimit: bigint
  /** Feature flags to enable (`features::change_feature_flags_internal`); nothing is disabled. */
  readonly features: ReadonlyArray<number>
  /** Authentication key of the core resources account `0xa550c18` (the mint / root key). */
  readonly rootAuthKey: Uint8Array
  /** BCS of `randomness_api_v0_config::RequiredGasDeposit` and `AllowCustomMaxGasFlag`. */
  readonly requiredGasDeposit: Uint8Array
  readonly allowCustomMaxGasFlag: Uint8Array
  /** BCS of `randomness_config::RandomnessConfig`. */
  readonly randomnessConfig: Uint8Array
  /** BCS of `chunky_dkg_config::ChunkyDKGConfig`, for frameworks that have it. */
  readonly chunkyDkgConfig: Uint8Array | undefined
  readonly governance: {
    readonly minVotingThreshold: bigint
    readonly requiredProposerStake: bigint
    readonly votingDurationSecs: bigint
  }
  /** `account_abstraction::register_derivable_authentication_function` calls, in order. */
  readonly derivableAuthenticators: ReadonlyArray<{
    readonly address: AccountAddress
    readonly module: string
    readonly function: string
  }>
  /** Validators, in the order `genesis::create_initialize_validators` receives them. */
  readonly validators: ReadonlyArray<ValidatorConfiguration>
  /** BCS of `vector<jwks::Patch>` (`jwks::set_patches`). */
  readonly jwkPatches: Uint8Array
  /** BCS of `keyless_account::Configuration`. */
  readonly keylessConfiguration: Uint8Array
  /**
   * BCS of `keyless_account::Groth16VerificationKey` (`keyless_account::update_groth16_verification_key`),
   * or undefined: none installed (devnet's genesis has none; its key came later, by governance).
   */
  readonly groth16VerificationKey: Uint8Array | undefined
  /** Accounts funded from the core resources account before genesis ends (not in the reference's recipe). */
  readonly accounts: ReadonlyArray<{ readonly address: AccountAddress; readonly amount: bigint }>
}
