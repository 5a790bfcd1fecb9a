/**
 * The TypeScript SDK's own script and module fixtures, submitted through the SDK to a local chain as
 * its e2e tests and examples submit them, each checked by what it leaves on chain:
 * - transactionArguments' `MULTI_SIGNER_SCRIPT_ARGUMENT_TEST` (five signers and every argument kind;
 *   it asserts each value itself and aborts on a mismatch) after publishing the SDK's argument-test
 *   package from its fixed publisher key;
 * - transactionSubmission's single- and multi-signer transfer scripts and its `transfer` package;
 * - transactionBuilder's `TYPED_SCRIPT_TEST` (`coin::withdraw<T>` / `deposit<T>`), with AptosCoin;
 * - the multi_agent_transfer example's scripts: create an object, then transfer it to a second signer;
 * - the abstraction tests' packages (published) and permission-delegation script (runs, then aborts
 *   where the framework refuses permissioned signers, which is why the SDK skips that test).
 */
import {
  Account,
  AccountAddress,
  Aptos,
  AptosConfig,
  Bool,
  Ed25519PrivateKey,
  MoveString,
  MoveVector,
  Network,
  U8,
  U16,
  U32,
  U64,
  U128,
  U256
} from "@aptos-labs/ts-sdk"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { LocalChain, type LocalChainInfo } from "../src/LocalChain.js"
import { SDK_PUBLISHER_PRIVATE_KEY, sdkBytecode } from "./support/sdkBytecode.js"

const withChain = async <A>(f: (aptos: Aptos, chain: LocalChainInfo) => Promise<A>): Promise<A> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(LocalChain.spawn({ accounts: 0, graphql: { host: "127.0.0.1", port: 0 } }), (chain) =>
        Effect.promise(() =>
          f(
            new Aptos(
              new AptosConfig({
                network: Network.LOCAL,
                fullnode: chain.apiUrl,
                faucet: chain.faucetUrl,
                indexer: chain.graphqlUrl
              })
            ),
            chain
          )
        )
      )
    )
  )

const hexOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")
const noPrefix = (a: AccountAddress): string => a.toStringLong().slice(2)

const FUND = 1_000_000_000

describe("the TypeScript SDK's bytecode fixtures on a local chain", () => {
  it("runs every script the SDK's e2e tests and examples submit", async () => {
    await withChain(async (aptos) => {
      const publisher = Account.fromPrivateKey({
        privateKey: new Ed25519PrivateKey(`ed25519-priv-${SDK_PUBLISHER_PRIVATE_KEY}`),
        legacy: false
      })
      const [alice, bob, carol, dave] = [Account.generate(), Account.generate(), Account.generate(), Account.generate()]
      const others = [alice, bob, carol, dave]
      for (const a of [publisher, ...others])
        await aptos.fundAccount({ accountAddress: a.accountAddress, amount: FUND })

      const submit = async (
        sender: Account,
        data: { bytecode: string; functionArguments: unknown[]; typeArguments?: string[] },
        secondary: Account[] = []
      ) => {
        const transaction =
          secondary.length === 0
            ? await aptos.transaction.build.simple({ sender: sender.accountAddress, data: data as never })
            : await aptos.transaction.build.multiAgent({
                sender: sender.accountAddress,
                secondarySignerAddresses: secondary.map((s) => s.accountAddress),
                data: data as never
              })
        const pending = await aptos.transaction.submit.multiAgent({
          transaction,
          senderAuthenticator: aptos.transaction.sign({ signer: sender, transaction }),
          additionalSignersAuthenticators: secondary.map((s) => aptos.transaction.sign({ signer: s, transaction }))
        })
        return aptos.waitForTransaction({ transactionHash: pending.hash, options: { checkSuccess: false } })
      }
      const publish = async (sender: Account, metadata: string, modules: string[]) => {
        const transaction = await aptos.publishPackageTransaction({
          account: sender.accountAddress,
          metadataBytes: hexOf(sdkBytecode(metadata, noPrefix(sender.accountAddress))),
          moduleBytecode: modules.map((m) => hexOf(sdkBytecode(m, noPrefix(sender.accountAddress))))
        })
        const pending = await aptos.signAndSubmitTransaction({ signer: sender, transaction })
        return aptos.waitForTransaction({ transactionHash: pending.hash, options: { checkSuccess: false } })
      }
      const apt = (a: Account) => aptos.getAccountAPTAmount({ accountAddress: a.accountAddress })

      // transactionArguments: the argument-test package (its init_module creates three objects).
      expect(
        (await publish(publisher, "ARGUMENT_TESTS_CONTRACT_METADATA", ["ARGUMENT_TESTS_CONTRACT_BYTECODE"])).vm_status
      ).toBe("Executed successfully")
      const setup = await aptos.getAccountResource<{ empty_object_1: { inner: string } }>({
        accountAddress: publisher.accountAddress,
        resourceType: `${publisher.accountAddress}::tx_args_module::SetupData`
      })
      const argumentScript = (value: number) => ({
        bytecode: hexOf(sdkBytecode("MULTI_SIGNER_SCRIPT_ARGUMENT_TEST", noPrefix(publisher.accountAddress))),
        functionArguments: [
          publisher.accountAddress,
          ...others.map((a) => a.accountAddress),
          new Bool(true),
          new U8(value),
          new U16(2),
          new U32(3),
          new U64(4),
          new U128(5),
          new U256(6),
          publisher.accountAddress,
          new MoveString("expected_string"),
          AccountAddress.fromString(setup.empty_object_1.inner),
          MoveVector.U8([0, 1, 2, 253, 254, 255])
        ]
      })
      const ran = await submit(publisher, argumentScript(1), others)
      expect([ran.success, ran.vm_status]).toEqual([true, "Executed successfully"])
      expect((ran as { payload: { type: string } }).payload.type).toBe("script_payload")
      // The script checks its arguments itself: a wrong u8 aborts in the module's assertion.
      const wrong = await submit(publisher, argumentScript(2), others)
      expect(wrong.success).toBe(false)
      expect(wrong.vm_status).toMatch(
        /^Move abort in 0x2cca48b8b0d7f77ef28bfd608883c599680c5b8db8192c5e3baaae1aee45114c::tx_args_module/
      )

      // transactionSubmission: single- and multi-signer transfer scripts.
      const before = { carol: await apt(carol), dave: await apt(dave) }
      const single = await submit(alice, {
        bytecode: hexOf(sdkBytecode("singleSignerScriptBytecode")),
        functionArguments: [new U64(1), carol.accountAddress]
      })
      expect(single.success).toBe(true)
      expect(await apt(carol)).toBe(before.carol + 1)
      const multi = await submit(
        alice,
        {
          bytecode: hexOf(sdkBytecode("multiSignerScriptBytecode")),
          functionArguments: [new U64(100), new U64(200), carol.accountAddress, dave.accountAddress, new U64(50)]
        },
        [bob]
      )
      expect(multi.success).toBe(true)
      // (alice's 100 and bob's 200 merged; 50 to the first destination, the other 250 to the second)
      expect([await apt(carol), await apt(dave)]).toEqual([before.carol + 1 + 50, before.dave + 250])

      // transactionSubmission's `transfer` package, published by another account and called.
      expect((await publish(bob, "publishTransferPackage metadata", ["publishTransferPackage transfer"])).success).toBe(
        true
      )
      const viaModule = await aptos.transaction.build.simple({
        sender: alice.accountAddress,
        data: { function: `${bob.accountAddress}::transfer::transfer`, functionArguments: [7, dave.accountAddress] }
      })
      const moved = await aptos.waitForTransaction({
        transactionHash: (await aptos.signAndSubmitTransaction({ signer: alice, transaction: viaModule })).hash
      })
      expect(moved.success).toBe(true)
      expect(await apt(dave)).toBe(before.dave + 250 + 7)

      // transactionBuilder's typed script: coin::withdraw<T> then coin::deposit<T>.
      const typed = await submit(alice, {
        bytecode: hexOf(sdkBytecode("TYPED_SCRIPT_TEST")),
        typeArguments: ["0x1::aptos_coin::AptosCoin"],
        functionArguments: [new U64(11), dave.accountAddress]
      })
      expect(typed.success).toBe(true)
      expect(await apt(dave)).toBe(before.dave + 250 + 7 + 11)

      // The abstraction tests' packages (their authenticators are aa's to run): both publish.
      const aaPackages = [
        [carol, "publishAnyAuthenticatorAAPackage"],
        [dave, "publishHelloWorldAAPackage"]
      ] as const
      for (const [who, pkg] of aaPackages) {
        const modules = ["AA packages' any_authenticator", `${pkg} hello_world_authenticator`]
        expect([pkg, (await publish(who, `${pkg} metadata`, modules)).vm_status]).toEqual([
          pkg,
          "Executed successfully"
        ])
      }

      // abstraction's permission-delegation script (compiler v2: a `<SELF>_0` identifier) loads and
      // runs; the framework has removed permissioned signers, so it aborts there (the SDK skips it).
      const delegation = await submit(alice, {
        bytecode: hexOf(sdkBytecode("addPermissionDelegationScriptBytecode")),
        functionArguments: [MoveVector.U8(bob.publicKey.toUint8Array())]
      })
      expect(delegation.vm_status).toMatch(/^Move abort in 0x1::permissioned_delegation: EPERMISSIONED_SIGNER_REMOVED/)

      // The multi_agent_transfer example: alice creates an object; then, signed by both, the object
      // moves to bob and bob pays alice 10 (the example checks bob's balance to the octa).
      const created = await submit(alice, {
        bytecode: hexOf(sdkBytecode("CREATE_OBJECT_SCRIPT")),
        functionArguments: []
      })
      expect(created.success).toBe(true)
      type Core = { allow_ungated_transfer?: boolean; owner?: string }
      type Change = { type: string; address: string; data?: { type: string; data: Core } }
      const objects = (created as unknown as { changes: Change[] }).changes
        .filter((c) => c.data?.type === "0x1::object::ObjectCore" && c.data.data.allow_ungated_transfer === true)
        .filter((c) => AccountAddress.from(c.data!.data.owner!).equals(alice.accountAddress))
        .map((c) => c.address)
      expect(objects.length).toBe(1)
      const object = AccountAddress.from(objects[0]!)
      const bobBefore = await apt(bob)
      const transferred = await submit(
        alice,
        {
          bytecode: hexOf(sdkBytecode("TRANSFER_SCRIPT")),
          typeArguments: ["0x1::aptos_coin::AptosCoin"],
          functionArguments: [object, new U64(10)]
        },
        [bob]
      )
      expect([transferred.success, transferred.vm_status]).toEqual([true, "Executed successfully"])
      const core = await aptos.getAccountResource<{ owner: string }>({
        accountAddress: object,
        resourceType: "0x1::object::ObjectCore"
      })
      expect(AccountAddress.from(core.owner).equals(bob.accountAddress)).toBe(true)
      expect(await apt(bob)).toBe(bobBefore - 10)
    })
  })
})
