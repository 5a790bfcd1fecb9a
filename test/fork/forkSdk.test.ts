/**
 * What issue 23 is judged on, through the TypeScript SDK: a movenode local chain with history
 * (funded accounts, APT's fungible asset in primary stores, a coin of our own paired into a fungible
 * asset of its own, an NFT collection and a token — objects in resource groups — and the SDK's
 * `transfer` package published) is forked at a pinned version.
 * On the fork, balances, resources and views equal the source's at that version (read there with
 * `ledgerVersion`); history at or below it (transactions, an account's transactions and summaries,
 * event streams) is the source's; the source's later transactions do not appear; transfers, module calls,
 * publishing and moving the NFT work on the fork, and leave the source as it was.
 */
import {
  Account,
  AccountAddress,
  type AccountAddressInput,
  Aptos,
  AptosConfig,
  MoveVector,
  Network
} from "@aptos-labs/ts-sdk"
import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain, type LocalChainInfo } from "../../src/LocalChain.js"
import { packageMetadata } from "../execution/bytecode.js"
import { coinTypeModule } from "../indexer/processors/support/coinModule.js"
import { sdkBytecode } from "../support/sdkBytecode.js"

/** The latest version, asked of GET /v1 (the SDK memoizes getLedgerInfo on a custom network). */
const latestVersion = async (apiUrl: string): Promise<bigint> =>
  BigInt(((await (await fetch(apiUrl)).json()) as { ledger_version: string }).ledger_version)

const sdkFor = (chain: LocalChainInfo) =>
  new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: chain.apiUrl, faucet: chain.faucetUrl }))

const start = async (config: Parameters<typeof LocalChain.spawn>[0]) => {
  const scope = await Effect.runPromise(Scope.make())
  const chain = await Effect.runPromise(Scope.provide(LocalChain.spawn(config), scope))
  return { chain, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")
const noPrefix = (a: Account) => a.accountAddress.toStringLong().slice(2)

/** The address of the object a transaction created with a resource of `type` (from its changes). */
const createdObject = (txn: { changes?: unknown }, type: string): string => {
  const change = (txn.changes as Array<{ type: string; address: string; data?: { type: string } }>).find(
    (c) => c.type === "write_resource" && c.data?.type === type
  )
  if (change === undefined) throw new Error(`no ${type} written`)
  return change.address
}

describe("a fork of a local chain with history, through the TypeScript SDK", () => {
  it("equals the source at the pinned version, then lives its own life", async () => {
    const source = await start({ accounts: 0, mining: MiningMode.instant(0) })
    const forked: Array<() => Promise<void>> = []
    try {
      const src = sdkFor(source.chain)
      const [alice, bob, publisher, carol] = [
        Account.generate(),
        Account.generate(),
        Account.generate(),
        Account.generate()
      ]
      for (const a of [alice, bob, publisher])
        await src.fundAccount({
          accountAddress: a.accountAddress,
          amount: 1_000_000_000,
          options: { waitForIndexer: false }
        })
      const run = async (
        signer: Account,
        transaction: Awaited<ReturnType<typeof src.transaction.build.simple>>,
        aptos = src
      ) => {
        const sent = await aptos.signAndSubmitTransaction({ signer, transaction })
        const done = await aptos.waitForTransaction({ transactionHash: sent.hash })
        expect(done.success, done.vm_status).toBe(true)
        return done
      }
      // History: a transfer, the SDK's transfer package, an NFT collection and a token.
      await run(
        alice,
        await src.transferCoinTransaction({ sender: alice.accountAddress, recipient: bob.accountAddress, amount: 4242 })
      )
      const publishTransfer = (account: Account, aptos: Aptos) =>
        aptos.publishPackageTransaction({
          account: account.accountAddress,
          metadataBytes: hexOf(sdkBytecode("publishTransferPackage metadata", noPrefix(account))),
          moduleBytecode: [hexOf(sdkBytecode("publishTransferPackage transfer", noPrefix(account)))]
        })
      await run(publisher, await publishTransfer(publisher, src))
      const collectionTxn = await run(
        alice,
        await src.createCollectionTransaction({
          creator: alice,
          description: "fork test",
          name: "Forked",
          uri: "https://x"
        })
      )
      const collection = createdObject(collectionTxn, "0x4::collection::Collection")
      const mintTxn = await run(
        alice,
        await src.mintDigitalAssetTransaction({
          creator: alice,
          collection: "Forked",
          description: "t",
          name: "Token1",
          uri: "https://t"
        })
      )
      const token = createdObject(mintTxn, "0x4::token::Token")
      // A coin of our own (a module declaring the type, the framework's managed_coin), minted to bob,
      // who sends some on: the framework pairs it with a fungible asset (primary stores, metadata object).
      const moon = `${publisher.accountAddress.toString()}::moon::Moon` as `${string}::${string}::${string}`
      const call = async (
        signer: Account,
        data: Parameters<typeof src.transaction.build.simple>[0]["data"],
        aptos = src
      ) => run(signer, await aptos.transaction.build.simple({ sender: signer.accountAddress, data }), aptos)
      await call(publisher, {
        function: "0x1::code::publish_package_txn",
        functionArguments: [
          MoveVector.U8(packageMetadata("moon", ["moon"])),
          new MoveVector([MoveVector.U8(coinTypeModule(publisher.accountAddress.toUint8Array(), "moon", "Moon"))])
        ]
      })
      await call(publisher, {
        function: "0x1::managed_coin::initialize",
        typeArguments: [moon],
        functionArguments: [
          MoveVector.U8(new TextEncoder().encode("Moon Coin")),
          MoveVector.U8(new TextEncoder().encode("MOON")),
          6,
          true
        ]
      })
      await call(bob, { function: "0x1::managed_coin::register", typeArguments: [moon], functionArguments: [] })
      await call(publisher, {
        function: "0x1::managed_coin::mint",
        typeArguments: [moon],
        functionArguments: [bob.accountAddress, 5_000]
      })
      await call(bob, {
        function: "0x1::aptos_account::transfer_coins",
        typeArguments: [moon],
        functionArguments: [alice.accountAddress, 1_200]
      })
      const pinned = await latestVersion(source.chain.apiUrl)

      // After the pin, on the source only: more APT to bob, a second token.
      await run(
        alice,
        await src.transferCoinTransaction({ sender: alice.accountAddress, recipient: bob.accountAddress, amount: 1 })
      )
      await run(
        alice,
        await src.mintDigitalAssetTransaction({
          creator: alice,
          collection: "Forked",
          description: "t",
          name: "Token2",
          uri: "https://t"
        })
      )

      const fork = await start({
        accounts: 0,
        mining: MiningMode.instant(0),
        fork: { url: source.chain.apiUrl, version: pinned }
      })
      forked.push(fork.stop)
      const aptos = sdkFor(fork.chain)
      const atPin = { ledgerVersion: pinned }

      // Balances (APT as coin and as fungible asset), resources (plain and group members), views.
      for (const who of [alice, bob, publisher]) {
        const accountAddress = who.accountAddress
        const balance = {
          function: "0x1::coin::balance" as const,
          typeArguments: ["0x1::aptos_coin::AptosCoin"],
          functionArguments: [accountAddress]
        }
        const [atSource] = await src.view({ payload: balance, options: atPin })
        expect(await aptos.view({ payload: balance })).toEqual([atSource])
        expect(await aptos.getAccountAPTAmount({ accountAddress })).toBe(Number(atSource))
        expect(await (await fetch(`${fork.chain.apiUrl}/accounts/${accountAddress}`)).json()).toEqual(
          await (await fetch(`${source.chain.apiUrl}/accounts/${accountAddress}?ledger_version=${pinned}`)).json()
        )
      }
      const views: Array<{
        function: `${string}::${string}::${string}`
        typeArguments?: string[]
        functionArguments: AccountAddressInput[]
      }> = [
        {
          function: "0x1::primary_fungible_store::balance",
          typeArguments: ["0x1::fungible_asset::Metadata"],
          functionArguments: [bob.accountAddress, "0xa"]
        },
        { function: "0x1::coin::supply", typeArguments: ["0x1::aptos_coin::AptosCoin"], functionArguments: [] },
        {
          function: "0x4::collection::count",
          typeArguments: ["0x4::collection::Collection"],
          functionArguments: [collection]
        },
        { function: "0x4::token::name", typeArguments: ["0x4::token::Token"], functionArguments: [token] },
        { function: "0x1::object::owner", typeArguments: ["0x4::token::Token"], functionArguments: [token] },
        { function: "0x1::coin::balance", typeArguments: [moon], functionArguments: [bob.accountAddress] },
        { function: "0x1::coin::balance", typeArguments: [moon], functionArguments: [alice.accountAddress] },
        { function: "0x1::coin::supply", typeArguments: [moon], functionArguments: [] },
        { function: "0x1::coin::name", typeArguments: [moon], functionArguments: [] },
        { function: "0x1::coin::paired_metadata", typeArguments: [moon], functionArguments: [] }
      ]
      for (const payload of views)
        expect(await aptos.view({ payload }), payload.function).toEqual(await src.view({ payload, options: atPin }))
      // State below the pin (a ledger_version under V) is the source's at that version.
      const earlier = { ledgerVersion: pinned - 3n }
      for (const payload of views.slice(0, 2))
        expect(await aptos.view({ payload, options: earlier }), `${payload.function} at V-3`).toEqual(
          await src.view({ payload, options: earlier })
        )
      for (const [accountAddress, resourceType] of [
        [alice.accountAddress.toString(), "0x1::account::Account"],
        [collection, "0x4::collection::Collection"],
        [collection, "0x1::object::ObjectCore"],
        [token, "0x4::token::Token"],
        [token, "0x1::object::ObjectCore"]
      ] as const)
        expect(
          await aptos.getAccountResource({ accountAddress, resourceType }),
          `${resourceType} of ${accountAddress}`
        ).toEqual(await src.getAccountResource({ accountAddress, resourceType, options: atPin }))
      // Listings: the source's keys of the account, each read on the fork, by raw requests (the
      // SDK's listing helpers do not pass ledger_version on). 0x1's resources are not compared:
      // the fork's own blocks have written some since.
      for (const [accountAddress, kinds] of [
        [alice.accountAddress.toString(), ["resources", "modules"]],
        [publisher.accountAddress.toString(), ["resources", "modules"]],
        [collection, ["resources"]],
        [token, ["resources"]],
        ["0x1", ["modules"]]
      ] as const)
        for (const what of kinds)
          expect(
            await (await fetch(`${fork.chain.apiUrl}/accounts/${accountAddress}/${what}?limit=9999`)).json(),
            `${what} of ${accountAddress}`
          ).toEqual(
            await (
              await fetch(
                `${source.chain.apiUrl}/accounts/${accountAddress}/${what}?limit=9999&ledger_version=${pinned}`
              )
            ).json()
          )
      const moduleAbi = await aptos.getAccountModule({
        accountAddress: publisher.accountAddress,
        moduleName: "transfer"
      })
      expect(moduleAbi).toEqual(
        await src.getAccountModule({ accountAddress: publisher.accountAddress, moduleName: "transfer", options: atPin })
      )
      // The source's later transactions are not there; history at or below the pin is.
      expect(await aptos.view({ payload: views[2]! })).toEqual([{ vec: ["1"] }])
      for (const ledgerVersion of [pinned, BigInt(mintTxn.version)])
        expect(await aptos.getTransactionByVersion({ ledgerVersion })).toEqual(
          await src.getTransactionByVersion({ ledgerVersion })
        )
      expect(await aptos.getTransactionByHash({ transactionHash: mintTxn.hash })).toEqual(mintTxn)
      // The SDK's waitForTransaction (wait_by_hash) on a transaction of the source's history.
      expect(await aptos.waitForTransaction({ transactionHash: mintTxn.hash })).toEqual(mintTxn)
      // Blocks at or below the pin, with their transactions, by version and by height.
      const mintBlock = await src.getBlockByVersion({
        ledgerVersion: BigInt(mintTxn.version),
        options: { withTransactions: true }
      })
      expect(
        await aptos.getBlockByVersion({ ledgerVersion: BigInt(mintTxn.version), options: { withTransactions: true } })
      ).toEqual(mintBlock)
      expect(
        await aptos.getBlockByHeight({
          blockHeight: BigInt(mintBlock.block_height),
          options: { withTransactions: true }
        })
      ).toEqual(mintBlock)
      // An event stream (0x1's NewBlockEvent handle, creation number 3): the source's events at or
      // below the pin, then the fork's own blocks', their sequence numbers continuing.
      const stream = (api: string, query: string) =>
        fetch(`${api}/accounts/0x1/events/3?${query}`).then(
          (r) => r.json() as Promise<Array<{ version: string; sequence_number: string }>>
        )
      const fromSource = (await stream(source.chain.apiUrl, "start=0&limit=100")).filter(
        (e) => BigInt(e.version) <= pinned
      )
      expect(await stream(fork.chain.apiUrl, `start=0&limit=${fromSource.length}`)).toEqual(fromSource)
      const newest = await stream(fork.chain.apiUrl, "limit=100")
      expect(newest.slice(0, fromSource.length)).toEqual(fromSource)
      expect(newest.map((e) => Number(e.sequence_number))).toEqual(newest.map((_, i) => i))
      expect(BigInt(newest.at(-1)!.version)).toBeGreaterThan(pinned)
      const atSourceBefore = (await src.getAccountTransactions({ accountAddress: alice.accountAddress })).filter(
        (t) => BigInt((t as { version: string }).version) <= pinned
      )
      expect(atSourceBefore).toHaveLength(3)
      expect(await aptos.getAccountTransactions({ accountAddress: alice.accountAddress })).toEqual(atSourceBefore)
      // Transaction summaries (what wallets page through): the source's at or below the pin, every way of asking.
      const summaries = (api: string, who: Account, query: string) =>
        fetch(`${api}/accounts/${who.accountAddress}/transaction_summaries?${query}`).then(
          (r) => r.json() as Promise<Array<{ version: string }>>
        )
      const aliceAtPin = await summaries(source.chain.apiUrl, alice, `end_version=${pinned}`)
      expect(aliceAtPin.map((x) => BigInt(x.version))).toEqual(
        atSourceBefore.map((t) => BigInt((t as { version: string }).version))
      )
      expect(await summaries(fork.chain.apiUrl, alice, "")).toEqual(aliceAtPin)
      expect(await summaries(fork.chain.apiUrl, alice, "start_version=0&limit=2")).toEqual(aliceAtPin.slice(0, 2))
      expect(await summaries(fork.chain.apiUrl, alice, `end_version=${aliceAtPin[1]!.version}&limit=1`)).toEqual([
        aliceAtPin[1]
      ])

      // The fork's own life: a transfer, a call of the published module, a publish, an NFT moved.
      await run(
        alice,
        await aptos.transferCoinTransaction({
          sender: alice.accountAddress,
          recipient: carol.accountAddress,
          amount: 777
        }),
        aptos
      )
      await run(
        bob,
        await aptos.transaction.build.simple({
          sender: bob.accountAddress,
          data: {
            function: `${publisher.accountAddress}::transfer::transfer`,
            functionArguments: [7, carol.accountAddress]
          }
        }),
        aptos
      )
      expect(await aptos.getAccountAPTAmount({ accountAddress: carol.accountAddress })).toBe(784)
      // The coin of our own moves on the fork (bob's store and the pairing read from the source).
      await call(
        bob,
        {
          function: "0x1::aptos_account::transfer_coins",
          typeArguments: [moon],
          functionArguments: [carol.accountAddress, 300]
        },
        aptos
      )
      expect(
        await aptos.view({
          payload: { function: "0x1::coin::balance", typeArguments: [moon], functionArguments: [carol.accountAddress] }
        })
      ).toEqual(["300"])
      expect(
        await aptos.view({
          payload: { function: "0x1::coin::balance", typeArguments: [moon], functionArguments: [bob.accountAddress] }
        })
      ).toEqual(["3500"])
      // Alice's summaries now: the source's at or below the pin, then the fork's own transfer.
      const aliceNow = await summaries(fork.chain.apiUrl, alice, "")
      expect(aliceNow.slice(0, aliceAtPin.length)).toEqual(aliceAtPin)
      expect(aliceNow.slice(aliceAtPin.length).map((x) => BigInt(x.version) > pinned)).toEqual([true])
      expect(await summaries(fork.chain.apiUrl, alice, "start_version=0&limit=100")).toEqual(aliceNow)
      await run(bob, await publishTransfer(bob, aptos), aptos)
      // bob: at the source, the coin's register and a send; on the fork, the module call, a send and the publish.
      expect(
        (await aptos.getAccountTransactions({ accountAddress: bob.accountAddress })).map(
          (t) => BigInt((t as { version: string }).version) > pinned
        )
      ).toEqual([false, false, true, true, true])
      expect(
        (await aptos.getAccountModule({ accountAddress: bob.accountAddress, moduleName: "transfer" })).abi?.name
      ).toBe("transfer")
      await run(
        alice,
        await aptos.transferDigitalAssetTransaction({
          sender: alice,
          digitalAssetAddress: token,
          recipient: carol.accountAddress
        }),
        aptos
      )
      const ownerOn = async (on: Aptos) => AccountAddress.from((await on.view<[string]>({ payload: views[4]! }))[0])
      expect((await ownerOn(aptos)).equals(carol.accountAddress)).toBe(true)
      // Listings after local writes: the module bob published on the fork is listed with the source's keys.
      expect((await aptos.getAccountModules({ accountAddress: bob.accountAddress })).map((m) => m.abi?.name)).toEqual([
        "transfer"
      ])
      expect((await aptos.getAccountResources({ accountAddress: bob.accountAddress })).map((r) => r.type)).toContain(
        "0x1::code::PackageRegistry"
      )

      // The transaction list across the pin: the source's up to V, then the fork's own (V+1 on).
      const across = await aptos.getTransactions({ options: { offset: pinned - 2n, limit: 5 } })
      expect(across.slice(0, 3)).toEqual(await src.getTransactions({ options: { offset: pinned - 2n, limit: 3 } }))
      expect(across.slice(3).map((t) => BigInt((t as { version: string }).version))).toEqual([pinned + 1n, pinned + 2n])
      expect((await src.getTransactions({ options: { offset: pinned + 1n, limit: 1 } }))[0]).not.toEqual(across[3])

      // The source saw none of it.
      expect(await src.getAccountAPTAmount({ accountAddress: carol.accountAddress })).toBe(0)
      expect((await ownerOn(src)).equals(alice.accountAddress)).toBe(true)
    } finally {
      for (const stop of forked) await stop()
      await source.stop()
    }
  }, 240_000)
})
