import { equalBytes } from "../../bcs/index.js"
import { MoveVm } from "../../move/vm/MoveVm.js"
import { bytesOf, chargeParam } from "../../move/vm/natives/helpers.js"
import { frameworkNatives } from "../../move/vm/natives/index.js"
import type { NativeFunction } from "../../move/vm/natives/NativeContext.js"
import { type ValidatorConsensusKey, ZERO_SEED_CONSENSUS_KEY } from "./validatorKey.js"

const POP = "0x1::bls12381::verify_proof_of_possession_internal"

/**
 * A `MoveVm` for building a genesis in which `bls12381::verify_proof_of_possession_internal`
 * answers true at once for the given (public key, proof of possession) pairs, byte for byte, and
 * verifies every other pair as usual; the charges are the native's (genesis runs unmetered anyway). A pairing
 * check costs 40–300 ms (a cold process pays the most), and `stake::initialize_validator` makes one
 * per validator; pairs passed here must be known to verify (the local validator's constant key is,
 * by test/execution/genesis/validatorKey.test.ts).
 */
export const genesisVm = (verified: ReadonlyArray<Omit<ValidatorConsensusKey, "secretKey">>): MoveVm => {
  const check = frameworkNatives.get(POP)
  if (check === undefined || verified.length === 0) return new MoveVm()
  const pop: NativeFunction = (ctx, tyArgs, args) => {
    const [pk, proof] = [bytesOf(args[0]!), bytesOf(args[1]!)]
    if (!verified.some((v) => equalBytes(v.publicKey, pk) && equalBytes(v.proofOfPossession, proof)))
      return check(ctx, tyArgs, args)
    for (const k of ["base", "per_pubkey_deserialize", "per_sig_deserialize", "per_pop_verify"])
      chargeParam(ctx, `aptos_framework.bls12381.${k}`)
    return [true]
  }
  return new MoveVm({ natives: new Map(frameworkNatives).set(POP, pop) })
}

/** The VM a local genesis builds with: the local validator's constant key is not verified again. */
export const localGenesisVm = (): MoveVm => genesisVm([ZERO_SEED_CONSENSUS_KEY])
