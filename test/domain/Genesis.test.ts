import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../src/bcs/index.js"
import { addressToShortString } from "../../src/domain/AccountAddress.js"
import { writeWriteSetPayload } from "../../src/domain/ChangeSetCodec.js"
import { decodeGenesisTransaction } from "../../src/domain/Genesis.js"
import type { WriteSetPayload } from "../../src/domain/Transaction.js"
import { type GenesisName, genesisNamesPresent, hasGenesis, loadGenesisBytes } from "../support/genesis.js"

const decodeDirect = (name: GenesisName) => {
  const bytes = loadGenesisBytes(name)
  const result = decodeGenesisTransaction(bytes)
  if (Result.isFailure(result)) throw result.failure
  const payload = result.success.payload
  if (payload._tag !== "Direct") throw new Error("expected a Direct write-set payload")
  return { bytes, payload, changeSet: payload.changeSet }
}

const counts = (name: GenesisName) => {
  const { changeSet } = decodeDirect(name)
  const c = { modules: 0, resources: 0, groups: 0, tableItems: 0, creations: 0, modifications: 0, v1: 0, v2: 0 }
  for (const e of changeSet.writeSet.entries) {
    if (e.key._tag === "TableItem") c.tableItems++
    else if (e.key._tag === "AccessPath") {
      if (e.key.path._tag === "Code") c.modules++
      else if (e.key.path._tag === "Resource") c.resources++
      else c.groups++
    }
    if (e.op._tag === "Creation") c.creations++
    if (e.op._tag === "Modification") c.modifications++
  }
  for (const ev of changeSet.events) ev._tag === "V1" ? c.v1++ : c.v2++
  return { entries: changeSet.writeSet.entries.length, events: changeSet.events.length, ...c }
}

const reencode = (payload: WriteSetPayload): Uint8Array => {
  const w = new BcsWriter(1 << 20)
  w.u8(1)
  writeWriteSetPayload(w, payload)
  return w.toBytes()
}

describe("genesis decoding", () => {
  it("decodes devnet to the last byte with the documented counts", () => {
    expect(counts("devnet")).toEqual({
      entries: 302,
      events: 37,
      modules: 190,
      resources: 99,
      groups: 9,
      tableItems: 4,
      creations: 302,
      modifications: 0,
      v1: 2,
      v2: 35
    })
  })

  it.skipIf(!hasGenesis("mainnet"))("decodes mainnet to the last byte with the documented counts", () => {
    expect(counts("mainnet")).toEqual({
      entries: 1394,
      events: 1499,
      modules: 70,
      resources: 1323,
      groups: 0,
      tableItems: 1,
      creations: 1393,
      modifications: 1,
      v1: 1499,
      v2: 0
    })
  })

  it("re-encodes both blobs to identical bytes", () => {
    for (const name of genesisNamesPresent()) {
      const { bytes, payload } = decodeDirect(name)
      expect(Buffer.from(reencode(payload)).equals(Buffer.from(bytes))).toBe(true)
    }
  })

  it("keeps each entry's key bytes and decodes the first devnet key as Code(0x1::acl)", () => {
    const { changeSet } = decodeDirect("devnet")
    const first = changeSet.writeSet.entries[0]!
    expect(first.key._tag).toBe("AccessPath")
    if (first.key._tag === "AccessPath" && first.key.path._tag === "Code") {
      expect(addressToShortString(first.key.path.module.address)).toBe("0x1")
      expect(first.key.path.module.name).toBe("acl")
    } else throw new Error("first key is not a module")
    expect(first.op._tag === "Creation" && first.op.data.length).toBe(594)
    // Keys are sorted by their BCS bytes, as a BCS map requires.
    const keys = changeSet.writeSet.entries.map((e) => Buffer.from(e.keyBytes))
    for (let i = 1; i < keys.length; i++) expect(Buffer.compare(keys[i - 1]!, keys[i]!)).toBeLessThan(0)
  })

  it("rejects truncations and a non-genesis variant without throwing", () => {
    const bytes = loadGenesisBytes("devnet")
    for (const n of [0, 1, 2, 3, 100, bytes.length - 1]) {
      expect(Result.isFailure(decodeGenesisTransaction(bytes.subarray(0, n)))).toBe(true)
    }
    const other = new Uint8Array(bytes)
    other[0] = 0
    expect(Result.isFailure(decodeGenesisTransaction(other))).toBe(true)
  })
})
