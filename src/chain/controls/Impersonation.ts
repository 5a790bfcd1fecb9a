/**
 * Impersonation (anvil's `anvil_impersonateAccount` / `--auto-impersonate`): a transaction whose
 * signers carry no key (the authenticator the TypeScript SDK builds for key-less simulation:
 * `SingleSender(NoAccountAuthenticator)`, or that variant for each signer of a multi-agent or
 * fee-payer transaction) is accepted for addresses enabled here, through the ordinary
 * `POST /v1/transactions`, and executed as the reference's simulation authenticates it: the
 * prologue skips the authentication-key check for a signer without a key (`is_simulation`), and
 * nothing else changes (gas is charged as usual; a fee payer of 0x0 is refused).
 *
 * Every signer of such a transaction must be key-less and impersonated: a transaction mixing a
 * key-less signer with signed ones is refused (its signatures would go unchecked otherwise).
 * Framework addresses (`0x1`, `0x3`, `0x4`, …) can be impersonated like any other, so
 * governance-only functions can be called on a local chain.
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { type AccountAddress, addressToLongString } from "../../domain/AccountAddress.js"
import type { SignedTransaction } from "../../domain/Transaction.js"
import type { AccountAuthenticator } from "../../domain/TransactionAuthenticator.js"

/** What the chain makes of a transaction's signers. */
export type ImpersonationVerdict =
  | { readonly _tag: "Signed" }
  | { readonly _tag: "Impersonated" }
  | { readonly _tag: "Refused"; readonly message: string }

interface Signer {
  readonly address: AccountAddress
  readonly authenticator: AccountAuthenticator | undefined
}

/** The transaction's signers with their authenticators (undefined: a legacy Ed25519/MultiEd25519 sender). */
export const signersOf = (txn: SignedTransaction): ReadonlyArray<Signer> => {
  const a = txn.authenticator
  const sender = txn.rawTransaction.sender
  switch (a._tag) {
    case "Ed25519":
    case "MultiEd25519":
      return [{ address: sender, authenticator: undefined }]
    case "SingleSender":
      return [{ address: sender, authenticator: a.sender }]
    case "MultiAgent":
      return [
        { address: sender, authenticator: a.sender },
        ...a.secondarySignerAddresses.map((address, i) => ({ address, authenticator: a.secondarySigners[i] }))
      ]
    case "FeePayer":
      return [
        { address: sender, authenticator: a.sender },
        ...a.secondarySignerAddresses.map((address, i) => ({ address, authenticator: a.secondarySigners[i] })),
        { address: a.feePayerAddress, authenticator: a.feePayerSigner }
      ]
  }
}

const keyless = (s: Signer) => s.authenticator?._tag === "NoAccountAuthenticator"

export interface ImpersonationService {
  readonly start: (address: AccountAddress) => void
  readonly stop: (address: AccountAddress) => void
  readonly setAuto: (enabled: boolean) => void
  readonly auto: () => boolean
  /** The addresses enabled one by one (long hex), sorted. */
  readonly addresses: () => ReadonlyArray<string>
  readonly isImpersonated: (address: AccountAddress) => boolean
  readonly verdict: (txn: SignedTransaction) => ImpersonationVerdict
}

export const makeImpersonation = (options: { readonly auto?: boolean } = {}): ImpersonationService => {
  const enabled = new Set<string>()
  let auto = options.auto === true
  const isImpersonated = (address: AccountAddress) => auto || enabled.has(addressToLongString(address))
  return {
    start: (address) => {
      enabled.add(addressToLongString(address))
    },
    stop: (address) => {
      enabled.delete(addressToLongString(address))
    },
    setAuto: (value) => {
      auto = value
    },
    auto: () => auto,
    addresses: () => [...enabled].sort(),
    isImpersonated,
    verdict: (txn) => {
      const signers = signersOf(txn)
      const without = signers.filter(keyless)
      if (without.length === 0) return { _tag: "Signed" }
      if (without.length !== signers.length)
        return {
          _tag: "Refused",
          message:
            "impersonation: every signer of the transaction must be key-less (NoAccountAuthenticator) and impersonated; this one mixes key-less and signed signers"
        }
      for (const s of without) {
        if (s.address.every((b) => b === 0))
          return {
            _tag: "Refused",
            message: "impersonation: 0x0 cannot sign (a fee payer of 0x0 means an unpaid simulation)"
          }
        if (!isImpersonated(s.address))
          return {
            _tag: "Refused",
            message: `impersonation: ${addressToLongString(s.address)} is not impersonated (POST /__movenode/v1/impersonate {"address": …}, or start the chain with --auto-impersonate); a transaction without a signature (a key-less authenticator) is accepted only from impersonated addresses`
          }
      }
      return { _tag: "Impersonated" }
    }
  }
}

/** The chain's impersonation settings, shared by the mempool, the VM and the controls. */
export class Impersonation extends Context.Service<Impersonation, ImpersonationService>()(
  "movenode/chain/Impersonation"
) {
  static readonly layer = (options: { readonly auto?: boolean } = {}) =>
    Layer.sync(Impersonation, () => makeImpersonation(options))
}
