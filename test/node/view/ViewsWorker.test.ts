/**
 * Views on worker threads over an LMDB ledger: the same answers as on the calling thread, the state
 * of blocks committed after the worker started, the version rules, the in-flight bound, a worker
 * that dies mid-view, and the fallback when no worker can start. The worker runs the compiled
 * script (`dist/`, built by `npm test` before vitest runs).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer } from "effect"
import fc from "fast-check"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { ApiError } from "../../../src/domain/ApiError.js"
import { Ledger, LedgerLmdb } from "../../../src/ledger/index.js"
import type { ViewRequest } from "../../../src/node/Views.js"
import { makeNodeConfig, nodeConfigLayer } from "../../../src/node/NodeConfig.js"
import { ViewsVmLayer } from "../../../src/node/view/ViewsVm.js"
import { ViewsWorkerLayer } from "../../../src/node/view/ViewsWorker.js"
import { ViewWorkerPool } from "../../../src/node/view/ViewWorkerPool.js"
import { Views } from "../../../src/node/Views.js"
import { block, devnetGenesis, struct, toCommit, userTransaction, writeResource } from "../fixtures.js"

const dir = mkdtempSync(join(tmpdir(), "movenode-view-worker-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const workerUrl = new URL("../../../dist/node/view/viewWorker.js", import.meta.url)
const ONE = addressFromNumber(1)
const APT = "0x1::aptos_coin::AptosCoin"

const json = (body: unknown): ViewRequest => ({ _tag: "Json", body })
const call = (fn: string, tyArgs: string[] = [], args: unknown[] = []) =>
  json({ function: fn, type_arguments: tyArgs, arguments: args })

/** Each test gets its own store, so commits of one do not show in another. */
const lmdbNode = (name: string, views: Layer.Layer<Views, never, Ledger>, config = makeNodeConfig()) =>
  Layer.provideMerge(
    views,
    Layer.merge(
      LedgerLmdb.layer({ path: join(dir, name), genesis: devnetGenesis, sync: false }),
      nodeConfigLayer(config)
    )
  ).pipe(Layer.orDie)

const outcome = (request: ViewRequest, version?: bigint) =>
  Effect.gen(function* () {
    return yield* Effect.exit((yield* Views).view(request, version))
  })

/** The comparable part of an answer: values as JSON and BCS, gas, or the error's fields. */
const summary = (
  exit: Exit.Exit<
    { value: { json: ReadonlyArray<unknown>; bcsValues: ReadonlyArray<Uint8Array>; gasUsed: bigint } },
    ApiError
  >
) => {
  if (Exit.isSuccess(exit)) {
    const v = exit.value.value
    return { ok: v.json, bcs: v.bcsValues.map((b) => [...b]), gas: v.gasUsed }
  }
  const e = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (e === undefined || e._tag !== "Fail") return { defect: String(exit.cause) }
  const a = e.error
  return { status: a.status, code: a.code, message: a.message, vm: a.vmErrorCode, version: a.ledger?.ledgerVersion }
}

/** An argument nested deeper than a structured clone can copy (the view then runs on the calling thread). */
const deepNest = (depth: number): unknown => {
  let v: unknown = []
  for (let i = 0; i < depth; i++) v = [v]
  return v
}

const REQUESTS: ReadonlyArray<readonly [ViewRequest, bigint | undefined]> = [
  [call("0x1::coin::balance", [APT], ["0xa550c18"]), undefined],
  [call("0x1::coin::balance", [APT], ["0xdead"]), undefined],
  [call("0x1::chain_id::get"), 0n],
  [call("0x1::coin::name", [APT]), undefined],
  [call("0x1::object::owner", ["0x1::object::ObjectCore"], ["0xdead"]), undefined],
  [call("0x1::coin::balanc", [APT], ["0x1"]), undefined],
  [call("0x1::coin::balance", [], ["0x1"]), undefined],
  [call("0x1::coin::balance", [APT], [1]), undefined],
  [call("0x1::aptos_account::assert_account_exists", [], ["0x1"]), undefined],
  [json({ function: "0x1::coin::balance" }), undefined],
  [{ _tag: "Bcs", body: new Uint8Array([1, 2, 3]) }, undefined],
  [call("0x1::chain_id::get"), 1n],
  [call("0x1::coin::balance", [APT], [deepNest(200_000)]), undefined],
  [call("0x1::coin::balance", [APT], ["0xa550c18"]), undefined]
]

describe("views on worker threads", () => {
  it.effect("answer exactly as views on the calling thread", () =>
    Effect.gen(function* () {
      const onWorkers = yield* Effect.forEach(REQUESTS, ([r, v]) => Effect.map(outcome(r, v), summary)).pipe(
        Effect.provide(lmdbNode("same-a", ViewsWorkerLayer({ path: join(dir, "same-a"), workerUrl })))
      )
      const inThread = yield* Effect.forEach(REQUESTS, ([r, v]) => Effect.map(outcome(r, v), summary)).pipe(
        Effect.provide(lmdbNode("same-b", ViewsVmLayer))
      )
      assert.deepStrictEqual(onWorkers, inThread)
      const first = onWorkers[0] as { ok: unknown; bcs: unknown; gas: bigint }
      assert.deepStrictEqual(first.ok, ["18446744073709551615"])
      assert.deepStrictEqual(first.bcs, [[255, 255, 255, 255, 255, 255, 255, 255]])
      assert.isTrue(first.gas > 0n)
      assert.strictEqual((onWorkers[11] as { status: number }).status, 404)
      assert.strictEqual((onWorkers[12] as { status: number }).status, 400)
      assert.deepStrictEqual((onWorkers[13] as { ok: unknown }).ok, ["18446744073709551615"])
    })
  )

  it.effect("answer garbage bodies exactly as views on the calling thread (fast-check samples)", () =>
    Effect.gen(function* () {
      const fn = fc.constantFrom(
        "0x1::coin::balance",
        "0x1::chain_id::get",
        "0x1::coin::name",
        "0x1::no::where",
        "nonsense"
      )
      const body = fc.oneof(
        fc.record({
          function: fn,
          type_arguments: fc.array(fc.oneof(fc.constant(APT), fc.string()), { maxLength: 2 }),
          arguments: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 2 })
        }),
        fc.jsonValue({ maxDepth: 2 })
      )
      const requests: ViewRequest[] = [
        ...fc.sample(body, { numRuns: 60, seed: 7 }).map((b) => json(b)),
        ...fc
          .sample(fc.uint8Array({ maxLength: 64 }), { numRuns: 20, seed: 7 })
          .map((b): ViewRequest => ({ _tag: "Bcs", body: b }))
      ]
      const onWorkers = yield* Effect.forEach(requests, (r) => Effect.map(outcome(r), summary)).pipe(
        Effect.provide(lmdbNode("garbage-a", ViewsWorkerLayer({ path: join(dir, "garbage-a"), workerUrl })))
      )
      const inThread = yield* Effect.forEach(requests, (r) => Effect.map(outcome(r), summary)).pipe(
        Effect.provide(lmdbNode("garbage-b", ViewsVmLayer))
      )
      assert.deepStrictEqual(onWorkers, inThread)
      assert.isTrue(onWorkers.every((o) => !("defect" in o)))
    })
  )

  it.effect("see blocks committed after they started, and older versions as they were", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const views = yield* Views
      const chainId = struct(ONE, "chain_id", "ChainId")
      const get = call("0x1::chain_id::get")
      assert.deepStrictEqual((yield* views.view(get, undefined)).value.json, [243])
      for (let round = 0n; round < 3n; round++) {
        const id = 10 + Number(round)
        const info = yield* ledger.commitBlock(
          block(1n, round, [
            toCommit(userTransaction(addressFromNumber(0xa11ce), round, 100n), [
              writeResource(ONE, chainId, new Uint8Array([id]))
            ])
          ])
        )
        const latest = yield* views.view(get, undefined)
        assert.deepStrictEqual(latest.value.json, [id])
        assert.strictEqual(latest.ledger.ledgerVersion, info.lastVersion)
        assert.deepStrictEqual((yield* views.view(get, 0n)).value.json, [243])
      }
    }).pipe(Effect.provide(lmdbNode("commits", ViewsWorkerLayer({ path: join(dir, "commits"), workerUrl }))))
  )

  it.effect("two threads answer concurrent views; beyond the in-flight bound a view is a 503", () =>
    Effect.gen(function* () {
      const views = yield* Views
      const many = yield* Effect.forEach(
        Array.from({ length: 40 }, (_, i) =>
          call("0x1::coin::balance", [APT], [`0x${(0xa550c18 + (i % 2)).toString(16)}`])
        ),
        (r) => Effect.exit(views.view(r, undefined)),
        { concurrency: "unbounded" }
      )
      const statuses = many.map((e) => (Exit.isSuccess(e) ? 200 : (summary(e) as { status: number }).status))
      assert.isTrue(statuses.every((s) => s === 200 || s === 503))
      assert.isTrue(statuses.filter((s) => s === 200).length >= 4)
      assert.isTrue(statuses.includes(503))
    }).pipe(
      Effect.provide(
        lmdbNode(
          "bounded",
          ViewsWorkerLayer({ path: join(dir, "bounded"), workerUrl, maxInFlight: 4 }),
          makeNodeConfig({ viewThreads: 2 })
        )
      )
    )
  )

  it.effect("apply the view filter from the node configuration", () =>
    Effect.gen(function* () {
      const allowed = summary(yield* outcome(call("0x1::coin::balance", [APT], ["0xa550c18"]))) as { ok: unknown }
      assert.deepStrictEqual(allowed.ok, ["18446744073709551615"])
      const denied = summary(yield* outcome(call("0x1::chain_id::get"))) as { status: number; version: unknown }
      assert.strictEqual(denied.status, 403)
      assert.isUndefined(denied.version)
    }).pipe(
      Effect.provide(
        lmdbNode(
          "filter",
          ViewsWorkerLayer({ path: join(dir, "filter"), workerUrl }),
          makeNodeConfig({
            viewFilter: { _tag: "Allowlist", functions: [{ address: ONE, module: "coin", functionName: "balance" }] }
          })
        )
      )
    )
  )

  it.effect("answer 410 when the window moves past the version while the worker reads it", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const views = yield* Views
      for (let round = 0n; round < 3n; round++)
        yield* ledger.commitBlock(
          block(1n, round, [toCommit(userTransaction(addressFromNumber(0xa11ce), round, 100n))])
        )
      const at = (yield* ledger.ledgerInfo).ledgerVersion
      // Workers started (this waits for them); then the view is sent, and the window moves on in
      // the same turn of the event loop, before the worker's answer can be read.
      assert.deepStrictEqual((yield* views.view(call("0x1::chain_id::get"), at)).value.json, [243])
      const fiber = yield* Effect.forkChild(Effect.exit(views.view(call("0x1::chain_id::get"), at)))
      yield* Effect.yieldNow
      for (let round = 3n; round < 12n; round++)
        yield* ledger.commitBlock(
          block(1n, round, [toCommit(userTransaction(addressFromNumber(0xa11ce), round, 100n))])
        )
      const exit = yield* Fiber.join(fiber)
      const e = summary(exit) as { status: number; code: string; version: bigint }
      assert.strictEqual(e.status, 410)
      assert.strictEqual(e.code, "version_pruned")
      assert.isTrue(e.version > at)
    }).pipe(
      Effect.provide(
        Layer.provideMerge(
          ViewsWorkerLayer({ path: join(dir, "pruned"), workerUrl }),
          Layer.merge(
            LedgerLmdb.layer({ path: join(dir, "pruned"), genesis: devnetGenesis, sync: false, pruneWindow: 6 }),
            nodeConfigLayer(makeNodeConfig())
          )
        ).pipe(Layer.orDie)
      )
    )
  )

  it.effect("run on the calling thread when no worker can start", () =>
    Effect.gen(function* () {
      const lines: string[] = []
      const missing = pathToFileURL(join(dir, "no-such-worker.js"))
      const exit = yield* outcome(call("0x1::chain_id::get")).pipe(
        Effect.provide(
          lmdbNode(
            "fallback",
            ViewsWorkerLayer({ path: join(dir, "fallback"), workerUrl: missing, log: (l) => lines.push(l) })
          )
        )
      )
      assert.deepStrictEqual(summary(exit), { ok: [243], bcs: [[243]], gas: (summary(exit) as { gas: bigint }).gas })
      assert.isTrue(lines.some((l) => l.includes("views run on the main thread")))
    })
  )

  it.live("start no worker until the first view", () =>
    Effect.gen(function* () {
      // A worker script that cannot load: its start is observable through the log line the
      // failed start writes, so "no line yet" means "no start attempted yet".
      const lines: string[] = []
      const missing = pathToFileURL(join(dir, "no-such-worker.js"))
      const exit = yield* Effect.gen(function* () {
        yield* Effect.sleep("300 millis")
        const before = lines.length
        const result = yield* outcome(call("0x1::chain_id::get"))
        return { before, result }
      }).pipe(
        Effect.provide(
          lmdbNode("lazy", ViewsWorkerLayer({ path: join(dir, "lazy"), workerUrl: missing, log: (l) => lines.push(l) }))
        )
      )
      assert.strictEqual(exit.before, 0)
      assert.deepStrictEqual((summary(exit.result) as { ok: unknown }).ok, [243])
      assert.isTrue(lines.some((l) => l.includes("views run on the main thread")))
    })
  )

  it("answer a worker's in-flight views with 500 when it dies, and replace it", async () => {
    // A stand-in worker: ready at once, exits on the first job, so each replacement dies in turn.
    const script = join(dir, "dying-worker.mjs")
    writeFileSync(
      script,
      `import { parentPort } from "node:worker_threads"\nparentPort.on("message", () => process.exit(3))\nparentPort.postMessage("ready")\n`
    )
    const pool = new ViewWorkerPool({
      threads: 1,
      workerUrl: pathToFileURL(script),
      data: { path: dir, gasBudget: 1n, deadlineMs: undefined, filter: undefined },
      maxInFlight: 10
    })
    assert.isTrue(await pool.warmUp())
    const run = () =>
      new Promise<unknown>((resolve) =>
        pool.run(call("0x1::chain_id::get"), 0n, 0n, (r) => resolve(r.ok ? "ok" : r.error))
      )
    const first = (await run()) as { status: number; code: string }
    assert.strictEqual(first.status, 500)
    assert.strictEqual(first.code, "internal_error")
    // The next job starts a fresh worker (which also dies): still one answer, never a hang.
    assert.strictEqual(((await run()) as { status: number }).status, 500)
    assert.isFalse(pool.broken)
    await pool.close()
  })
})
