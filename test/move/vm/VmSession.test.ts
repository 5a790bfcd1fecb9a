/**
 * VM sessions on the devnet genesis state: scripts, user-payload ("entry") argument rules, argument
 * constructors, publish requests, staged modules, and the session-level natives (randomness,
 * consensus config, storage usage).
 */
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter, toHex } from "../../../src/bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import { OverlayStateView } from "../../../src/execution/OverlayStateView.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { validatorTxnEnabled } from "../../../src/move/vm/natives/consensus_config.js"
import type { SessionId } from "../../../src/move/vm/SessionId.js"
import type { ExecOutcome } from "../../../src/move/vm/VmSession.js"
import { genesisState } from "./genesisState.js"
import { TEST_ADDRESS, testModuleBytes } from "./testModule.js"
import { transferScriptBytes } from "./transferScript.js"

const ONE = addressFromNumber(1)
const CORE = addressFromNumber(0xa550c18)
const BOB = addressFromNumber(0xb0b)
const devnet = genesisState("devnet")
const vm = new MoveVm()
const id: SessionId = { _tag: "Txn", sender: CORE, sequenceNumber: 0n, scriptHash: new Uint8Array() }
const u64 = (n: bigint): Uint8Array => new BcsWriter(8).u64(n).toBytes()
const aptosCoin: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "aptos_coin", name: "AptosCoin", typeArgs: [] }
}
const metadataTag: TypeTag = {
  _tag: "struct",
  struct: { address: ONE, module: "fungible_asset", name: "Metadata", typeArgs: [] }
}

const show = (o: unknown): string => JSON.stringify(o, (_k, v) => (typeof v === "bigint" ? `${v}` : v))
const ok = (o: ExecOutcome): ReadonlyArray<Uint8Array> => {
  if (o._tag !== "Success") throw new Error(show(o))
  return o.values
}

const balanceAfter = (changes: OverlayStateView, owner: AccountAddress): bigint => {
  const o = vm.call(changes, {
    module: { address: ONE, name: "coin" },
    function: "balance",
    tyArgs: [aptosCoin],
    args: [owner]
  })
  if (o._tag !== "Success") throw new Error(show(o))
  return new BcsReader(o.values[0]!).u64()
}

describe("VmSession", () => {
  it("runs a script with the signer first and the transaction arguments after", () => {
    const session = vm.session(devnet.view, { id })
    ok(
      session.executeScript(
        {
          code: transferScriptBytes,
          typeArgs: [],
          args: [
            { _tag: "Address", value: BOB },
            { _tag: "U64", value: 250n }
          ]
        },
        [CORE]
      )
    )
    const done = session.finish()
    if (done._tag !== "Success") throw new Error(show(done))
    expect(
      balanceAfter(new OverlayStateView(devnet.view, [{ writeSet: done.changeSet.writeSet, version: 1n }]), BOB)
    ).toBe(250n)
  })

  it("a script given two signers for one signer parameter is NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH", () => {
    const o = vm.session(devnet.view, { id }).executeScript(
      {
        code: transferScriptBytes,
        typeArgs: [],
        args: [
          { _tag: "Address", value: BOB },
          { _tag: "U64", value: 1n }
        ]
      },
      [CORE, BOB]
    )
    expect(o._tag === "Error" && o.error.status).toBe("NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH")
  })

  it("entry mode refuses a function that is not entry", () => {
    const o = vm.session(devnet.view, { id }).execute(
      {
        module: { address: ONE, name: "coin" },
        function: "balance",
        tyArgs: [aptosCoin],
        signers: [],
        args: [CORE]
      },
      { mode: "entry" }
    )
    expect(o._tag === "Error" && o.error.status).toBe("EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION")
  })

  it("builds an Object<T> argument with object::address_to_object (and aborts as it does on a bad address)", () => {
    const session = vm.session(devnet.view, { id })
    const transfer = (metadata: AccountAddress) =>
      session.execute(
        {
          module: { address: ONE, name: "primary_fungible_store" },
          function: "transfer",
          tyArgs: [metadataTag],
          signers: [CORE],
          args: [metadata, BOB, u64(42n)]
        },
        { mode: "entry" }
      )
    ok(transfer(addressFromNumber(0xa)))
    const done = session.finish()
    if (done._tag !== "Success") throw new Error(show(done))
    const view = new OverlayStateView(devnet.view, [{ writeSet: done.changeSet.writeSet, version: 1n }])
    expect(balanceAfter(view, BOB)).toBe(42n)
    const bad = vm.session(devnet.view, { id }).execute(
      {
        module: { address: ONE, name: "primary_fungible_store" },
        function: "transfer",
        tyArgs: [metadataTag],
        signers: [CORE],
        args: [addressFromNumber(0xbad), BOB, u64(1n)]
      },
      { mode: "entry" }
    )
    expect(bad._tag).toBe("Abort")
    if (bad._tag === "Abort") expect(bad.location?.name).toBe("object")
  })

  it("trailing bytes after a constructed argument are FAILED_TO_DESERIALIZE_ARGUMENT", () => {
    const o = vm.session(devnet.view, { id }).execute(
      {
        module: { address: ONE, name: "primary_fungible_store" },
        function: "transfer",
        tyArgs: [metadataTag],
        signers: [CORE],
        args: [new Uint8Array([...addressFromNumber(0xa), 0]), BOB, u64(1n)]
      },
      { mode: "entry" }
    )
    expect(o._tag === "Error" && o.error.status).toBe("FAILED_TO_DESERIALIZE_ARGUMENT")
  })

  it("code::publish_package_txn records a publish request; staged modules are written and loadable", () => {
    const session = vm.session(devnet.view, { id: { ...id, sender: TEST_ADDRESS } })
    ok(
      session.execute(
        {
          module: { address: ONE, name: "code" },
          function: "publish_package_txn",
          tyArgs: [],
          signers: [TEST_ADDRESS],
          args: [
            new BcsWriter().bytesWithLength(packageMetadata("testpkg", ["t"])).toBytes(),
            vectorOfBytes([testModuleBytes])
          ]
        },
        { mode: "entry" }
      )
    )
    const request = session.takePublishRequest()
    expect(request?.expectedModules).toEqual(["t"])
    expect(toHex(request!.destination)).toBe(toHex(TEST_ADDRESS))
    expect(request!.bundle.map(toHex)).toEqual([toHex(testModuleBytes)])
    expect(request!.upgradePolicy).toBe(1)
    expect(session.takePublishRequest()).toBeUndefined()
    session.stageModules([{ id: { address: TEST_ADDRESS, name: "t" }, bytes: testModuleBytes }])
    // The staged module runs in the same session.
    const sum = ok(
      session.execute({
        module: { address: TEST_ADDRESS, name: "t" },
        function: "add",
        tyArgs: [],
        signers: [],
        args: [u64(2n), u64(3n)]
      })
    )
    expect(new BcsReader(sum[0]!).u64()).toBe(5n)
    const done = session.finish()
    if (done._tag !== "Success") throw new Error(show(done))
    const keys = done.changeSet.writeSet.entries.map((e) =>
      e.key._tag === "AccessPath" ? `${e.key.path._tag}:${e.op._tag}` : e.key._tag
    )
    expect(keys).toContain("Code:Creation")
    expect(keys).toContain("Resource:Creation") // the PackageRegistry at 0xcafe
  })

  it("randomness is refused outside a #[randomness] entry function", () => {
    const o = vm.session(devnet.view, { id }).execute({
      module: { address: ONE, name: "randomness" },
      function: "u64_integer",
      tyArgs: [],
      signers: [],
      args: []
    })
    expect(o._tag).toBe("Abort")
  })

  it("consensus_config: devnet's config (V5, validator transactions V1) enables validator transactions", () => {
    const bytes = devnet.view.resource(ONE, {
      address: ONE,
      module: "consensus_config",
      name: "ConsensusConfig",
      typeArgs: []
    })
    const r = new BcsReader(bytes!)
    expect(validatorTxnEnabled(r.bytesWithLength())).toBe(true)
    expect(validatorTxnEnabled(new Uint8Array([0, 1, 2]))).toBe(false)
    const o = ok(
      vm.session(devnet.view, { id }).execute({
        module: { address: ONE, name: "consensus_config" },
        function: "validator_txn_enabled",
        tyArgs: [],
        signers: [],
        args: []
      })
    )
    expect(o[0]).toEqual(new Uint8Array([1]))
  })
})

/** BCS of `vector<vector<u8>>`. */
const vectorOfBytes = (items: ReadonlyArray<Uint8Array>): Uint8Array => {
  const w = new BcsWriter()
  w.uleb128(items.length)
  for (const i of items) w.bytesWithLength(i)
  return w.toBytes()
}

/**
 * BCS of `0x1::code::PackageMetadata { name, upgrade_policy: {policy}, upgrade_number,
 * source_digest, manifest, modules: [{name, source, source_map, extension: None}], deps, extension }`.
 */
const packageMetadata = (name: string, modules: ReadonlyArray<string>): Uint8Array => {
  const w = new BcsWriter()
  w.string(name).u8(1).u64(0n).string("").bytesWithLength(new Uint8Array())
  w.uleb128(modules.length)
  for (const m of modules) w.string(m).bytesWithLength(new Uint8Array()).bytesWithLength(new Uint8Array()).u8(0)
  w.uleb128(1).fixed(ONE).string("AptosFramework")
  w.u8(0)
  return w.toBytes()
}
