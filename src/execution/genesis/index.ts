/**
 * Genesis: our own genesis transaction, built by running the framework's genesis functions in our
 * VM as the reference's `encode_genesis_change_set` does (one unmetered session, visibility
 * bypassed, session id `Genesis { zero }`), with the framework (modules and package registries)
 * copied from an existing genesis.
 *
 * - `buildGenesis(framework, params, vm?)` → the `GenesisTransaction` and its BCS bytes (what
 *   `importGenesis` takes), or the recipe step that failed. `genesisSteps` is the recipe.
 * - `GenesisParams`: every argument of the recipe; `genesisParamsOf(vm, view)` reads them back from
 *   an existing chain's genesis state (rebuilding devnet with them gives devnet.blob byte for byte);
 *   `localGenesisParams(base, options)` is a local chain's: chain id 4, its root key, one validator
 *   (`localValidator`: BLS12-381 key + proof of possession from a seed), epoch length, flags,
 *   pre-funded accounts, randomness off, the keyless Groth16 verification key
 *   (`NETWORK_GROTH16_VERIFICATION_KEY`, as the reference installs one on every chain but mainnet).
 * - `genesisVm(verifiedPairs)` / `localGenesisVm()`: the VM to build with, not checking again the
 *   proofs of possession known to verify (the local validator's constant key,
 *   `ZERO_SEED_CONSENSUS_KEY`): the pairing is most of a cold build's time.
 * - `frameworkOfGenesis(txn)` / `frameworkView(framework)`: the framework of a genesis and the state
 *   holding only it.
 */
export { buildGenesis, type GenesisOutcome, type GenesisTransaction, genesisSteps } from "./buildGenesis.js"
export { type Framework, frameworkOfGenesis, frameworkView } from "./Framework.js"
export { genesisVm, localGenesisVm } from "./genesisVm.js"
export {
  type Groth16VerificationKey,
  groth16VerificationKeyBcs,
  NETWORK_GROTH16_VERIFICATION_KEY
} from "./groth16VerificationKey.js"
export type { GenesisParams, ValidatorConfiguration } from "./GenesisParams.js"
export { genesisParamsOf } from "./genesisParamsOf.js"
export {
  type LocalGenesisOptions,
  type LocalValidator,
  localGenesisParams,
  localValidator
} from "./localGenesisParams.js"
export {
  deriveValidatorConsensusKey,
  POP_DST,
  type ValidatorConsensusKey,
  validatorConsensusKey,
  ZERO_SEED_CONSENSUS_KEY
} from "./validatorKey.js"
