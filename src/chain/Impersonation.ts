/**
 * Impersonation (anvil's `anvil_impersonateAccount`; devchain.md §2.3, design 1): a transaction
 * from an impersonated account needs no key. The client sends it with no key at all — every
 * signer's authenticator `NoAccountAuthenticator` (`SingleSender(NoAccountAuthenticator)` for one
 * signer: what the TypeScript SDK builds for a key-less simulation) — and the chain validates and
 * executes it as the simulate endpoint does (no signature check; the prologue skips the
 * authentication-key check for a key-less signer), then commits it like any other, gas charged.
 * A transaction that carries any real signature is checked as always, impersonated or not.
 *
 * One set per chain (`LocalChain` provides a fresh one); the default (a chain assembled without
 * it) impersonates nobody.
 */
import * as Context from "effect/Context"
import { type AccountAddress, addressToLongString } from "../domain/AccountAddress.js"
import type { SignedTransaction } from "../domain/Transaction.js"
import type { AccountAuthenticator } from "../domain/TransactionAuthenticator.js"

export interface ImpersonationService {
  readonly start: (address: AccountAddress) => void
  readonly stop: (address: AccountAddress) => void
  /** Every account impersonated (anvil's `--auto-impersonate`) or only those started. */
  readonly setAuto: (enabled: boolean) => void
  readonly isImpersonated: (address: AccountAddress) => boolean
}

export const makeImpersonation = (): ImpersonationService => {
  const accounts = new Set<string>()
  let auto = false
  return {
    start: (a) => void accounts.add(addressToLongString(a)),
    stop: (a) => void accounts.delete(addressToLongString(a)),
    setAuto: (enabled) => {
      auto = enabled
    },
    isImpersonated: (a) => auto || accounts.has(addressToLongString(a))
  }
}

const NOBODY: ImpersonationService = {
  start: () => {},
  stop: () => {},
  setAuto: () => {},
  isImpersonated: () => false
}

export const Impersonation = Context.Reference<ImpersonationService>("movenode/chain/Impersonation", {
  defaultValue: () => NOBODY
})

const keyless = (a: AccountAuthenticator) => a._tag === "NoAccountAuthenticator"

/**
 * Whether `txn` is an impersonated one: every signer key-less and impersonated (the sender,
 * secondary signers, a fee payer).
 */
export const isImpersonatedTransaction = (impersonation: ImpersonationService, txn: SignedTransaction): boolean => {
  const a = txn.authenticator
  const sender = txn.rawTransaction.sender
  const signers: Array<readonly [AccountAddress, AccountAuthenticator]> = []
  switch (a._tag) {
    case "SingleSender":
      signers.push([sender, a.sender])
      break
    case "MultiAgent":
      signers.push([sender, a.sender])
      for (const [i, addr] of a.secondarySignerAddresses.entries()) signers.push([addr, a.secondarySigners[i]!])
      break
    case "FeePayer":
      signers.push([sender, a.sender])
      for (const [i, addr] of a.secondarySignerAddresses.entries()) signers.push([addr, a.secondarySigners[i]!])
      signers.push([a.feePayerAddress, a.feePayerSigner])
      break
    default:
      return false
  }
  return signers.every(([addr, auth]) => auth !== undefined && keyless(auth) && impersonation.isImpersonated(addr))
}
