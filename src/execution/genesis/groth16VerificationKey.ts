import { BcsWriter, fromHex } from "../../bcs/index.js"

/**
 * `0x1::keyless_account::Groth16VerificationKey`: the BN254 Groth16 key keyless signatures' proofs
 * are verified with (arkworks-compressed points: G1 32 bytes, G2 64 bytes).
 */
export interface Groth16VerificationKey {
  readonly alphaG1: Uint8Array
  readonly betaG2: Uint8Array
  readonly gammaG2: Uint8Array
  readonly deltaG2: Uint8Array
  readonly gammaAbcG1: ReadonlyArray<Uint8Array>
}

const hex = (s: string): Uint8Array => fromHex(s) as Uint8Array

/**
 * The keyless circuit's verification key as the public networks hold it (testnet's and devnet's
 * `0x1::keyless_account::Groth16VerificationKey` resource, installed by governance; the same values
 * are the TypeScript SDK's keyless test configuration, against which its test proofs verify).
 * The reference's genesis installs a verification key on every chain but mainnet
 * (`initialize_keyless_accounts`); its local network fetches this one from devnet.
 */
export const NETWORK_GROTH16_VERIFICATION_KEY: Groth16VerificationKey = {
  alphaG1: hex("e2f26dbea299f5223b646cb1fb33eadb059d9407559d7441dfd902e3a79a4d2d"),
  betaG2: hex(
    "abb73dc17fbc13021e2471e0c08bd67d8401f52b73d6d07483794cad4778180e" +
      "0c06f33bbc4c79a9cadef253a68084d382f17788f885c9afd176f7cb2f036789"
  ),
  gammaG2: hex(
    "edf692d95cbdde46ddda5ef7d422436779445c5e66006a42761e1f12efde0018" +
      "c212f3aeb785e49712e7a9353349aaf1255dfb31b7bf60723a480d9293938e19"
  ),
  deltaG2: hex(
    "b106619932d0ef372c46909a2492e246d5de739aa140e27f2c71c0470662f125" +
      "219049cfe15e4d140d7e4bb911284aad1cad19880efb86f2d9dd4b1bb344ef8f"
  ),
  gammaAbcG1: [
    hex("6123b6fea40de2a7e3595f9c35210da8a45a7e8c2f7da9eb4548e9210cfea81a"),
    hex("32a9b8347c512483812ee922dc75952842f8f3083edb6fe8d5c3c07e1340b683")
  ]
}

/** BCS of the Move struct (fields in declaration order: alpha, beta, gamma, delta, gamma_abc). */
export const groth16VerificationKeyBcs = (vk: Groth16VerificationKey): Uint8Array => {
  const w = new BcsWriter(512)
    .bytesWithLength(vk.alphaG1)
    .bytesWithLength(vk.betaG2)
    .bytesWithLength(vk.gammaG2)
    .bytesWithLength(vk.deltaG2)
    .uleb128(vk.gammaAbcG1.length)
  for (const p of vk.gammaAbcG1) w.bytesWithLength(p)
  return w.toBytes()
}
