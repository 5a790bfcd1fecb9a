/**
 * Dump and load: a chain with history (transfers, an edit, time travel) dumped over HTTP and loaded
 * into a fresh chain on the same genesis reads the same (ledger version, height, timestamps, the
 * transactions by hash with their accumulator roots, balances, the clock's lead); garbage is
 * refused with the Aptos error body and leaves the chain as it was; `--dump-state` on stop and
 * `--load-state` at start (the LocalChain config) carry a chain across processes' lifetimes.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } from "@aptos-labs/ts-sdk"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { ControlsError, type RunningLocalChain, startLocalChain } from "../../src/testing/index.js"

const sdk = (chain: RunningLocalChain) =>
  new Aptos(new AptosConfig({ network: Network.LOCAL, fullnode: chain.info.apiUrl }))
const info = async (chain: RunningLocalChain) =>
  (await (await fetch(chain.info.apiUrl)).json()) as {
    ledger_version: string
    block_height: string
    ledger_timestamp: string
  }

/** Some history: transfers, a balance edit, a day of time travel. */
const makeHistory = async (chain: RunningLocalChain) => {
  const aptos = sdk(chain)
  const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.info.accounts[0]!.privateKey) })
  const bob = Account.generate()
  const hashes: string[] = []
  for (let i = 0; i < 3; i++) {
    const t = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount: 100 + i,
      options: { expireTimestamp: await chain.expiry(600) }
    })
    const p = await aptos.signAndSubmitTransaction({ signer: alice, transaction: t })
    hashes.push((await aptos.waitForTransaction({ transactionHash: p.hash })).hash)
  }
  await chain.controls.setBalance(bob.accountAddress.toString(), 777_000n)
  await chain.controls.increaseTime(86_400, { mine: true })
  return { hashes, bob: bob.accountAddress.toString() }
}

describe("dump and load", () => {
  it("a loaded chain reads as the dumped one", async () => {
    const a = await startLocalChain({ accounts: 1, mining: MiningMode.still() })
    const b = await startLocalChain({ accounts: 1, mining: MiningMode.still() })
    try {
      const { hashes, bob } = await makeHistory(a)
      const dump = await a.controls.dump()
      const loaded = await b.controls.load(dump)
      const [ia, ib] = [await info(a), await info(b)]
      expect(loaded.ledger_version).toBe(ia.ledger_version)
      expect([ib.ledger_version, ib.block_height, ib.ledger_timestamp]).toEqual([
        ia.ledger_version,
        ia.block_height,
        ia.ledger_timestamp
      ])
      for (const h of hashes) {
        const [ta, tb] = await Promise.all([sdk(a), sdk(b)].map((s) => s.getTransactionByHash({ transactionHash: h })))
        expect(tb).toEqual(ta)
      }
      const last = Number(ia.ledger_version)
      const [la, lb] = await Promise.all(
        [sdk(a), sdk(b)].map((s) => s.getTransactionByVersion({ ledgerVersion: last }))
      )
      expect((lb as { accumulator_root_hash: string }).accumulator_root_hash).toBe(
        (la as { accumulator_root_hash: string }).accumulator_root_hash
      )
      expect(await sdk(b).getAccountAPTAmount({ accountAddress: bob })).toBe(777_000)
      expect((await b.controls.time()).offset_usecs).toBe((await a.controls.time()).offset_usecs)
      // The loaded chain goes on: a block after it.
      expect(BigInt((await b.controls.mine(1)).ledger_version)).toBeGreaterThan(BigInt(ia.ledger_version))
    } finally {
      await a.stop()
      await b.stop()
    }
  }, 120_000)

  it("garbage is refused in the error body's shape and leaves the chain as it was", async () => {
    const chain = await startLocalChain({ accounts: 1, mining: MiningMode.still() })
    try {
      await makeHistory(chain)
      const dump = await chain.controls.dump()
      const before = await info(chain)
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.uint8Array({ maxLength: 200 }),
            // A real dump cut short or with a byte flipped: the framing or a record fails to decode.
            fc.integer({ min: 0, max: dump.length - 1 }).map((n) => dump.subarray(0, n)),
            fc.tuple(fc.integer({ min: 20, max: 60 }), fc.integer({ min: 1, max: 255 })).map(([i, x]) => {
              const copy = new Uint8Array(dump)
              copy[i] = copy[i]! ^ x
              return copy
            })
          ),
          async (bytes) => {
            const e = await chain.controls.load(bytes).catch((x: ControlsError) => x)
            expect(e).toBeInstanceOf(ControlsError) // every change is caught (the checksum)
            expect((e as ControlsError).status).toBe(400)
            expect((e as ControlsError).errorCode).toBe("invalid_input")
          }
        ),
        { numRuns: 60 }
      )
      // Whatever was refused, the chain is whole: loading the real dump gives the same chain.
      await chain.controls.load(dump)
      expect((await info(chain)).ledger_version).toBe(before.ledger_version)
    } finally {
      await chain.stop()
    }
  }, 120_000)

  it("--dump-state on stop, --load-state at start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "movenode-dump-"))
    const file = join(dir, "chain.dump")
    try {
      const a = await startLocalChain({ accounts: 1, mining: MiningMode.still(), dumpState: file })
      const { hashes } = await makeHistory(a)
      const ia = await info(a)
      await a.stop()
      const b = await startLocalChain({
        accounts: 1,
        mining: MiningMode.still(),
        loadState: file,
        dataDir: join(dir, "data")
      })
      try {
        expect((await info(b)).ledger_version).toBe(ia.ledger_version)
        expect((await sdk(b).getTransactionByHash({ transactionHash: hashes[2]! })).hash).toBe(hashes[2])
      } finally {
        await b.stop()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
