import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ed25519 } from "@noble/curves/ed25519.js"
import { Context, Effect, Exit, Layer, Result, Scope } from "effect"
import { afterAll, test } from "vitest"
import { Bcs } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { signedTransactionCodec } from "../../src/domain/PayloadCodec.js"
import { signingMessage } from "../../src/domain/signingMessage.js"
import type { RawTransaction } from "../../src/domain/Transaction.js"
import { applySourceBlock } from "../../src/follow/applySourceBlock.js"
import { checkTransaction } from "../../src/follow/checkTransaction.js"
import { emptyAccumulator } from "../../src/domain/MerkleAccumulator.js"
import { decodeSourceBlock, type SourceBlock } from "../../src/follow/sourceBlock.js"
import { openLmdbBackend } from "../../src/ledger/LmdbBackend.js"
import { makeLedgerService } from "../../src/ledger/makeLedgerService.js"
import { makeMemoryBackend } from "../../src/ledger/MemoryBackend.js"
import { LocalChain } from "../../src/LocalChain.js"

// Run: npx vitest bench --run test/follow/apply.bench.ts
// A follower's own work per source block, without HTTP: decode the BCS block, check every
// transaction (hashes, accumulator, re-encoding) and commit it. The source: a local chain after
// TRANSFERS aptos_account::transfer transactions; each iteration replays all its blocks into a new
// ledger: (mean − the genesis block's mean) ÷ (versions − 1) is the cost of one version.

const TRANSFERS = 600

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const { blocks, versions } = await Effect.runPromise(
  Effect.gen(function* () {
    const chain = yield* Layer.build(
      LocalChain.layer({
        accounts: 4,
        faucet: undefined,
        readiness: undefined,
        graphql: undefined,
        api: { host: "127.0.0.1", port: 0 }
      })
    ).pipe(Effect.map((ctx) => Context.get(ctx, LocalChain)))
    const ONE = addressFromNumber(1)
    const next = chain.accounts.map(() => 0n)
    const submit = (i: number) => {
      const a = chain.accounts[i % chain.accounts.length]!
      const k = i % chain.accounts.length
      const raw: RawTransaction = {
        sender: a.address,
        sequenceNumber: next[k]!++,
        payload: {
          _tag: "EntryFunction",
          entryFunction: {
            module: { address: ONE, name: "aptos_account" },
            function: "transfer",
            typeArgs: [],
            args: [addressFromNumber(0xbeef), Bcs.encode(Bcs.u64, 1n)]
          }
        },
        maxGasAmount: 20_000n,
        gasUnitPrice: 100n,
        expirationTimestampSecs: BigInt(Math.floor(Date.now() / 1000) + 600),
        chainId: 4
      }
      const body = Bcs.encode(signedTransactionCodec, {
        rawTransaction: raw,
        authenticator: {
          _tag: "Ed25519",
          publicKey: ed25519.getPublicKey(a.privateKey),
          signature: ed25519.sign(signingMessage(raw), a.privateKey)
        }
      })
      return fetch(`${chain.apiUrl}/transactions`, {
        method: "POST",
        headers: { "content-type": "application/x.aptos.signed_transaction+bcs" },
        body
      }).then((r) => r.status)
    }
    for (let i = 0; i < TRANSFERS; i += 50)
      yield* Effect.promise(() => Promise.all(Array.from({ length: 50 }, (_, j) => submit(i + j))))
    // Until the chain holds them all.
    let head = 0n
    for (let t = 0; t < 600; t++) {
      yield* Effect.sleep(50)
      const info = yield* Effect.promise(() =>
        fetch(chain.apiUrl).then((r) => r.json() as Promise<{ ledger_version: string }>)
      )
      head = BigInt(info.ledger_version)
      if (head >= BigInt(TRANSFERS)) break
    }
    const out: SourceBlock[] = []
    for (let v = 0n; v <= head; ) {
      const bytes = yield* Effect.promise(() =>
        fetch(`${chain.apiUrl}/blocks/by_version/${v}?with_transactions=true`, {
          headers: { accept: "application/x-bcs" }
        }).then(async (r) => new Uint8Array(await r.arrayBuffer()))
      )
      const block = Result.getOrThrow(decodeSourceBlock(bytes))
      if (block.transactions!.length !== Number(block.lastVersion - block.firstVersion + 1n))
        throw new Error("a block longer than a page: raise TRANSFERS' batches")
      out.push(block)
      v = block.lastVersion + 1n
    }
    return { blocks: out, versions: Number(head) + 1 }
  }).pipe(Scope.provide(scope))
)
const afterGenesis = (() => {
  const r = checkTransaction(blocks[0]!.transactions![0]!, 0n, emptyAccumulator)
  if (r instanceof Error) throw r
  return r.accumulator
})()
console.log(`apply.bench: ${blocks.length} blocks, ${versions} versions (divide a mean by it)`)

const replay =
  (open: () => ReturnType<typeof makeLedgerService>, upTo = blocks.length) =>
  async () => {
    const ledger = open()
    for (const b of blocks.slice(0, upTo)) await Effect.runPromise(applySourceBlock(ledger, b))
    ledger.close()
  }

test(`replay ${TRANSFERS} transfers' blocks (check + commit)`, async ({ bench }) => {
  await bench.compare(
    // The genesis block alone (its 1.4 MB write set): subtract it from the others for the transfers.
    bench(
      "genesis block only, into memory",
      replay(() => makeLedgerService(makeMemoryBackend()), 1)
    ),
    bench(
      "into memory",
      replay(() => makeLedgerService(makeMemoryBackend()))
    ),
    // The checks alone (hashes, accumulator, re-encoding), over the transfers' blocks.
    bench("checks only, transfers' blocks", () => {
      let acc = afterGenesis
      for (const b of blocks.slice(1))
        for (const t of b.transactions!) {
          const next = checkTransaction(t, t.version, acc)
          if (next instanceof Error) throw next
          acc = next.accumulator
        }
    }),
    bench(
      "into LMDB, no fsync",
      replay(() => {
        const dir = mkdtempSync(join(tmpdir(), "movenode-apply-bench-"))
        dirs.push(dir)
        return makeLedgerService(openLmdbBackend({ path: dir, sync: false }))
      })
    ),
    { iterations: 5, time: 2_000 }
  )
})
