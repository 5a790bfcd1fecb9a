/**
 * The loader's cache is bounded by the bytecode of its modules (`maxCachedBytecode`): a run that
 * starts past the bound drops the modules least recently checked. What matters: memory stays
 * bounded however many modules are reached (a fork's views reach the whole network), and dropping
 * changes no outcome — not even inside a transaction, whose prologue, payload and epilogue are
 * separate runs of one session and may see a struct loaded twice.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { parseAddress } from "../../../src/domain/AccountAddress.js"
import { executeTransaction } from "../../../src/execution/executeTransaction.js"
import type { TransactionOutput } from "../../../src/execution/TransactionOutput.js"
import { listGenesisModules } from "../../../src/move/abi/genesisModules.js"
import type { ModuleDecoder } from "../../../src/move/vm/Loader.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { sharedModuleDecoder } from "../../../src/move/vm/sharedModuleDecoder.js"
import type { StateView } from "../../../src/move/vm/StateView.js"
import { loadGenesisBytes } from "../../support/genesis.js"
import {
  addressOf,
  applied,
  devnetView,
  ROOT,
  signed,
  stringify,
  transferPayload,
  vm as unbounded
} from "../../execution/fixtures.js"

const modules = Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet")))

describe("the loader's bound on cached bytecode", () => {
  it("loading every framework module keeps the cache within the bound and one run's modules", () => {
    const bound = 64 * 1024
    const vm = new MoveVm({ maxCachedBytecode: bound })
    const view = devnetView()
    const largest = Math.max(...modules.map((m) => m.bytes.length))
    let loaded = 0
    for (const m of modules) {
      const address = Result.getOrThrow(parseAddress(m.address))
      const got = vm.loader.withView(view, () => vm.loader.tryLoad(address, m.name))
      expect(got?.id.name).toBe(m.name)
      loaded += m.bytes.length
      expect(vm.loader.cachedBytes).toBeLessThanOrEqual(bound + largest)
    }
    // The framework is far larger than the bound: without it the cache would hold it all.
    expect(loaded).toBeGreaterThan(10 * bound)
    const all = new MoveVm()
    for (const m of modules) {
      const address = Result.getOrThrow(parseAddress(m.address))
      all.loader.withView(view, () => all.loader.tryLoad(address, m.name))
    }
    expect(all.loader.cachedBytes).toBe(loaded)
  })

  /** The outputs of `count` transfers from 0xa550c18, each applied before the next. */
  const transfers = (vm: MoveVm, count: number): TransactionOutput[] => {
    let view: StateView = devnetView()
    const outs: TransactionOutput[] = []
    for (let i = 0; i < count; i++) {
      const txn = signed(ROOT, transferPayload(addressOf(100 + (i % 3)), 1_000n + BigInt(i)), {
        sequenceNumber: BigInt(i)
      })
      const out = executeTransaction(vm, view, txn, { simulation: true })
      outs.push(out)
      view = applied(view, out)
    }
    return outs
  }

  it("transfers under a bound that drops modules between every run commit what an unbounded VM commits", () => {
    // One byte: every outermost run starts by dropping the cache, so the prologue, the payload and
    // the epilogue of each transaction load their modules afresh, as new objects.
    let decoded = 0
    const decode: ModuleDecoder = (bytes) => {
      decoded++
      return sharedModuleDecoder(bytes)
    }
    const tiny = new MoveVm({ maxCachedBytecode: 1, decode })
    const got = transfers(tiny, 4)
    const want = transfers(unbounded, 4)
    // Modules were loaded again and again (a loaded module is decoded once while it stays cached).
    expect(decoded).toBeGreaterThan(4 * tiny.loader.cachedModules)
    for (const out of got) expect(out.status).toEqual({ _tag: "Keep", status: { _tag: "Success" } })
    expect(stringify(got)).toBe(stringify(want))
  })
})
