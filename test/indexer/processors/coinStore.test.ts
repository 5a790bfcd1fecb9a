/**
 * The coin (v1) half of the fungible-asset processor on transactions written by hand (a current
 * framework keeps coins in fungible stores, so a local chain never writes a `CoinStore`): the
 * reference's rules for `0x1::coin::CoinStore<T>` balances, handle events resolved to their coin
 * type through the store's event handles, a deleted store (amount 0, and its owner's later events),
 * module events naming their coin type, the gas row's storage refund.
 */
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { parseStructTag } from "../../../src/domain/TypeTagString.js"
import { pairedMetadataOf, primaryStoreOf } from "../../../src/indexer/processors/fungibleAsset/coinPairing.js"
import { fungibleAssetProcessor } from "../../../src/indexer/processors/fungibleAsset/fungibleAssetProcessor.js"
import type {
  IndexerChange,
  IndexerEvent,
  IndexerTransaction,
  JsonValue
} from "../../../src/indexer/processors/input/IndexerTransaction.js"
import { applyWrites, rowsIn } from "./support/applyWrites.js"

const struct = (s: string) => {
  const r = parseStructTag(s)
  if (Result.isFailure(r)) throw new Error(s)
  return r.success
}
const long = (hex: string) => "0x" + hex.padStart(64, "0")
const ALICE = long("a11ce")
const MOON = "0xcafe::moon::Moon"
const STORE = `0x1::coin::CoinStore<${MOON}>`

const handle = (addr: string, n: number) => ({ counter: "0", guid: { id: { addr, creation_num: String(n) } } })
const coinStore = (value: string): JsonValue => ({
  coin: { value },
  deposit_events: handle("0xa11ce", 2),
  withdraw_events: handle("0xa11ce", 3),
  frozen: false
})

const write = (index: number, address: string, typeStr: string, data: JsonValue): IndexerChange => ({
  type: "write_resource",
  index,
  stateKeyHash: "0x" + "11".repeat(32),
  address,
  struct: struct(typeStr),
  typeStr,
  group: undefined,
  data: () => data
})

const event = (
  index: number,
  type: string,
  data: JsonValue,
  key?: { address: string; creation: bigint }
): IndexerEvent => ({
  index,
  accountAddress: key?.address ?? long("0"),
  creationNumber: key?.creation ?? 0n,
  sequenceNumber: 0n,
  isModuleEvent: key === undefined,
  typeTag: { _tag: "struct", struct: struct(type) },
  type,
  data: () => data,
  raw: { _tag: "V2", typeTag: { _tag: "struct", struct: struct(type) }, data: new Uint8Array(0) }
})

const txn = (version: bigint, changes: IndexerChange[], events: IndexerEvent[], gasUsed = 0n): IndexerTransaction =>
  ({
    version,
    hash: "0x" + "00".repeat(32),
    kind: "user",
    blockHeight: version,
    epoch: 1n,
    timestampMicros: 1_700_000_000_123_456n,
    success: true,
    vmStatus: "Executed successfully",
    gasUsed,
    user: {
      sender: ALICE,
      sequenceNumber: version,
      replayProtectionNonce: undefined,
      maxGasAmount: 1000n,
      gasUnitPrice: 100n,
      expirationTimestampSecs: 1n,
      entryFunction: undefined,
      payloadType: "script_payload",
      feePayer: undefined,
      secondarySigners: [],
      authenticator: { _tag: "Ed25519", publicKey: new Uint8Array(32), signature: new Uint8Array(64) }
    },
    changes,
    events,
    before: { resource: () => undefined },
    committed: undefined as never
  }) satisfies IndexerTransaction

describe("fungible_asset_processor, coin stores", () => {
  it("indexes CoinStore balances and their handle events as the reference", () => {
    const storage = primaryStoreOf(ALICE, pairedMetadataOf(MOON))!
    const t1 = txn(
      10n,
      [write(0, ALICE, STORE, coinStore("700"))],
      [
        event(0, "0x1::coin::WithdrawEvent", { amount: "300" }, { address: ALICE, creation: 3n }),
        event(1, "0x1::coin::DepositEvent", { amount: "5" }, { address: ALICE, creation: 2n }),
        // A handle that is not the store's: its coin type is unknown, no row (as the reference).
        event(2, "0x1::coin::DepositEvent", { amount: "9" }, { address: ALICE, creation: 7n }),
        event(3, "0x1::coin::CoinDeposit", { account: "0xb0b", coin_type: MOON, amount: "42" }),
        event(4, "0x1::transaction_fee::FeeStatement", { storage_fee_refund_octas: "1234" })
      ],
      6n
    )
    // Later the store is deleted (its coins migrated); a withdraw in the same transaction still
    // resolves to the deleted store's coin type through its owner.
    const t2 = txn(
      11n,
      [
        {
          type: "delete_resource",
          index: 0,
          stateKeyHash: "0x" + "22".repeat(32),
          address: ALICE,
          struct: struct(STORE),
          typeStr: STORE,
          isGroup: false
        }
      ],
      [event(0, "0x1::coin::WithdrawEvent", { amount: "700" }, { address: ALICE, creation: 9n })]
    )
    const tables = applyWrites(new Map(), fungibleAssetProcessor.process([t1]))
    expect(rowsIn(tables, "current_fungible_asset_balances")).toEqual([
      {
        storage_id: storage,
        owner_address: ALICE,
        asset_type_v1: MOON,
        asset_type_v2: null,
        is_primary: true,
        is_frozen: false,
        amount_v1: 700n,
        amount_v2: null,
        last_transaction_version_v1: 10n,
        last_transaction_version_v2: null,
        last_transaction_timestamp_v1: "2023-11-14T22:13:20",
        last_transaction_timestamp_v2: null,
        amount: 700n,
        asset_type: MOON,
        token_standard: "v1",
        last_transaction_version: 10n,
        last_transaction_timestamp: "2023-11-14T22:13:20"
      }
    ])
    const activities = rowsIn(tables, "fungible_asset_activities").map((r) => [
      r.event_index,
      r.type,
      r.owner_address,
      r.storage_id,
      r.asset_type,
      r.amount,
      r.token_standard,
      r.storage_refund_amount
    ])
    expect(activities).toEqual([
      [
        -1n,
        "0x1::aptos_coin::GasFeeEvent",
        ALICE,
        primaryStoreOf(ALICE, long("a")),
        "0x1::aptos_coin::AptosCoin",
        600n,
        "v1",
        1234n
      ],
      [0n, "0x1::coin::WithdrawEvent", ALICE, storage, MOON, 300n, "v1", 0n],
      [1n, "0x1::coin::DepositEvent", ALICE, storage, MOON, 5n, "v1", 0n],
      [
        3n,
        "0x1::coin::CoinDeposit",
        long("b0b"),
        primaryStoreOf(long("b0b"), pairedMetadataOf(MOON)),
        MOON,
        42n,
        "v1",
        0n
      ]
    ])

    applyWrites(tables, fungibleAssetProcessor.process([t2]))
    const after = rowsIn(tables, "current_fungible_asset_balances")
    expect(after.map((r) => [r.storage_id, r.amount_v1, r.amount, r.last_transaction_version_v1])).toEqual([
      [storage, 0n, 0n, 11n]
    ])
    expect(
      rowsIn(tables, "fungible_asset_activities")
        .filter((r) => r.transaction_version === 11n && r.is_gas_fee === false)
        .map((r) => [r.owner_address, r.asset_type, r.amount])
    ).toEqual([[ALICE, MOON, 700n]])

    // An older write arriving later never moves the row back (the guard on the v1 version).
    applyWrites(tables, fungibleAssetProcessor.process([{ ...t1, events: [] }]))
    expect(rowsIn(tables, "current_fungible_asset_balances")[0]!.amount_v1).toBe(0n)
  })
})
