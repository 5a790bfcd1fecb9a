/**
 * Account abstraction's Move authentication (the reference's `dispatchable_authenticate` in
 * `AptosVM::validate_signed_transaction`): every signer whose authenticator is `Abstraction` — the
 * fee payer first, then the sender and the secondary signers in order — is authenticated by
 * `0x1::account_abstraction::authenticate(account, function_info, auth_data)` in the prologue
 * session, which checks that the function is registered for the account (or, for derivable
 * abstraction, registered at genesis and matching the derived address) and dispatches to it. The
 * signature check before this only compared the `AASigningData` digest
 * (`signatures/accountAuthenticator.ts`).
 *
 * Gas: with either abstraction flag on, the reference starts the transaction's meter at
 * min(`txn.max_aa_gas`, max gas) for validation and tops it up to max gas afterwards, so what the
 * authentication functions use is part of the transaction's execution and IO gas, bounded by
 * `max_aa_gas` while they run. Here they run on such a meter of their own, which the executor
 * folds into the transaction's meter (`TransactionMeter.absorb`). Running out of it is
 * ACCOUNT_AUTHENTICATION_GAS_LIMIT_EXCEEDED; an abstraction whose flag is off (V1 needs
 * ACCOUNT_ABSTRACTION, DerivableV1 DERIVABLE_ACCOUNT_ABSTRACTION) is FEATURE_UNDER_GATING; any
 * other failure (an abort of the function, an unregistered function) is that failure's status. All
 * of them discard the transaction.
 *
 * The authentication function returns a signer; the framework asserts it is the account's own
 * address. This VM has no permissioned signers, so the signer the payload runs with is the plain
 * signer of that address, as for any other authenticator.
 */
import { BcsWriter } from "../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../domain/AccountAddress.js"
import type { AbstractionAuthData, AccountAuthenticator, FunctionInfo } from "../domain/TransactionAuthenticator.js"
import type { GasMeter } from "../move/vm/GasMeter.js"
import { meterFor } from "../move/vm/GasSchedule.js"
import type { VmSession } from "../move/vm/VmSession.js"
import type { TransactionRun } from "./TransactionRun.js"
import { vmStatusOf } from "./vmStatusOf.js"
import { type VmStatus, vmError } from "./VmStatus.js"

const ACCOUNT_ABSTRACTION = { address: addressFromNumber(1), name: "account_abstraction" }

type Abstraction = Extract<AccountAuthenticator, { _tag: "Abstraction" }>

/** BCS of `0x1::function_info::FunctionInfo`. */
const functionInfoBcs = (f: FunctionInfo): Uint8Array =>
  new BcsWriter(96).fixed(f.moduleAddress).string(f.moduleName).string(f.functionName).toBytes()

/** BCS of `0x1::auth_data::AbstractionAuthData` (enum V1 | DerivableV1, fields as the Rust type's). */
const authDataBcs = (d: AbstractionAuthData): Uint8Array => {
  const w = new BcsWriter(128)
  if (d._tag === "V1") w.uleb128(0).bytesWithLength(d.signingMessageDigest).bytesWithLength(d.authenticator)
  else
    w.uleb128(1)
      .bytesWithLength(d.signingMessageDigest)
      .bytesWithLength(d.abstractSignature)
      .bytesWithLength(d.abstractPublicKey)
  return w.toBytes()
}

/** The signers the reference authenticates, in its order: fee payer, then sender and secondaries. */
const abstractionSigners = (run: TransactionRun): Array<{ address: AccountAddress; authenticator: Abstraction }> => {
  const s = run.md.signers
  const all: Array<{ address: AccountAddress; authenticator: AccountAuthenticator }> = []
  if (s.feePayer !== undefined) all.push(s.feePayer)
  all.push(s.sender)
  // Paired as far as both lists go; a length mismatch is the prologue's to refuse (abort 1009).
  const n = Math.min(s.secondarySignerAddresses.length, s.secondarySigners.length)
  for (let i = 0; i < n; i++)
    all.push({ address: s.secondarySignerAddresses[i]!, authenticator: s.secondarySigners[i]!.authenticator })
  return all.filter(
    (x): x is { address: AccountAddress; authenticator: Abstraction } => x.authenticator._tag === "Abstraction"
  )
}

export type AuthenticationOutcome =
  | {
      readonly _tag: "Ok"
      /** The meter the authentication functions ran on; undefined when none ran. */
      readonly gas: GasMeter | undefined
    }
  | { readonly _tag: "Discard"; readonly vmStatus: VmStatus }

/** Runs each Abstraction signer's authentication in `session` (the prologue's). */
export const authenticateAbstraction = (run: TransactionRun, session: VmSession): AuthenticationOutcome => {
  const signers = abstractionSigners(run)
  if (signers.length === 0) return { _tag: "Ok", gas: undefined }
  let budget = run.md.maxGasAmount
  if (run.params.maxAaGas < budget) budget = run.params.maxAaGas
  const gas = meterFor(run.schedule, budget, { caps: true })
  for (const { address, authenticator } of signers) {
    const flag = authenticator.authData._tag === "V1" ? "ACCOUNT_ABSTRACTION" : "DERIVABLE_ACCOUNT_ABSTRACTION"
    if (!run.features.isEnabled(flag)) return { _tag: "Discard", vmStatus: vmError("FEATURE_UNDER_GATING") }
    const outcome = session.execute(
      {
        module: ACCOUNT_ABSTRACTION,
        function: "authenticate",
        tyArgs: [],
        signers: [address],
        args: [functionInfoBcs(authenticator.functionInfo), authDataBcs(authenticator.authData)]
      },
      { mode: "system", gas }
    )
    if (outcome._tag !== "Success") {
      if (outcome._tag === "Error" && outcome.error.status === "OUT_OF_GAS")
        return {
          _tag: "Discard",
          vmStatus: vmError("ACCOUNT_AUTHENTICATION_GAS_LIMIT_EXCEEDED", outcome.error.detail)
        }
      return { _tag: "Discard", vmStatus: vmStatusOf(outcome) }
    }
  }
  return { _tag: "Ok", gas }
}
