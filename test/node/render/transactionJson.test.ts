/**
 * The transaction renderer over the devnet genesis state: a user transaction calling
 * 0x1::aptos_account::transfer (arguments rendered by the function's parameters), its pending form,
 * block transactions, and the parts (write-set changes, events) compared with values computed here.
 */
import { Effect } from "effect"
import * as Result from "effect/Result"
import { beforeAll, describe, expect, it } from "vitest"
import { Bcs, BcsWriter } from "../../../src/bcs/index.js"
import { addressFromNumber, addressToShortString } from "../../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../../src/domain/ContractEvent.js"
import { transactionHash } from "../../../src/domain/hash.js"
import { resourceGroupCodec } from "../../../src/domain/ResourceGroupCodec.js"
import { stateKeyHash } from "../../../src/domain/stateKeyHash.js"
import type { SignedTransaction, Transaction } from "../../../src/domain/Transaction.js"
import type { WriteSetEntry } from "../../../src/domain/WriteSet.js"
import { makeWriteSetEntry } from "../../../src/domain/WriteSetCodec.js"
import { LedgerMemory } from "../../../src/ledger/index.js"
import type { CommittedTransaction } from "../../../src/ledger/Ledger.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import type { ModuleSource } from "../../../src/move/layout/ModuleSource.js"
import { stateModuleSource } from "../../../src/node/encode/stateModuleSource.js"
import { LruCache } from "../../../src/node/LruCache.js"
import { eventsJson } from "../../../src/node/render/eventsJson.js"
import { pendingTransactionJson, transactionJson } from "../../../src/node/render/transactionJson.js"
import { writeSetChangesJson } from "../../../src/node/render/writeSetJson.js"
import { loadGenesisBytes } from "../../support/genesis.js"

const ONE = addressFromNumber(1)
const SENDER = addressFromNumber(0xcafe)
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`
const u64 = (n: bigint) => new BcsWriter(8).u64(n).toBytes()

let modules: ModuleSource
beforeAll(async () => {
  const handle = await Effect.runPromise(LedgerMemory.make({ genesis: loadGenesisBytes("devnet") }))
  const state = await Effect.runPromise(handle.service.stateAt(0n))
  modules = stateModuleSource(state, new LruCache<string, CompiledModule | null>(256))
}, 60_000)

const signed = (args: ReadonlyArray<Uint8Array>): SignedTransaction => ({
  rawTransaction: {
    sender: SENDER,
    sequenceNumber: 7n,
    payload: {
      _tag: "EntryFunction",
      entryFunction: { module: { address: ONE, name: "aptos_account" }, function: "transfer", typeArgs: [], args }
    },
    maxGasAmount: 2000n,
    gasUnitPrice: 100n,
    expirationTimestampSecs: 1_700_000_000n,
    chainId: 4
  },
  authenticator: { _tag: "Ed25519", publicKey: new Uint8Array(32).fill(1), signature: new Uint8Array(64).fill(2) }
})

const committed = (transaction: Transaction, extra: Partial<CommittedTransaction> = {}): CommittedTransaction => ({
  transaction,
  writeSet: { entries: [] },
  events: [],
  outcome: { gasUsed: 9n, status: { _tag: "Success" }, vmStatus: "Executed successfully" },
  version: 42n,
  hash: transactionHash(transaction),
  blockHeight: 3n,
  timestampUsec: 1_700_000_000_000_000n,
  info: {
    gasUsed: 9n,
    status: { _tag: "Success" },
    transactionHash: transactionHash(transaction),
    eventRootHash: new Uint8Array(32).fill(0xee),
    stateChangeHash: new Uint8Array(32).fill(0xcc),
    stateCheckpointHash: undefined,
    auxiliaryInfoHash: undefined
  },
  accumulatorRootHash: new Uint8Array(32).fill(0xaa),
  ...extra
})

describe("transactionJson", () => {
  it("a user transaction: the info, the request, the arguments by the entry function's parameters", () => {
    const txn: Transaction = { _tag: "UserTransaction", signed: signed([addressFromNumber(0xb0b), u64(1234n)]) }
    const json = Result.getOrThrow(transactionJson(modules, committed(txn)))
    expect(json).toEqual({
      version: "42",
      hash: hex(transactionHash(txn)),
      state_change_hash: hex(new Uint8Array(32).fill(0xcc)),
      event_root_hash: hex(new Uint8Array(32).fill(0xee)),
      state_checkpoint_hash: null,
      gas_used: "9",
      success: true,
      vm_status: "Executed successfully",
      accumulator_root_hash: hex(new Uint8Array(32).fill(0xaa)),
      changes: [],
      sender: "0xcafe",
      sequence_number: "7",
      max_gas_amount: "2000",
      gas_unit_price: "100",
      expiration_timestamp_secs: "1700000000",
      payload: {
        function: "0x1::aptos_account::transfer",
        type_arguments: [],
        arguments: ["0xb0b", "1234"],
        type: "entry_function_payload"
      },
      signature: {
        public_key: hex(new Uint8Array(32).fill(1)),
        signature: hex(new Uint8Array(64).fill(2)),
        type: "ed25519_signature"
      },
      replay_protection_nonce: null,
      events: [],
      timestamp: "1700000000000000",
      type: "user_transaction"
    })
    // The reference's key order: the info first, `type` last.
    expect(Object.keys(json)[0]).toBe("version")
    expect(Object.keys(json).at(-1)).toBe("type")
  })

  it("arguments that do not fit the parameters are shown as hex, as the reference falls back", () => {
    const txn: Transaction = { _tag: "UserTransaction", signed: signed([new Uint8Array([1, 2])]) }
    const json = Result.getOrThrow(transactionJson(modules, committed(txn))) as { payload: { arguments: unknown } }
    expect(json.payload.arguments).toEqual(["0x0102"])
  })

  it("a pending transaction: the hash and the request, no outcome", () => {
    const s = signed([addressFromNumber(0xb0b), u64(1n)])
    const hash = transactionHash({ _tag: "UserTransaction", signed: s })
    const json = Result.getOrThrow(pendingTransactionJson(modules, s, hash))
    expect(Object.keys(json)).toEqual([
      "hash",
      "sender",
      "sequence_number",
      "max_gas_amount",
      "gas_unit_price",
      "expiration_timestamp_secs",
      "payload",
      "signature",
      "replay_protection_nonce",
      "type"
    ])
    expect(json.type).toBe("pending_transaction")
  })

  it("an orderless transaction shows its nonce; block transactions their kind's fields", () => {
    const s = signed([addressFromNumber(0xb0b), u64(1n)])
    const orderless: SignedTransaction = {
      ...s,
      rawTransaction: {
        ...s.rawTransaction,
        sequenceNumber: (1n << 64n) - 1n,
        payload: {
          _tag: "PayloadV1",
          executable: {
            _tag: "EntryFunction",
            entryFunction: (s.rawTransaction.payload as unknown as { entryFunction: never }).entryFunction
          },
          extraConfig: { multisigAddress: undefined, replayProtectionNonce: 99n }
        }
      }
    }
    const o = Result.getOrThrow(transactionJson(modules, committed({ _tag: "UserTransaction", signed: orderless })))
    expect([o.replay_protection_nonce, (o.payload as { type: string }).type]).toEqual(["99", "entry_function_payload"])
    const metadata = {
      id: new Uint8Array(32).fill(5),
      epoch: 2n,
      round: 3n,
      proposer: addressFromNumber(0x77),
      previousBlockVotesBitvec: new Uint8Array([1, 128]),
      failedProposerIndices: [4],
      timestampUsecs: 55n
    }
    const b = Result.getOrThrow(transactionJson(modules, committed({ _tag: "BlockMetadata", metadata })))
    expect(b).toMatchObject({
      id: hex(metadata.id),
      epoch: "2",
      round: "3",
      previous_block_votes_bitvec: [1, 128],
      proposer: "0x77",
      failed_proposer_indices: [4],
      timestamp: "55",
      type: "block_metadata_transaction"
    })
    expect(b).not.toHaveProperty("block_metadata_extension")
    const ext = Result.getOrThrow(
      transactionJson(modules, committed({ _tag: "BlockMetadataExt", metadata: { _tag: "V0", metadata } }))
    )
    expect(ext.block_metadata_extension).toEqual({ type: "v0" })
    const epilogue = Result.getOrThrow(
      transactionJson(
        modules,
        committed({
          _tag: "BlockEpilogue",
          blockId: metadata.id,
          blockEndInfo: {
            blockGasLimitReached: false,
            blockOutputLimitReached: true,
            blockEffectiveBlockGasUnits: 500n,
            blockApproxOutputSize: 21541n
          }
        })
      )
    )
    expect(epilogue.block_end_info).toEqual({
      block_gas_limit_reached: false,
      block_output_limit_reached: true,
      block_effective_block_gas_units: 500,
      block_approx_output_size: 21541
    })
    const checkpoint = Result.getOrThrow(
      transactionJson(modules, committed({ _tag: "StateCheckpoint", hash: metadata.id }))
    )
    expect(Object.keys(checkpoint).slice(-2)).toEqual(["timestamp", "type"])
  })

  it("a failed transaction says so, with its vm status", () => {
    const txn: Transaction = { _tag: "UserTransaction", signed: signed([addressFromNumber(0xb0b), u64(1n)]) }
    const t = committed(txn, {
      outcome: { gasUsed: 9n, status: { _tag: "OutOfGas" }, vmStatus: "Out of gas" },
      info: { ...committed(txn).info, status: { _tag: "OutOfGas" } }
    })
    const json = Result.getOrThrow(transactionJson(modules, t))
    expect([json.success, json.vm_status]).toEqual([false, "Out of gas"])
  })
})

describe("write-set changes and events", () => {
  const account: WriteSetEntry = makeWriteSetEntry(
    {
      _tag: "AccessPath",
      address: SENDER,
      path: { _tag: "Resource", struct: { address: ONE, module: "chain_id", name: "ChainId", typeArgs: [] } }
    },
    { _tag: "Creation", data: new Uint8Array([4]) }
  )

  it("renders resources, groups member by member, modules, table items and deletions, with state key hashes", () => {
    const group = makeWriteSetEntry(
      {
        _tag: "AccessPath",
        address: SENDER,
        path: { _tag: "ResourceGroup", struct: { address: ONE, module: "object", name: "ObjectGroup", typeArgs: [] } }
      },
      {
        _tag: "Modification",
        data: Bcs.encode(resourceGroupCodec, [
          { struct: { address: ONE, module: "chain_id", name: "ChainId", typeArgs: [] }, bytes: new Uint8Array([1]) },
          { struct: { address: ONE, module: "chain_id", name: "ChainId", typeArgs: [] }, bytes: new Uint8Array([2]) }
        ])
      }
    )
    const table = makeWriteSetEntry(
      { _tag: "TableItem", handle: addressFromNumber(0x7ab), key: new Uint8Array([9]) },
      {
        _tag: "Creation",
        data: new Uint8Array([8, 8])
      }
    )
    const deleted = makeWriteSetEntry(
      { _tag: "AccessPath", address: SENDER, path: { _tag: "Code", module: { address: SENDER, name: "gone" } } },
      { _tag: "Deletion" }
    )
    const changes = writeSetChangesJson(modules, { entries: [account, group, table, deleted] })
    expect(changes).toEqual([
      {
        address: "0xcafe",
        state_key_hash: hex(stateKeyHash(account.keyBytes)),
        data: { type: "0x1::chain_id::ChainId", data: { id: 4 } },
        type: "write_resource"
      },
      {
        address: "0xcafe",
        state_key_hash: hex(stateKeyHash(group.keyBytes)),
        data: { type: "0x1::chain_id::ChainId", data: { id: 1 } },
        type: "write_resource"
      },
      {
        address: "0xcafe",
        state_key_hash: hex(stateKeyHash(group.keyBytes)),
        data: { type: "0x1::chain_id::ChainId", data: { id: 2 } },
        type: "write_resource"
      },
      {
        state_key_hash: hex(stateKeyHash(table.keyBytes)),
        handle: hex(addressFromNumber(0x7ab)),
        key: "0x09",
        value: "0x0808",
        data: null,
        type: "write_table_item"
      },
      {
        address: "0xcafe",
        state_key_hash: hex(stateKeyHash(deleted.keyBytes)),
        module: "0xcafe::gone",
        type: "delete_module"
      }
    ])
  })

  it("module events carry the dummy guid and sequence number", () => {
    const events: ContractEvent[] = [
      { _tag: "V2", typeTag: { _tag: "u64" }, data: u64(5n) },
      {
        _tag: "V1",
        key: { creationNumber: 3n, accountAddress: ONE },
        sequenceNumber: 8n,
        typeTag: { _tag: "bool" },
        data: new Uint8Array([1])
      }
    ]
    expect(eventsJson(modules, events)).toEqual([
      { guid: { creation_number: "0", account_address: "0x0" }, sequence_number: "0", type: "u64", data: "5" },
      {
        guid: { creation_number: "3", account_address: addressToShortString(ONE) },
        sequence_number: "8",
        type: "bool",
        data: true
      }
    ])
  })
})
