import { test } from "vitest"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import type { Type } from "../../../src/move/vm/Type.js"
import { deserializeValue, serializeValue } from "../../../src/move/vm/ValueBcs.js"
import { genesisState } from "./genesisState.js"

// Run: nice npx vitest bench --run test/move/vm/valueBcs.bench.ts
// The VM's value codec over every stored devnet resource (explicit-stack walk, issue 11).

const devnet = genesisState("devnet")
const vm = new MoveVm()
const resources: Array<{ t: Type; bytes: Uint8Array }> = []
for (const e of devnet.entries) {
  const op = e.op
  if (e.key._tag !== "AccessPath" || e.key.path._tag !== "Resource" || !("data" in op)) continue
  const s = e.key.path.struct
  if (s.typeArgs.length > 0) continue
  resources.push({
    t: vm.loader.withView(devnet.view, () => vm.typeFromTag({ _tag: "struct", struct: s })),
    bytes: op.data
  })
}
const within = <A>(f: () => A): A => vm.loader.withView(devnet.view, f)
const values = within(() => resources.map((r) => deserializeValue(r.bytes, r.t)))

test("value codec, every devnet resource", async ({ bench }) => {
  await bench.compare(
    bench(`deserializeValue × ${resources.length}`, () =>
      within(() => {
        for (const r of resources) deserializeValue(r.bytes, r.t)
      })
    ),
    bench(`serializeValue × ${resources.length}`, () =>
      within(() => {
        for (let i = 0; i < resources.length; i++) serializeValue(values[i], resources[i]!.t)
      })
    )
  )
})
