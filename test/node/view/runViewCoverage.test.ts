/**
 * Every devnet view through `runView` (the service's pure core) with generated BCS arguments: each
 * returned value must render as JSON by its return type's layout (no `internal_error`), which checks
 * the VM's BCS output against the layouts `move/layout` resolves independently.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import type { ModuleSource } from "../../../src/move/layout/ModuleSource.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { K, substitute, type Type } from "../../../src/move/vm/Type.js"
import { serializeValue } from "../../../src/move/vm/ValueBcs.js"
import { describeFailure, runView } from "../../../src/node/view/runView.js"
import { genesisState } from "../../move/vm/genesisState.js"
import { describeWithGenesis } from "../../support/genesis.js"
import { sampleTypeArgs, sampleValue } from "../../move/vm/viewCoverage.js"

const ONE = addressFromNumber(1)
const devnet = genesisState("devnet")
const vm = new MoveVm()
const modules: ModuleSource = (address, name) =>
  vm.loader.withView(devnet.view, () => vm.loader.tryLoad(address, name)?.cm)
const aptosCoin: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
}

describe("runView over every devnet view", () => {
  it("renders every returned value as JSON", () => {
    let returned = 0
    let refused = 0
    const renderFailures: string[] = []
    const examples = new Map<string, unknown>()
    for (const e of devnet.entries) {
      if (e.key._tag !== "AccessPath" || e.key.path._tag !== "Code") continue
      const id = e.key.path.module
      const m = vm.loader.withView(devnet.view, () => vm.loader.tryLoad(id.address, id.name))!
      for (const fname of m.metadata.views) {
        const fn = m.function(fname)!
        const h = m.cm.functionHandles[fn.def.function]!
        const tyArgs = sampleTypeArgs(vm, devnet.view, h.typeParameters)
        for (const address of [addressFromNumber(0xa550c18), addressFromNumber(0xa)]) {
          const args = vm.loader.withView(devnet.view, () => {
            const tys = tyArgs.map((t) => vm.typeFromTag(t))
            return fn.params.map((p) => {
              const t = substitute(p.k === K.Ref || p.k === K.MutRef ? (p as { to: Type }).to : p, tys)
              return serializeValue(sampleValue(t, address), t)
            })
          })
          const r = runView(
            vm,
            devnet.view,
            modules,
            { _tag: "Bcs", module: id, function: fname, tyArgs, args },
            2_000_000n
          )
          if (Result.isSuccess(r)) {
            returned++
            expect(r.success.json).toHaveLength(r.success.bcsValues.length)
            examples.set(`${m.key}::${fname}`, r.success.json)
          } else if (r.failure.code === "internal_error")
            renderFailures.push(`${m.key}::${fname}: ${r.failure.message}`)
          else refused++
        }
      }
    }
    console.log(
      `runView: ${returned} returned and rendered, ${refused} refused (aborts, missing data), ${renderFailures.length} render failures`
    )
    expect(renderFailures).toEqual([])
    expect(returned).toBeGreaterThan(150)
    expect(examples.get("0x1::chain_id::get")).toEqual([243])
    expect(examples.get("0x1::coin::symbol")).toEqual(["APT"])
  })
})

describeWithGenesis("mainnet", "abort messages", () => {
  it("renders the reference's example, ECOIN_STORE_NOT_PUBLISHED, from the 2022 framework's error map", () => {
    const mainnet = genesisState("mainnet")
    const vm2 = new MoveVm()
    const o = vm2.call(mainnet.view, {
      module: { address: ONE, name: "coin" },
      function: "balance",
      tyArgs: [aptosCoin],
      args: [addressFromNumber(0xdead)]
    })
    expect(o._tag).toBe("Abort")
    if (o._tag !== "Abort") return
    const f = describeFailure(o)
    expect(f.message).toMatch(/^Move abort in 0x1::coin: ECOIN_STORE_NOT_PUBLISHED\(0x60005\): \S/)
    expect(f.vmErrorCode).toBe(4016n)
  })
})
