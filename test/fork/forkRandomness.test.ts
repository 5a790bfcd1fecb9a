/**
 * A fork of a network with randomness on (here a movenode source whose `RandomnessConfig` is set
 * to `ConfigV1` by the controls' state edit, as a real network's is): the fork's blocks carry a
 * seed (`block_prologue_ext`, `BlockMetadataExt` V1), so a `#[randomness]` entry function draws
 * and commits; without a seed the same call aborts (shown on the source before randomness is on).
 * Epoch changes still happen (that block takes the plain prologue: no DKG to wait for).
 */
import { Account, Aptos, AptosConfig, MoveVector, Network } from "@aptos-labs/ts-sdk"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../src/bcs/index.js"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"
import { packageMetadata } from "../execution/bytecode.js"
import { diceModule } from "./diceModule.js"

const sdkFor = (chain: LocalChainInfo) =>
  new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))
const ledger = async (apiUrl: string) => (await (await fetch(apiUrl)).json()) as { ledger_version: string }

/** `RandomnessConfig { variant: Any { type_name: "0x1::randomness_config::ConfigV1", data: BCS(ConfigV1 { 1/2, 2/3 }) } }`. */
const configV1 = (): Uint8Array => {
  const data = new BcsWriter(32)
    .u128(1n << 63n)
    .u128((2n << 64n) / 3n)
    .toBytes()
  return new BcsWriter(96).string("0x1::randomness_config::ConfigV1").bytesWithLength(data).toBytes()
}

describe("a fork of a chain with randomness on", () => {
  it("gives its blocks a seed: #[randomness] entry functions draw; epochs still change", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const source = yield* LocalChain.spawn({ accounts: 0, mining: MiningMode.instant(0) })
          const src = sdkFor(source)
          const [alice, bob, carol] = [Account.generate(), Account.generate(), Account.generate()]
          for (const a of [alice, bob, carol])
            yield* Effect.promise(() =>
              src.fundAccount({
                accountAddress: a.accountAddress,
                amount: 1_000_000_000,
                options: { waitForIndexer: false }
              })
            )
          const send = (
            aptos: Aptos,
            signer: Account,
            data: Parameters<Aptos["transaction"]["build"]["simple"]>[0]["data"]
          ) =>
            Effect.promise(async () => {
              // Expiry from the chain's clock (an epoch change moves it past the wall clock's).
              const { ledger_timestamp } = (await (await fetch(aptos.config.fullnode!)).json()) as {
                ledger_timestamp: string
              }
              const expireTimestamp = Number(BigInt(ledger_timestamp) / 1_000_000n) + 600
              const transaction = await aptos.transaction.build.simple({
                sender: signer.accountAddress,
                data,
                options: { expireTimestamp }
              })
              const sent = await aptos.signAndSubmitTransaction({ signer, transaction })
              return aptos.waitForTransaction({ transactionHash: sent.hash, options: { checkSuccess: false } })
            })
          const published = yield* send(src, alice, {
            function: "0x1::code::publish_package_txn",
            functionArguments: [
              MoveVector.U8(packageMetadata("dice", ["dice"])),
              new MoveVector([MoveVector.U8(diceModule(alice.accountAddress.toUint8Array()))])
            ]
          })
          expect(published.success, published.vm_status).toBe(true)
          const roll = { function: `${alice.accountAddress.toString()}::dice::roll` as const, functionArguments: [] }
          // Randomness off: no seed, the draw aborts.
          const noSeed = yield* send(src, carol, roll)
          expect(noSeed.success).toBe(false)

          // The source turns randomness on (what a real network's config says).
          yield* source.controls.setResource(
            addressFromNumber(1),
            { address: addressFromNumber(1), module: "randomness_config", name: "RandomnessConfig", typeArgs: [] },
            { _tag: "Bcs", bytes: configV1() }
          )
          const pinned = BigInt((yield* Effect.promise(() => ledger(source.apiUrl))).ledger_version)
          const fork = yield* LocalChain.spawn({
            accounts: 0,
            mining: MiningMode.instant(0),
            fork: { url: source.apiUrl, version: pinned }
          })
          const aptos = sdkFor(fork)

          const rolled: bigint[] = []
          for (const who of [bob, carol]) {
            const done = yield* send(aptos, who, roll)
            expect(done.success, done.vm_status).toBe(true)
            const value = (yield* Effect.promise(() =>
              aptos.getAccountResource<{ value: string }>({
                accountAddress: who.accountAddress,
                resourceType: `${alice.accountAddress.toString()}::dice::Roll`
              })
            )).value
            rolled.push(BigInt(value))
            // The block's metadata carries the seed (BlockMetadataExt V1).
            const block = (yield* Effect.promise(() =>
              fetch(`${fork.apiUrl}/blocks/by_version/${done.version}?with_transactions=true`).then((r) => r.json())
            )) as {
              transactions: Array<{
                type: string
                block_metadata_extension?: { type: string; randomness: string | null }
              }>
            }
            expect(block.transactions[0]!.type).toBe("block_metadata_transaction")
            expect(block.transactions[0]!.block_metadata_extension?.type).toBe("v1")
            expect(block.transactions[0]!.block_metadata_extension?.randomness).toMatch(/^0x[0-9a-f]{64}$/)
          }
          // Two blocks, two seeds: two different draws (a 2^-64 chance of a false failure).
          expect(rolled[0]).not.toBe(rolled[1])

          // An epoch change on the fork: not held up by a DKG nobody runs.
          const epoch = () =>
            Effect.map(
              Effect.promise(() =>
                aptos.getAccountResource<{ epoch: string }>({
                  accountAddress: "0x1",
                  resourceType: "0x1::reconfiguration::Configuration"
                })
              ),
              (c) => BigInt(c.epoch)
            )
          const before = yield* epoch()
          yield* fork.controls.advanceEpoch
          expect(yield* epoch()).toBe(before + 1n)
          const after = yield* send(aptos, alice, roll)
          expect(after.success, after.vm_status).toBe(true)
        })
      )
    )
  }, 120_000)
})
