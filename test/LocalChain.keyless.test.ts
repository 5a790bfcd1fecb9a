/**
 * Keyless on a local chain: its genesis installs the keyless Groth16 verification key (the public
 * networks' key, `NETWORK_GROTH16_VERIFICATION_KEY`) next to the keyless configuration, as the
 * reference's genesis does on every chain but mainnet. Read back through the API, by the
 * TypeScript SDK's `getKeylessConfig`, and used by the SDK's own signature verification: its keyless
 * test account's proof (tests/unit/helper.ts `keylessTestObject`, made for this key) verifies in a
 * 2-of-4 MultiKey, and a zero proof fails with the SDK's "The proof verification failed" (its
 * verifySignatureAsync e2e test).
 */
import {
  Account,
  Aptos,
  AptosConfig,
  Deserializer,
  Ed25519PrivateKey,
  Hex,
  MultiKey,
  MultiKeyAccount,
  Network,
  SigningSchemeInput,
  ZkpVariant
} from "@aptos-labs/ts-sdk"
import {
  EphemeralKeyPair,
  Groth16Zkp,
  getKeylessConfig,
  KeylessAccount,
  ZeroKnowledgeSig,
  ZkProof
} from "@aptos-labs/ts-sdk/keyless"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { toHex0x } from "../src/bcs/index.js"
import { NETWORK_GROTH16_VERIFICATION_KEY as VK } from "../src/execution/genesis/index.js"
import { LocalChain, type LocalChainInfo } from "../src/LocalChain.js"

const withChain = async <A>(f: (aptos: Aptos, chain: LocalChainInfo) => Promise<A>): Promise<A> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(LocalChain.spawn({ accounts: 0 }), (chain) =>
        Effect.promise(() =>
          f(
            new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.apiUrl, faucet: chain.faucetUrl })),
            chain
          )
        )
      )
    )
  )

// The SDK's keyless test vectors (tests/unit/helper.ts at the mirrored commit).
const EPHEMERAL_KEY_PAIR = new EphemeralKeyPair({
  privateKey: new Ed25519PrivateKey("ed25519-priv-0x1111111111111111111111111111111111111111111111111111111111111111"),
  expiryDateSecs: 9876543210,
  blinder: new Uint8Array(31)
})
const JWT =
  "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InRlc3QtcnNhIn0.eyJpc3MiOiJ0ZXN0Lm9pZGMucHJvdmlkZXIiLCJhdWQiOiJ0ZXN0LWtleWxlc3MtZGFwcCIsInN1YiI6InRlc3QtdXNlci0wIiwiZW1haWwiOiJ0ZXN0QGFwdG9zbGFicy5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwiaWF0Ijo5ODc2NTQzMjA5LCJleHAiOjk4NzY1NDMyMTAsIm5vbmNlIjoiMTk2NDM2OTg4NjEyNjU1Njc4MDQ5MDk5MTMxMzA1MDcyNDc4MTQ1MjY5MTM1NzAyMjgzMTY0MTczNzc5NjUxMDU2ODE3OTYxNzMwOTgifQ.C6QG9WyEIAqYEiLkY8-5yqTKYtCzmnu2RM4P7iqr17toRXhL2ZqCiQYgE2TpY60RlOqBI7_aiHOlxJRvF_iQghEQQSWkgWhkcjVkSvBJW0IHm0IrSRl9ZytQHi6x0vPa8bUff5L--9JfxMiH27wOTrGtTA1n8Fz3G8JKQfYNQF2VawzytJu3lywduRj6pZw9-FFTgPqPsZWQvwhiX75Tgud976CpDusKOrPAM3rA9fXgKo_aTKeOPiEIm11ezI1bsOJ3B4JhsxLT5vszZ11Ywytst8XXwqWHjnulkJWjM9QfVUJhsO-jEQ5T_dYDqMVnnkdzjJyMRbvgbyNPUkvx8Q"
const PEPPER = "0x772714089792b0bc8c621843bd88599627c74564c47cb4dc7bc0196914a56c"
const PROOF =
  "0x00ac1c3add4fa703c66a940e9e947a71bcdb8f30258e72460c01f63d6236d9b2a835188c3ac199bea3905270b9660ddafacbf4f9addb93a3e235e9703ca72c40258362273f596f93594499527ca4802ef40cf0166ba3bd2d65d1a7f50562060127dcdcd995f9ae5e193582cce456f3ddfe8c0c935719ad8636a8e777369279d5a480969800000000000000010040d6433ea43090d25fc4f4a15c362a98a5343dcf4e29e3854f3b74d0d99a0b43abd9955c55a7d20f47372a5802a0e26cc4f860969109d48c9e989dab8287c41501"

const keyless = (proof: ZeroKnowledgeSig) =>
  KeylessAccount.create({ jwt: JWT, pepper: PEPPER, ephemeralKeyPair: EPHEMERAL_KEY_PAIR, proof })

describe("keyless on a local chain", () => {
  it("the genesis holds the Groth16 verification key; the SDK verifies keyless signatures with it", async () => {
    await withChain(async (aptos, chain) => {
      const res = await fetch(`${chain.apiUrl}/accounts/0x1/resource/0x1::keyless_account::Groth16VerificationKey`)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({
        type: "0x1::keyless_account::Groth16VerificationKey",
        data: {
          alpha_g1: toHex0x(VK.alphaG1),
          beta_g2: toHex0x(VK.betaG2),
          gamma_g2: toHex0x(VK.gammaG2),
          delta_g2: toHex0x(VK.deltaG2),
          gamma_abc_g1: VK.gammaAbcG1.map(toHex0x)
        }
      })

      const config = await getKeylessConfig({ aptosConfig: aptos.config })
      expect(config.verificationKey.alphaG1.toString()).toBe(toHex0x(VK.alphaG1))
      expect(config.verificationKey.deltaG2.toString()).toBe(toHex0x(VK.deltaG2))

      const ed = Account.generate({ scheme: SigningSchemeInput.Ed25519, legacy: false })
      const legacy = Account.generate()
      const secp = Account.generate({ scheme: SigningSchemeInput.Secp256k1Ecdsa })
      const good = keyless(ZeroKnowledgeSig.deserialize(new Deserializer(Hex.fromHexInput(PROOF).toUint8Array())))
      const multiKey = new MultiKey({
        publicKeys: [ed.publicKey, legacy.publicKey, secp.publicKey, good.publicKey],
        signaturesRequired: 2
      })
      const message = "test message"
      const valid = new MultiKeyAccount({ multiKey, signers: [secp, good] })
      expect(
        await valid.verifySignatureAsync({
          aptosConfig: aptos.config,
          message,
          signature: valid.sign(message),
          options: { throwErrorWithReason: true }
        })
      ).toBe(true)

      const zero = keyless(
        new ZeroKnowledgeSig({
          proof: new ZkProof(
            new Groth16Zkp({ a: new Uint8Array(32), b: new Uint8Array(64), c: new Uint8Array(32) }),
            ZkpVariant.Groth16
          ),
          expHorizonSecs: 0
        })
      )
      const invalid = new MultiKeyAccount({ multiKey, signers: [secp, zero] })
      await expect(
        invalid.verifySignatureAsync({
          aptosConfig: aptos.config,
          message,
          signature: invalid.sign(message),
          options: { throwErrorWithReason: true }
        })
      ).rejects.toThrow(/The proof verification failed/)
    })
  })
})
