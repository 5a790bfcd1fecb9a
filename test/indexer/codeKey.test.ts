/**
 * A kept index is keyed to the processors' built code (`processorsCodeKey`) and its schema, not to
 * the build's commit: the same code resumes the stored index, changed code (or another schema) drops
 * it and re-indexes from version 0.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { describe, expect, it } from "vitest"
import { processorsCodeKey } from "../../src/indexer/codeKey.js"
import { IndexerStore } from "../../src/indexer/store/IndexerStore.js"

const packageWith = (chunks: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "movenode-codekey-"))
  mkdirSync(join(root, "dist", "bin"), { recursive: true })
  for (const [name, text] of Object.entries(chunks)) writeFileSync(join(root, "dist", "bin", name), text)
  return root
}

describe("the processors' code key", () => {
  it("is the built processors chunk's content: same code same key, changed code another, no build none", () => {
    const roots = [
      packageWith({ "processorPipeline-AAAA1111.js": "processors v1", "cli-X.js": "api v1" }),
      packageWith({ "processorPipeline-BBBB2222.js": "processors v1", "cli-Y.js": "api v2" }),
      packageWith({ "processorPipeline-CCCC3333.js": "processors v2", "cli-X.js": "api v1" }),
      mkdtempSync(join(tmpdir(), "movenode-codekey-"))
    ]
    try {
      const [a, b, c, none] = roots.map(processorsCodeKey)
      expect(a).toMatch(/^[0-9a-f]{64}$/)
      expect(b).toBe(a)
      expect(c).not.toBe(a)
      expect(none).toBeUndefined()
    } finally {
      for (const r of roots) rmSync(r, { recursive: true, force: true })
    }
  })

  it("a stored index resumes under the same key and is dropped under another", async () => {
    const dir = mkdtempSync(join(tmpdir(), "movenode-codekey-"))
    const path = join(dir, "index.sqlite")
    const open = <A>(schemaExtra: string, f: (store: IndexerStore["Service"]) => Effect.Effect<A, unknown>) =>
      Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const ctx = yield* Layer.build(IndexerStore.layer({ _tag: "Sqlite", path }, { schemaExtra }))
            return yield* f(ctx.mapUnsafe.get(IndexerStore.key) as IndexerStore["Service"])
          })
        )
      )
    try {
      const at = { version: 7n, hash: "0x07", timestampUsec: 1n, chainId: 4 }
      await open("code A", (store) => store.commit([], at, ["events_processor"]))
      expect(await open("code A", (store) => store.position)).toEqual(at)
      expect(await open("code B", (store) => store.position)).toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
