import * as Result from "effect/Result"
import { Bcs, toHex0x } from "../../../bcs/index.js"
import {
  type AccountAddress,
  addressToLongString,
  addressToShortString,
  parseAddress
} from "../../../domain/AccountAddress.js"
import type { ContractEvent } from "../../../domain/ContractEvent.js"
import { type ResourceGroupMember, resourceGroupCodec } from "../../../domain/ResourceGroupCodec.js"
import { sortInPlace } from "../../../domain/sortInPlace.js"
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
import {
  noTableTypes,
  type TableInfoIndex,
  type TableTypes,
  type TableValue
} from "../../../node/tableInfo/TableInfoIndex.js"
import { bcsToJson } from "../../../move/json/bcsToJson.js"
import type { MoveTypeLayout } from "../../../move/layout/MoveTypeLayout.js"
import { resolveLayout } from "../../../move/layout/resolveLayout.js"
import type { ModuleSource } from "../../../move/layout/ModuleSource.js"
import { makeSnapshotModules, moduleCache, stateModuleSource } from "../../../node/encode/stateModuleSource.js"
import { resourceGroupKey, resourceKey } from "../../../node/stateKeys.js"
import { makeResourceJsonCache, type ResourceJsonCache } from "./resourceJsonCache.js"
import type {
  DeleteModule,
  DeleteResource,
  DeleteTableItem,
  EntryFunctionId,
  IndexerChange,
  IndexerEvent,
  IndexerTransaction,
  JsonValue,
  PriorState,
  TransactionKind,
  UserRequest,
  WriteModule,
  WriteResource,
  WriteTableItem
} from "./IndexerTransaction.js"

/** Decoded modules kept across transactions (by address, name and the version that wrote them). */
const MODULE_CACHE_SIZE = 512
/** Layouts kept, by type string. */
const LAYOUT_CACHE_SIZE = 4096

const ZERO_ADDRESS = "0x" + "0".repeat(64)

/**
 * Decodes values of one state to the API's JSON: undefined when a value does not decode. `typeKey`
 * is the type's string (the layouts' key). Made per transaction as an object, not as closures: an
 * object's methods are compiled once, where V8 compiled closures made per transaction again after
 * every full collection (`scripts/recompiles.mjs`; docs/architecture.md, "Hot loops live in
 * functions made once").
 */
interface Decoder {
  decode(type: TypeTag, typeKey: string, bytes: Uint8Array): JsonValue | undefined
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

/**
 * A state key's hash (`0x` + 64 hex), computed when first asked (current_objects asks; most
 * processors never do) and shared by a group's members.
 */
class KeyHash {
  private hex: string | undefined
  constructor(private readonly keyBytes: Uint8Array) {}
  get value(): string {
    return (this.hex ??= toHex0x(stateKeyHash(this.keyBytes)))
  }
}

// The changes are classes rather than object literals: a transfer's write set makes a dozen per
// version, and a literal with a getter and closures allocates a fresh accessor and function objects
// for each (the indexer's largest allocation after value decoding, session 11).

/** A change's position in the transaction's changes and its state key's hash. */
abstract class Change {
  constructor(
    readonly index: number,
    private readonly keyHash: KeyHash
  ) {}
  get stateKeyHash(): string {
    return this.keyHash.value
  }
}

/** A change whose `data` is decoded when first asked, then kept. */
abstract class DecodedChange<A> extends Change {
  private decoded: A | undefined
  private done = false
  protected abstract decodeData(): A | undefined
  data(): A | undefined {
    if (!this.done) {
      this.done = true
      this.decoded = this.decodeData()
    }
    return this.decoded
  }
}

class ResourceWrite extends DecodedChange<JsonValue> implements WriteResource {
  readonly type = "write_resource" as const
  constructor(
    index: number,
    keyHash: KeyHash,
    readonly address: string,
    readonly struct: StructTag,
    readonly typeStr: string,
    readonly group: StructTag | undefined,
    private readonly decoder: Decoder,
    /** The value's BCS (a group's member's own bytes). */
    readonly bytes: Uint8Array
  ) {
    super(index, keyHash)
  }
  protected decodeData(): JsonValue | undefined {
    return this.decoder.decode({ _tag: "struct", struct: this.struct }, this.typeStr, this.bytes)
  }
}

class ResourceDelete extends Change implements DeleteResource {
  readonly type = "delete_resource" as const
  constructor(
    index: number,
    keyHash: KeyHash,
    readonly address: string,
    readonly struct: StructTag,
    readonly typeStr: string,
    readonly isGroup: boolean
  ) {
    super(index, keyHash)
  }
}

/** A table item's write or delete: its key and value decoded with the table's types. */
abstract class TableItemChange extends DecodedChange<DecodedTableItem> {
  constructor(
    index: number,
    keyHash: KeyHash,
    readonly handle: string,
    readonly key: string,
    private readonly decodeItem: () => DecodedTableItem | undefined
  ) {
    super(index, keyHash)
  }
  protected decodeData(): DecodedTableItem | undefined {
    return this.decodeItem()
  }
}

class TableItemWrite extends TableItemChange implements WriteTableItem {
  readonly type = "write_table_item" as const
  constructor(
    index: number,
    keyHash: KeyHash,
    handle: string,
    key: string,
    readonly value: Uint8Array,
    decodeItem: () => DecodedTableItem | undefined,
    /** The table's handle as its 32 bytes (what the table-info index is keyed by). */
    readonly handleBytes: Uint8Array
  ) {
    super(index, keyHash, handle, key, decodeItem)
  }
}

class TableItemDelete extends TableItemChange implements DeleteTableItem {
  readonly type = "delete_table_item" as const
}

class ModuleWrite extends Change implements WriteModule {
  readonly type = "write_module" as const
  constructor(
    index: number,
    keyHash: KeyHash,
    readonly address: string,
    readonly bytes: Uint8Array
  ) {
    super(index, keyHash)
  }
}

class ModuleDelete extends Change implements DeleteModule {
  readonly type = "delete_module" as const
  constructor(
    index: number,
    keyHash: KeyHash,
    readonly address: string,
    readonly module: string
  ) {
    super(index, keyHash)
  }
}

const compareMembers = (a: ResourceGroupMember, b: ResourceGroupMember): number => compareStructTags(a.struct, b.struct)

/** Appends the changes of one write-set entry to `out`, numbered on from its length (see `IndexerChange`). */
const pushChangesOf = (
  out: IndexerChange[],
  modules: ModuleSource,
  decode: Decoder,
  tables: TableTypes,
  entry: WriteSetEntry
): void => {
  const index = out.length
  const key = entry.key
  const data = "data" in entry.op ? entry.op.data : undefined
  if (key._tag === "Raw") return
  const keyHash = new KeyHash(entry.keyBytes)
  if (key._tag === "TableItem") {
    const handle = addressToLongString(key.handle)
    const k = toHex0x(key.key)
    const decodeItem = () => decodeTableItem(modules, tables(key.handle), key.key, data)
    out.push(
      data === undefined
        ? new TableItemDelete(index, keyHash, handle, k, decodeItem)
        : new TableItemWrite(index, keyHash, handle, k, data, decodeItem, key.handle)
    )
    return
  }
  const address = addressToLongString(key.address)
  const path = key.path
  if (path._tag === "Code") {
    out.push(
      data === undefined
        ? new ModuleDelete(index, keyHash, address, path.module.name)
        : new ModuleWrite(index, keyHash, address, data)
    )
    return
  }
  const struct = path.struct
  if (data === undefined) {
    out.push(
      new ResourceDelete(index, keyHash, address, struct, structTagToString(struct), path._tag === "ResourceGroup")
    )
    return
  }
  if (path._tag === "Resource") {
    out.push(new ResourceWrite(index, keyHash, address, struct, structTagToString(struct), undefined, decode, data))
    return
  }
  // A group: one change per member, in the API's (struct tag) order; a group that does not decode shows none.
  const members = Bcs.decode(resourceGroupCodec, data)
  if (Result.isFailure(members)) return
  // Into a copy: the decoded list is read-only.
  const sorted = sortInPlace(members.success.slice(), compareMembers)
  for (let i = 0; i < sorted.length; i++) {
    const m = sorted[i]!
    out.push(
      new ResourceWrite(index + i, keyHash, address, m.struct, structTagToString(m.struct), struct, decode, m.bytes)
    )
  }
}

/**
 * Teaches the table-info index what one transaction's changes hold, from what `pushChangesOf`
 * already decoded (its groups' members, its types' strings): resources first, then table values, as
 * `TableInfoIndex.learn` reads a write set.
 */
const learnChanges = (index: TableInfoIndex, modules: ModuleSource, changes: ReadonlyArray<IndexerChange>): void => {
  const items: TableValue[] = []
  for (const c of changes) {
    if (c instanceof ResourceWrite) index.learnResource(modules, c.struct, c.typeStr, c.bytes)
    else if (c instanceof TableItemWrite) items.push({ handle: c.handleBytes, bytes: c.value })
  }
  if (items.length > 0) index.learnTableItems(modules, items)
}

/** An event (a class for the reason the changes are). */
class EventOf implements IndexerEvent {
  readonly accountAddress: string
  readonly creationNumber: bigint
  readonly sequenceNumber: bigint
  readonly isModuleEvent: boolean
  readonly typeTag: TypeTag
  readonly type: string
  private decoded: JsonValue | undefined
  private done = false
  constructor(
    private readonly decoder: Decoder,
    readonly raw: ContractEvent,
    readonly index: number
  ) {
    this.typeTag = raw.typeTag
    this.type = typeTagToString(raw.typeTag)
    this.isModuleEvent = raw._tag !== "V1"
    this.accountAddress = raw._tag === "V1" ? addressToLongString(raw.key.accountAddress) : ZERO_ADDRESS
    this.creationNumber = raw._tag === "V1" ? raw.key.creationNumber : 0n
    this.sequenceNumber = raw._tag === "V1" ? raw.sequenceNumber : 0n
  }
  data(): JsonValue | undefined {
    if (!this.done) {
      this.done = true
      this.decoded = this.decoder.decode(this.typeTag, this.type, this.raw.data)
    }
    return this.decoded
  }
}

const NO_STATE: PriorState = { resource: () => undefined }

/** The state before a transaction, read on demand (an object per transaction, for the reason `Decoder` is). */
class PriorStateOf implements PriorState {
  constructor(
    private readonly state: StateReader,
    private readonly decoder: Decoder
  ) {}
  resource(address: string, struct: StructTag, group?: StructTag): JsonValue | undefined {
    const parsed = parseAddress(address)
    if (Result.isFailure(parsed)) return undefined
    const at: AccountAddress = parsed.success
    const typeStr = structTagToString(struct)
    let bytes: Uint8Array | undefined
    if (group === undefined) bytes = this.state.get(resourceKey(at, struct))
    else {
      const groupBytes = this.state.get(resourceGroupKey(at, group))
      if (groupBytes === undefined) return undefined
      const members = Bcs.decode(resourceGroupCodec, groupBytes)
      if (Result.isFailure(members)) return undefined
      bytes = members.success.find((m) => structTagToString(m.struct) === typeStr)?.bytes
    }
    return bytes === undefined ? undefined : this.decoder.decode({ _tag: "struct", struct }, typeStr, bytes)
  }
}

/**
 * Builds `IndexerTransaction`s from the ledger's committed transactions. One instance keeps the
 * decoded modules its layouts need (bounded) and the tables' types (`src/node/tableInfo/`, learned
 * from the ledger's write sets: `tablesThrough` before a batch), so make one per indexer and reuse it.
 */
export const makeIndexerInput = () => {
  const decoded = moduleCache(MODULE_CACHE_SIZE)
  // Modules looked up once per set of modules (`codeSnapshotId`: the versions between two
  // publications), not once per batch.
  const looked = makeSnapshotModules()
  // Layouts by type string. A published struct keeps its layout across upgrades, except that an
  // enum may gain variants: a value the kept layout cannot read is tried once more with a layout
  // resolved afresh. Failures to resolve are not kept (the module may be published later).
  // A plain map emptied when full, not an LRU: the types in use are few, and an LRU's hit costs a
  // delete and a set besides the lookup (its reordering was 1.4 % of the index's JavaScript).
  const layouts = new Map<string, MoveTypeLayout>()
  // Resources' JSON by layout and bytes (resourceJsonCache.ts): unchanged group members rewritten
  // beside a changed one decode once, not once a transaction. Its entries are served only for the
  // layout object they were decoded with, so forgetting the layouts retires them too.
  const resourceJson = makeResourceJsonCache()
  // The ledger's rewinds seen so far (`StateReader.generation`). After a revert, reset or load the
  // versions above the rewind point are reused: a module published again there may give its
  // structs other layouts under the same type strings, so the layouts are forgotten when the states
  // read come from another generation (`decoded` tells the modules apart by generation itself;
  // test/indexer/processors/inputAfterRevert.test.ts).
  let generation: number | undefined
  const modulesOf = (state: StateReader): ModuleSource => {
    if (state.generation !== generation) {
      if (generation !== undefined) layouts.clear()
      generation = state.generation
    }
    return stateModuleSource(state, decoded, looked)
  }
  let tables: TableInfoFollower | undefined
  /** A `Decoder` over `state`; with `cache`, resources' JSON kept by layout and bytes. */
  class StateDecoder implements Decoder {
    constructor(
      private readonly state: StateReader,
      private readonly cache?: ResourceJsonCache
    ) {}
    private fresh(type: TypeTag, typeKey: string): MoveTypeLayout | undefined {
      const resolved = resolveLayout(modulesOf(this.state), type)
      if (Result.isFailure(resolved)) return undefined
      if (layouts.size >= LAYOUT_CACHE_SIZE) layouts.clear()
      layouts.set(typeKey, resolved.success)
      return resolved.success
    }
    decode(type: TypeTag, typeKey: string, bytes: Uint8Array): JsonValue | undefined {
      const cache = this.cache
      const kept = layouts.get(typeKey)
      const layout = kept ?? this.fresh(type, typeKey)
      if (layout === undefined) return undefined
      const known = cache?.get(layout, bytes)
      if (known !== undefined) return known
      const json = bcsToJson(layout, bytes)
      if (Result.isSuccess(json)) {
        cache?.set(layout, bytes, json.success)
        return json.success
      }
      if (kept === undefined) return undefined
      const again = this.fresh(type, typeKey)
      if (again === undefined) return undefined
      const retried = bcsToJson(again, bytes)
      if (Result.isFailure(retried)) return undefined
      cache?.set(again, bytes, retried.success)
      return retried.success
    }
  }
  return {
    /**
     * Learns the tables' types through `version` (from version 0 on the first call: a restarted
     * indexer knows every table again). Called with the version before a batch: `transactionOf`
     * learns each transaction of the batch from its own reading, in order, so the table changes of
     * every transaction it builds decode.
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
      const decode = new StateDecoder(after)
      const decodeResource = new StateDecoder(after, resourceJson)
      const changes: IndexerChange[] = []
      const modules = modulesOf(after)
      const known = tables?.index.lookup ?? noTableTypes
      for (const entry of t.writeSet.entries) pushChangesOf(changes, modules, decodeResource, known, entry)
      // The tables this transaction creates, learned from what was just decoded (its table items
      // decode when a processor first asks, by then with them known).
      tables?.learnNext(t.version, (index) => learnChanges(index, modules, changes))
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
        events: t.events.map((e, i) => new EventOf(decode, e, i)),
        before: before === undefined ? NO_STATE : new PriorStateOf(before, new StateDecoder(before)),
        committed: t
      }
    }
  }
}

export type IndexerInput = ReturnType<typeof makeIndexerInput>
