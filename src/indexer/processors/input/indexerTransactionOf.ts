import * as Result from "effect/Result"
import { Bcs, toHex0x } from "../../../bcs/index.js"
import {
  type AccountAddress,
  addressToLongString,
  addressToShortString,
  parseAddress
} from "../../../domain/AccountAddress.js"
import type { ContractEvent } from "../../../domain/ContractEvent.js"
import { resourceGroupCodec } from "../../../domain/ResourceGroupCodec.js"
import { stateKeyHash } from "../../../domain/stateKeyHash.js"
import { compareStructTags } from "../../../domain/StructTagOrder.js"
import type { EntryFunction, RawTransaction, TransactionPayload } from "../../../domain/Transaction.js"
import type { StructTag, TypeTag } from "../../../domain/TypeTag.js"
import { structTagToString, typeTagToString } from "../../../domain/TypeTagString.js"
import type { WriteSetEntry } from "../../../domain/WriteSet.js"
import * as Effect from "effect/Effect"
import type { CommittedTransaction, LedgerService, StateReader } from "../../../ledger/Ledger.js"
import type { LedgerError } from "../../../ledger/LedgerError.js"
import { type DecodedTableItem, decodeTableItem } from "../../../node/tableInfo/decodeTableItem.js"
import { followLedger, type TableInfoFollower } from "../../../node/tableInfo/followLedger.js"
import { noTableTypes, type TableTypes } from "../../../node/tableInfo/TableInfoIndex.js"
import type { CompiledModule } from "../../../move/binary/CompiledModule.js"
import { bcsToJson } from "../../../move/json/bcsToJson.js"
import type { MoveTypeLayout } from "../../../move/layout/MoveTypeLayout.js"
import { resolveLayout } from "../../../move/layout/resolveLayout.js"
import type { ModuleSource } from "../../../move/layout/ModuleSource.js"
import { makeSnapshotModules, stateModuleSource } from "../../../node/encode/stateModuleSource.js"
import { LruCache } from "../../../node/LruCache.js"
import { resourceGroupKey, resourceKey } from "../../../node/stateKeys.js"
import type {
  EntryFunctionId,
  IndexerChange,
  IndexerEvent,
  IndexerTransaction,
  JsonValue,
  PriorState,
  TransactionKind,
  UserRequest
} from "./IndexerTransaction.js"

/** Decoded modules kept across transactions (by address, name and the version that wrote them). */
const MODULE_CACHE_SIZE = 512
/** Layouts kept, by type string. */
const LAYOUT_CACHE_SIZE = 4096

const ZERO_ADDRESS = "0x" + "0".repeat(64)

/**
 * Decodes a value of a type to the API's JSON; undefined when it does not decode. `typeKey` is the
 * type's string (the layout cache's key).
 */
type Decoder = (type: TypeTag, typeKey: string, bytes: Uint8Array) => JsonValue | undefined

/** Memoizes a decode: the first call decodes, later calls return the same value. */
const lazy = (decode: () => JsonValue | undefined): (() => JsonValue | undefined) => {
  let done = false
  let value: JsonValue | undefined
  return () => {
    if (!done) {
      done = true
      value = decode()
    }
    return value
  }
}

const kindOf = (t: CommittedTransaction): TransactionKind => {
  switch (t.transaction._tag) {
    case "UserTransaction":
      return "user"
    case "GenesisTransaction":
      return "genesis"
    case "BlockMetadata":
    case "BlockMetadataExt":
      return "block_metadata"
    case "StateCheckpoint":
      return "state_checkpoint"
    case "BlockEpilogue":
      return "block_epilogue"
    case "ValidatorTransaction":
      return "validator"
  }
}

const entryFunctionOf = (p: TransactionPayload): EntryFunction | undefined => {
  switch (p._tag) {
    case "EntryFunction":
      return p.entryFunction
    case "Multisig":
      return p.entryFunction
    case "Script":
      return undefined
    case "PayloadV1":
      return p.executable._tag === "EntryFunction" ? p.executable.entryFunction : undefined
  }
}

const payloadTypeOf = (p: TransactionPayload): string => {
  switch (p._tag) {
    case "EntryFunction":
      return "entry_function_payload"
    case "Multisig":
      return "multisig_payload"
    case "Script":
      return "script_payload"
    case "PayloadV1":
      if (p.extraConfig.multisigAddress !== undefined) return "multisig_payload"
      return p.executable._tag === "Script" ? "script_payload" : "entry_function_payload"
  }
}

const entryFunctionIdOf = (f: EntryFunction): EntryFunctionId => ({
  address: addressToLongString(f.module.address),
  module: f.module.name,
  function: f.function,
  idStr: `${addressToShortString(f.module.address)}::${f.module.name}::${f.function}`,
  typeArguments: f.typeArgs.map(typeTagToString)
})

const userRequestOf = (raw: RawTransaction, t: CommittedTransaction): UserRequest | undefined => {
  if (t.transaction._tag !== "UserTransaction") return undefined
  const auth = t.transaction.signed.authenticator
  const p = raw.payload
  const nonce = p._tag === "PayloadV1" ? p.extraConfig.replayProtectionNonce : undefined
  const entry = entryFunctionOf(p)
  return {
    sender: addressToLongString(raw.sender),
    sequenceNumber: nonce === undefined ? raw.sequenceNumber : undefined,
    replayProtectionNonce: nonce,
    maxGasAmount: raw.maxGasAmount,
    gasUnitPrice: raw.gasUnitPrice,
    expirationTimestampSecs: raw.expirationTimestampSecs,
    entryFunction: entry === undefined ? undefined : entryFunctionIdOf(entry),
    payloadType: payloadTypeOf(p),
    feePayer: auth._tag === "FeePayer" ? addressToLongString(auth.feePayerAddress) : undefined,
    secondarySigners:
      auth._tag === "FeePayer" || auth._tag === "MultiAgent"
        ? auth.secondarySignerAddresses.map(addressToLongString)
        : [],
    authenticator: auth
  }
}

/** The changes of one write-set entry, numbered from `index` (see `IndexerChange`). */
const changesOf = (
  modules: ModuleSource,
  decode: Decoder,
  tables: TableTypes,
  entry: WriteSetEntry,
  index: number
): IndexerChange[] => {
  const key = entry.key
  // The state key hash (a SHA3) only when a processor asks for it (current_objects does).
  let hash: string | undefined
  const hashOf = () => (hash ??= toHex0x(stateKeyHash(entry.keyBytes)))
  const data = "data" in entry.op ? entry.op.data : undefined
  if (key._tag === "Raw") return []
  if (key._tag === "TableItem") {
    const handle = addressToLongString(key.handle)
    const k = toHex0x(key.key)
    let decoded: DecodedTableItem | undefined
    let done = false
    const tableData = () => {
      if (!done) {
        done = true
        decoded = decodeTableItem(modules, tables(key.handle), key.key, data)
      }
      return decoded
    }
    return data === undefined
      ? [
          {
            type: "delete_table_item",
            index,
            get stateKeyHash() {
              return hashOf()
            },
            handle,
            key: k,
            data: tableData
          }
        ]
      : [
          {
            type: "write_table_item",
            index,
            get stateKeyHash() {
              return hashOf()
            },
            handle,
            key: k,
            value: data,
            data: tableData
          }
        ]
  }
  const address = addressToLongString(key.address)
  const path = key.path
  if (path._tag === "Code")
    return data === undefined
      ? [
          {
            type: "delete_module",
            index,
            get stateKeyHash() {
              return hashOf()
            },
            address,
            module: path.module.name
          }
        ]
      : [
          {
            type: "write_module",
            index,
            get stateKeyHash() {
              return hashOf()
            },
            address,
            bytes: data
          }
        ]
  const struct = path.struct
  if (data === undefined)
    return [
      {
        type: "delete_resource",
        index,
        get stateKeyHash() {
          return hashOf()
        },
        address,
        struct,
        typeStr: structTagToString(struct),
        isGroup: path._tag === "ResourceGroup"
      }
    ]
  const resourceData = (s: StructTag, typeStr: string, bytes: Uint8Array) =>
    lazy(() => decode({ _tag: "struct", struct: s }, typeStr, bytes))
  if (path._tag === "Resource") {
    const typeStr = structTagToString(struct)
    return [
      {
        type: "write_resource",
        index,
        get stateKeyHash() {
          return hashOf()
        },
        address,
        struct,
        typeStr,
        group: undefined,
        data: resourceData(struct, typeStr, data)
      }
    ]
  }
  // A group: one change per member, in the API's (struct tag) order; a group that does not decode shows none.
  const members = Bcs.decode(resourceGroupCodec, data)
  if (Result.isFailure(members)) return []
  return [...members.success]
    .sort((a, b) => compareStructTags(a.struct, b.struct))
    .map((m, i) => {
      const typeStr = structTagToString(m.struct)
      return {
        type: "write_resource" as const,
        index: index + i,
        get stateKeyHash() {
          return hashOf()
        },
        address,
        struct: m.struct,
        typeStr,
        group: struct,
        data: resourceData(m.struct, typeStr, m.bytes)
      }
    })
}

const eventOf = (decode: Decoder, e: ContractEvent, index: number): IndexerEvent => {
  const type = typeTagToString(e.typeTag)
  const data = lazy(() => decode(e.typeTag, type, e.data))
  return e._tag === "V1"
    ? {
        index,
        accountAddress: addressToLongString(e.key.accountAddress),
        creationNumber: e.key.creationNumber,
        sequenceNumber: e.sequenceNumber,
        isModuleEvent: false,
        typeTag: e.typeTag,
        type,
        data,
        raw: e
      }
    : {
        index,
        accountAddress: ZERO_ADDRESS,
        creationNumber: 0n,
        sequenceNumber: 0n,
        isModuleEvent: true,
        typeTag: e.typeTag,
        type,
        data,
        raw: e
      }
}

const NO_STATE: PriorState = { resource: () => undefined }

const priorStateOf = (state: StateReader, decodeWith: Decoder): PriorState => ({
  resource: (address, struct, group) => {
    const parsed = parseAddress(address)
    if (Result.isFailure(parsed)) return undefined
    const at: AccountAddress = parsed.success
    const typeStr = structTagToString(struct)
    const decode = (bytes: Uint8Array) => decodeWith({ _tag: "struct", struct }, typeStr, bytes)
    if (group === undefined) {
      const bytes = state.get(resourceKey(at, struct))
      return bytes === undefined ? undefined : decode(bytes)
    }
    const groupBytes = state.get(resourceGroupKey(at, group))
    if (groupBytes === undefined) return undefined
    const members = Bcs.decode(resourceGroupCodec, groupBytes)
    if (Result.isFailure(members)) return undefined
    const member = members.success.find((m) => structTagToString(m.struct) === typeStr)
    return member === undefined ? undefined : decode(member.bytes)
  }
})

/**
 * Builds `IndexerTransaction`s from the ledger's committed transactions. One instance keeps the
 * decoded modules its layouts need (bounded) and the tables' types (`src/node/tableInfo/`, learned
 * from the ledger's write sets: `tablesThrough` before a batch), so make one per indexer and reuse it.
 */
export const makeIndexerInput = () => {
  const decoded = new LruCache<string, CompiledModule | null>(MODULE_CACHE_SIZE)
  const modulesOf = (state: StateReader): ModuleSource => stateModuleSource(state, decoded, makeSnapshotModules())
  let tables: TableInfoFollower | undefined
  // Layouts by type string. A published struct keeps its layout across upgrades, except that an
  // enum may gain variants: a value the kept layout cannot read is tried once more with a layout
  // resolved afresh. Failures to resolve are not kept (the module may be published later).
  const layouts = new LruCache<string, MoveTypeLayout>(LAYOUT_CACHE_SIZE)
  const decoderOf = (state: StateReader): Decoder => {
    const fresh = (type: TypeTag, typeKey: string): MoveTypeLayout | undefined => {
      const resolved = resolveLayout(modulesOf(state), type)
      if (Result.isFailure(resolved)) return undefined
      layouts.set(typeKey, resolved.success)
      return resolved.success
    }
    return (type, typeKey, bytes) => {
      const kept = layouts.get(typeKey)
      const layout = kept ?? fresh(type, typeKey)
      if (layout === undefined) return undefined
      const json = bcsToJson(layout, bytes)
      if (Result.isSuccess(json)) return json.success
      if (kept === undefined) return undefined
      const again = fresh(type, typeKey)
      if (again === undefined) return undefined
      const retried = bcsToJson(again, bytes)
      return Result.isSuccess(retried) ? retried.success : undefined
    }
  }
  return {
    /**
     * Learns the tables' types through `version` (from version 0 on the first call: a restarted
     * indexer knows every table again), so the table changes of the transactions up to it decode.
     */
    tablesThrough: (ledger: LedgerService, version: bigint): Effect.Effect<void, LedgerError> => {
      tables ??= followLedger(ledger, modulesOf)
      return Effect.asVoid(tables.through(version))
    },
    /**
     * `t` with the epoch of its block, the state after it (`after`, whose modules give the layouts
     * of its values, as the API renders a committed transaction) and before it (undefined for
     * version 0).
     */
    transactionOf: (
      t: CommittedTransaction,
      epoch: bigint,
      after: StateReader,
      before: StateReader | undefined
    ): IndexerTransaction => {
      const decode = decoderOf(after)
      const changes: IndexerChange[] = []
      const modules = modulesOf(after)
      const known = tables?.index.lookup ?? noTableTypes
      for (const entry of t.writeSet.entries)
        changes.push(...changesOf(modules, decode, known, entry, changes.length))
      const tx = t.transaction
      return {
        version: t.version,
        hash: toHex0x(t.hash),
        kind: kindOf(t),
        blockHeight: t.blockHeight,
        epoch,
        timestampMicros: t.timestampUsec,
        success: t.info.status._tag === "Success",
        vmStatus: t.outcome.vmStatus,
        gasUsed: t.info.gasUsed,
        user: tx._tag === "UserTransaction" ? userRequestOf(tx.signed.rawTransaction, t) : undefined,
        changes,
        events: t.events.map((e, i) => eventOf(decode, e, i)),
        before: before === undefined ? NO_STATE : priorStateOf(before, decoderOf(before)),
        committed: t
      }
    }
  }
}

export type IndexerInput = ReturnType<typeof makeIndexerInput>
