/**
 * The processors' input after the chain went back: a module published after a snapshot, reverted,
 * and published again at the same version with another layout of the same bytes (`Counter`'s one
 * `u64` field named `value`, then `count`). One input reads both histories, as the indexer's
 * worker does across a revert: the second history's values must be read with the second module.
 * Before the input forgot its decoded modules and layouts on a rewind, it kept the first module
 * (cached by address, name and the version that wrote it: the same in both histories) and its
 * layout (kept by type string), and named the field `value`.
 */
import * as Effect from "effect/Effect"
import { expect, it } from "vitest"
import { addressToShortString } from "../../../src/domain/AccountAddress.js"
import { counterModule, packageMetadata } from "../../execution/bytecode.js"
import { withIndexedChain } from "./support/indexedChain.js"

it("reads a value with the module published again after a revert, not the one reverted", async () => {
  await withIndexedChain(async ({ chain, transactions }) => {
    const owner = chain.accounts[0]!.address
    const type = `${addressToShortString(owner)}::counter::Counter`
    const publish = (field: string) =>
      Effect.runPromise(
        chain.controls.publish(owner, packageMetadata("Counter", ["counter"]), [counterModule(owner, 1n, field)])
      )
    /** The JSON `init_module`'s `Counter` was written with, as the input reads it at `version`. */
    const counterAt = async (version: bigint) => {
      const [t] = (await transactions(version)).filter((t) => t.version === version)
      const change = t?.changes.find((c) => c.type === "write_resource" && c.typeStr === type)
      return change?.type === "write_resource" ? change.data() : undefined
    }

    const id = await Effect.runPromise(chain.controls.snapshot)
    const first = await publish("value")
    expect(await counterAt(first.version)).toEqual({ value: "7" })

    await Effect.runPromise(chain.controls.revert(id))
    const second = await publish("count")
    // The same version and the same length: only the module's bytes tell the two apart.
    expect(second.version).toBe(first.version)
    expect(counterModule(owner, 1n, "count").length).toBe(counterModule(owner, 1n, "value").length)
    expect(await counterAt(second.version)).toEqual({ count: "7" })
  }, 1)
}, 60_000)
