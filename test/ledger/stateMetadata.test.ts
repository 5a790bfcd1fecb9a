/**
 * Slot metadata (storage deposits, creation time) persisted with state values: a slot created in
 * one block and deleted in a later one refunds the deposit recorded at its creation, through the
 * executor and both ledger stores (reads at each version, and after an LMDB store is reopened);
 * the LMDB format bump (2 → 3) and what an older store does.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter } from "../../src/bcs/index.js"
import type { SignedTransaction } from "../../src/domain/Transaction.js"
import type { StateValueMetadata, WriteSetEntry } from "../../src/domain/WriteSet.js"
import { executeTransaction } from "../../src/execution/executeTransaction.js"
import type { TransactionOutput } from "../../src/execution/TransactionOutput.js"
import { open } from "lmdb"
import { importGenesis } from "../../src/ledger/importGenesis.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { LEDGER_FORMAT } from "../../src/ledger/lmdbRecords.js"
import type { LedgerService, TransactionToCommit } from "../../src/ledger/Ledger.js"
import { stateViewFromReader } from "../../src/move/vm/StateView.js"
import { counterModule, packageMetadata } from "../execution/bytecode.js"
import { entry, ROOT, signed, stringify, vm } from "../execution/fixtures.js"
import { genesisBlob, storeKinds, tempDir } from "./fixtures.js"

const isCounter = (e: WriteSetEntry): boolean =>
  e.key._tag === "AccessPath" && e.key.path._tag === "Resource" && e.key.path.struct.name === "Counter"

const refundOf = (out: TransactionOutput): bigint => {
  const last = out.events[out.events.length - 1]!
  const r = new BcsReader(last.data)
  for (let i = 0; i < 4; i++) r.u64()
  return r.u64()
}

const toCommit = (out: TransactionOutput, txn: SignedTransaction): TransactionToCommit => {
  if (out.status._tag !== "Keep" || out.status.status._tag !== "Success") throw new Error(stringify(out.vmStatus))
  return {
    transaction: { _tag: "UserTransaction", signed: txn },
    writeSet: out.writeSet,
    events: out.events,
    outcome: { gasUsed: out.gasUsed, status: out.status.status, vmStatus: "Executed successfully" }
  }
}

/** Simulates `txn` on the ledger's latest state and commits its output as a block of its own. */
const executeAndCommit = (ledger: LedgerService, txn: SignedTransaction) =>
  Effect.gen(function* () {
    const info = yield* ledger.ledgerInfo
    const state = yield* ledger.stateAt(info.ledgerVersion)
    const out = executeTransaction(vm, stateViewFromReader(state, info.ledgerVersion), txn, { simulation: true })
    yield* ledger.commitBlock({
      epoch: 1n,
      timestampUsec: info.ledgerTimestampUsec + 1n,
      transactions: [toCommit(out, txn)]
    })
    return out
  })

const publish = signed(
  ROOT,
  entry("code", "publish_package_txn", [
    new BcsWriter().bytesWithLength(packageMetadata("counter", ["counter"])).toBytes(),
    new BcsWriter().uleb128(1).bytesWithLength(counterModule(ROOT)).toBytes()
  ])
)
const bump = signed(ROOT, entry("counter", "bump", [], [], ROOT), { sequenceNumber: 1n })
const remove = signed(ROOT, entry("counter", "remove", [], [], ROOT), { sequenceNumber: 2n })

/** Publishes the counter (its `init_module` creates the slot) and bumps it, a block each. */
const createAndModify = (ledger: LedgerService) =>
  Effect.gen(function* () {
    const published = yield* executeAndCommit(ledger, publish)
    const created = published.writeSet.entries.find(isCounter)!
    if (created.op._tag !== "CreationWithMetadata" || created.op.metadata._tag !== "V1")
      throw new Error(stringify(created.op))
    const metadata = created.op.metadata
    expect(metadata.slotDeposit).toBeGreaterThan(0n)
    // Read back from the ledger at the version that wrote it, and through the VM's view.
    const state = yield* ledger.stateAt(1n)
    expect(state.metadata?.(created.keyBytes)).toEqual(metadata)
    expect(stateViewFromReader(state).stateValueMetadata?.(created.keyBytes)).toEqual(metadata)
    expect((yield* ledger.stateAt(0n)).metadata?.(created.keyBytes)).toBeUndefined()
    // A modification in a later block carries the recorded deposit on, and pays none again.
    const bumped = yield* executeAndCommit(ledger, bump)
    expect(bumped.writeSet.entries.find(isCounter)?.op).toMatchObject({ _tag: "ModificationWithMetadata", metadata })
    expect((yield* ledger.stateAt(2n)).metadata?.(created.keyBytes)).toEqual(metadata)
    return { keyBytes: created.keyBytes, metadata }
  })

/** Deletes it in a later block: the refund is the deposit recorded two blocks before. */
const deleteAndRefund = (ledger: LedgerService, created: { keyBytes: Uint8Array; metadata: V1 }) =>
  Effect.gen(function* () {
    const removed = yield* executeAndCommit(ledger, remove)
    expect(removed.writeSet.entries.find(isCounter)?.op._tag).toBe("DeletionWithMetadata")
    expect(refundOf(removed)).toBe(created.metadata.slotDeposit + created.metadata.bytesDeposit)
    expect((yield* ledger.stateAt(3n)).metadata?.(created.keyBytes)).toBeUndefined()
    expect((yield* ledger.stateAt(2n)).metadata?.(created.keyBytes)).toEqual(created.metadata)
  })

type V1 = Extract<StateValueMetadata, { _tag: "V1" }>

describe.each(storeKinds)("state-value metadata in the $name store", (kind) => {
  it("a deposit recorded in one block is kept by a modification and refunded by a deletion blocks later", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const dir = yield* tempDir()
          const fresh = Effect.gen(function* () {
            const { handle } = yield* kind.open({}, dir)
            yield* importGenesis(handle, genesisBlob("devnet"))
            return handle.service
          })
          if (kind.name === "memory")
            return yield* Effect.flatMap(fresh, (ledger) =>
              Effect.flatMap(createAndModify(ledger), (created) => deleteAndRefund(ledger, created))
            )
          // LMDB: the metadata survives closing and reopening the store.
          const created = yield* Effect.scoped(Effect.flatMap(fresh, createAndModify))
          yield* Effect.scoped(
            Effect.flatMap(kind.open({}, dir), (reopened) => deleteAndRefund(reopened.handle.service, created))
          )
        })
      )
    ))
})

/** Rewrites the head's format byte of the (closed) LMDB store at `dir`. */
const setFormat = (dir: string, format: number): number => {
  const root = open({ path: dir, keyEncoding: "binary", encoding: "binary", maxDbs: 16, noSubdir: false })
  const meta = root.openDB<Buffer, Buffer>({ name: "meta", keyEncoding: "binary", encoding: "binary" })
  const head = Buffer.from(meta.getBinary(Buffer.from("head"))!)
  const was = head[0]!
  head[0] = format
  meta.putSync(Buffer.from("head"), head)
  void root.close()
  return was
}

describe("the LMDB format", () => {
  const withStore = <A, E>(dir: string, f: (ledger: LedgerService) => Effect.Effect<A, E>) =>
    Effect.scoped(Effect.flatMap(storeKinds[1]!.open({}, dir), ({ handle }) => f(handle.service)))

  it("a store of an older format (2 to 5) or an unknown one is refused with a message, and left as it was", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const dir = yield* tempDir()
          yield* Effect.scoped(
            Effect.flatMap(storeKinds[1]!.open({}, dir), ({ handle }) =>
              Effect.andThen(importGenesis(handle, genesisBlob("devnet")), () =>
                executeAndCommit(handle.service, publish)
              )
            )
          )
          expect(setFormat(dir, 3)).toBe(LEDGER_FORMAT)
          for (const [format, message] of [
            [
              2,
              /ledger format 2, this movenode reads format 6 \(format 4 stores .*\): open a new data directory, or start the local chain with --fresh/
            ],
            [3, /ledger format 3, this movenode reads format 6 \(format 4 stores/],
            [
              4,
              /ledger format 4, this movenode reads format 6 \(format 4 stores a transfer .*, formats 5 and 6 an idle block in less; nothing is migrated\)/
            ],
            [5, /ledger format 5, this movenode reads format 6 \(format 4 stores/],
            [9, /ledger format 9, this movenode reads format 6: open a new data directory/]
          ] as const) {
            setFormat(dir, format)
            const refused = yield* Effect.flip(
              Effect.try({ try: () => openLmdbBackend({ path: dir, sync: false }), catch: (e) => String(e) })
            )
            expect(refused).toMatch(message)
          }
          // The refused opens released the directory and changed nothing: set back, it opens as before.
          setFormat(dir, LEDGER_FORMAT)
          yield* withStore(dir, (ledger) =>
            Effect.map(ledger.ledgerInfo, (info) => expect(info.ledgerVersion).toBe(1n))
          )
        })
      )
    ))
})
