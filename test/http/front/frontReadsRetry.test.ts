/**
 * A front process whose read-only node fails to start tries again later (session 50): before, one
 * failure left the node answering every read for the front's lifetime (session 49 saw it after a
 * false "damaged store" alarm under load). The front here reads from a directory that holds no
 * store at first (the front must not make one), then a damaged one — every read is the node's, and
 * the node logs why the front cannot serve it — then a real store: a later read is the front's own.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { LocalChain } from "../../../src/LocalChain.js"
import { MiningMode } from "../../../src/chain/MiningMode.js"
import { frontPagesOf, gasEstimationToWire } from "../../../src/http/front/protocol.js"
import { FrontProcess } from "../../../src/http/front/FrontProcess.js"
import { defaultHttpConfig } from "../../../src/http/HttpConfig.js"
import { defaultNodeConfig } from "../../../src/node/NodeConfig.js"

const frontMain = new URL("../../../dist/bin/frontMain.js", import.meta.url)

/** `GET /v1` on a new connection: who answered, the node (this test's stand-in) or the front. */
const whoAnswers = async (port: number): Promise<"node" | "front"> => {
  const r = await fetch(`http://127.0.0.1:${port}/v1`, { headers: { connection: "close" } })
  const body = (await r.json()) as { readonly by?: string; readonly chain_id?: number }
  if (body.by === "node") return "node"
  assert.strictEqual(r.status, 200)
  assert.strictEqual(body.chain_id, 4)
  return "front"
}

const waitFor = async (what: string, ok: () => Promise<boolean>, ms: number): Promise<void> => {
  const until = Date.now() + ms
  while (!(await ok())) {
    if (Date.now() > until) assert.fail(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("the front process's reads", () => {
  it.live(
    "are tried again after a failed start, and served once the store can be read",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const dir = mkdtempSync(join(tmpdir(), "movenode-front-retry-"))
          yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
          // A real store: a chain's, closed (a block made at its start).
          yield* Effect.scoped(
            LocalChain.spawn({
              dataDir: join(dir, "chain"),
              fsync: false,
              mining: MiningMode.manual,
              front: undefined,
              readiness: undefined,
              faucet: undefined,
              graphql: undefined,
              indexer: undefined
            })
          )
          // The front's store: none at first (and none made by the front), then a damaged one.
          const ledger = join(dir, "ledger")
          mkdirSync(ledger)

          const lines: string[] = []
          const front = Context.get(
            yield* Layer.build(
              FrontProcess.layer({ scriptUrl: frontMain, readsFrom: ledger, log: (line) => lines.push(line) })
            ),
            FrontProcess
          )
          // The node: a stand-in that says it answered.
          const node = createServer((_, res) => {
            res.setHeader("content-type", "application/json")
            res.end('{"by":"node"}')
          })
          const { port } = yield* front.serveApi({ host: "127.0.0.1", port: 0 }, node, {
            headerPrefix: defaultHttpConfig.headerPrefix,
            gitHash: undefined,
            logRequests: false,
            pages: frontPagesOf(defaultNodeConfig),
            gasEstimation: gasEstimationToWire(defaultNodeConfig.gasEstimation)
          })

          // The first read starts the front's reads, which fail: the node answers, and says why.
          yield* Effect.promise(() =>
            waitFor(
              "the front's failure logged",
              async () => {
                assert.strictEqual(await whoAnswers(port), "node")
                return lines.some((l) => /cannot serve reads .*tried again in 1 s.*no ledger store/.test(l))
              },
              30_000
            )
          )
          assert.isFalse(existsSync(join(ledger, "data.mdb")), "the front made a store")
          // A damaged store (zeros where LMDB's meta pages belong): tried again after a second,
          // failing again (the wait doubled), the node answering.
          writeFileSync(join(ledger, "data.mdb"), Buffer.alloc(16 * 4096))
          yield* Effect.promise(() =>
            waitFor(
              "the second failure logged",
              async () => {
                assert.strictEqual(await whoAnswers(port), "node")
                return lines.some((l) => /tried again in 2 s.*damaged/.test(l))
              },
              30_000
            )
          )

          // A readable store in its place: within the next wait (2 s), a read is the front's.
          copyFileSync(join(dir, "chain", "ledger", "data.mdb"), join(ledger, "data.mdb"))
          yield* Effect.promise(() =>
            waitFor("a read answered by the front", async () => (await whoAnswers(port)) === "front", 30_000)
          )
          assert.isFalse(
            lines.some((l) => /tried again in 4 s/.test(l)),
            lines.join("\n")
          )
        })
      ),
    120_000
  )
})
