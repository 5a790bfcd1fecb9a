import { BcsWriter } from "../../bcs/index.js"
import { type AccountAddress, addressFromNumber, addressToShortString } from "../../domain/AccountAddress.js"
import type { ChangeSet, Transaction } from "../../domain/Transaction.js"
import { writeTransaction } from "../../domain/TransactionCodec.js"
import type { WriteSetEntry } from "../../domain/WriteSet.js"
import { compareKeyBytes } from "../../domain/WriteSetCodec.js"
import { MoveVm } from "../../move/vm/MoveVm.js"
import type { VmFailure } from "../../move/vm/VmFailure.js"
import type { SessionCall } from "../../move/vm/VmSession.js"
import { type Framework, frameworkView } from "./Framework.js"
import type { GenesisParams, ValidatorConfiguration } from "./GenesisParams.js"

const ONE = addressFromNumber(1)
const SEVEN = addressFromNumber(7)
const VM_RESERVED = addressFromNumber(0)
const CORE_RESOURCES = addressFromNumber(0xa550c18)

export type GenesisTransaction = Extract<Transaction, { _tag: "GenesisTransaction" }>

export type GenesisOutcome =
  | {
      readonly _tag: "Built"
      readonly transaction: GenesisTransaction
      /** BCS of the `Transaction` (what `importGenesis` takes and the ledger stores). */
      readonly bytes: Uint8Array
    }
  | {
      readonly _tag: "Failed"
      /** The recipe step that failed (`0x1::genesis::initialize`, …). */
      readonly step: string
      readonly failure: VmFailure
    }

const w = (): BcsWriter => new BcsWriter(64)
const u64 = (n: bigint): Uint8Array => w().u64(n).toBytes()
const bytes = (b: Uint8Array): Uint8Array => w().bytesWithLength(b).toBytes()
const string = (s: string): Uint8Array => w().string(s).toBytes()
const u64s = (ns: ReadonlyArray<number>): Uint8Array => {
  const out = w().uleb128(ns.length)
  for (const n of ns) out.u64(BigInt(n))
  return out.toBytes()
}

/** BCS of `vector<genesis::ValidatorConfiguration>`. */
const validatorConfigurations = (vs: ReadonlyArray<ValidatorConfiguration>): Uint8Array => {
  const out = w().uleb128(vs.length)
  for (const v of vs)
    out
      .fixed(v.ownerAddress)
      .fixed(v.operatorAddress)
      .fixed(v.voterAddress)
      .u64(v.stakeAmount)
      .bytesWithLength(v.consensusPubkey)
      .bytesWithLength(v.proofOfPossession)
      .bytesWithLength(v.networkAddresses)
      .bytesWithLength(v.fullNodeNetworkAddresses)
  return out.toBytes()
}

interface Step {
  readonly call: SessionCall
  /** Skipped when the framework lacks the function (older or newer frameworks). */
  readonly optional?: boolean
}

const step = (
  address: AccountAddress,
  module: string,
  fn: string,
  signers: ReadonlyArray<AccountAddress>,
  args: ReadonlyArray<Uint8Array> = [],
  optional = false
): Step => ({ call: { module: { address, name: module }, function: fn, tyArgs: [], signers, args }, optional })

/**
 * The genesis recipe: the framework's genesis functions in the order of the reference's
 * `encode_genesis_change_set` (test variant: core resources with a root key), plus the
 * initialisers the devnet-era framework has (chunky DKG, decryption, epoch timeout, confidential
 * assets, 0x7's trading registry) and the pre-funded accounts.
 */
export const genesisSteps = (p: GenesisParams): ReadonlyArray<Step> => [
  step(
    ONE,
    "genesis",
    "initialize",
    [],
    [
      bytes(p.gasSchedule),
      w().u8(p.chainId).toBytes(),
      u64(p.initialVersion),
      bytes(p.consensusConfig),
      bytes(p.executionConfig),
      u64(p.epochIntervalUsecs),
      u64(p.minimumStake),
      u64(p.maximumStake),
      u64(p.recurringLockupDurationSecs),
      w().bool(p.allowValidatorSetChange).toBytes(),
      u64(p.rewardsRate),
      u64(p.rewardsRateDenominator),
      u64(p.votingPowerIncreaseLimit)
    ]
  ),
  step(ONE, "features", "change_feature_flags_internal", [ONE], [u64s(p.features), u64s([])]),
  step(ONE, "genesis", "initialize_core_resources_and_aptos_coin", [ONE], [bytes(p.rootAuthKey)]),
  step(ONE, "config_buffer", "initialize", [ONE]),
  step(ONE, "dkg", "initialize", [ONE]),
  step(ONE, "reconfiguration_state", "initialize", [ONE]),
  step(ONE, "randomness_api_v0_config", "initialize", [ONE], [p.requiredGasDeposit, p.allowCustomMaxGasFlag]),
  step(ONE, "randomness_config_seqnum", "initialize", [ONE]),
  step(ONE, "randomness_config", "initialize", [ONE], [p.randomnessConfig]),
  step(ONE, "randomness", "initialize", [ONE]),
  ...(p.chunkyDkgConfig === undefined
    ? []
    : [
        step(ONE, "chunky_dkg", "initialize", [ONE], [], true),
        step(ONE, "chunky_dkg_config_seqnum", "initialize", [ONE], [], true),
        step(ONE, "chunky_dkg_config", "initialize", [ONE], [p.chunkyDkgConfig], true)
      ]),
  step(ONE, "decryption", "initialize", [ONE], [], true),
  step(ONE, "epoch_timeout_config", "initialize", [ONE], [], true),
  step(
    ONE,
    "aptos_governance",
    "initialize",
    [ONE],
    [
      w().u128(p.governance.minVotingThreshold).toBytes(),
      u64(p.governance.requiredProposerStake),
      u64(p.governance.votingDurationSecs)
    ]
  ),
  step(ONE, "account_abstraction", "initialize", [ONE]),
  ...p.derivableAuthenticators.map((a) =>
    step(
      ONE,
      "account_abstraction",
      "register_derivable_authentication_function",
      [ONE],
      [a.address, string(a.module), string(a.function)]
    )
  ),
  step(ONE, "genesis", "create_initialize_validators", [ONE], [validatorConfigurations(p.validators)]),
  step(ONE, "version", "initialize_for_test", [CORE_RESOURCES]),
  step(ONE, "jwks", "initialize", [ONE]),
  step(ONE, "jwks", "set_patches", [ONE], [p.jwkPatches]),
  step(ONE, "keyless_account", "update_configuration", [ONE], [p.keylessConfiguration]),
  ...(p.groth16VerificationKey === undefined
    ? []
    : [step(ONE, "keyless_account", "update_groth16_verification_key", [ONE], [p.groth16VerificationKey])]),
  step(ONE, "confidential_asset", "init_module_for_devnet", [ONE], [], true),
  step(SEVEN, "trading_native_capability", "init_module", [SEVEN], [], true),
  ...p.accounts.map((a) => step(ONE, "aptos_account", "transfer", [CORE_RESOURCES], [a.address, u64(a.amount)])),
  step(ONE, "genesis", "set_genesis_end", [ONE]),
  step(ONE, "block", "emit_genesis_block_event", [VM_RESERVED]),
  step(ONE, "reconfiguration", "emit_genesis_reconfiguration_event", [])
]

/**
 * Builds a genesis transaction as the reference's `encode_genesis_change_set` does: one session
 * (id `Genesis { zero hash }`, unmetered, visibility bypassed) runs the genesis functions over a
 * state holding only the framework's modules; its change set, with the framework's module writes
 * and package registries, is the `WriteSetPayload::Direct` of a `GenesisTransaction`. Never throws
 * for a failing Move call: the step and its failure come back.
 *
 * `vm` defaults to a fresh `MoveVm` with the framework natives (the validators' proofs of possession
 * need `bls12381::verify_proof_of_possession_internal`).
 */
export const buildGenesis = (
  framework: Framework,
  params: GenesisParams,
  vm: MoveVm = new MoveVm()
): GenesisOutcome => {
  const view = frameworkView(framework)
  const session = vm.session(view, { id: { _tag: "Genesis", id: new Uint8Array(32) }, chainId: params.chainId })
  for (const { call, optional } of genesisSteps(params)) {
    if (optional === true && vm.resolveFunction(view, call.module, call.function) === undefined) continue
    const out = session.execute(call, { mode: "system" })
    if (out._tag !== "Success")
      return {
        _tag: "Failed",
        step: `${addressToShortString(call.module.address)}::${call.module.name}::${call.function}`,
        failure: out
      }
  }
  const finished = session.finish()
  if (finished._tag !== "Success") return { _tag: "Failed", step: "finish", failure: finished }
  const changeSet = withFramework(finished.changeSet, framework)
  const transaction: GenesisTransaction = { _tag: "GenesisTransaction", payload: { _tag: "Direct", changeSet } }
  const out = new BcsWriter(1 << 20)
  writeTransaction(out, transaction)
  return { _tag: "Built", transaction, bytes: out.toBytes() }
}

/** The session's writes and the framework's (disjoint: the session publishes nothing), in key order. */
const withFramework = (changeSet: ChangeSet, framework: Framework): ChangeSet => {
  const entries: WriteSetEntry[] = [...changeSet.writeSet.entries, ...framework.writeSet.entries]
  entries.sort((x, y) => compareKeyBytes(x.keyBytes, y.keyBytes))
  return { writeSet: { entries }, events: changeSet.events }
}
