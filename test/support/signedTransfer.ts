/**
 * A signed APT transfer (`0x1::aptos_account::transfer`) as the API takes it in BCS: what the tests
 * that drive a real chain over HTTP submit. Signed with noble's Ed25519 (slow: sign before a timed
 * or flooding loop).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { Bcs } from "../../src/bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../../src/domain/AccountAddress.js"
import { signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { signingMessage } from "../../src/domain/signingMessage.js"
import type { RawTransaction } from "../../src/domain/Transaction.js"

export interface Signer {
  readonly address: AccountAddress
  readonly privateKey: Uint8Array
}

export interface TransferOptions {
  readonly amount?: bigint
  readonly maxGasAmount?: bigint
  readonly gasUnitPrice?: bigint
  /** Seconds since the epoch; ten minutes from now unless given. */
  readonly expirationTimestampSecs?: bigint
  /** The local chain's (4) unless given. */
  readonly chainId?: number
}

/** The raw transfer of `amount` (1 octa unless given) from `from` to `to`. */
export const rawTransfer = (
  from: AccountAddress,
  to: AccountAddress,
  sequenceNumber: bigint,
  options: TransferOptions = {}
): RawTransaction => ({
  sender: from,
  sequenceNumber,
  payload: {
    _tag: "EntryFunction",
    entryFunction: {
      module: { address: addressFromNumber(1), name: "aptos_account" },
      function: "transfer",
      typeArgs: [],
      args: [to, Bcs.encode(Bcs.u64, options.amount ?? 1n)]
    }
  },
  maxGasAmount: options.maxGasAmount ?? 20_000n,
  gasUnitPrice: options.gasUnitPrice ?? 100n,
  expirationTimestampSecs: options.expirationTimestampSecs ?? BigInt(Math.floor(Date.now() / 1000) + 600),
  chainId: options.chainId ?? 4
})

/** `raw` signed by `signer`, as BCS(SignedTransaction). */
export const signTransaction = (raw: RawTransaction, signer: Signer): Uint8Array =>
  Bcs.encode(signedTransactionCodec, {
    rawTransaction: raw,
    authenticator: {
      _tag: "Ed25519",
      publicKey: ed25519.getPublicKey(signer.privateKey),
      signature: ed25519.sign(signingMessage(raw), signer.privateKey)
    }
  })

/** A transfer from `from` to `to`, signed, as BCS(SignedTransaction). */
export const signedTransfer = (
  from: Signer,
  to: AccountAddress,
  sequenceNumber: bigint,
  options: TransferOptions = {}
): Uint8Array => signTransaction(rawTransfer(from.address, to, sequenceNumber, options), from)
