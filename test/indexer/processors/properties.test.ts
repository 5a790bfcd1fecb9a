/**
 * Properties of every processor against hostile input: whatever the values in a transaction (Move
 * JSON of any shape where a resource or event of an interesting type should be, bytes that do not
 * decode, bytes of real transactions with random corruption), a processor returns well-formed writes
 * and never throws (a throw would stop the indexer). Well-formed: each write's rows have one column
 * set, an Upsert never repeats a primary key, and applying them in order succeeds.
 */
import { Account } from "@aptos-labs/ts-sdk"
import * as Result from "effect/Result"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parseStructTag } from "../../../src/domain/TypeTagString.js"
import type { WriteSetEntry } from "../../../src/domain/WriteSet.js"
import { processors } from "../../../src/indexer/processors/index.js"
import type {
  IndexerChange,
  IndexerEvent,
  IndexerTransaction,
  JsonValue
} from "../../../src/indexer/processors/input/IndexerTransaction.js"
import { makeIndexerInput } from "../../../src/indexer/processors/input/indexerTransactionOf.js"
import type { TableWrite } from "../../../src/indexer/processors/Processor.js"
import type { CommittedTransaction } from "../../../src/ledger/Ledger.js"
import { applyWrites } from "./support/applyWrites.js"
import { withIndexedChain } from "./support/indexedChain.js"

const RESOURCE_TYPES = [
  "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
  "0x1::coin::CoinInfo<0x1::aptos_coin::AptosCoin>",
  "0x1::coin::CoinInfo<0x1234::moon::Moon>",
  "0x1::fungible_asset::FungibleStore",
  "0x1::fungible_asset::Metadata",
  "0x1::fungible_asset::Supply",
  "0x1::fungible_asset::ConcurrentSupply",
  "0x1::fungible_asset::ConcurrentFungibleBalance",
  "0x1::object::ObjectCore",
  "0x1::object::Untransferable",
  "0x1::coin::PairedCoinType",
  "0x1::account::Account",
  "0x1::chain_id::ChainId"
]
const EVENT_TYPES = [
  "0x1::coin::WithdrawEvent",
  "0x1::coin::DepositEvent",
  "0x1::coin::CoinWithdraw",
  "0x1::coin::CoinDeposit",
  "0x1::fungible_asset::Withdraw",
  "0x1::fungible_asset::Deposit",
  "0x1::fungible_asset::Frozen",
  "0x1::fungible_asset::WithdrawEvent",
  "0x1::fungible_asset::DepositEvent",
  "0x1::fungible_asset::FrozenEvent",
  "0x1::fungible_asset::FungibleStoreDeletion",
  "0x1::transaction_fee::FeeStatement",
  "0x1::account::KeyRotationToPublicKey"
]

const structOf = (s: string) => {
  const parsed = parseStructTag(s)
  if (Result.isFailure(parsed)) throw new Error(s)
  return parsed.success
}

const address = fc.oneof(
  fc.constantFrom("0x" + "0".repeat(63) + "1", "0x" + "0".repeat(63) + "a", "0x" + "0".repeat(64)),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => "0x" + Buffer.from(b).toString("hex"))
)

/** JSON where a Move value should be: arbitrary, or shaped like the real ones with odd leaves. */
const moveJson: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<JsonValue>,
  fc.record(
    {
      owner: fc.oneof(address, fc.string()),
      allow_ungated_transfer: fc.oneof(fc.boolean(), fc.string()),
      guid_creation_num: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 70n }).map(String), fc.integer(), fc.string()),
      metadata: fc.oneof(fc.record({ inner: fc.oneof(address, fc.string()) }), fc.jsonValue()),
      balance: fc.oneof(
        fc.bigInt({ min: 0n, max: 2n ** 130n }).map(String),
        fc.string(),
        fc.record({ value: fc.string() })
      ),
      frozen: fc.oneof(fc.boolean(), fc.constant(null)),
      coin: fc.record({ value: fc.oneof(fc.string(), fc.bigInt({ min: -5n, max: 2n ** 64n }).map(String)) }),
      amount: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String), fc.double(), fc.string()),
      store: fc.oneof(address, fc.string()),
      account: fc.oneof(address, fc.string()),
      coin_type: fc.string(),
      name: fc.string({ unit: "binary", maxLength: 80 }),
      symbol: fc.string(),
      decimals: fc.oneof(fc.integer(), fc.string()),
      icon_uri: fc.string(),
      project_uri: fc.string(),
      supply: fc.jsonValue(),
      current: fc.oneof(fc.string(), fc.record({ value: fc.string(), max_value: fc.string() })),
      maximum: fc.record({ vec: fc.array(fc.string(), { maxLength: 2 }) }),
      authentication_key: fc.oneof(address, fc.string()),
      public_key: fc.oneof(
        fc.uint8Array({ maxLength: 200 }).map((b) => "0x" + Buffer.from(b).toString("hex")),
        fc.string()
      ),
      public_key_scheme: fc.integer({ min: 0, max: 5 }),
      verified_public_key_bit_map: fc.string(),
      id: fc.oneof(fc.integer(), fc.string()),
      storage_fee_refund_octas: fc.string(),
      type: fc.jsonValue(),
      deposit_events: fc.jsonValue(),
      withdraw_events: fc.jsonValue()
    },
    { requiredKeys: [] }
  ) as fc.Arbitrary<JsonValue>
)

const change = (index: number): fc.Arbitrary<IndexerChange> =>
  fc.oneof(
    fc
      .record({
        typeStr: fc.constantFrom(...RESOURCE_TYPES),
        address,
        data: fc.option(moveJson, { nil: undefined }),
        grouped: fc.boolean()
      })
      .map(
        ({ typeStr, address, data, grouped }): IndexerChange => ({
          type: "write_resource",
          index,
          stateKeyHash: "0x" + "ab".repeat(32),
          address,
          struct: structOf(typeStr),
          typeStr,
          group: grouped ? structOf("0x1::object::ObjectGroup") : undefined,
          data: () => data
        })
      ),
    fc.record({ typeStr: fc.constantFrom(...RESOURCE_TYPES, "0x1::object::ObjectGroup"), address }).map(
      ({ typeStr, address }): IndexerChange => ({
        type: "delete_resource",
        index,
        stateKeyHash: "0x" + "cd".repeat(32),
        address,
        struct: structOf(typeStr),
        typeStr,
        isGroup: typeStr === "0x1::object::ObjectGroup"
      })
    )
  )

const event = (index: number): fc.Arbitrary<IndexerEvent> =>
  fc
    .record({
      type: fc.constantFrom(...EVENT_TYPES),
      data: fc.option(moveJson, { nil: undefined }),
      module: fc.boolean(),
      key: address,
      creation: fc.bigInt({ min: 0n, max: 10n })
    })
    .map(({ type, data, module, key, creation }) => ({
      index,
      accountAddress: module ? "0x" + "0".repeat(64) : key,
      creationNumber: module ? 0n : creation,
      sequenceNumber: 0n,
      isModuleEvent: module,
      typeTag: { _tag: "struct", struct: structOf(type) },
      type,
      data: () => data,
      raw: { _tag: "V2", typeTag: { _tag: "struct", struct: structOf(type) }, data: new Uint8Array(0) }
    }))

const checkWrites = (writes: ReadonlyArray<TableWrite>) => {
  for (const w of writes) {
    const columns = w.rows.length === 0 ? "" : Object.keys(w.rows[0]!).sort().join(",")
    for (const r of w.rows) expect(Object.keys(r).sort().join(",")).toBe(columns)
    for (const r of w.rows) for (const v of Object.values(r)) expect(v).not.toBeUndefined()
  }
  // Throws on a repeated key in one Upsert.
  applyWrites(new Map(), writes)
}

describe("processors on hostile input", () => {
  it("never throw and write well-formed rows, whatever the values", async () => {
    await withIndexedChain(async ({ aptos, transactions }) => {
      // Real transactions to start from: genesis, block metadata, a user transfer.
      await aptos.fundAccount({
        accountAddress: Account.generate().accountAddress,
        amount: 1,
        options: { waitForIndexer: false }
      })
      const real = await transactions()
      const user = real.find((t) => t.kind === "user")!
      const transaction = fc
        .record({
          base: fc.constantFrom(...real.slice(-6)),
          changes: fc
            .integer({ min: 0, max: 8 })
            .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => change(i)))),
          events: fc
            .integer({ min: 0, max: 8 })
            .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => event(i)))),
          before: fc.option(moveJson, { nil: undefined }),
          success: fc.boolean()
        })
        .map(
          ({ base, changes, events, before, success }): IndexerTransaction => ({
            ...base,
            user: base.user ?? user.user,
            kind: "user",
            success,
            changes,
            events,
            before: { resource: () => before }
          })
        )
      fc.assert(
        fc.property(fc.array(transaction, { minLength: 1, maxLength: 4 }), (batch) => {
          const sorted = batch.map((t, i) => ({ ...t, version: BigInt(i + 1) }))
          for (const p of processors) checkWrites(p.process(sorted))
        }),
        { numRuns: 300 }
      )
    })
  }, 120_000)

  it("never throw on real transactions whose write sets and events are corrupted byte by byte", async () => {
    await withIndexedChain(async ({ aptos, ledger, transactions }) => {
      await aptos.fundAccount({
        accountAddress: Account.generate().accountAddress,
        amount: 1,
        options: { waitForIndexer: false }
      })
      const real = (await transactions()).filter((t) => t.version > 0n)
      const input = makeIndexerInput()
      const { Effect } = await import("effect")
      const latest = real[real.length - 1]!.version
      const state = await Effect.runPromise(ledger.stateAt(latest))
      const corrupt = (bytes: Uint8Array, at: number, value: number, cut: boolean) => {
        const out = bytes.slice(0, cut ? Math.min(bytes.length, at) : bytes.length)
        if (!cut && out.length > 0) out[at % out.length] = value
        return out
      }
      fc.assert(
        fc.property(fc.constantFrom(...real), fc.nat(), fc.nat({ max: 255 }), fc.boolean(), (t, at, value, cut) => {
          const c: CommittedTransaction = t.committed
          const entries: WriteSetEntry[] = c.writeSet.entries.map((e) =>
            "data" in e.op ? { ...e, op: { ...e.op, data: corrupt(e.op.data, at, value, cut) } } : e
          )
          const events = c.events.map((e) => ({ ...e, data: corrupt(e.data, at, value, cut) }))
          const mutated: CommittedTransaction = { ...c, writeSet: { entries }, events }
          const batch = [input.transactionOf(mutated, t.epoch, state, state)]
          for (const p of processors) checkWrites(p.process(batch))
        }),
        { numRuns: 200 }
      )
    })
  }, 120_000)
})
