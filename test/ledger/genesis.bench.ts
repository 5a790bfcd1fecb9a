import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, test } from "vitest"
import { decodeGenesisTransaction } from "../../src/domain/Genesis.js"
import { importGenesis } from "../../src/ledger/importGenesis.js"
import type { LedgerBackend } from "../../src/ledger/LedgerBackend.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { makeMemoryBackend } from "../../src/ledger/MemoryBackend.js"
import { makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { genesisBlob } from "./fixtures.js"

// Run: npx vitest bench --run test/ledger/genesis.bench.ts

const devnet = genesisBlob("devnet")
const dirs: string[] = []
const newDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "movenode-genesis-bench-"))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const importInto = (backend: LedgerBackend): void => {
  const handle = makeLedgerService(backend)
  Effect.runSync(importGenesis(handle, devnet))
  handle.close()
}

test("devnet genesis import", async ({ bench }) => {
  const existing = newDir()
  importInto(openLmdbBackend({ path: existing }))
  await bench.compare(
    bench("decode the blob only", () => {
      decodeGenesisTransaction(devnet)
    }),
    bench("import into memory", () => importInto(makeMemoryBackend())),
    bench("import into a new LMDB store (fsync on)", () => importInto(openLmdbBackend({ path: newDir() }))),
    bench("restart: reopen an LMDB store holding it, check its hash", () =>
      importInto(openLmdbBackend({ path: existing }))
    ),
    { iterations: 10, time: 2_000 }
  )
})
