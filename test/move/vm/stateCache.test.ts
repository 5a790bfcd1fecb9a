/**
 * The VM's per-snapshot state cache: runs naming a snapshot share what earlier runs read at it. It
 * must change nothing observable: same values, aborts, errors and gas as reading state every time,
 * and a run's mutations of what it read never reach another run (copy on read).
 */
import { assert, describe, it } from "@effect/vitest"
import { BcsWriter } from "../../../src/bcs/index.js"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import type { GasMeter } from "../../../src/move/vm/GasMeter.js"
import { meterFor, readGasSchedule } from "../../../src/move/vm/GasSchedule.js"
import { type CallOutcome, MoveVm } from "../../../src/move/vm/MoveVm.js"
import { Session } from "../../../src/move/vm/Session.js"
import type { SessionId } from "../../../src/move/vm/SessionId.js"
import { StateCache } from "../../../src/move/vm/StateCache.js"
import { stateViewFromReader } from "../../../src/move/vm/StateView.js"
import { K, type StructKind, substitute, type Type, typeName } from "../../../src/move/vm/Type.js"
import { StructValue } from "../../../src/move/vm/Value.js"
import { serializeValue } from "../../../src/move/vm/ValueBcs.js"
import { genesisState } from "./genesisState.js"
import { sampleTypeArgs, sampleValue } from "./viewCoverage.js"

const ONE = addressFromNumber(1)
const devnet = genesisState("devnet")
const view = stateViewFromReader(devnet.reader, 0n)
const vm = new MoveVm()
const struct = (module: string, name: string, typeArgs: TypeTag[] = []): TypeTag => ({
  _tag: "struct",
  struct: { address: ONE, module, name, typeArgs }
})
const typeOf = (tag: TypeTag): StructKind => vm.loader.withView(view, () => vm.typeFromTag(tag)) as StructKind
const schedule = readGasSchedule(view)
/** Sessions decode through the loader (struct layouts load lazily), as inside `MoveVm.call`. */
const inView = (f: () => void): void => vm.loader.withView(view, f)
const meter = (): GasMeter => meterFor(schedule, 2_000_000n)

/** Resources of each kind: stored alone, a resource group member, and absent. */
const samples: ReadonlyArray<{ readonly address: Uint8Array; readonly type: StructKind }> = [
  { address: ONE, type: typeOf(struct("chain_id", "ChainId")) },
  { address: addressFromNumber(0xa), type: typeOf(struct("object", "ObjectCore")) },
  { address: addressFromNumber(0xa), type: typeOf(struct("fungible_asset", "Metadata")) },
  { address: ONE, type: typeOf(struct("coin", "CoinInfo", [struct("aptos_coin", "AptosCoin")])) },
  {
    address: addressFromNumber(0xa550c18),
    type: typeOf(struct("coin", "CoinStore", [struct("aptos_coin", "AptosCoin")]))
  }
]

/** What a caller sees of an outcome (return types by name: each VM loads its own type objects). */
const observable = (o: CallOutcome) => {
  switch (o._tag) {
    case "Success":
      return { ...o, returnTypes: o.returnTypes.map(typeName) }
    case "Abort":
      return o
    case "Error":
      return { ...o, error: { status: o.error.status, detail: o.error.detail, location: o.error.location } }
  }
}

describe("the state cache", () => {
  it("charges reads and memory exactly as uncached reads, cold and warm", () =>
    inView(() => {
      const cache = new StateCache().at(0n)
      for (const { address, type } of samples) {
        const plain = meter()
        const direct = new Session(view, plain).resource(address, type).box[0]
        for (const round of ["cold", "warm"]) {
          const g = meter()
          const got = new Session(view, g, cache).resource(address, type).box[0]
          assert.deepStrictEqual(got, direct, `${type.def.name} ${round}`)
          assert.strictEqual(g.balance, plain.balance, `${type.def.name} ${round}: gas`)
          assert.strictEqual(g.memory, plain.memory, `${type.def.name} ${round}: memory`)
        }
      }
    }))

  it("hands each session its own copy: mutations in one run never reach the next", () =>
    inView(() => {
      const cache = new StateCache().at(0n)
      for (const { address, type } of samples) {
        const original = new Session(view, meter()).resource(address, type).box[0]
        const first = new Session(view, meter(), cache).resource(address, type)
        const v = first.box[0]
        if (v instanceof StructValue) {
          v.fields[0] = 999
          v.fields.push(true)
        }
        first.box[0] = undefined
        const second = new Session(view, meter(), cache).resource(address, type).box[0]
        assert.deepStrictEqual(second, original, type.def.name)
      }
    }))

  it("copies table items too, and charges them as uncached reads", () =>
    inView(() => {
      // coin's CoinConversionMap: a table from a coin's TypeInfo to its paired metadata object.
      const map = new Session(view, meter()).resource(ONE, typeOf(struct("coin", "CoinConversionMap"))).box[0]
      const handle = ((map as StructValue).fields[0] as StructValue).fields[0] as Uint8Array
      const key = new BcsWriter().fixed(ONE).string("aptos_coin").string("AptosCoin").toBytes()
      const valueType = typeOf(struct("object", "Object", [struct("fungible_asset", "Metadata")]))
      const plain = meter()
      const original = new Session(view, plain).tableEntry(handle, key, valueType, true).box[0]
      assert.instanceOf(original, StructValue)
      const cache = new StateCache().at(0n)
      for (let round = 0; round < 3; round++) {
        const g = meter()
        const slot = new Session(view, g, cache).tableEntry(handle, key, valueType, true)
        assert.deepStrictEqual(slot.box[0], original)
        assert.strictEqual(g.balance, plain.balance)
        assert.strictEqual(g.memory, plain.memory)
        const inner = (slot.box[0] as StructValue).fields[0] as StructValue
        inner.fields[0] = new Uint8Array(32)
      }
    }))

  it("holds one snapshot: naming another empties it", () => {
    const cache = new StateCache().at(0n)
    new Session(view, meter(), cache).resource(samples[0]!.address, samples[0]!.type)
    assert.isAbove(cache.size, 0)
    assert.strictEqual(cache.at(0n).size, cache.size)
    assert.strictEqual(cache.at(1n).size, 0)
  })

  it("stays within its bounds on entries and bytes", () => {
    const small = new StateCache(3, 1_000_000).at(0n)
    for (let i = 0; i < 20; i++) {
      const address = addressFromNumber(0x1000 + i)
      new Session(view, meter(), small).resource(address, samples[0]!.type)
      assert.isAtMost(small.resources.size, 3)
    }
    const light = new StateCache(1_000, 200).at(0n)
    for (let i = 0; i < 20; i++) {
      new Session(view, meter(), light).resource(addressFromNumber(0x2000 + i), samples[0]!.type)
      assert.isAtMost(light.resources.size, 3) // 64 units per absent entry
    }
  })

  it("transaction sessions over a snapshot share it too: the same outcomes, change sets and gas as reading state every time, and one session's writes never reach the next", () => {
    const cachedVm = new MoveVm()
    const plainVm = new MoveVm()
    const root = addressFromNumber(0xa550c18)
    const id: SessionId = { _tag: "Txn", sender: root, sequenceNumber: 0n, scriptHash: new Uint8Array() }
    const address = new BcsWriter().fixed(root).toBytes()
    const call = (fn: string) => ({
      module: { address: ONE, name: "account" },
      function: fn,
      tyArgs: [],
      signers: [],
      args: [address]
    })
    const run = (vmUsed: MoveVm, over: typeof view, fn: string) => {
      const gas = meter()
      const session = vmUsed.session(over, { id })
      const outcome = session.execute(call(fn), { gas })
      return { outcome, finished: session.finish(), balance: gas.balance, memory: gas.memory }
    }
    // A session that writes (the epilogue's increment), then one that reads what it wrote.
    for (const round of ["cold", "warm", "again"]) {
      const plainWrite = run(plainVm, devnet.view, "increment_sequence_number")
      const cachedWrite = run(cachedVm, view, "increment_sequence_number")
      assert.strictEqual(cachedWrite.outcome._tag, "Success", round)
      assert.deepStrictEqual(cachedWrite, plainWrite, `${round}: the write`)
      const plainRead = run(plainVm, devnet.view, "get_sequence_number")
      const cachedRead = run(cachedVm, view, "get_sequence_number")
      assert.deepStrictEqual(cachedRead, plainRead, `${round}: the read after it`)
      // The snapshot's sequence number, not the one the writing session incremented in its copy.
      if (cachedRead.outcome._tag !== "Success") throw new Error(`${round}: ${cachedRead.outcome._tag}`)
      assert.deepStrictEqual(cachedRead.outcome.values[0], new BcsWriter().u64(0n).toBytes(), round)
    }
    assert.isAbove(cachedVm.snapshotCache(view)!.size, 0)
    assert.isUndefined(cachedVm.snapshotCache(devnet.view))
  })

  it("every devnet view answers identically with and without a snapshot (values, aborts, errors, gas)", () => {
    const cachedVm = new MoveVm()
    const plainVm = new MoveVm()
    const addresses = [addressFromNumber(0xa550c18), addressFromNumber(0xa), ONE]
    let calls = 0
    for (const e of devnet.entries) {
      if (e.key._tag !== "AccessPath" || e.key.path._tag !== "Code") continue
      const id = e.key.path.module
      const m = plainVm.loader.withView(devnet.view, () => plainVm.loader.tryLoad(id.address, id.name))!
      for (const fname of m.metadata.views) {
        const fn = m.function(fname)
        if (fn === undefined) continue
        const tyArgs = sampleTypeArgs(plainVm, devnet.view, m.cm.functionHandles[fn.def.function]!.typeParameters)
        for (const address of addresses) {
          let args: Uint8Array[]
          try {
            args = plainVm.loader.withView(devnet.view, () => {
              const tys = tyArgs.map((t) => plainVm.typeFromTag(t))
              return fn.params.map((p) => {
                const t: Type = substitute(p.k === K.Ref || p.k === K.MutRef ? (p as { to: Type }).to : p, tys)
                return serializeValue(sampleValue(t, address), t)
              })
            })
          } catch {
            continue
          }
          const call = { module: id, function: fname, tyArgs, args }
          const options = { maxGas: 2_000_000n, view: true }
          const plain = plainVm.call(devnet.view, call, options)
          const cold = cachedVm.call(view, call, options)
          const warm = cachedVm.call(view, call, options)
          assert.deepStrictEqual(observable(cold), observable(plain), `${m.key}::${fname} cold`)
          assert.deepStrictEqual(observable(warm), observable(plain), `${m.key}::${fname} warm`)
          calls++
        }
      }
    }
    assert.isAbove(calls, 500)
  })
})
