/**
 * What the executor needs to know of a signed transaction, computed once (the reference's
 * `TransactionMetadata`, aptos-vm `transaction_metadata.rs`): its signers and their
 * authentication keys, replay protector, gas terms, size, script hash, and the payload split into
 * what runs (entry function, script, or nothing) and whether it goes through a multisig account.
 */
import { type BcsWriter, withScratchWriter } from "../bcs/index.js"
import type { AccountAddress } from "../domain/AccountAddress.js"
import { sha3 } from "../domain/hash.js"
import { writeRawTransaction } from "../domain/PayloadCodec.js"
import { replayProtectorOf } from "../domain/ReplayProtector.js"
import type { EntryFunction, ReplayProtector, Script, SignedTransaction } from "../domain/Transaction.js"
import { type TransactionSigners, transactionSigners } from "./signatures/transactionSigners.js"

/** What the payload runs: the reference's `TransactionExecutable`. */
export type Executable =
  | { readonly _tag: "EntryFunction"; readonly entryFunction: EntryFunction }
  | { readonly _tag: "Script"; readonly script: Script }
  | { readonly _tag: "Empty" }

export interface TransactionMetadata {
  readonly txn: SignedTransaction
  readonly sender: AccountAddress
  readonly signers: TransactionSigners
  readonly replayProtector: ReplayProtector
  readonly isOrderless: boolean
  readonly maxGasAmount: bigint
  readonly gasUnitPrice: bigint
  readonly expirationTimestampSecs: bigint
  readonly chainId: number
  /** BCS length of the RawTransaction (the size the reference prices and bounds). */
  readonly transactionSize: bigint
  /** sha3-256 of a script payload's code; empty otherwise. */
  readonly scriptHash: Uint8Array
  readonly executable: Executable
  /** Set for a multisig payload (legacy Multisig, or payload V1 with a multisig address). */
  readonly multisigAddress: AccountAddress | undefined
  /** Any signer uses a keyless key (costs `txn.keyless.base`). */
  readonly isKeyless: boolean
}

const EMPTY = new Uint8Array(0)

/** The raw transaction's BCS size, encoded into a reused writer (nothing copied out). */
const rawSize = (txn: SignedTransaction): bigint => BigInt(withScratchWriter(rawLength, txn.rawTransaction))
const rawLength = (w: BcsWriter, raw: SignedTransaction["rawTransaction"]): number => {
  writeRawTransaction(w, raw)
  return w.length
}

const executableOf = (txn: SignedTransaction): { executable: Executable; multisig: AccountAddress | undefined } => {
  const p = txn.rawTransaction.payload
  switch (p._tag) {
    case "EntryFunction":
      return { executable: { _tag: "EntryFunction", entryFunction: p.entryFunction }, multisig: undefined }
    case "Script":
      return { executable: { _tag: "Script", script: p.script }, multisig: undefined }
    case "Multisig":
      return {
        executable:
          p.entryFunction === undefined ? { _tag: "Empty" } : { _tag: "EntryFunction", entryFunction: p.entryFunction },
        multisig: p.multisigAddress
      }
    case "PayloadV1":
      return { executable: p.executable, multisig: p.extraConfig.multisigAddress }
  }
}

const keyless = (signers: TransactionSigners): boolean => {
  const all = [
    signers.sender,
    ...signers.secondarySigners,
    ...(signers.feePayer === undefined ? [] : [signers.feePayer])
  ]
  for (const s of all) {
    const a = s.authenticator
    if (a._tag === "SingleKey" && (a.publicKey._tag === "Keyless" || a.publicKey._tag === "FederatedKeyless"))
      return true
    if (a._tag === "MultiKey" && a.publicKeys.some((k) => k._tag === "Keyless" || k._tag === "FederatedKeyless"))
      return true
  }
  return false
}

/**
 * `knownSigners`: the transaction's signers when the caller has them already (a signature check
 * made of the same bytes, `ExecuteOptions.signatureCheck`); else found here.
 */
export const transactionMetadata = (txn: SignedTransaction, knownSigners?: TransactionSigners): TransactionMetadata => {
  const raw = txn.rawTransaction
  const signers = knownSigners ?? transactionSigners(txn)
  const replayProtector = replayProtectorOf(raw)
  const { executable, multisig } = executableOf(txn)
  return {
    txn,
    sender: raw.sender,
    signers,
    replayProtector,
    isOrderless: replayProtector._tag === "Nonce",
    maxGasAmount: raw.maxGasAmount,
    gasUnitPrice: raw.gasUnitPrice,
    expirationTimestampSecs: raw.expirationTimestampSecs,
    chainId: raw.chainId,
    transactionSize: rawSize(txn),
    scriptHash: executable._tag === "Script" ? sha3(executable.script.code) : EMPTY,
    executable,
    multisigAddress: multisig,
    isKeyless: keyless(signers)
  }
}
