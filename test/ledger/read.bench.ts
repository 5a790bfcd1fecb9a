import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { open } from "lmdb"
import { afterAll, test } from "vitest"
import type { StateReader } from "../../src/ledger/Ledger.js"
import type { LedgerBackend } from "../../src/ledger/LedgerBackend.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { storedStateKey } from "../../src/ledger/lmdbKeys.js"
import { LATEST_RECORD_OFFSET } from "../../src/ledger/lmdbRecords.js"
import { makeMemoryBackend } from "../../src/ledger/MemoryBackend.js"
import { type LedgerHandle, makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { checkpointTxn, keyOf, toCommit, type Write } from "./fixtures.js"

// Run: npx vitest bench --run test/ledger/read.bench.ts
// Each benchmark iteration does BATCH reads; divide the mean by BATCH for one StateReader.get.

const KEYS = 5_000
const BLOCKS = 100
const TXNS = 10
const WRITES = 50
const BATCH = 1_000

const dir = mkdtempSync(join(tmpdir(), "movenode-read-bench-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every key written at block 0; then BLOCKS blocks rewrite random keys (some deletions). */
const fill = (backend: LedgerBackend): LedgerHandle => {
  const h = makeLedgerService(backend)
  const first: Write[] = Array.from({ length: KEYS }, (_, k) => [k, k & 0xff] as const)
  Effect.runSync(
    h.service.commitBlock({
      epoch: 1n,
      timestampUsec: 0n,
      transactions: [toCommit(checkpointTxn(0), first)]
    })
  )
  let seed = 1
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed
  }
  for (let b = 0; b < BLOCKS; b++) {
    const transactions = Array.from({ length: TXNS }, (_, t) =>
      toCommit(
        checkpointTxn(b * TXNS + t),
        Array.from({ length: WRITES }, () => [rand() % KEYS, rand() % 10 === 0 ? undefined : rand() & 0xff] as const)
      )
    )
    Effect.runSync(
      h.service.commitBlock({
        epoch: 1n,
        timestampUsec: BigInt(b + 1),
        transactions
      })
    )
  }
  return h
}

const lmdb = fill(openLmdbBackend({ path: dir, sync: false }))
const memory = fill(makeMemoryBackend())
const latest = BigInt(BLOCKS * TXNS)
const keys = Array.from({ length: BATCH }, (_, i) => keyOf((i * 7919) % KEYS))
const absent = Array.from({ length: BATCH }, (_, i) => keyOf(KEYS + i))
const reader = (h: LedgerHandle, version: bigint): StateReader => Effect.runSync(h.service.stateAt(version))

const readAll = (r: StateReader, ks: ReadonlyArray<Uint8Array>) => () => {
  let n = 0
  for (const k of ks) if (r.get(k) !== undefined) n++
  return n
}

/** The point read of the `state_latest` table alone, through one raw handle (the floor of a read). */
const raw = open({ path: dir, keyEncoding: "binary", encoding: "binary", maxDbs: 16 })
const latestTable = raw.openDB<Buffer, Buffer>({ name: "state_latest", keyEncoding: "binary", encoding: "binary" })
const pointOnly = (ks: ReadonlyArray<Uint8Array>) => () => {
  let n = 0
  for (const k of ks) if (latestTable.getBinaryFast(storedStateKey(k))?.[LATEST_RECORD_OFFSET] === 1) n++
  return n
}

test("StateReader.get, 1000 reads per iteration", async ({ bench }) => {
  await bench.compare(
    bench("lmdb: at the latest version (latest-table hit)", readAll(reader(lmdb, latest), keys)),
    bench(
      "lmdb: at version 1 (index seek + the op in its record: every key rewritten later)",
      readAll(reader(lmdb, 1n), keys)
    ),
    bench("lmdb: at the middle version (mixed)", readAll(reader(lmdb, latest / 2n), keys)),
    bench("lmdb: absent keys", readAll(reader(lmdb, latest), absent)),
    bench("raw handle: state_latest point read only", pointOnly(keys)),
    bench("memory: at the latest version", readAll(reader(memory, latest), keys)),
    bench("memory: at version 1", readAll(reader(memory, 1n), keys)),
    { time: 1_500 }
  )
})
