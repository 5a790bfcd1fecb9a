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

/**
 * Script arguments (`TransactionArgument`): enum 0 u8, 1 u64, 2 u128, 3 address, 4 vector<u8>,
 * 5 bool, 6 u16, 7 u32, 8 u256, 9 serialized, then (bytecode v9) 10 i8, 11 i16, 12 i32, 13 i64,
 * 14 i128, 15 i256.
 */
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
  | { readonly _tag: "I8"; readonly value: number }
  | { readonly _tag: "I16"; readonly value: number }
  | { readonly _tag: "I32"; readonly value: number }
  | { readonly _tag: "I64"; readonly value: bigint }
  | { readonly _tag: "I128"; readonly value: bigint }
  | { readonly _tag: "I256"; readonly value: bigint }

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
  | {
      readonly _tag: "PayloadV1"
      readonly executable: TransactionExecutable
      readonly extraConfig: TransactionExtraConfig
    }

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

/** Per-block randomness carried by `BlockMetadataExt` V1/V2. */
export interface Randomness {
  readonly epoch: bigint
  readonly round: bigint
  readonly blockId: Uint8Array
  readonly timestamp: bigint
  readonly randomness: Uint8Array
}

/** The block's transaction decryption key carried by `BlockMetadataExt` V2. */
export interface BlockTxnDecryptionKey {
  readonly epoch: bigint
  readonly round: bigint
  readonly decryptionKey: Uint8Array
}

/**
 * `BlockMetadataExt` (Transaction variant 5): 0 V0(BlockMetadata), 1 V1 (+ randomness),
 * 2 V2 (+ randomness, decryption key), 3 V3 (+ raw per-feature payloads, DKG flags). Every variant
 * shares the BlockMetadata fields, kept in `metadata`.
 */
export type BlockMetadataExt =
  | { readonly _tag: "V0"; readonly metadata: BlockMetadata }
  | { readonly _tag: "V1"; readonly metadata: BlockMetadata; readonly randomness: Randomness | undefined }
  | {
      readonly _tag: "V2"
      readonly metadata: BlockMetadata
      readonly randomness: Randomness | undefined
      readonly decryptionKey: BlockTxnDecryptionKey | undefined
    }
  | {
      readonly _tag: "V3"
      readonly metadata: BlockMetadata
      /** BCS of `Vec<PerFeatureBlockPayload>`, kept raw as the reference stores it. */
      readonly featurePayloads: Uint8Array
      readonly dkgNeeded: ReadonlyArray<boolean>
    }

/** A JWK as the chain stores it: `MoveAny { type_name, data }`. */
export interface JwkMoveStruct {
  readonly typeName: string
  readonly data: Uint8Array
}

/**
 * `ValidatorTransaction` (Transaction variant 4): 0 DKGResult(DKGTranscript),
 * 1 ObservedJWKUpdate(QuorumCertifiedUpdate).
 */
export type ValidatorTransaction =
  | {
      readonly _tag: "DKGResult"
      readonly epoch: bigint
      readonly author: AccountAddress
      readonly transcriptBytes: Uint8Array
    }
  | {
      readonly _tag: "ObservedJWKUpdate"
      readonly issuer: Uint8Array
      readonly version: bigint
      readonly jwks: ReadonlyArray<JwkMoveStruct>
      /** The aggregate signature's validator bitmask and its optional BLS signature. */
      readonly validatorBitmask: Uint8Array
      readonly signature: Uint8Array | undefined
    }

/**
 * A ledger transaction. BCS enum: 0 UserTransaction, 1 GenesisTransaction, 2 BlockMetadata,
 * 3 StateCheckpoint, 4 ValidatorTransaction, 5 BlockMetadataExt, 6 BlockEpilogue.
 * BCS is not self-delimiting, so every variant is decoded fully.
 *
 * BlockEpilogue is `BlockEpiloguePayload`: V0 {block_id, block_end_info} or V1 {…, fee_distribution:
 * validator index → octas}; `feeDistribution` is undefined for V0. `blockEndInfo` is always present
 * when decoded (the optional type is kept for compatibility).
 */
export type Transaction =
  | { readonly _tag: "UserTransaction"; readonly signed: SignedTransaction }
  | { readonly _tag: "GenesisTransaction"; readonly payload: WriteSetPayload }
  | { readonly _tag: "BlockMetadata"; readonly metadata: BlockMetadata }
  | { readonly _tag: "StateCheckpoint"; readonly hash: Uint8Array }
  | { readonly _tag: "ValidatorTransaction"; readonly transaction: ValidatorTransaction }
  | { readonly _tag: "BlockMetadataExt"; readonly metadata: BlockMetadataExt }
  | {
      readonly _tag: "BlockEpilogue"
      readonly blockId: Uint8Array
      readonly blockEndInfo: BlockEndInfo | undefined
      readonly feeDistribution?: ReadonlyArray<readonly [bigint, bigint]> | undefined
    }
