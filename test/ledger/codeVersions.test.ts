import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import * as fc from "fast-check"
import { open } from "lmdb"
import { describe, expect, it } from "vitest"
import { Bcs } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import type { StateKey } from "../../src/domain/StateKey.js"
import type { Transaction } from "../../src/domain/Transaction.js"
import { type WriteSet, writesModule } from "../../src/domain/WriteSet.js"
import type { BlockToCommit, LedgerMark, LedgerService } from "../../src/ledger/Ledger.js"
import type { LedgerBackend } from "../../src/ledger/LedgerBackend.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { makeMemoryBackend } from "../../src/ledger/MemoryBackend.js"
import { stateViewFromReader } from "../../src/move/vm/StateView.js"
import { type LedgerHandle, makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { stateKey } from "../domain/arbitraries.js"

/**
 * The record of module writes (src/ledger/codeVersions.ts): a reader's `codeSnapshotId` names the
 * modules it sees, and caches of loaded modules trust it (the VM's loader, the renderer's module
 * lookups). What must hold: two readers with the same name read the same modules, through commits,
 * rewinds, loads and restarts; and the name stays the same between module writes (else it would
 * save nothing).
 */

const keyBytesOf = (k: StateKey): Uint8Array => Bcs.encode(stateKeyCodec, k)
const MODULES = 2
/** Module `i` of 0x1 (`m0`, `m1`), or a table item standing for any other state. */
const moduleStateKey = (i: number): StateKey => ({
  _tag: "AccessPath",
  address: addressFromNumber(1),
  path: { _tag: "Code", module: { address: addressFromNumber(1), name: `m${i}` } }
})
const otherStateKey = (i: number): StateKey => ({
  _tag: "TableItem",
  handle: addressFromNumber(0xabc),
  key: new Uint8Array([i])
})
const moduleKey = (i: number) => keyBytesOf(moduleStateKey(i))

describe("writesModule", () => {
  const ws = (...keys: StateKey[]): WriteSet => ({
    entries: keys.map((key) => ({ key, keyBytes: keyBytesOf(key), op: { _tag: "Deletion" } }))
  })
  it("is true exactly for an access path to code", () =>
    fc.assert(
      fc.property(stateKey, (k) => {
        expect(writesModule(ws(k))).toBe(k._tag === "AccessPath" && k.path._tag === "Code")
      }),
      { numRuns: 500 }
    ))

  it("looks at every entry of the write set", () => {
    expect(writesModule(ws())).toBe(false)
    expect(writesModule(ws(otherStateKey(1), otherStateKey(2)))).toBe(false)
    expect(writesModule(ws(otherStateKey(1), moduleStateKey(0)))).toBe(true)
  })
})

describe("a VM view over a ledger reader", () => {
  it("names its modules as the reader does, only when it names its state (a snapshot)", () => {
    const reader = { get: () => undefined, getVersioned: () => undefined, codeSnapshotId: "0/code@3" }
    expect(stateViewFromReader(reader, 5n).codeSnapshot).toBe("0/code@3")
    expect(stateViewFromReader(reader).codeSnapshot).toBeUndefined()
    expect(stateViewFromReader({ ...reader, codeSnapshotId: undefined }, 5n).codeSnapshot).toBeUndefined()
  })
})

/** A transaction: which modules it writes (a value or a deletion), and whether it writes other state. */
type Txn = { readonly modules: ReadonlyArray<readonly [number, number | undefined]>; readonly other: boolean }
const txnArb: fc.Arbitrary<Txn> = fc.record({
  modules: fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(fc.nat(MODULES - 1), fc.option(fc.nat(255), { nil: undefined })), { maxLength: 2 })
    }
  ),
  other: fc.boolean()
})
const blocksArb = fc.array(fc.array(txnArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 })

let unique = 0
/** A non-user transaction with a hash of its own. */
const checkpoint = (): Transaction => {
  const hash = new Uint8Array(32)
  new DataView(hash.buffer).setUint32(0, ++unique)
  new DataView(hash.buffer).setUint32(4, process.pid)
  return { _tag: "StateCheckpoint", hash }
}

const blocksOf = (timestampUsec: bigint, blocks: ReadonlyArray<ReadonlyArray<Txn>>): BlockToCommit[] =>
  blocks.map((b, i) => ({
    epoch: 1n,
    timestampUsec: timestampUsec + BigInt(i) + 1n,
    transactions: b.map((t) => {
      const writes = new Map<string, { key: StateKey; value: number | undefined }>()
      for (const [m, v] of t.modules) writes.set(`m${m}`, { key: moduleStateKey(m), value: v })
      if (t.other) writes.set("other", { key: otherStateKey(unique % 7), value: unique % 256 })
      const entries = [...writes.values()]
        .map(({ key, value }) => ({ key, keyBytes: keyBytesOf(key), value }))
        .sort((a, b) => Buffer.compare(a.keyBytes, b.keyBytes))
        .map(({ key, keyBytes, value }) => ({
          key,
          keyBytes,
          op:
            value === undefined
              ? ({ _tag: "Deletion" } as const)
              : ({ _tag: "Modification", data: new Uint8Array([value, 1]) } as const)
        }))
      return {
        transaction: checkpoint(),
        writeSet: { entries },
        events: [],
        outcome: { gasUsed: 0n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }
      }
    })
  }))

const commitAll = (l: LedgerService, blocks: ReadonlyArray<ReadonlyArray<Txn>>) =>
  Effect.gen(function* () {
    const info = yield* Effect.orElseSucceed(l.ledgerInfo, () => ({ ledgerTimestampUsec: 0n }))
    for (const b of blocksOf(info.ledgerTimestampUsec, blocks)) yield* l.commitBlock(b)
  })

/** Every version's code name and module values. */
const codeByVersion = (l: LedgerService) =>
  Effect.gen(function* () {
    const info = yield* l.ledgerInfo
    const out: Array<{ readonly name: string | undefined; readonly modules: string; readonly wrote: boolean }> = []
    for (let v = 0n; v <= info.ledgerVersion; v++) {
      const state = yield* l.stateAt(v)
      const t = yield* l.transactionByVersion(v)
      out.push({
        name: state.codeSnapshotId,
        modules: JSON.stringify(
          Array.from({ length: MODULES }, (_, i) => state.getVersioned(moduleKey(i)) ?? null),
          (_, x) => (typeof x === "bigint" ? String(x) : x instanceof Uint8Array ? Array.from(x) : x)
        ),
        wrote: writesModule(t.writeSet)
      })
    }
    return out
  })

/** Equal names ⇒ equal modules; and where the record covers two neighbours, no module write ⇒ the same name. */
const checkNames = (
  rows: ReadonlyArray<{ readonly name: string | undefined; readonly modules: string; readonly wrote: boolean }>
) => {
  const byName = new Map<string, string>()
  for (const r of rows) {
    if (r.name === undefined) continue
    const seen = byName.get(r.name)
    if (seen === undefined) byName.set(r.name, r.modules)
    else expect(r.modules).toBe(seen)
  }
  for (let v = 1; v < rows.length; v++) {
    const [a, b] = [rows[v - 1]!, rows[v]!]
    if (a.name !== undefined && b.name !== undefined && !b.wrote) expect(b.name).toBe(a.name)
    if (b.wrote) expect(b.name).not.toBe(a.name)
  }
}

type Op =
  | { readonly _tag: "commit"; readonly blocks: ReadonlyArray<ReadonlyArray<Txn>> }
  | { readonly _tag: "mark" }
  | { readonly _tag: "rewind"; readonly pick: number }
  | { readonly _tag: "replace"; readonly pick: number; readonly blocks: ReadonlyArray<ReadonlyArray<Txn>> }
  | { readonly _tag: "reopen" }
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("commit" as const), blocks: blocksArb }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("replace" as const), pick: fc.nat(), blocks: blocksArb }) },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("mark" as const) }) },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("rewind" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("reopen" as const) }) }
)

const kinds = [
  { name: "memory", lmdb: false, open: (_path: string): LedgerBackend => makeMemoryBackend() },
  { name: "lmdb", lmdb: true, open: (path: string): LedgerBackend => openLmdbBackend({ path, sync: false }) },
  { name: "fsync'd lmdb", lmdb: true, open: (path: string): LedgerBackend => openLmdbBackend({ path, sync: true }) }
]

describe.each(kinds)("module writes recorded by the $name store", (kind) => {
  it("readers with the same code name read the same modules, through commits, rewinds, loads and restarts; the name changes only with a module write", () =>
    fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), (ops) =>
        Effect.runPromise(
          Effect.gen(function* () {
            const dir = mkdtempSync(join(tmpdir(), "movenode-code-"))
            const opened: LedgerHandle[] = []
            const reopen = () => {
              const h = makeLedgerService(kind.open(dir))
              opened.push(h)
              return h
            }
            // Names seen before every rewind: a name is never reused for other modules.
            const seen: Array<{
              readonly name: string | undefined
              readonly modules: string
              readonly wrote: boolean
            }> = []
            try {
              let handle = reopen()
              let l = handle.service
              const marks: LedgerMark[] = []
              yield* commitAll(l, [[{ modules: [[0, 1]], other: true }]])
              for (const op of ops) {
                if (op._tag === "commit") yield* commitAll(l, op.blocks)
                else if (op._tag === "mark") marks.push(yield* l.rewind!.mark)
                else if (op._tag === "rewind" || op._tag === "replace") {
                  if (marks.length === 0) continue
                  const at = op.pick % marks.length
                  const m = marks[at]!
                  marks.length = at
                  seen.push(...(yield* codeByVersion(l)))
                  if (op._tag === "rewind") yield* l.rewind!.rewindTo(m)
                  else yield* l.rewind!.replaceAfter(m, blocksOf(m.timestampUsec, op.blocks))
                } else if (kind.lmdb) {
                  handle.close()
                  handle = reopen()
                  l = handle.service
                }
              }
              const rows = yield* codeByVersion(l)
              // A store recorded from its first version names every version.
              expect(rows.every((r) => r.name !== undefined)).toBe(true)
              checkNames(rows)
              const names = new Map<string, string>()
              for (const r of [...seen, ...rows])
                if (r.name !== undefined) {
                  const was = names.get(r.name)
                  if (was === undefined) names.set(r.name, r.modules)
                  else expect(r.modules).toBe(was)
                }
            } finally {
              for (const h of opened) h.close()
              rmSync(dir, { recursive: true, force: true })
            }
          })
        )
      ),
      { numRuns: kind.lmdb ? 40 : 100 }
    ))
})

/** The store's `meta` and `code_writes` tables through a second handle (as another program would). */
const editStore = (
  path: string,
  edit: (meta: { put: (k: string, v: Buffer) => void; remove: (k: string) => void }, clearWrites: () => void) => void
) => {
  const root = open({ path, keyEncoding: "binary", encoding: "binary", maxDbs: 16, noSubdir: false })
  try {
    const meta = root.openDB<Buffer, Buffer>({ name: "meta", keyEncoding: "binary", encoding: "binary" })
    const writes = root.openDB<Buffer, Buffer>({ name: "code_writes", keyEncoding: "binary", encoding: "binary" })
    root.transactionSync(() =>
      edit({ put: (k, v) => meta.putSync(Buffer.from(k), v), remove: (k) => meta.removeSync(Buffer.from(k)) }, () => {
        for (const k of Array.from(writes.getKeys())) writes.removeSync(k)
      })
    )
  } finally {
    void root.close()
  }
}
const u64be = (v: bigint) => {
  const b = Buffer.alloc(8)
  b.writeBigUInt64BE(v)
  return b
}

describe("an LMDB store without the record", () => {
  const withStore = (
    body: (dir: string, reopen: () => LedgerService, close: () => void) => Effect.Effect<void, unknown>
  ) =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "movenode-code-old-"))
      const opened: LedgerHandle[] = []
      const close = () => {
        for (const h of opened.splice(0)) h.close()
      }
      const reopen = () => {
        close()
        const h = makeLedgerService(openLmdbBackend({ path: dir, sync: false }))
        opened.push(h)
        return h.service
      }
      try {
        yield* body(dir, reopen, close)
      } finally {
        for (const h of opened) h.close()
        rmSync(dir, { recursive: true, force: true })
      }
    })

  /** Two blocks (the first publishes) committed with the record kept; the store closed; its head. */
  const twoBlocksThenClosed = (reopen: () => LedgerService, close: () => void) =>
    Effect.gen(function* () {
      const l = reopen()
      yield* commitAll(l, [[{ modules: [[0, 1]], other: true }], [{ modules: [], other: true }]])
      const head = (yield* l.ledgerInfo).ledgerVersion
      expect((yield* l.stateAt(head)).codeSnapshotId).toBeDefined()
      close()
      return head
    })

  it("made before it: its versions have no name, the versions after its next opening do", () =>
    Effect.runPromise(
      withStore((dir, reopen, close) =>
        Effect.gen(function* () {
          const head = yield* twoBlocksThenClosed(reopen, close)
          // As a store written before the record existed: no `code_*` entries at all.
          editStore(dir, (meta, clearWrites) => {
            meta.remove("code_from")
            meta.remove("code_through")
            clearWrites()
          })
          const l = reopen()
          for (let v = 0n; v <= head; v++) expect((yield* l.stateAt(v)).codeSnapshotId).toBeUndefined()
          yield* commitAll(l, [
            [{ modules: [], other: true }],
            [
              { modules: [[1, 5]], other: false },
              { modules: [], other: true }
            ]
          ])
          const rows = (yield* codeByVersion(l)).slice(Number(head) + 1)
          expect(rows.every((r) => r.name !== undefined)).toBe(true)
          checkNames(rows)
          expect(new Set(rows.map((r) => r.name)).size).toBe(2) // before and after the module write
        })
      )
    ))

  it("written by a program that kept no record (its `code_through` behind the head): recorded again from the next version", () =>
    Effect.runPromise(
      withStore((dir, reopen, close) =>
        Effect.gen(function* () {
          const head = yield* twoBlocksThenClosed(reopen, close)
          // The last block as if committed by an older movenode: the record stops before it.
          editStore(dir, (meta) => meta.put("code_through", u64be(head - 1n)))
          const l = reopen()
          for (let v = 0n; v <= head; v++) expect((yield* l.stateAt(v)).codeSnapshotId).toBeUndefined()
          yield* commitAll(l, [[{ modules: [], other: true }]])
          expect((yield* l.stateAt(head + 1n)).codeSnapshotId).toBeDefined()
        })
      )
    ))
})
