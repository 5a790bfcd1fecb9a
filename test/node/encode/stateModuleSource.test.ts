import { describe, expect, it } from "vitest"
import { Result } from "effect"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { StateReader } from "../../../src/ledger/Ledger.js"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import { LruCache } from "../../../src/node/LruCache.js"
import { resolveLayout } from "../../../src/move/layout/resolveLayout.js"
import {
  MODULE_CACHE_BYTES,
  makeSnapshotModules,
  moduleCache,
  stateModuleSource
} from "../../../src/node/encode/stateModuleSource.js"
import { moduleKey } from "../../../src/node/stateKeys.js"
import { loadGenesisBytes } from "../../support/genesis.js"

const ONE = addressFromNumber(1)
const rows = Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet")))
const bytesOf = (name: string) => rows.find((r) => r.address === "0x1" && r.name === name)!.bytes

/** A state reader over one module key whose stored bytes and write version the test controls. */
const fakeState = (
  version: bigint,
  stored: { bytes: Uint8Array; writtenAt: bigint } | undefined,
  reads: { n: number }
) => {
  const key = moduleKey(ONE, "chain_id")
  const match = (k: Uint8Array) => k.length === key.length && k.every((b, i) => b === key[i])
  const state: StateReader = {
    version,
    get: (k) => (match(k) && stored ? stored.bytes : undefined),
    getVersioned: (k) => {
      reads.n++
      return match(k) && stored ? { value: stored.bytes, version: stored.writtenAt } : undefined
    }
  }
  return state
}

describe("stateModuleSource with a snapshot memo", () => {
  it("reads the store once per state version, and again at a new version", () => {
    const cache = new LruCache<string, CompiledModule | null>(16)
    const snapshot = makeSnapshotModules()
    const reads = { n: 0 }
    const stored = { bytes: bytesOf("chain_id"), writtenAt: 0n }
    const at5 = stateModuleSource(fakeState(5n, stored, reads), cache, snapshot)
    const first = at5(ONE, "chain_id")
    expect(first).toBeDefined()
    expect(at5(ONE, "chain_id")).toBe(first)
    expect(at5(ONE, "missing")).toBeUndefined()
    expect(at5(ONE, "missing")).toBeUndefined()
    expect(reads.n).toBe(2) // chain_id once, missing once
    const at6 = stateModuleSource(fakeState(6n, stored, reads), cache, snapshot)
    expect(at6(ONE, "chain_id")).toBe(first) // re-read (new version), decoded module reused (same write version)
    expect(reads.n).toBe(3)
  })

  it("readers naming the same modules (`codeSnapshotId`) share lookups and layouts across versions; another name starts afresh", () => {
    const cache = new LruCache<string, CompiledModule | null>(16)
    const snapshot = makeSnapshotModules()
    const reads = { n: 0 }
    const named = (version: bigint, code: string, stored: { bytes: Uint8Array; writtenAt: bigint }): StateReader => ({
      ...fakeState(version, stored, reads),
      codeSnapshotId: code
    })
    const original = { bytes: bytesOf("chain_id"), writtenAt: 0n }
    const chainId = {
      _tag: "struct" as const,
      struct: { address: ONE, module: "chain_id", name: "ChainId", typeArgs: [] }
    }
    const at5 = stateModuleSource(named(5n, "0/code@0", original), cache, snapshot)
    const layout = Result.getOrThrow(resolveLayout(at5, chainId))
    expect(reads.n).toBe(1)
    // Another version, the same modules: no store read, the same layout object.
    const at6 = stateModuleSource(named(6n, "0/code@0", original), cache, snapshot)
    expect(resolveLayout(at6, chainId)).toEqual(Result.succeed(layout))
    expect(Result.getOrThrow(resolveLayout(at6, chainId))).toBe(layout)
    expect(at6(ONE, "chain_id")).toBe(at5(ONE, "chain_id"))
    expect(reads.n).toBe(1)
    // A module written at 7 (a stand-in for an upgrade: other bytes under the name): read afresh.
    const at7 = stateModuleSource(named(7n, "0/code@7", { bytes: bytesOf("guid"), writtenAt: 7n }), cache, snapshot)
    expect(Result.isFailure(resolveLayout(at7, chainId))).toBe(true)
    expect(reads.n).toBe(2)
    // Interleaved with a source over the older modules: each sees its own.
    expect(Result.isSuccess(resolveLayout(at5, chainId))).toBe(true)
    expect(Result.isFailure(resolveLayout(at7, chainId))).toBe(true)
    expect(at7(ONE, "chain_id")!.identifiers).toContain("guid")
    expect(at5(ONE, "chain_id")!.identifiers).not.toContain("guid")
  })

  it("sees an upgrade at the version that wrote it, never a stale module", () => {
    const cache = new LruCache<string, CompiledModule | null>(16)
    const snapshot = makeSnapshotModules()
    const reads = { n: 0 }
    const before = stateModuleSource(
      fakeState(5n, { bytes: bytesOf("chain_id"), writtenAt: 0n }, reads),
      cache,
      snapshot
    )
    const old = before(ONE, "chain_id")!
    // Same name, different bytes written at version 6 (a stand-in for an upgrade).
    const after = stateModuleSource(fakeState(6n, { bytes: bytesOf("guid"), writtenAt: 6n }, reads), cache, snapshot)
    const upgraded = after(ONE, "chain_id")!
    expect(upgraded).not.toBe(old)
    expect(upgraded.identifiers).toContain("guid")
    // Reading at the old version again (an older ledger_version) gets the old module back.
    const again = stateModuleSource(
      fakeState(5n, { bytes: bytesOf("chain_id"), writtenAt: 0n }, reads),
      cache,
      snapshot
    )
    expect(again(ONE, "chain_id")).toBe(old)
  })
  it("after the ledger went back, a module written again at the same version is read, not the one it replaced", () => {
    const cache = new LruCache<string, CompiledModule | null>(16)
    const reads = { n: 0 }
    const at = (generation: number, bytes: Uint8Array, snapshot = makeSnapshotModules()) =>
      stateModuleSource({ ...fakeState(5n, { bytes, writtenAt: 5n }, reads), generation }, cache, snapshot)
    const first = at(0, bytesOf("chain_id"))(ONE, "chain_id")!
    // A revert, then other bytes under the name, written at the same version (and one shared memo).
    const snapshot = makeSnapshotModules()
    const second = at(1, bytesOf("guid"), snapshot)(ONE, "chain_id")!
    expect(second.identifiers).toContain("guid")
    expect(first.identifiers).not.toContain("guid")
    // Within a generation the decoded module is kept as before.
    expect(at(1, bytesOf("guid"))(ONE, "chain_id")).toBe(second)
    expect(at(0, bytesOf("chain_id"))(ONE, "chain_id")).toBe(first)
  })

  it("one module name at many addresses: each answered right, only the first 16 remembered", () => {
    const cache = new LruCache<string, CompiledModule | null>(16)
    const snapshot = makeSnapshotModules()
    const reads = { n: 0 }
    const source = stateModuleSource(
      fakeState(5n, { bytes: bytesOf("chain_id"), writtenAt: 0n }, reads),
      cache,
      snapshot
    )
    const addresses = Array.from({ length: 20 }, (_, i) => addressFromNumber(i + 1))
    for (let round = 0; round < 2; round++)
      for (const a of addresses) expect(source(a, "chain_id") !== undefined).toBe(a[31] === 1)
    expect(reads.n).toBe(16 + 2 * 4)
  })
})

describe("moduleCache", () => {
  it("weighs each decoded module by its bytecode, within MODULE_CACHE_BYTES whatever the modules' count", () => {
    const cache = moduleCache(1024)
    // Every framework module under a key of its own, five times over (as many large modules would).
    const modules = rows.filter((r) => r.address === "0x1")
    let bytes = 0
    for (let round = 0; round < 5; round++)
      for (const m of modules) {
        const stored = { bytes: m.bytes, writtenAt: BigInt(round) }
        const key = moduleKey(ONE, m.name)
        const state: StateReader = {
          version: 10n,
          get: () => undefined,
          getVersioned: (k) =>
            k.length === key.length && k.every((b, i) => b === key[i])
              ? { value: stored.bytes, version: stored.writtenAt }
              : undefined
        }
        expect(stateModuleSource(state, cache)(ONE, m.name)).toBeDefined()
        bytes += m.bytes.length
      }
    expect(cache.totalWeight).toBeLessThanOrEqual(MODULE_CACHE_BYTES)
    // 5 × 0x1's bytecode at ~21 heap bytes a byte is more than the budget: some were evicted, by weight.
    expect(bytes * 21).toBeGreaterThan(MODULE_CACHE_BYTES)
    expect(cache.size).toBeLessThan(5 * modules.length)
    expect(cache.totalWeight).toBeGreaterThan(MODULE_CACHE_BYTES / 2)
  })
})
