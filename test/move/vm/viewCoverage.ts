/**
 * Test helper: every view function of a genesis state, called with generated arguments, sorted into
 * returned / aborted (a framework abort code) / failed (a VM error: these count against the VM).
 */
import { addressFromNumber, addressToShortString } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import type { MoveVm } from "../../../src/move/vm/MoveVm.js"
import type { StateView } from "../../../src/move/vm/StateView.js"
import { abilitiesOf, K, substitute, type Type } from "../../../src/move/vm/Type.js"
import { StructValue, type Value } from "../../../src/move/vm/Value.js"
import { serializeValue } from "../../../src/move/vm/ValueBcs.js"
import type { GenesisState } from "./genesisState.js"

const ONE = addressFromNumber(1)
const aptosCoin: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
}
const objectCore: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "object", name: "ObjectCore", typeArgs: [] }
}
const proposal: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "governance_proposal", name: "GovernanceProposal", typeArgs: [] }
}

/** Type arguments for a function's type parameters: the first candidate with the abilities each requires. */
export const sampleTypeArgs = (vm: MoveVm, view: StateView, constraints: ReadonlyArray<number>): TypeTag[] =>
  constraints.map((c) => {
    const candidates: TypeTag[] = [c & 0x8 ? objectCore : aptosCoin, objectCore, proposal, { _tag: "u64" }]
    for (const t of candidates) {
      const ty = vm.loader.withView(view, () => vm.typeFromTag(t))
      if ((abilitiesOf(ty) & c) === c) return t
    }
    return aptosCoin
  })

/** A plausible value of `t`: `address` for addresses, zero/empty/None elsewhere. */
export const sampleValue = (t: Type, address: Uint8Array, depth = 0): Value => {
  if (depth > 16) throw new Error("type too deep for a sample value")
  switch (t.k) {
    case K.Bool:
      return false
    case K.U8:
    case K.U16:
    case K.U32:
    case K.I8:
    case K.I16:
    case K.I32:
      return 0
    case K.Address:
      return address
    case K.Vector:
      return []
    case K.Struct: {
      const d = t.def
      if (d.address[31] === 1 && d.module === "object" && d.name === "Object") return new StructValue(-1, [address])
      if (d.variants !== undefined) {
        const v = d.variants[0]!
        return new StructValue(
          0,
          v.fields.map((f) => sampleValue(substitute(f.type, t.args), address, depth + 1))
        )
      }
      return new StructValue(
        -1,
        (d.fields ?? []).map((f) => sampleValue(substitute(f.type, t.args), address, depth + 1))
      )
    }
    case K.Ref:
    case K.MutRef:
      return sampleValue(t.to, address, depth)
    default:
      return 0n
  }
}

export interface CoverageRow {
  readonly name: string
  /**
   * returned: values came back; aborted: a Move abort with the framework's code; missingData: the
   * function borrowed a resource the sampled address lacks (MISSING_DATA, Move's own runtime
   * failure, as the reference raises it); failed: any other VM error (these count against the VM).
   */
  readonly outcome: "returned" | "aborted" | "missingData" | "failed"
  readonly detail: string
}

const RANK = { returned: 0, aborted: 1, missingData: 2, failed: 3 } as const

/** Every view, tried with each sample address in turn; the best outcome is kept. */
export const runAllViews = (
  state: GenesisState,
  vm: MoveVm,
  view: StateView,
  addresses = [addressFromNumber(0xa550c18), addressFromNumber(0xa), addressFromNumber(1)]
): CoverageRow[] => {
  const best = new Map<string, CoverageRow>()
  for (const a of addresses)
    for (const r of runAllViewsAt(state, vm, view, a)) {
      const prev = best.get(r.name)
      if (prev === undefined || RANK[r.outcome] < RANK[prev.outcome]) best.set(r.name, r)
    }
  return [...best.values()]
}

const runAllViewsAt = (state: GenesisState, vm: MoveVm, view: StateView, address: Uint8Array): CoverageRow[] => {
  const rows: CoverageRow[] = []
  for (const e of state.entries) {
    if (e.key._tag !== "AccessPath" || e.key.path._tag !== "Code") continue
    const id = e.key.path.module
    const m = vm.loader.withView(view, () => vm.loader.tryLoad(id.address, id.name))!
    for (const fname of m.metadata.views) {
      const fn = m.function(fname)
      const name = `${m.key}::${fname}`
      if (fn === undefined) {
        rows.push({ name, outcome: "failed", detail: "view attribute on a missing function" })
        continue
      }
      const h = m.cm.functionHandles[fn.def.function]!
      const tyArgs = sampleTypeArgs(vm, view, h.typeParameters)
      let args: Uint8Array[]
      try {
        args = vm.loader.withView(view, () => {
          const tys = tyArgs.map((t) => vm.typeFromTag(t))
          return fn.params.map((p) => {
            const t = substitute(p.k === K.Ref || p.k === K.MutRef ? (p as { to: Type }).to : p, tys)
            return serializeValue(sampleValue(t, address), t)
          })
        })
      } catch (err) {
        rows.push({ name, outcome: "failed", detail: `no sample arguments: ${String(err)}` })
        continue
      }
      const o = vm.call(view, { module: id, function: fname, tyArgs, args }, { maxGas: 2_000_000n, view: true })
      if (o._tag === "Success") rows.push({ name, outcome: "returned", detail: `${o.values.length} values` })
      else if (o._tag === "Abort")
        rows.push({
          name,
          outcome: "aborted",
          detail: `${o.location ? addressToShortString(o.location.address) + "::" + o.location.name : "?"} ${o.info?.name ?? "0x" + o.code.toString(16)}`
        })
      else
        rows.push({
          name,
          outcome: o.error.status === "MISSING_DATA" ? "missingData" : "failed",
          detail: `${o.error.status}: ${o.error.detail}`
        })
    }
  }
  return rows
}
