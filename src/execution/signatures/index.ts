/**
 * Transaction signature verification, one file per authenticator kind, and what the prologue
 * needs from the signers. Entry point: `../verifySignature.ts`. Each `verify*` returns undefined
 * when the signature is valid, else the reason it is not (never throws).
 *
 * - `SigningSubject`: what a signer signs (hasher type name + signing message).
 * - `ed25519`, `multiEd25519`, `secp256k1Ecdsa`, `secp256r1Ecdsa`, `webAuthn`, `keyless`, `slhDsa`:
 *   the schemes; `anySignature` (SingleKey), `multiKey`, `accountAuthenticator` combine them.
 * - `authKey`: authentication keys and `optionalAuthKey` (§8.2 of local-chain.md).
 * - `transactionSigners`: sender / secondaries / fee payer with their auth keys (PrologueArgs).
 * - `features`, `keylessAuthenticators`: the feature-flag gates around the check, and the keyless
 *   stage's status (keyless validation itself is not implemented).
 */
export * from "./accountAuthenticator.js"
export * from "./anySignature.js"
export * from "./authKey.js"
export * from "./ed25519.js"
export * from "./features.js"
export * from "./keyless.js"
export * from "./keylessAuthenticators.js"
export * from "./multiEd25519.js"
export * from "./multiKey.js"
export * from "./secp256k1Ecdsa.js"
export * from "./secp256r1Ecdsa.js"
export * from "./SigningSubject.js"
export * from "./slhDsa.js"
export * from "./transactionSigners.js"
export * from "./webAuthn.js"
