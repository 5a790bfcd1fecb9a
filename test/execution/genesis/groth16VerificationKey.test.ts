/**
 * The keyless verification key a local genesis installs: its BCS is the Move struct's (four byte
 * vectors, then the vector of G1 points), and `localGenesisParams` installs it on every chain id
 * but mainnet's unless told otherwise. That the key is the right one is shown by the SDK verifying
 * its keyless test proof against the chain (test/LocalChain.keyless.test.ts).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { describe, expect, it } from "vitest"
import { BcsReader, toHex } from "../../../src/bcs/index.js"
import {
  genesisParamsOf,
  groth16VerificationKeyBcs,
  localGenesisParams,
  NETWORK_GROTH16_VERIFICATION_KEY as VK
} from "../../../src/execution/genesis/index.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { genesisState } from "../../move/vm/genesisState.js"

const devnet = genesisParamsOf(new MoveVm(), genesisState("devnet").view)
const local = (options: Partial<Parameters<typeof localGenesisParams>[1]>) =>
  localGenesisParams(devnet, { rootPublicKey: ed25519.getPublicKey(new Uint8Array(32).fill(9)), ...options })

describe("groth16VerificationKey", () => {
  it("BCS: alpha (32), beta, gamma, delta (64 each), gamma_abc (2 × 32)", () => {
    const r = new BcsReader(groth16VerificationKeyBcs(VK))
    expect([r.bytesWithLength(), r.bytesWithLength(), r.bytesWithLength(), r.bytesWithLength()].map(toHex)).toEqual(
      [VK.alphaG1, VK.betaG2, VK.gammaG2, VK.deltaG2].map(toHex)
    )
    expect([VK.alphaG1, VK.betaG2, VK.gammaG2, VK.deltaG2].map((b) => b.length)).toEqual([32, 64, 64, 64])
    const n = r.uleb128()
    expect(Array.from({ length: n }, () => toHex(r.bytesWithLength()))).toEqual(VK.gammaAbcG1.map(toHex))
    expect(r.remaining).toBe(0)
  })

  it("devnet's genesis has none; a local genesis has it except on mainnet's chain id or when told not to", () => {
    expect(devnet.groth16VerificationKey).toBeUndefined()
    expect(toHex(local({}).groth16VerificationKey!)).toBe(toHex(groth16VerificationKeyBcs(VK)))
    expect(local({ chainId: 1 }).groth16VerificationKey).toBeUndefined()
    expect(local({ groth16VerificationKey: null }).groth16VerificationKey).toBeUndefined()
    const other = { ...VK, gammaAbcG1: [VK.alphaG1] }
    expect(toHex(local({ chainId: 1, groth16VerificationKey: other }).groth16VerificationKey!)).toBe(
      toHex(groth16VerificationKeyBcs(other))
    )
  })
})
