/**
 * What a processor reads: one committed transaction in the shape the reference's processors read
 * (the gRPC `Transaction`, indexer.md §2: typed header fields, the write set as the API's
 * `changes` with resource groups expanded into one change per member, events with their keys, and
 * Move values as the API's JSON), built from the ledger's `CommittedTransaction` by
 * `indexerTransactionOf`.
 *
 * Move values are decoded on demand (`data()`, memoized): a processor that matches on `type` first
 * pays only for the values it reads. Addresses are long form (`0x` + 64 hex, the indexer's
 * `standardize_address`); type strings are the API's (`0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>`,
 * addresses without leading zeros), which is what the reference stores in `asset_type`, `type`,
 * `entry_function_id_str`.
 */
import type { ContractEvent } from "../../../domain/ContractEvent.js"
import type { TransactionAuthenticator } from "../../../domain/TransactionAuthenticator.js"
import type { StructTag, TypeTag } from "../../../domain/TypeTag.js"
import type { CommittedTransaction } from "../../../ledger/Ledger.js"
import type { JsonValue } from "../../../move/json/bcsToJson.js"
import type { DecodedTableItem } from "../../../node/tableInfo/decodeTableItem.js"

export type { JsonValue }

/** The reference's transaction kinds (`TransactionType`). */
export type TransactionKind =
  | "genesis"
  | "block_metadata"
  | "state_checkpoint"
  | "block_epilogue"
  | "validator"
  | "user"

/** An entry function call: `0x1::aptos_account::transfer` split as the reference stores it. */
export interface EntryFunctionId {
  /** Long form. */
  readonly address: string
  readonly module: string
  readonly function: string
  /** As the API's payload shows it (`0x1::aptos_account::transfer`): `entry_function_id_str`. */
  readonly idStr: string
  readonly typeArguments: ReadonlyArray<string>
}

/** A user transaction's request fields. */
export interface UserRequest {
  readonly sender: string
  /** Undefined for an orderless (nonce) transaction. */
  readonly sequenceNumber: bigint | undefined
  readonly replayProtectionNonce: bigint | undefined
  readonly maxGasAmount: bigint
  readonly gasUnitPrice: bigint
  readonly expirationTimestampSecs: bigint
  /** The entry function called (also inside a multisig payload); undefined for scripts and others. */
  readonly entryFunction: EntryFunctionId | undefined
  /** The API's payload type: `entry_function_payload`, `script_payload`, `multisig_payload`… */
  readonly payloadType: string
  /** Fee payer (sponsored transactions). */
  readonly feePayer: string | undefined
  readonly secondarySigners: ReadonlyArray<string>
  /** The signatures as the ledger holds them (keys, signatures, bitmaps). */
  readonly authenticator: TransactionAuthenticator
}

interface ChangeBase {
  /** Position in the API's `changes` (resource-group members counted one by one): `write_set_change_index`. */
  readonly index: number
  /** `state_key_hash`, `0x` + 64 hex (a group's members share it). */
  readonly stateKeyHash: string
}

/** A written resource or resource-group member. */
export interface WriteResource extends ChangeBase {
  readonly type: "write_resource"
  readonly address: string
  readonly struct: StructTag
  /** The resource's type as the API writes it. */
  readonly typeStr: string
  /** The group holding it (e.g. `0x1::object::ObjectGroup`), undefined for a plain resource. */
  readonly group: StructTag | undefined
  /** The value as the API's JSON (`data.data` of the change); undefined when it does not decode. */
  readonly data: () => JsonValue | undefined
  /**
   * The value's BCS (a group member's own bytes), for a processor that can read a field without
   * `data()`; absent when the change was made from JSON alone (the processors' property tests).
   */
  readonly bytes?: Uint8Array | undefined
}

/** A deleted resource, or a deleted group (one change with the group's type, as the API shows it). */
export interface DeleteResource extends ChangeBase {
  readonly type: "delete_resource"
  readonly address: string
  readonly struct: StructTag
  readonly typeStr: string
  /** True when the whole group (`typeStr` is the group's type) was deleted. */
  readonly isGroup: boolean
}

/**
 * A table item's key and value as the API's JSON, decoded with its table's types (the node's table
 * info, `src/node/tableInfo/`): the `data` of the API's change, which the reference's processors read.
 */
export type { DecodedTableItem } from "../../../node/tableInfo/decodeTableItem.js"

export interface WriteTableItem extends ChangeBase {
  readonly type: "write_table_item"
  /** Long form. */
  readonly handle: string
  /** `0x` + hex of the BCS key. */
  readonly key: string
  readonly value: Uint8Array
  /** `{key, key_type, value, value_type}`; undefined when the table's types are unknown. */
  readonly data: () => DecodedTableItem | undefined
}

export interface DeleteTableItem extends ChangeBase {
  readonly type: "delete_table_item"
  readonly handle: string
  readonly key: string
  /** `{key, key_type}`; undefined when the table's types are unknown. */
  readonly data: () => DecodedTableItem | undefined
}

export interface WriteModule extends ChangeBase {
  readonly type: "write_module"
  readonly address: string
  readonly bytes: Uint8Array
}

export interface DeleteModule extends ChangeBase {
  readonly type: "delete_module"
  readonly address: string
  readonly module: string
}

export type IndexerChange =
  | WriteResource
  | DeleteResource
  | WriteTableItem
  | DeleteTableItem
  | WriteModule
  | DeleteModule

/** An event: a handle event's key and sequence number, or a module event's dummy ones (`0x0`, 0, 0). */
export interface IndexerEvent {
  /** Position in the transaction's events: `event_index`. */
  readonly index: number
  /** Long form; `0x000…0` for module events (so `account_transactions` collects `0x0`, as the reference). */
  readonly accountAddress: string
  readonly creationNumber: bigint
  readonly sequenceNumber: bigint
  readonly isModuleEvent: boolean
  readonly typeTag: TypeTag
  /** The API's type string (`0x1::coin::DepositEvent`, `0x1::fungible_asset::Deposit`). */
  readonly type: string
  /** The event's data as the API's JSON; undefined when it does not decode. */
  readonly data: () => JsonValue | undefined
  readonly raw: ContractEvent
}

/**
 * State as of the version before a transaction (what the reference's processors read from their own
 * tables: the owner of an object being deleted, the store of a token leaving). Synchronous: the
 * ledger's state readers are.
 */
export interface PriorState {
  /**
   * A resource at `address` (long or short form) as the API's JSON, or a member of `group` there
   * when given; undefined when absent or undecodable.
   */
  readonly resource: (address: string, struct: StructTag, group?: StructTag) => JsonValue | undefined
}

export interface IndexerTransaction {
  readonly version: bigint
  /** `0x` + 64 hex. */
  readonly hash: string
  readonly kind: TransactionKind
  readonly blockHeight: bigint
  readonly epoch: bigint
  /** The block's timestamp, µs (0 for genesis). */
  readonly timestampMicros: bigint
  readonly success: boolean
  readonly vmStatus: string
  readonly gasUsed: bigint
  /** Defined for user transactions. */
  readonly user: UserRequest | undefined
  readonly changes: ReadonlyArray<IndexerChange>
  readonly events: ReadonlyArray<IndexerEvent>
  /** State before this transaction (after version − 1). */
  readonly before: PriorState
  /** The ledger's transaction, for what the fields above do not carry. */
  readonly committed: CommittedTransaction
}
