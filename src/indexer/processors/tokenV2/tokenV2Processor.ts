/**
 * `token_v2_processor`, digital assets on objects (pv2 `processors/token_v2/`, indexer.md §2.2):
 * `current_collections_v2`, `current_token_datas_v2`, `current_token_ownerships_v2` and
 * `token_activities_v2` from each user transaction's written token objects and its token events.
 *
 * The reference's rules, kept as they are:
 * - A written `0x4::token::Token` gives the token's row and one ownership row for the object's
 *   owner (amount 1; soulbound when `Untransferable` or transfers are not ungated); each object
 *   transfer event of that token in the transaction adds a row for the *previous* owner with
 *   amount 0 (self-transfers skipped). Ownership rows are never deleted: queries filter `amount > 0`.
 * - A burn (`0x4::collection::Burn` / `BurnEvent`) marks the token `is_deleted_v2` and writes amount
 *   0 for the previous owner (the event's `previous_owner`, else the owner seen earlier in the batch,
 *   else the object's owner in the state before the transaction — where the reference asks its own
 *   table — else `unknown`). These updates touch only their own columns (the `…deleted…` writes).
 * - Activities: one row per mint, burn, mutation and object-transfer event; a transfer of an object
 *   that has no resource written in the transaction is still listed, as the reference lists it.
 * Token v1 (`0x3::token`) collections, token datas and ownerships come from table items (`tokenV1.ts`).
 */
import { addressFromNumber } from "../../../domain/AccountAddress.js"
import type { IndexerEvent, IndexerTransaction } from "../input/IndexerTransaction.js"
import type { Processor, Row, TableWrite } from "../Processor.js"
import { insertRows, standardAddress, timestampOfMicros, upsertRows } from "../rows.js"
import { address, bool, field, NAME_LENGTH, text, truncate, unsigned, URI_LENGTH } from "./moveJson.js"
import { propertyMapJson } from "./propertyMap.js"
import { type TokenObject, tokenObjectsOf } from "./tokenObjects.js"
import { v1RowsOf, v1TableOwners } from "./tokenV1.js"

const OBJECT_CORE = { address: addressFromNumber(1), module: "object", name: "ObjectCore", typeArgs: [] }
const OBJECT_GROUP = { address: addressFromNumber(1), module: "object", name: "ObjectGroup", typeArgs: [] }
const U64_MAX = (1n << 64n) - 1n
/** The reference's owner when a burned token's owner cannot be found (`DEFAULT_OWNER_ADDRESS`). */
export const UNKNOWN_OWNER = "unknown"

const OWNERSHIP_KEY = ["token_data_id", "property_version_v1", "owner_address", "storage_id"]

interface Burned {
  readonly collection: string
  /** Undefined when the event does not say (the older `BurnEvent`). */
  readonly previousOwner: string | undefined
}

/** A `0x4::collection::Burn` / `BurnEvent`'s token, collection and previous owner. */
const burnOf = (e: IndexerEvent): [string, Burned] | undefined => {
  if (e.type !== "0x4::collection::Burn" && e.type !== "0x4::collection::BurnEvent") return undefined
  const data = e.data()
  const token = address(field(data, "token"))
  if (token === undefined) return undefined
  if (e.type === "0x4::collection::BurnEvent")
    return [token, { collection: e.accountAddress, previousOwner: undefined }]
  const collection = address(field(data, "collection"))
  const previous = text(field(data, "previous_owner"))
  if (collection === undefined || previous === undefined) return undefined
  return [token, { collection, previousOwner: previous === "" ? undefined : standardAddress(previous) }]
}

const isTransfer = (type: string) => type === "0x1::object::TransferEvent" || type === "0x1::object::Transfer"

const ownerOf = (o: TokenObject | undefined): string | undefined => address(field(o?.objectCore, "owner"))
const ungated = (o: TokenObject | undefined): boolean | undefined =>
  bool(field(o?.objectCore, "allow_ungated_transfer"))

/** `is_soulbound_v2` and `non_transferrable_by_owner` of a token object. */
const transferability = (o: TokenObject | undefined) => {
  const allow = ungated(o)
  return {
    is_soulbound_v2: o?.untransferable === true ? true : allow === undefined ? null : !allow,
    non_transferrable_by_owner: allow === undefined ? null : !allow
  }
}

const collectionRow = (id: string, o: TokenObject, version: bigint, timestamp: string): Row | undefined => {
  const c = o.collection
  const creator = address(field(c, "creator"))
  const name = text(field(c, "name"))
  const description = text(field(c, "description"))
  const uri = text(field(c, "uri"))
  if (creator === undefined || name === undefined || description === undefined || uri === undefined) return undefined
  let current: bigint = 0n
  let max: bigint | null = null
  let minted: bigint | null = null
  if (o.unlimitedSupply !== undefined) {
    current = unsigned(field(o.unlimitedSupply, "current_supply")) ?? 0n
    minted = unsigned(field(o.unlimitedSupply, "total_minted")) ?? null
  }
  if (o.fixedSupply !== undefined) {
    current = unsigned(field(o.fixedSupply, "current_supply")) ?? 0n
    max = unsigned(field(o.fixedSupply, "max_supply")) ?? null
    minted = unsigned(field(o.fixedSupply, "total_minted")) ?? null
  }
  if (o.concurrentSupply !== undefined) {
    const supply = field(o.concurrentSupply, "current_supply")
    current = unsigned(field(supply, "value")) ?? 0n
    const maxValue = unsigned(field(supply, "max_value"))
    max = maxValue === undefined || maxValue === U64_MAX ? null : maxValue
    minted = unsigned(field(field(o.concurrentSupply, "total_minted"), "value")) ?? null
  }
  return {
    collection_id: id,
    creator_address: creator,
    collection_name: truncate(name, NAME_LENGTH),
    description,
    uri: truncate(uri, URI_LENGTH),
    current_supply: current,
    max_supply: max,
    total_minted_v2: minted,
    mutable_description: bool(field(o.aptosCollection, "mutable_description")) ?? null,
    mutable_uri: bool(field(o.aptosCollection, "mutable_uri")) ?? null,
    table_handle_v1: null,
    token_standard: "v2",
    last_transaction_version: version,
    last_transaction_timestamp: timestamp,
    collection_properties: o.propertyMap === undefined ? null : (propertyMapJson(o.propertyMap) ?? null)
  }
}

const tokenDataRow = (id: string, o: TokenObject, version: bigint, timestamp: string): Row | undefined => {
  const t = o.token
  const collection = address(field(t, "collection"))
  const name = text(field(field(o.tokenIdentifiers, "name"), "value")) ?? text(field(t, "name"))
  const uri = text(field(t, "uri"))
  const description = text(field(t, "description"))
  if (collection === undefined || name === undefined || uri === undefined || description === undefined) return undefined
  return {
    token_data_id: id,
    collection_id: collection,
    token_name: truncate(name, NAME_LENGTH),
    maximum: null,
    supply: null,
    largest_property_version_v1: null,
    token_uri: truncate(uri, URI_LENGTH),
    description,
    token_properties: o.propertyMap === undefined ? null : (propertyMapJson(o.propertyMap) ?? null),
    token_standard: "v2",
    is_fungible_v2: o.fungibleAssetMetadata === true,
    last_transaction_version: version,
    last_transaction_timestamp: timestamp,
    decimals: 0n,
    is_deleted_v2: false
  }
}

const ownershipRow = (
  token: string,
  owner: string,
  amount: bigint,
  flags: { is_soulbound_v2: boolean | null; non_transferrable_by_owner: boolean | null },
  isFungible: boolean | null,
  version: bigint,
  timestamp: string
): Row => ({
  token_data_id: token,
  property_version_v1: 0n,
  owner_address: owner,
  storage_id: token,
  amount,
  table_type_v1: null,
  token_properties_mutated_v1: null,
  is_soulbound_v2: flags.is_soulbound_v2,
  token_standard: "v2",
  is_fungible_v2: isFungible,
  last_transaction_version: version,
  last_transaction_timestamp: timestamp,
  non_transferrable_by_owner: flags.non_transferrable_by_owner
})

/** The activity of one event, or undefined for events that are not token events. */
const activityOf = (
  e: IndexerEvent,
  t: IndexerTransaction,
  objects: Map<string, TokenObject>,
  timestamp: string
): Row | undefined => {
  const type = e.type
  const data = e.data()
  let token: string | undefined
  switch (type) {
    case "0x4::collection::Mint":
    case "0x4::collection::MintEvent":
    case "0x4::collection::Burn":
    case "0x4::collection::BurnEvent":
      token = address(field(data, "token"))
      break
    case "0x1::object::TransferEvent":
    case "0x1::object::Transfer":
      token = address(field(data, "object"))
      break
    case "0x4::token::MutationEvent":
    case "0x4::token::Mutation":
      token = e.accountAddress
      break
    default:
      return undefined
  }
  if (token === undefined || data === undefined) return undefined
  const base = {
    transaction_version: t.version,
    event_index: BigInt(e.index),
    event_account_address: e.accountAddress,
    token_data_id: token,
    property_version_v1: 0n,
    entry_function_id_str: t.user?.entryFunction?.idStr ?? null,
    token_standard: "v2",
    is_fungible_v2: null,
    transaction_timestamp: timestamp
  }
  const burnedBy = (): string | null => {
    const previous = text(field(data, "previous_owner"))
    return previous === undefined || previous === "" ? null : (standardAddress(previous) ?? null)
  }
  const o = objects.get(token)
  if (o === undefined)
    // Not an object written in this transaction: the event as it is (a burn names its previous owner).
    return {
      ...base,
      type,
      from_address: type === "0x4::collection::Burn" ? burnedBy() : null,
      to_address: null,
      token_amount: 1n,
      before_value: null,
      after_value: null
    }
  const owner = ownerOf(o) ?? null
  const plain = { to_address: null, token_amount: 1n, before_value: null, after_value: null }
  switch (type) {
    case "0x4::collection::MintEvent":
      return { ...base, ...plain, type, from_address: owner }
    case "0x4::collection::Mint":
      return { ...base, ...plain, type: "0x4::collection::MintEvent", from_address: owner }
    case "0x4::collection::BurnEvent":
      return { ...base, ...plain, type, from_address: owner }
    case "0x4::collection::Burn":
      return { ...base, ...plain, type: "0x4::collection::BurnEvent", from_address: burnedBy() }
    case "0x4::token::MutationEvent":
      return {
        ...base,
        type,
        from_address: t.user?.sender ?? null,
        to_address: null,
        token_amount: 0n,
        before_value: text(field(data, "old_value")) ?? null,
        after_value: text(field(data, "new_value")) ?? null
      }
    case "0x4::token::Mutation":
      return {
        ...base,
        type: "0x4::collection::MutationEvent",
        from_address: address(field(data, "token_address")) ?? null,
        to_address: null,
        token_amount: 0n,
        before_value: text(field(data, "old_value")) ?? null,
        after_value: text(field(data, "new_value")) ?? null
      }
    default:
      return {
        ...base,
        type,
        from_address: address(field(data, "from")) ?? null,
        to_address: address(field(data, "to")) ?? null,
        token_amount: 1n,
        before_value: null,
        after_value: null
      }
  }
}

/** The rows of one batch, before the collapse into writes. */
interface Rows {
  readonly collections: Row[]
  readonly tokenDatas: Row[]
  readonly deletedTokenDatas: Row[]
  readonly ownerships: Row[]
  readonly deletedOwnerships: Row[]
  readonly activities: Row[]
}

const processTransaction = (t: IndexerTransaction, rows: Rows, priorOwner: Map<string, string>): void => {
  if (t.kind !== "user") return
  const timestamp = timestampOfMicros(t.timestampMicros)
  const objects = tokenObjectsOf(t)
  const burned = new Map<string, Burned>()
  const transfers = new Map<string, Array<{ from: string; to: string }>>()
  for (const e of t.events) {
    const burn = burnOf(e)
    if (burn !== undefined) burned.set(burn[0], burn[1])
    else if (isTransfer(e.type)) {
      const data = e.data()
      const object = address(field(data, "object"))
      const from = address(field(data, "from"))
      const to = address(field(data, "to"))
      if (object !== undefined && from !== undefined && to !== undefined && objects.has(object))
        transfers.set(object, [...(transfers.get(object) ?? []), { from, to }])
    }
    const activity = activityOf(e, t, objects, timestamp)
    if (activity !== undefined) rows.activities.push(activity)
  }

  /** A burned token's previous owner (see the file's overview). */
  const previousOwner = (token: string, b: Burned): string => {
    if (b.previousOwner !== undefined) return b.previousOwner
    const seen = priorOwner.get(token)
    if (seen !== undefined) return seen
    const before = t.before.resource(token, OBJECT_CORE, OBJECT_GROUP)
    return address(field(before, "owner")) ?? UNKNOWN_OWNER
  }
  const burnedTokenData = (token: string, b: Burned): Row => ({
    token_data_id: token,
    collection_id: b.collection,
    token_name: "",
    maximum: null,
    supply: null,
    largest_property_version_v1: null,
    token_uri: "",
    description: "",
    token_properties: null,
    token_standard: "v2",
    is_fungible_v2: false,
    last_transaction_version: t.version,
    last_transaction_timestamp: timestamp,
    decimals: 0n,
    is_deleted_v2: true
  })
  const unknownFlags = { is_soulbound_v2: null, non_transferrable_by_owner: null }

  for (const c of t.changes) {
    if (c.type === "write_resource") {
      const o = objects.get(c.address)
      if (o === undefined) continue
      if (c.typeStr === "0x4::collection::Collection") {
        const row = collectionRow(c.address, o, t.version, timestamp)
        if (row !== undefined) rows.collections.push(row)
      }
      if (c.typeStr === "0x4::token::Token") {
        const row = tokenDataRow(c.address, o, t.version, timestamp)
        const owner = ownerOf(o)
        // The reference requires the token's ObjectCore in the same transaction.
        if (row !== undefined && owner !== undefined) {
          rows.tokenDatas.push(row)
          const flags = transferability(o)
          rows.ownerships.push(ownershipRow(c.address, owner, 1n, flags, null, t.version, timestamp))
          priorOwner.set(c.address, owner)
          for (const move of transfers.get(c.address) ?? [])
            if (move.from !== move.to)
              rows.ownerships.push(ownershipRow(c.address, move.from, 0n, flags, null, t.version, timestamp))
        }
      }
      const burn = burned.get(c.address)
      if (burn !== undefined) {
        rows.deletedTokenDatas.push(burnedTokenData(c.address, burn))
        const row =
          c.typeStr === "0x1::object::ObjectCore" && ownerOf(o) !== undefined
            ? ownershipRow(
                c.address,
                ownerOf(o)!,
                0n,
                {
                  is_soulbound_v2: o.untransferable === true || ungated(o) === false,
                  non_transferrable_by_owner: ungated(o) === false
                },
                false,
                t.version,
                timestamp
              )
            : ownershipRow(c.address, previousOwner(c.address, burn), 0n, unknownFlags, null, t.version, timestamp)
        rows.deletedOwnerships.push(row)
        priorOwner.set(c.address, row.owner_address as string)
      }
    } else if (c.type === "delete_resource") {
      const burn = burned.get(c.address)
      if (burn === undefined) continue
      rows.deletedTokenDatas.push(burnedTokenData(c.address, burn))
      const owner = previousOwner(c.address, burn)
      rows.deletedOwnerships.push(ownershipRow(c.address, owner, 0n, unknownFlags, null, t.version, timestamp))
      priorOwner.set(c.address, owner)
    }
  }
}

const VERSION_GUARD = "last_transaction_version"

/** The writes of a batch, in the reference's order: full rows first, then the burns' partial updates. */
export const tokenV2Writes = (batch: ReadonlyArray<IndexerTransaction>): TableWrite[] => {
  const rows: Rows = {
    collections: [],
    tokenDatas: [],
    deletedTokenDatas: [],
    ownerships: [],
    deletedOwnerships: [],
    activities: []
  }
  const priorOwner = new Map<string, string>()
  const v1Owners = v1TableOwners(batch)
  for (const t of batch) {
    processTransaction(t, rows, priorOwner)
    v1RowsOf(t, v1Owners, rows)
  }
  return [
    ...upsertRows({ table: "current_collections_v2", key: ["collection_id"], guard: VERSION_GUARD }, rows.collections),
    ...upsertRows(
      {
        table: "current_token_datas_v2",
        key: ["token_data_id"],
        guard: VERSION_GUARD,
        update: [
          "collection_id",
          "token_name",
          "maximum",
          "supply",
          "largest_property_version_v1",
          "token_uri",
          "description",
          "token_properties",
          "token_standard",
          "is_fungible_v2",
          "last_transaction_version",
          "last_transaction_timestamp",
          "decimals"
        ]
      },
      rows.tokenDatas
    ),
    ...upsertRows(
      {
        table: "current_token_datas_v2",
        key: ["token_data_id"],
        guard: VERSION_GUARD,
        update: ["last_transaction_version", "last_transaction_timestamp", "is_deleted_v2"]
      },
      rows.deletedTokenDatas
    ),
    ...upsertRows({ table: "current_token_ownerships_v2", key: OWNERSHIP_KEY, guard: VERSION_GUARD }, rows.ownerships),
    ...upsertRows(
      {
        table: "current_token_ownerships_v2",
        key: OWNERSHIP_KEY,
        guard: VERSION_GUARD,
        update: ["amount", "last_transaction_version", "last_transaction_timestamp", "is_fungible_v2"]
      },
      rows.deletedOwnerships
    ),
    ...insertRows("token_activities_v2", rows.activities)
  ]
}

export const tokenV2Processor: Processor = {
  name: "token_v2_processor",
  tables: ["current_collections_v2", "current_token_datas_v2", "current_token_ownerships_v2", "token_activities_v2"],
  process: tokenV2Writes
}
