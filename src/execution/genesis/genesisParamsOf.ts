import { BcsReader } from "../../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../../domain/AccountAddress.js"
import type { StructTag } from "../../domain/TypeTag.js"
import { readStructTag } from "../../domain/TypeTagCodec.js"
import type { MoveVm } from "../../move/vm/MoveVm.js"
import type { StateView } from "../../move/vm/StateView.js"
import { StructValue, type Value } from "../../move/vm/Value.js"
import { deserializeValue } from "../../move/vm/ValueBcs.js"
import type { GenesisParams, ValidatorConfiguration } from "./GenesisParams.js"

const ONE = addressFromNumber(1)
const CORE_RESOURCES = addressFromNumber(0xa550c18)
const tag = (module: string, name: string): StructTag => ({ address: ONE, module, name, typeArgs: [] })
const utf8 = new TextDecoder()

/**
 * The genesis parameters an existing chain was built with, read back from its state right after
 * genesis (what `buildGenesis` would need to rebuild it): configs verbatim, staking, governance,
 * features, the root key and the validators. The validators' proofs of possession are not stored
 * on chain: they come back empty (a rebuild must accept them another way).
 */
export const genesisParamsOf = (vm: MoveVm, view: StateView): GenesisParams =>
  vm.loader.withView(view, () => {
    const bytes = (t: StructTag, at: AccountAddress = ONE): Uint8Array => {
      const b = view.resource(at, t)
      if (b === undefined) throw new RangeError(`genesis state lacks ${t.module}::${t.name}`)
      return b
    }
    const value = (t: StructTag, at: AccountAddress = ONE): StructValue =>
      deserializeValue(bytes(t, at), vm.typeFromTag({ _tag: "struct", struct: t })) as StructValue
    /** A struct's fields by name (from the loaded definition). */
    const fields = (t: StructTag, at: AccountAddress = ONE): Record<string, Value> => {
      const v = value(t, at)
      const def = vm.loader.load(t.address, t.module).struct(t.name)!
      const out: Record<string, Value> = {}
      def.fields?.forEach((f, i) => {
        out[f.name] = v.fields[i]
      })
      return out
    }
    const inner = (t: StructTag): Uint8Array => new BcsReader(bytes(t)).bytesWithLength()
    const staking = fields(tag("staking_config", "StakingConfig"))
    const governance = fields(tag("aptos_governance", "GovernanceConfig"))
    const featureBits = inner(tag("features", "Features"))
    const features: number[] = []
    for (let i = 0; i < featureBits.length * 8; i++) if ((featureBits[i >> 3]! >> (i & 7)) & 1) features.push(i)
    const block = fields(tag("block", "BlockResource"))
    const chunky = view.resource(ONE, tag("chunky_dkg_config", "ChunkyDKGConfig"))
    return {
      chainId: bytes(tag("chain_id", "ChainId"))[0]!,
      gasSchedule: bytes(tag("gas_schedule", "GasScheduleV2")),
      initialVersion: fields(tag("version", "Version")).major as bigint,
      consensusConfig: inner(tag("consensus_config", "ConsensusConfig")),
      executionConfig: inner(tag("execution_config", "ExecutionConfig")),
      epochIntervalUsecs: block.epoch_interval as bigint,
      minimumStake: staking.minimum_stake as bigint,
      maximumStake: staking.maximum_stake as bigint,
      recurringLockupDurationSecs: staking.recurring_lockup_duration_secs as bigint,
      allowValidatorSetChange: staking.allow_validator_set_change as boolean,
      rewardsRate: staking.rewards_rate as bigint,
      rewardsRateDenominator: staking.rewards_rate_denominator as bigint,
      votingPowerIncreaseLimit: staking.voting_power_increase_limit as bigint,
      features,
      rootAuthKey: Uint8Array.from(fields(tag("account", "Account"), CORE_RESOURCES).authentication_key as number[]),
      requiredGasDeposit: bytes(tag("randomness_api_v0_config", "RequiredGasDeposit")),
      allowCustomMaxGasFlag: bytes(tag("randomness_api_v0_config", "AllowCustomMaxGasFlag")),
      randomnessConfig: bytes(tag("randomness_config", "RandomnessConfig")),
      chunkyDkgConfig: chunky,
      governance: {
        minVotingThreshold: governance.min_voting_threshold as bigint,
        requiredProposerStake: governance.required_proposer_stake as bigint,
        votingDurationSecs: governance.voting_duration_secs as bigint
      },
      derivableAuthenticators: registrationOrder(
        derivableAuthenticators(value(tag("account_abstraction", "DerivableDispatchableAuthenticator"))),
        bytes(tag("account_abstraction", "DerivableDispatchableAuthenticator"))
      ),
      validators: validatorsOf(fields),
      jwkPatches: bytes(tag("jwks", "Patches")),
      keylessConfiguration: required(
        groupMember(view.resourceGroup(ONE, tag("keyless_account", "Group")), tag("keyless_account", "Configuration")),
        "keyless_account::Configuration"
      ),
      groth16VerificationKey: groupMember(
        view.resourceGroup(ONE, tag("keyless_account", "Group")),
        tag("keyless_account", "Groth16VerificationKey")
      ),
      accounts: []
    }
  })

/** The `FunctionInfo`s registered in `DerivableDispatchableAuthenticator::V1` (a BigOrderedMap's root leaf). */
const derivableAuthenticators = (v: StructValue): GenesisParams["derivableAuthenticators"] => {
  const out: Array<{ address: AccountAddress; module: string; function: string }> = []
  // Every FunctionInfo { module_address, module_name: String, function_name: String } in the value.
  const stack: Value[] = [v]
  while (stack.length > 0) {
    const x = stack.pop()
    if (x instanceof StructValue) {
      const f = x.fields
      if (f.length === 3 && f[0] instanceof Uint8Array && isString(f[1]) && isString(f[2])) {
        out.push({ address: f[0], module: str(f[1]), function: str(f[2]) })
        continue
      }
      for (let i = f.length - 1; i >= 0; i--) stack.push(f[i])
    } else if (Array.isArray(x)) for (let i = x.length - 1; i >= 0; i--) stack.push(x[i])
  }
  return out
}

const utf8Length = (s: string): number => new TextEncoder().encode(s).length

/**
 * The map keeps its functions sorted, so their registration order is lost, but one trace of it
 * matters: a `BigOrderedMap` sizes its inner nodes from the first key inserted (inner_max_degree =
 * 4096 / BCS size of that key, stored as the resource's second-to-last u16). The function whose
 * size gives the stored degree is put first; the rest keep the map's order.
 */
const registrationOrder = (
  functions: GenesisParams["derivableAuthenticators"],
  resource: Uint8Array
): GenesisParams["derivableAuthenticators"] => {
  if (resource.length < 4) return functions
  const degree = resource[resource.length - 4]! | (resource[resource.length - 3]! << 8)
  const size = (f: (typeof functions)[number]) => 32 + 1 + utf8Length(f.module) + 1 + utf8Length(f.function)
  const first = functions.findIndex((f) => Math.floor(4096 / size(f)) === degree)
  return first <= 0 ? functions : [functions[first]!, ...functions.filter((_, i) => i !== first)]
}

const isString = (v: Value): boolean =>
  v instanceof StructValue &&
  v.fields.length === 1 &&
  Array.isArray(v.fields[0]) &&
  (v.fields[0] as Value[]).every((b) => typeof b === "number")
const str = (v: Value): string => utf8.decode(Uint8Array.from((v as StructValue).fields[0] as number[]))

/** A member's bytes in a resource group's BCS map (`StructTag → bytes`). */
const required = (b: Uint8Array | undefined, what: string): Uint8Array => {
  if (b === undefined) throw new RangeError(`genesis state lacks ${what}`)
  return b
}

/** A member's bytes in a resource group's BCS (`BTreeMap<StructTag, vector<u8>>`), if there. */
const groupMember = (group: Uint8Array | undefined, member: StructTag): Uint8Array | undefined => {
  if (group === undefined) return undefined
  const r = new BcsReader(group)
  const n = r.length(1)
  for (let i = 0; i < n; i++) {
    const t = readStructTag(r)
    const b = r.bytesWithLength()
    if (t.module === member.module && t.name === member.name) return b
  }
  return undefined
}

/**
 * The validators of the genesis validator set, in its active order (which is the order
 * `create_initialize_validators` was given them: checked against devnet's events).
 */
const validatorsOf = (
  fields: (t: StructTag, at?: AccountAddress) => Record<string, Value>
): ValidatorConfiguration[] => {
  const active = fields(tag("stake", "ValidatorSet")).active_validators as StructValue[]
  return active.map((info) => {
    const owner = info.fields[0] as Uint8Array
    const config = info.fields[2] as StructValue
    const pool = fields(tag("stake", "StakePool"), owner)
    return {
      ownerAddress: owner,
      operatorAddress: pool.operator_address as Uint8Array,
      voterAddress: pool.delegated_voter as Uint8Array,
      stakeAmount:
        ((pool.active as StructValue).fields[0] as bigint) + ((pool.pending_active as StructValue).fields[0] as bigint),
      consensusPubkey: Uint8Array.from(config.fields[0] as number[]),
      proofOfPossession: new Uint8Array(0),
      networkAddresses: Uint8Array.from(config.fields[1] as number[]),
      fullNodeNetworkAddresses: Uint8Array.from(config.fields[2] as number[])
    }
  })
}
