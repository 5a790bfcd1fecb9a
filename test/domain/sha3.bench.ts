/**
 * SHA3-256 and hex as a committed transaction uses them (docs/benchmarks.md, session 15): our
 * `sha3Concat` (WebAssembly up to 1 KB, `sha3Wasm.ts`) against node:crypto's one-shot hash and
 * @noble/hashes, on an accumulator node (prefix ‖ left ‖ right, 96 bytes) and on a signed transfer's
 * size (300 bytes); an address's hex against @noble/hashes' `bytesToHex` and Buffer's, each used as a
 * Map key afterwards (what the index and the VM do with it).
 * Run: npx vitest bench --run test/domain/sha3.bench.ts
 */
import { hash } from "node:crypto"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import { test } from "vitest"
import { toHex0x } from "../../src/bcs/index.js"
import { sha3Concat } from "../../src/domain/hash.js"

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff)
const prefix = bytes(32, 1)
const left = bytes(32, 2)
const right = bytes(32, 3)
const node = Uint8Array.from([...prefix, ...left, ...right])
const transfer = bytes(300, 4)

test("SHA3-256 of an accumulator node (96 bytes, three parts)", async ({ bench }) => {
  await bench.compare(
    bench("movenode sha3Concat (WebAssembly)", () => void sha3Concat(prefix, left, right)),
    bench("node:crypto hash('sha3-256')", () => void hash("sha3-256", node, "buffer")),
    bench("@noble/hashes sha3_256", () => void sha3_256(node)),
    { time: 1_000 }
  )
})

test("SHA3-256 of 300 bytes (a signed transfer)", async ({ bench }) => {
  await bench.compare(
    bench("movenode sha3Concat (WebAssembly)", () => void sha3Concat(transfer)),
    bench("node:crypto hash('sha3-256')", () => void hash("sha3-256", transfer, "buffer")),
    bench("@noble/hashes sha3_256", () => void sha3_256(transfer)),
    { time: 1_000 }
  )
})

const addresses = Array.from({ length: 256 }, (_, i) => bytes(32, i))
const keyed = (toText: (b: Uint8Array) => string) => () => {
  const m = new Map<string, number>()
  for (let i = 0; i < addresses.length; i++) m.set(toText(addresses[i]!), i)
}

test("an address as 0x-hex, then used as a Map key (256 addresses)", async ({ bench }) => {
  await bench.compare(
    bench("movenode toHex0x", keyed(toHex0x)),
    bench(
      "@noble/hashes bytesToHex",
      keyed((b) => `0x${bytesToHex(b)}`)
    ),
    bench(
      "Buffer toString('hex')",
      keyed((b) => `0x${Buffer.from(b.buffer, b.byteOffset, b.length).toString("hex")}`)
    ),
    { time: 1_000 }
  )
})
