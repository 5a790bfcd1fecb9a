import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Result, type Scope } from "effect"
import { Bcs } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import { decodeGenesisTransaction } from "../../src/domain/Genesis.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import type { Transaction } from "../../src/domain/Transaction.js"
import { transactionCodec } from "../../src/domain/TransactionCodec.js"
import type { StateValueMetadata, WriteOp, WriteSet } from "../../src/domain/WriteSet.js"
import { chainIdStateKey } from "../../src/ledger/importGenesis.js"
import type { TransactionToCommit } from "../../src/ledger/Ledger.js"
import type { LedgerBackend } from "../../src/ledger/LedgerBackend.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { makeMemoryBackend } from "../../src/ledger/MemoryBackend.js"
import { type LedgerHandle, type LedgerServiceOptions, makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { loadGenesisBytes } from "../support/genesis.js"

export const genesisBlob = (network: "devnet" | "mainnet"): Uint8Array => loadGenesisBytes(network)

/**
 * A second, different genesis that needs nothing beside the checkout: the devnet genesis with its
 * chain id changed to `chainId` (the write set's `0x1::chain_id::ChainId`), re-encoded.
 */
export const devnetWithChainId = (chainId: number): Uint8Array => {
  const decoded = Result.getOrThrow(decodeGenesisTransaction(genesisBlob("devnet")))
  const payload = decoded.payload
  if (payload._tag !== "Direct") throw new Error("devnet genesis: expected a direct write set")
  let changed = 0
  const entries = payload.changeSet.writeSet.entries.map((e) => {
    if (Buffer.compare(e.keyBytes, chainIdStateKey) !== 0) return e
    changed++
    return { ...e, op: { ...e.op, data: new Uint8Array([chainId]) } }
  })
  if (changed !== 1) throw new Error(`devnet genesis: ${changed} chain id writes`)
  return Bcs.encode(transactionCodec, {
    ...decoded,
    payload: { ...payload, changeSet: { ...payload.changeSet, writeSet: { entries } } }
  })
}

/** BCS(StateKey) of a table item: small, valid, distinct per `n`. */
export const keyOf = (n: number): Uint8Array =>
  Bcs.encode(stateKeyCodec, {
    _tag: "TableItem",
    handle: addressFromNumber(0xabc),
    key: new Uint8Array([n & 0xff, n >> 8])
  })

export type Write = readonly [key: number, value: number | undefined]

/**
 * The metadata `writeSetOf(…, true)` records with value `v`: none for a third of the values (a
 * legacy slot), V0 or V1 for the others, each field derived from `v`.
 */
export const metadataOfValue = (v: number): StateValueMetadata | undefined =>
  v % 3 === 0
    ? undefined
    : v % 3 === 1
      ? { _tag: "V0", deposit: BigInt(v) * 11n, creationTimeUsecs: BigInt(v) }
      : { _tag: "V1", slotDeposit: BigInt(v) * 13n, bytesDeposit: BigInt(v) * 17n, creationTimeUsecs: BigInt(v) }

const opOf = (v: number | undefined, withMetadata: boolean): WriteOp => {
  if (v === undefined) return { _tag: "Deletion" }
  const data = new Uint8Array([v, 7])
  const metadata = withMetadata ? metadataOfValue(v) : undefined
  return metadata === undefined ? { _tag: "Modification", data } : { _tag: "ModificationWithMetadata", data, metadata }
}

export const writeSetOf = (writes: ReadonlyArray<Write>, withMetadata = false): WriteSet => ({
  entries: [...new Map(writes.map(([k, v]) => [k, v] as const))]
    .map(([k, v]) => ({
      key: {
        _tag: "TableItem" as const,
        handle: addressFromNumber(0xabc),
        key: new Uint8Array([k & 0xff, k >> 8])
      },
      keyBytes: keyOf(k),
      op: opOf(v, withMetadata)
    }))
    .sort((a, b) => Buffer.compare(a.keyBytes, b.keyBytes))
})

export const stateValue = (v: number): Uint8Array => new Uint8Array([v, 7])

export const userTxn = (sender: number, sequenceNumber: bigint, nonce?: bigint): Transaction => ({
  _tag: "UserTransaction",
  signed: {
    rawTransaction: {
      sender: addressFromNumber(sender),
      sequenceNumber: nonce === undefined ? sequenceNumber : (1n << 64n) - 1n,
      payload:
        nonce === undefined
          ? {
              _tag: "EntryFunction",
              entryFunction: {
                module: { address: addressFromNumber(1), name: "m" },
                function: "f",
                typeArgs: [],
                args: []
              }
            }
          : {
              _tag: "PayloadV1",
              executable: {
                _tag: "EntryFunction",
                entryFunction: {
                  module: { address: addressFromNumber(1), name: "m" },
                  function: "f",
                  typeArgs: [],
                  args: []
                }
              },
              extraConfig: {
                multisigAddress: undefined,
                replayProtectionNonce: nonce
              }
            },
      maxGasAmount: 1000n,
      gasUnitPrice: 100n,
      expirationTimestampSecs: 9999999999n,
      chainId: 4
    },
    authenticator: {
      _tag: "Ed25519",
      publicKey: new Uint8Array(32).fill(1),
      signature: new Uint8Array(64).fill(2)
    }
  }
})

/** A non-user transaction, distinct per `n`. */
export const checkpointTxn = (n: number): Transaction => ({
  _tag: "StateCheckpoint",
  hash: new Uint8Array(32).fill(n & 0xff)
})

export const eventOf = (n: number): ContractEvent => ({
  _tag: "V2",
  typeTag: { _tag: "u64" },
  data: new Uint8Array([n])
})

export const toCommit = (
  transaction: Transaction,
  writes: ReadonlyArray<Write> = [],
  events: ReadonlyArray<ContractEvent> = [],
  withMetadata = false
): TransactionToCommit => ({
  transaction,
  writeSet: writeSetOf(writes, withMetadata),
  events,
  outcome: { gasUsed: 7n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }
})

export interface Opened {
  readonly handle: LedgerHandle
  readonly backend: LedgerBackend
}

export interface StoreKind {
  readonly name: "memory" | "lmdb"
  /** A fresh ledger (at `path` when given, for LMDB reopen tests), closed with the scope. */
  readonly open: (options?: LedgerServiceOptions, path?: string) => Effect.Effect<Opened, never, Scope.Scope>
}

export const tempDir = (): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "movenode-ledger-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

const opened = (backend: LedgerBackend, options: LedgerServiceOptions | undefined) =>
  Effect.acquireRelease(
    Effect.sync(() => ({
      backend,
      handle: makeLedgerService(backend, options)
    })),
    (o) => Effect.sync(() => o.handle.close())
  )

export const storeKinds: ReadonlyArray<StoreKind> = [
  { name: "memory", open: (options) => opened(makeMemoryBackend(), options) },
  {
    name: "lmdb",
    open: (options, path) =>
      Effect.flatMap(path === undefined ? tempDir() : Effect.succeed(path), (dir) =>
        opened(openLmdbBackend({ path: dir, sync: false }), options)
      )
  }
]
