import type { AccountAddress } from "./AccountAddress.js"
import type { ContractEvent } from "./ContractEvent.js"
import type { ModuleId, TypeTag } from "./TypeTag.js"
import type { WriteSet } from "./WriteSet.js"

/** `EntryFunction`: module, function, type arguments, BCS-encoded arguments. */
export interface EntryFunction {
  readonly module: ModuleId
  readonly function: string
  readonly typeArgs: ReadonlyArray<TypeTag>
  readonly args: ReadonlyArray<Uint8Array>
}

/** Script arguments (`TransactionArgument`): enum 0 u8, 1 u64, 2 u128, 3 address, 4 vector<u8>, 5 bool, 6 u16, 7 u32, 8 u256, 9 serialized. */
export type TransactionArgument =
  | { readonly _tag: "U8"; readonly value: number }
  | { readonly _tag: "U64"; readonly value: bigint }
  | { readonly _tag: "U128"; readonly value: bigint }
  | { readonly _tag: "Address"; readonly value: AccountAddress }
  | { readonly _tag: "U8Vector"; readonly value: Uint8Array }
  | { readonly _tag: "Bool"; readonly value: boolean }
  | { readonly _tag: "U16"; readonly value: number }
  | { readonly _tag: "U32"; readonly value: number }
  | { readonly _tag: "U256"; readonly value: bigint }
  | { readonly _tag: "Serialized"; readonly value: Uint8Array }

export interface Script {
  readonly code: Uint8Array
  readonly typeArgs: ReadonlyArray<TypeTag>
  readonly args: ReadonlyArray<TransactionArgument>
}

/** `TransactionExecutable` inside payload V1: 0 Script, 1 EntryFunction, 2 Empty. */
export type TransactionExecutable =
  | { readonly _tag: "Script"; readonly script: Script }
  | { readonly _tag: "EntryFunction"; readonly entryFunction: EntryFunction }
  | { readonly _tag: "Empty" }

/** `TransactionExtraConfig::V1`. */
export interface TransactionExtraConfig {
  readonly multisigAddress: AccountAddress | undefined
  readonly replayProtectionNonce: bigint | undefined
}

/** BCS enum: 0 Script, 1 ModuleBundle (retired, never decoded), 2 EntryFunction, 3 Multisig, 4 Payload (V1). */
export type TransactionPayload =
  | { readonly _tag: "Script"; readonly script: Script }
  | { readonly _tag: "EntryFunction"; readonly entryFunction: EntryFunction }
  | {
      readonly _tag: "Multisig"
      readonly multisigAddress: AccountAddress
      readonly entryFunction: EntryFunction | undefined
    }
  | { readonly _tag: "PayloadV1"; readonly executable: TransactionExecutable; readonly extraConfig: TransactionExtraConfig }

export interface RawTransaction {
  readonly sender: AccountAddress
  readonly sequenceNumber: bigint
  readonly payload: TransactionPayload
  readonly maxGasAmount: bigint
  readonly gasUnitPrice: bigint
  readonly expirationTimestampSecs: bigint
  readonly chainId: number
}

/** How a user transaction is protected from replay: its sequence number, or a nonce (orderless). */
export type ReplayProtector =
  | { readonly _tag: "SequenceNumber"; readonly sequenceNumber: bigint }
  | { readonly _tag: "Nonce"; readonly nonce: bigint }

/** A genesis change set: the write set and the events genesis emits. */
export interface ChangeSet {
  readonly writeSet: WriteSet
  readonly events: ReadonlyArray<ContractEvent>
}

export type WriteSetPayload =
  | { readonly _tag: "Direct"; readonly changeSet: ChangeSet }
  | { readonly _tag: "Script"; readonly executeAs: AccountAddress; readonly script: Script }

/**
 * The signature part of a user transaction. The full variant set (Ed25519, MultiEd25519,
 * MultiAgent, FeePayer, SingleSender with its account authenticators) is modelled in
 * `TransactionAuthenticator.ts`.
 */
export type { TransactionAuthenticator } from "./TransactionAuthenticator.js"
import type { TransactionAuthenticator } from "./TransactionAuthenticator.js"

export interface SignedTransaction {
  readonly rawTransaction: RawTransaction
  readonly authenticator: TransactionAuthenticator
}

export interface BlockMetadata {
  readonly id: Uint8Array
  readonly epoch: bigint
  readonly round: bigint
  readonly proposer: AccountAddress
  readonly previousBlockVotesBitvec: Uint8Array
  readonly failedProposerIndices: ReadonlyArray<number>
  readonly timestampUsecs: bigint
}

/** `BlockEndInfo::V0`, carried by the block epilogue: whether the block hit a limit. */
export interface BlockEndInfo {
  readonly blockGasLimitReached: boolean
  readonly blockOutputLimitReached: boolean
  readonly blockEffectiveBlockGasUnits: bigint
  readonly blockApproxOutputSize: bigint
}

/**
 * A ledger transaction. BCS enum: 0 UserTransaction, 1 GenesisTransaction, 2 BlockMetadata,
 * 3 StateCheckpoint, 4 ValidatorTransaction, 5 BlockMetadataExt, 6 BlockEpilogue.
 * Variants this node only stores and forwards keep their raw BCS body (`body`).
 */
export type Transaction =
  | { readonly _tag: "UserTransaction"; readonly signed: SignedTransaction }
  | { readonly _tag: "GenesisTransaction"; readonly payload: WriteSetPayload }
  | { readonly _tag: "BlockMetadata"; readonly metadata: BlockMetadata }
  | { readonly _tag: "StateCheckpoint"; readonly hash: Uint8Array }
  | { readonly _tag: "ValidatorTransaction"; readonly body: Uint8Array }
  | { readonly _tag: "BlockMetadataExt"; readonly body: Uint8Array }
  | { readonly _tag: "BlockEpilogue"; readonly blockId: Uint8Array; readonly blockEndInfo: BlockEndInfo | undefined }
