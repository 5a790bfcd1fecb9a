/**
 * The local validator's consensus key is written out as constants (deriving it costs a fresh process
 * 100–350 ms): they must be what the derivation gives, and a proof of possession the VM's own
 * BLS12-381 native accepts. The genesis VM skips the pairing only for the pairs it is given, byte
 * for byte, and charges what the native charges.
 */
import { describe, expect, it } from "vitest"
import { BcsWriter, toHex } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import {
  deriveValidatorConsensusKey,
  genesisVm,
  localGenesisVm,
  localValidator,
  validatorConsensusKey,
  ZERO_SEED_CONSENSUS_KEY
} from "../../../src/execution/genesis/index.js"
import { type CallOutcome, MoveVm } from "../../../src/move/vm/MoveVm.js"
import { blsKeyWithPop } from "../../../src/move/vm/natives/bls12381.js"
import { genesisState } from "../../move/vm/genesisState.js"

const { view } = genesisState("devnet")
const vecBytes = (b: Uint8Array) => new BcsWriter().bytesWithLength(b).toBytes()
const popCheck = (vm: MoveVm, pk: Uint8Array, pop: Uint8Array): CallOutcome =>
  vm.call(
    view,
    {
      module: { address: addressFromNumber(1), name: "bls12381" },
      function: "verify_proof_of_possession_internal",
      tyArgs: [],
      args: [vecBytes(pk), vecBytes(pop)]
    },
    { maxGas: 2_000_000n }
  )
const verdict = (o: CallOutcome) => (o._tag === "Success" ? { ok: o.values[0]![0] === 1, gas: o.gasUsed } : o._tag)
const Z = ZERO_SEED_CONSENSUS_KEY

describe("the local validator's constant consensus key", () => {
  it("is the derivation of the all-zero seed", () => {
    const derived = deriveValidatorConsensusKey(new Uint8Array(32))
    expect(toHex(Z.secretKey)).toBe(toHex(derived.secretKey))
    expect(toHex(Z.publicKey)).toBe(toHex(derived.publicKey))
    expect(toHex(Z.proofOfPossession)).toBe(toHex(derived.proofOfPossession))
    expect(localValidator().consensusKey).toBe(Z)
  })

  it("other seeds are derived", () => {
    const seed = new Uint8Array(32).fill(7)
    expect(toHex(validatorConsensusKey(seed).publicKey)).toBe(toHex(deriveValidatorConsensusKey(seed).publicKey))
    expect(validatorConsensusKey(new Uint8Array(31))).not.toBe(Z)
  })

  it("its proof of possession passes the VM's BLS12-381 native (a pairing check)", () => {
    expect(verdict(popCheck(new MoveVm(), Z.publicKey, Z.proofOfPossession))).toMatchObject({ ok: true })
    const tampered = Z.proofOfPossession.slice()
    tampered[95] ^= 1
    expect(verdict(popCheck(new MoveVm(), Z.publicKey, tampered))).not.toMatchObject({ ok: true })
  })
})

describe("genesisVm", () => {
  const vm = localGenesisVm()
  it("accepts the given pair with the native's charges, and checks every other pair", () => {
    const real = verdict(popCheck(new MoveVm(), Z.publicKey, Z.proofOfPossession))
    expect(verdict(popCheck(vm, Z.publicKey, Z.proofOfPossession))).toEqual(real)
    const other = blsKeyWithPop(new Uint8Array(32).fill(3))
    expect(verdict(popCheck(vm, other.publicKey, other.proofOfPossession))).toEqual(real)
    // The constant key with another key's proof, and the other way round: verified, refused.
    expect(verdict(popCheck(vm, Z.publicKey, other.proofOfPossession))).toMatchObject({ ok: false })
    expect(verdict(popCheck(vm, other.publicKey, Z.proofOfPossession))).toMatchObject({ ok: false })
    expect(verdict(popCheck(genesisVm([other]), other.publicKey, Z.proofOfPossession))).toMatchObject({ ok: false })
  })
})
