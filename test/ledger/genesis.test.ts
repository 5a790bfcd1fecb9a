import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { chainIdStateKey, importGenesis } from "../../src/ledger/importGenesis.js"
import { Ledger } from "../../src/ledger/Ledger.js"
import * as LedgerLmdb from "../../src/ledger/LedgerLmdb.js"
import * as LedgerMemory from "../../src/ledger/LedgerMemory.js"
import { hasGenesis } from "../support/genesis.js"
import { checkpointTxn, devnetWithChainId, genesisBlob, storeKinds, tempDir, toCommit } from "./fixtures.js"

const run = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> =>
  Effect.runPromise(Effect.scoped(effect) as Effect.Effect<A, E>)

const devnet = genesisBlob("devnet")
/** Another genesis for the mismatch checks, always there (the devnet's write set with chain id 42). */
const other = devnetWithChainId(42)
const blobs = [
  ["devnet", devnet, 243, 37],
  ["devnet with chain id 42", other, 42, 37],
  ...(hasGenesis("mainnet") ? [["mainnet", genesisBlob("mainnet"), 1, 1499] as const] : [])
] as const

describe.each(storeKinds)("genesis import into the $name store", (kind) => {
  it.each(blobs)("imports %s as version 0, block 0", (_, blob, chainId, events) =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const imported = yield* importGenesis(handle, blob)
        expect(imported).toEqual({
          _tag: "Imported",
          chainId,
          block: {
            height: 0n,
            firstVersion: 0n,
            lastVersion: 0n,
            timestampUsec: 0n,
            epoch: 0n
          }
        })
        const l = handle.service
        expect(yield* l.ledgerInfo).toEqual({
          chainId,
          epoch: 0n,
          ledgerVersion: 0n,
          oldestLedgerVersion: 0n,
          ledgerTimestampUsec: 0n,
          blockHeight: 0n,
          oldestBlockHeight: 0n
        })
        const state = yield* l.stateAt(0n)
        expect(state.get(chainIdStateKey)).toEqual(new Uint8Array([chainId]))
        const genesis = yield* l.transactionByVersion(0n)
        expect(genesis.transaction._tag).toBe("GenesisTransaction")
        expect(genesis.events.length).toBe(events)
        expect((yield* l.transactionByHash(genesis.hash)).version).toBe(0n)
        // Every write of the genesis write set is readable at version 0.
        for (const entry of genesis.writeSet.entries) {
          const value = state.get(entry.keyBytes)
          if ("data" in entry.op) expect(value).toEqual(entry.op.data)
          else expect(value).toBeUndefined()
        }
        expect(yield* l.summariesBySender(addressFromNumber(1), { limit: 10 })).toEqual([])
        // Importing it again is a no-op; another genesis is refused.
        expect(yield* importGenesis(handle, blob)).toEqual({
          _tag: "AlreadyPresent"
        })
        const mismatch = yield* Effect.flip(importGenesis(handle, blob === devnet ? other : devnet))
        expect(mismatch._tag).toBe("GenesisMismatch")
        expect(mismatch.message).toContain(Buffer.from(genesis.hash).toString("hex"))
        expect((yield* l.ledgerInfo).chainId).toBe(chainId)
      })
    )
  )

  it("refuses a blob that is not a genesis transaction", () =>
    run(
      Effect.gen(function* () {
        const { handle } = yield* kind.open()
        const e = yield* Effect.flip(importGenesis(handle, devnet.subarray(0, 1000)))
        expect(e._tag).toBe("GenesisInvalid")
        expect(handle.head()).toBeUndefined()
      })
    ))
})

describe("LMDB restart", () => {
  it("reopens an existing store without re-importing, and refuses another genesis", () =>
    run(
      Effect.gen(function* () {
        const path = yield* tempDir()
        yield* Effect.scoped(
          Effect.gen(function* () {
            const h = yield* LedgerLmdb.open({
              path,
              genesis: devnet,
              sync: false
            })
            yield* h.service.commitBlock({
              epoch: 1n,
              timestampUsec: 77n,
              transactions: [toCommit(checkpointTxn(1), [[1, 1]])]
            })
          })
        )
        yield* Effect.scoped(
          Effect.gen(function* () {
            const h = yield* LedgerLmdb.open({
              path,
              genesis: devnet,
              sync: false
            })
            const info = yield* h.service.ledgerInfo
            expect([info.chainId, info.ledgerVersion, info.blockHeight, info.ledgerTimestampUsec]).toEqual([
              243,
              1n,
              1n,
              77n
            ])
            expect((yield* h.service.transactionByVersion(0n)).transaction._tag).toBe("GenesisTransaction")
          })
        )
        const e = yield* Effect.flip(Effect.scoped(LedgerLmdb.open({ path, genesis: other, sync: false })))
        expect(e._tag).toBe("GenesisMismatch")
        // Opening without a genesis blob serves what is there.
        yield* Effect.scoped(
          Effect.gen(function* () {
            const h = yield* LedgerLmdb.open({ path, sync: false })
            expect((yield* h.service.ledgerInfo).ledgerVersion).toBe(1n)
          })
        )
      })
    ))

  it("provides the Ledger service through its layers", () =>
    run(
      Effect.gen(function* () {
        const path = yield* tempDir()
        const chainId = Effect.gen(function* () {
          const l = yield* Ledger
          return (yield* l.ledgerInfo).chainId
        })
        expect(yield* Effect.provide(chainId, LedgerMemory.layer({ genesis: other }))).toBe(42)
        expect(yield* Effect.provide(chainId, LedgerLmdb.layer({ path, genesis: devnet, sync: false }))).toBe(243)
      })
    ))
})
