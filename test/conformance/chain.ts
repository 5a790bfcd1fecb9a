/**
 * Builders of real chain content for the ledger conformance tests: Ed25519 accounts (address =
 * the authentication key), signed user transactions (the signature is over the domain's signing
 * message), block metadata and epilogues, and the `CoinStore<AptosCoin>` resource write.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { Bcs } from "../../src/bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../../src/domain/AccountAddress.js"
import { signingMessage } from "../../src/domain/signingMessage.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import type { EntryFunction, RawTransaction, Transaction } from "../../src/domain/Transaction.js"
import type { StructTag } from "../../src/domain/TypeTag.js"
import type { WriteSetEntry } from "../../src/domain/WriteSet.js"
import type { BlockToCommit, TransactionToCommit } from "../../src/ledger/Ledger.js"

export const CHAIN_ID = 243
const ONE = addressFromNumber(1)

export interface Account {
  readonly privateKey: Uint8Array
  readonly publicKey: Uint8Array
  readonly address: AccountAddress
}

/** An Ed25519 account from a seed byte; its address is sha3_256(public key ‖ 0x00). */
export const account = (seed: number): Account => {
  const privateKey = new Uint8Array(32).fill(seed)
  const publicKey = ed25519.getPublicKey(privateKey)
  return { privateKey, publicKey, address: sha3_256(Uint8Array.from([...publicKey, 0])) }
}

const transfer = (to: AccountAddress, amount: bigint): EntryFunction => ({
  module: { address: ONE, name: "aptos_account" },
  function: "transfer",
  typeArgs: [],
  args: [to, Bcs.encode(Bcs.u64, amount)]
})

/** `0x1::aptos_account::transfer`, by sequence number or (orderless) by nonce, signed by `from`. */
export const signedTransfer = (
  from: Account,
  replay: { readonly sequenceNumber: bigint } | { readonly nonce: bigint },
  gasUnitPrice: bigint
): Transaction => {
  const entryFunction = transfer(addressFromNumber(0xb0b), 1n)
  const raw: RawTransaction = {
    sender: from.address,
    sequenceNumber: "nonce" in replay ? 0xffffffffffffffffn : replay.sequenceNumber,
    payload:
      "nonce" in replay
        ? {
            _tag: "PayloadV1",
            executable: { _tag: "EntryFunction", entryFunction },
            extraConfig: { multisigAddress: undefined, replayProtectionNonce: replay.nonce }
          }
        : { _tag: "EntryFunction", entryFunction },
    maxGasAmount: 2_000n,
    gasUnitPrice,
    expirationTimestampSecs: 1_900_000_000n,
    chainId: CHAIN_ID
  }
  const signature = ed25519.sign(signingMessage(raw), from.privateKey)
  return {
    _tag: "UserTransaction",
    signed: { rawTransaction: raw, authenticator: { _tag: "Ed25519", publicKey: from.publicKey, signature } }
  }
}

export const committed = (
  transaction: Transaction,
  writes: ReadonlyArray<WriteSetEntry> = []
): TransactionToCommit => ({
  transaction,
  writeSet: { entries: writes },
  events: [],
  outcome: { gasUsed: 7n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }
})

/** A block as consensus makes it: metadata, the user transactions, an epilogue. */
export const block = (epoch: bigint, round: bigint, users: ReadonlyArray<TransactionToCommit>): BlockToCommit => {
  const timestampUsec = 1_000_000n * (round + 1n)
  const metadata: Transaction = {
    _tag: "BlockMetadata",
    metadata: {
      id: new Uint8Array(32).fill(Number(round % 251n)),
      epoch,
      round,
      proposer: addressFromNumber(0x5eed),
      previousBlockVotesBitvec: new Uint8Array(0),
      failedProposerIndices: [],
      timestampUsecs: timestampUsec
    }
  }
  const epilogue: Transaction = {
    _tag: "BlockEpilogue",
    blockId: new Uint8Array(32).fill(Number(round % 251n)),
    blockEndInfo: {
      blockGasLimitReached: false,
      blockOutputLimitReached: false,
      blockEffectiveBlockGasUnits: 100n,
      blockApproxOutputSize: 1000n
    }
  }
  return { epoch, timestampUsec, transactions: [committed(metadata), ...users, committed(epilogue)] }
}

const APTOS_COIN: StructTag = { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
const COIN_STORE: StructTag = {
  address: ONE,
  module: "coin",
  name: "CoinStore",
  typeArgs: [{ _tag: "struct", struct: APTOS_COIN }]
}

const eventHandle = (owner: AccountAddress, creationNum: bigint): Array<number> => [
  ...Bcs.encode(Bcs.u64, 0n),
  ...Bcs.encode(Bcs.u64, creationNum),
  ...owner
]

/** `CoinStore<AptosCoin> { coin: { value }, frozen: false, deposit_events, withdraw_events }` at `owner`. */
export const coinStoreWrite = (owner: AccountAddress, value: bigint): WriteSetEntry => {
  const key = { _tag: "AccessPath", address: owner, path: { _tag: "Resource", struct: COIN_STORE } } as const
  const data = Uint8Array.from([...Bcs.encode(Bcs.u64, value), 0, ...eventHandle(owner, 2n), ...eventHandle(owner, 3n)])
  return { key, keyBytes: Bcs.encode(stateKeyCodec, key), op: { _tag: "Modification", data } }
}
