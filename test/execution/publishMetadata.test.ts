/**
 * What publishing checks of modules' metadata (`move/metadata/validateMetadata.ts`) and of resource
 * groups across a bundle (`execution/resourceGroups.ts`), as the reference does at publish. Every
 * genesis framework module and every SDK package passes; hand-made metadata each rule refuses is
 * refused with the reference's message; random metadata bytes are answered, never thrown.
 */
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../src/bcs/index.js"
import { addressFromNumber, addressToShortString } from "../../src/domain/AccountAddress.js"
import { listGenesisModules } from "../../src/move/abi/genesisModules.js"
import type { CompiledModule } from "../../src/move/binary/CompiledModule.js"
import { deserializeModule } from "../../src/move/binary/deserialize.js"
import { AttributeKind } from "../../src/move/metadata/ModuleMetadata.js"
import { publishMetadataError } from "../../src/move/metadata/validateMetadata.js"
import { resourceGroupsError } from "../../src/execution/resourceGroups.js"
import { ALL_GENESIS, loadGenesisBytes } from "../support/genesis.js"
import { sdkBytecode, sdkFixtures } from "../support/sdkBytecode.js"
import { resolverOf } from "../move/verifier/support.js"
import { counterModule } from "./bytecode.js"

type Attrs = ReadonlyArray<readonly [string, ReadonlyArray<readonly [number, ReadonlyArray<string>]>]>

/** `aptos::metadata_v1`: no error map, these struct and function attributes. */
const metadataV1 = (structs: Attrs, functions: Attrs): Uint8Array => {
  const w = new BcsWriter(256).uleb128(0)
  for (const map of [structs, functions]) {
    w.uleb128(map.length)
    for (const [name, attrs] of map) {
      w.string(name).uleb128(attrs.length)
      for (const [kind, args] of attrs) {
        w.u8(kind).uleb128(args.length)
        for (const a of args) w.string(a)
      }
    }
  }
  return w.toBytes()
}

const entry = (key: string, value: Uint8Array) => ({ key: new TextEncoder().encode(key), value })

const USER = addressFromNumber(0xbeef)
/** `<USER>::counter` (struct Counter has key; init_module, entry bump, entry remove) with these metadata entries. */
const counter = (metadata: CompiledModule["metadata"], address = USER): CompiledModule => ({
  ...Result.getOrThrow(deserializeModule(counterModule(address))),
  metadata
})
const withAttrs = (structs: Attrs, functions: Attrs = [], address = USER) =>
  counter([entry("aptos::metadata_v1", metadataV1(structs, functions))], address)

describe("module metadata at publish", () => {
  it("every genesis framework module and every SDK module passes", () => {
    for (const net of ALL_GENESIS) {
      const rows = Result.getOrThrow(listGenesisModules(loadGenesisBytes(net)))
      const refused = rows.flatMap((r) => {
        const why = publishMetadataError(Result.getOrThrow(deserializeModule(r.bytes)))
        return why === undefined ? [] : [`${r.address}::${r.name}: ${why}`]
      })
      expect(refused).toEqual([])
    }
    for (const f of sdkFixtures.filter((f) => f.kind === "module"))
      expect(publishMetadataError(Result.getOrThrow(deserializeModule(sdkBytecode(f.name))))).toBeUndefined()
  })

  it("attributes: #[view] without results, #[randomness] on a public or non-entry function, unknown kinds are refused", () => {
    expect(publishMetadataError(withAttrs([], [["bump", [[AttributeKind.View, []]]]]))).toBe(
      "Unknown attribute (1) for key: bump"
    )
    expect(publishMetadataError(withAttrs([], [["init_module", [[AttributeKind.Randomness, []]]]]))).toBe(
      "Unknown attribute (5) for key: init_module"
    )
    expect(publishMetadataError(withAttrs([], [["bump", [[AttributeKind.Randomness, []]]]]))).toBeUndefined()
    expect(publishMetadataError(withAttrs([], [["missing", [[AttributeKind.Randomness, []]]]]))).toMatch(
      /Unknown attribute/
    )
    expect(publishMetadataError(withAttrs([["Counter", [[9, []]]]]))).toBe("Unknown attribute (9) for key: Counter")
    expect(publishMetadataError(withAttrs([["Counter", [[AttributeKind.Event, []]]]]))).toBeUndefined()
  })

  it("resource groups: a group must have no abilities and one field; a member must have key", () => {
    // Counter has key: not a group.
    expect(publishMetadataError(withAttrs([["Counter", [[AttributeKind.ResourceGroup, ["global"]]]]]))).toMatch(
      /Unknown attribute/
    )
    // An unknown scope is not a group attribute at all.
    expect(publishMetadataError(withAttrs([["Counter", [[AttributeKind.ResourceGroup, ["everywhere"]]]]]))).toBe(
      "Unknown attribute (2) for key: Counter"
    )
    expect(
      publishMetadataError(
        withAttrs([["Counter", [[AttributeKind.ResourceGroupMember, ["0x1::object::ObjectGroup"]]]]])
      )
    ).toBeUndefined()
    expect(
      publishMetadataError(withAttrs([["Counter", [[AttributeKind.ResourceGroupMember, ["not a struct"]]]]]))
    ).toBe("Unknown attribute (3) for key: Counter")
  })

  it("format: unknown keys, two Aptos entries, entries that do not decode are refused", () => {
    expect(publishMetadataError(counter([entry("mine", Uint8Array.of(1))]))).toMatch(/^Unknown key found/)
    const v1 = metadataV1([], [])
    expect(
      publishMetadataError(counter([entry("aptos::metadata_v0", Uint8Array.of(0)), entry("aptos::metadata_v1", v1)]))
    ).toBe("Duplicate key for metadata")
    expect(publishMetadataError(counter([entry("aptos::metadata_v1", Uint8Array.of(5, 1))]))).toMatch(
      /^Unable to deserialize/
    )
    expect(publishMetadataError(counter([entry("aptos::metadata_v1", v1)]))).toBeUndefined()
  })

  it("random metadata values are answered, never thrown", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("aptos::metadata_v0", "aptos::metadata_v1", "compilation_metadata", "x"),
        fc.uint8Array({ maxLength: 48 }),
        (key, value) => {
          const why = publishMetadataError(counter([entry(key, value)]))
          expect(why === undefined || typeof why === "string").toBe(true)
        }
      ),
      { numRuns: 2000, seed: 0x3e7a }
    )
  })
})

describe("resource groups across a bundle at publish", () => {
  const framework = Result.getOrThrow(listGenesisModules(loadGenesisBytes("devnet"))).map((r) =>
    Result.getOrThrow(deserializeModule(r.bytes))
  )
  const published = resolverOf(framework)
  const none = () => undefined

  it("the devnet framework, published address by address, passes", () => {
    const byAddress = new Map<string, CompiledModule[]>()
    for (const m of framework) {
      const a = addressToShortString(m.addressIdentifiers[m.moduleHandles[m.selfModuleHandleIndex]!.address]!)
      byAddress.set(a, [...(byAddress.get(a) ?? []), m])
    }
    for (const bundle of byAddress.values()) expect(resourceGroupsError(bundle, none, published)).toBeUndefined()
  })

  it("a member of the object group (global scope) passes; of a group that does not exist is refused", () => {
    expect(
      resourceGroupsError(
        [withAttrs([["Counter", [[AttributeKind.ResourceGroupMember, ["0x1::object::ObjectGroup"]]]]])],
        none,
        published
      )
    ).toBeUndefined()
    expect(
      resourceGroupsError(
        [withAttrs([["Counter", [[AttributeKind.ResourceGroupMember, ["0x1::object::Nope"]]]]])],
        none,
        published
      )
    ).toBe("Invalid resource_group attribute")
    expect(
      resourceGroupsError(
        [withAttrs([["Counter", [[AttributeKind.ResourceGroupMember, ["0x77::nowhere::Group"]]]]])],
        none,
        published
      )
    ).toBe("No such resource_group")
  })

  it("a member outside its group's scope (another address for `address`, another module for `module_`) is refused", () => {
    const A = addressFromNumber(0xa)
    const B = addressFromNumber(0xb)
    /** `<address>::<name>` (the counter module renamed) with these struct attributes on `Counter`. */
    const at = (address: Uint8Array, name: string, attrs: Attrs[number][1]) => {
      const m = withAttrs([["Counter", attrs]], [], address)
      const self = m.moduleHandles[m.selfModuleHandleIndex]!.name
      return { ...m, identifiers: m.identifiers.map((id, i) => (i === self ? name : id)) }
    }
    const member = (address: Uint8Array, name: string) =>
      at(address, name, [[AttributeKind.ResourceGroupMember, [`${addressToShortString(A)}::groups::Counter`]]])
    for (const [scope, sameAddressOtherModule, otherAddress] of [
      ["global", undefined, undefined],
      ["address", undefined, "Scope mismatch"],
      ["module_", "Scope mismatch", "Scope mismatch"]
    ] as const) {
      const group = at(A, "groups", [[AttributeKind.ResourceGroup, [scope]]])
      const onChain = resolverOf([...framework, group])
      expect(resourceGroupsError([member(A, "other")], none, onChain)).toBe(sameAddressOtherModule)
      expect(resourceGroupsError([member(B, "other")], none, onChain)).toBe(otherAddress)
      // The group in the same bundle as its member.
      expect(resourceGroupsError([group, member(B, "other")], none, published)).toBe(otherAddress)
    }
  })

  it("an upgrade keeps memberships and groups: dropping a membership, or making an existing struct a member, is refused", () => {
    const member = withAttrs([["Counter", [[AttributeKind.ResourceGroupMember, ["0x1::object::ObjectGroup"]]]]])
    const plain = withAttrs([])
    expect(resourceGroupsError([plain], () => member, published)).toBe(
      "Invalid removal of resource_group_member attribute"
    )
    expect(resourceGroupsError([member], () => plain, published)).toBe(
      "Invalid addition of resource_group_member attribute"
    )
    expect(resourceGroupsError([member], () => member, published)).toBeUndefined()
    expect(resourceGroupsError([plain], () => plain, published)).toBeUndefined()
  })
})
