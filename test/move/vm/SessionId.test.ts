/**
 * The session id's hash seeds table handles and unique addresses. Checked against the genesis
 * blobs: their table handles (and devnet's AUID object) are sha3(session hash ‖ counter) for the
 * reference's genesis session `Genesis { id: HashValue::zero() }`.
 */
import { describe, expect, it } from "vitest"
import { BcsWriter, toHex } from "../../../src/bcs/index.js"
import { sha3 } from "../../../src/domain/hash.js"
import { sessionIdHash, writeSessionId } from "../../../src/move/vm/SessionId.js"
import { genesisState } from "./genesisState.js"

const genesis = sessionIdHash({ _tag: "Genesis", id: new Uint8Array(32) })
const tableHandle = (n: number): string => {
  const b = new Uint8Array(36)
  b.set(genesis)
  new DataView(b.buffer).setUint32(32, n, false)
  return toHex(sha3(b))
}

describe("SessionId", () => {
  it("writes a HashValue as its 32 bytes (no length prefix)", () => {
    const w = new BcsWriter()
    writeSessionId(w, { _tag: "BlockMeta", id: new Uint8Array(32).fill(7) })
    expect(toHex(w.toBytes())).toBe(`01${"07".repeat(32)}`)
  })

  it("devnet's genesis table handles are the genesis session's (counters 0-7)", () => {
    const handles = new Set<string>()
    for (const e of genesisState("devnet").entries) if (e.key._tag === "TableItem") handles.add(toHex(e.key.handle))
    const derived = new Set(Array.from({ length: 8 }, (_, i) => tableHandle(i)))
    expect(handles.size).toBe(3)
    for (const h of handles) expect(derived.has(h)).toBe(true)
  })
})
