import { BcsWriter } from "../../bcs/index.js"
import type { AccountAddress } from "../../domain/AccountAddress.js"
import { sha3Concat } from "../../domain/hash.js"
import { authenticationKey, AuthKeyScheme } from "../signatures/authKey.js"
import type { GenesisParams } from "./GenesisParams.js"
import {
  type Groth16VerificationKey,
  groth16VerificationKeyBcs,
  NETWORK_GROTH16_VERIFICATION_KEY
} from "./groth16VerificationKey.js"
import { type ValidatorConsensusKey, validatorConsensusKey } from "./validatorKey.js"

/** What a local chain chooses; everything else is the base genesis's (devnet's). */
export interface LocalGenesisOptions {
  /** Default 4: what the TypeScript SDK's `Network.LOCAL` hard-codes. */
  readonly chainId?: number
  /** Default 7,200 s. Staking rewards are recomputed for it (10 % APY, as the reference's builder). */
  readonly epochIntervalSecs?: bigint
  /** Ed25519 public key of the root (core resources, 0xa550c18) account: the faucet's key. */
  readonly rootPublicKey: Uint8Array
  /** Seed of the validator's consensus key and address (deterministic genesis); default all zeros. */
  readonly validatorSeed?: Uint8Array
  /** Flags added to / removed from the base's; default removes 116 (block epilogue V1, not V2). */
  readonly enableFeatures?: ReadonlyArray<number>
  readonly disableFeatures?: ReadonlyArray<number>
  /** Accounts funded from the root account at genesis. */
  readonly accounts?: ReadonlyArray<{ readonly address: AccountAddress; readonly amount: bigint }>
  /** Default "off" (`randomness_config::ConfigOff`): blocks use the plain `block_prologue`. */
  readonly randomness?: "off" | "base"
  /**
   * The keyless Groth16 verification key installed at genesis; default the public networks' key
   * (`NETWORK_GROTH16_VERIFICATION_KEY`) on every chain id but mainnet's (1), as the reference's
   * genesis; null: none.
   */
  readonly groth16VerificationKey?: Groth16VerificationKey | null
}

/** The local chain's one validator: its key (for signing nothing: blocks are local) and address. */
export interface LocalValidator {
  readonly address: AccountAddress
  readonly consensusKey: ValidatorConsensusKey
}

const SECONDS_PER_YEAR = 31_536_000n
const HOTNESS_IN_EPILOGUE = 116
const MAINNET = 1

/** `RandomnessConfig { variant: Any { type_name: "0x1::randomness_config::ConfigOff", data: BCS(ConfigOff) } }`. */
const RANDOMNESS_OFF: Uint8Array = new BcsWriter(64)
  .string("0x1::randomness_config::ConfigOff")
  .bytesWithLength(new Uint8Array([0])) // ConfigOff's only (compiler-added) field: dummy_field = false
  .toBytes()

/** The validator a local genesis creates from `seed`. */
export const localValidator = (seed: Uint8Array = new Uint8Array(32)): LocalValidator => ({
  address: sha3Concat(new TextEncoder().encode("movenode::local-validator"), seed),
  consensusKey: validatorConsensusKey(seed)
})

/**
 * Genesis parameters for a local chain: the base's (devnet's) configs, gas schedule, framework
 * settings and validators' stake rules, with the local chain's own chain id, root key, epoch length,
 * one validator (owner = operator = voter, staking the minimum), feature flags, pre-funded accounts
 * and the keyless Groth16 verification key.
 */
export const localGenesisParams = (base: GenesisParams, options: LocalGenesisOptions): GenesisParams => {
  const epochSecs = options.epochIntervalSecs ?? 7_200n
  const validator = localValidator(options.validatorSeed)
  const disable = new Set(options.disableFeatures ?? [HOTNESS_IN_EPILOGUE])
  const features = new Set(base.features.filter((f) => !disable.has(f)))
  for (const f of options.enableFeatures ?? []) features.add(f)
  // The reference's builder: 10 % a year, paid per epoch, denominator 1e9.
  const denominator = 1_000_000_000n
  const rewardsRate = (10n * denominator) / 100n / (SECONDS_PER_YEAR / epochSecs)
  const chainId = options.chainId ?? 4
  const vk =
    options.groth16VerificationKey === undefined
      ? chainId === MAINNET
        ? undefined
        : NETWORK_GROTH16_VERIFICATION_KEY
      : (options.groth16VerificationKey ?? undefined)
  return {
    ...base,
    chainId,
    epochIntervalUsecs: epochSecs * 1_000_000n,
    recurringLockupDurationSecs:
      base.recurringLockupDurationSecs < epochSecs ? epochSecs : base.recurringLockupDurationSecs,
    rewardsRate,
    rewardsRateDenominator: denominator,
    features: [...features].sort((a, b) => a - b),
    rootAuthKey: authenticationKey(options.rootPublicKey, AuthKeyScheme.Ed25519),
    randomnessConfig: options.randomness === "base" ? base.randomnessConfig : RANDOMNESS_OFF,
    groth16VerificationKey: vk === undefined ? undefined : groth16VerificationKeyBcs(vk),
    validators: [
      {
        ownerAddress: validator.address,
        operatorAddress: validator.address,
        voterAddress: validator.address,
        stakeAmount: base.minimumStake,
        consensusPubkey: validator.consensusKey.publicKey,
        proofOfPossession: validator.consensusKey.proofOfPossession,
        networkAddresses: new Uint8Array([0]),
        fullNodeNetworkAddresses: new Uint8Array([0])
      }
    ],
    accounts: options.accounts ?? []
  }
}
