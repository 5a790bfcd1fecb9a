import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as fc from "fast-check"
import { type DatabaseOptions, open } from "lmdb"
import { afterAll, describe, expect, it } from "vitest"
import { compressOnWriteThread, LMDB_VERSION_HOOKED } from "../../src/ledger/compressOnWriteThread.js"
import { recordDictionary } from "../../src/ledger/recordDictionary.js"

/**
 * lmdb-js's compression hand-off turned off (src/ledger/compressOnWriteThread.ts): the values a
 * compressing table is given are still stored compressed, now by LMDB's write thread, and read back
 * as they were given; and the hook acts, on the lmdb-js version the lock file installs.
 */

const lmdbEntry = import.meta.resolve("lmdb")
const dir = mkdtempSync(join(tmpdir(), "movenode-compress-on-writer-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("compressOnWriteThread", () => {
  it("knows the lmdb-js version installed (an upgrade must look at lmdb-js's write path again)", () => {
    const { version } = JSON.parse(readFileSync(new URL("./package.json", lmdbEntry), "utf8")) as { version: string }
    expect(version).toBe(LMDB_VERSION_HOOKED)
  })

  it("turns the hand-off to the thread pool off, once", async () => {
    expect(await compressOnWriteThread()).toBe(true)
    expect(await compressOnWriteThread()).toBe(true)
    const native = (await import(new URL("./native.js", lmdbEntry).href)) as {
      compress: unknown
      nativeAddon: { compress: unknown }
    }
    expect(typeof native.compress).toBe("function")
    expect(native.compress).not.toBe(native.nativeAddon.compress)
  })

  it("values queued to the write thread are stored compressed and read back as given", async () => {
    expect(await compressOnWriteThread()).toBe(true)
    const env = open({ path: join(dir, "store"), noSync: true })
    // The ledger's `txns` options: LZ4 with the record dictionary from 64 bytes.
    const compressed = env.openDB("t", {
      encoding: "binary",
      keyEncoding: "binary",
      compression: { threshold: 64, dictionary: recordDictionary() }
    } as Partial<DatabaseOptions>)
    const raw = env.openDB("t", { encoding: "binary", keyEncoding: "binary" })
    let key = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            // Compressible (≥ 64 bytes, repetitive), short ones, and ones whose first byte is
            // lmdb-js's own compression mark (compressed whatever their size).
            fc
              .tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.integer({ min: 4, max: 200 }))
              .map(([unit, n]) => Buffer.concat(Array.from({ length: n }, () => Buffer.from(unit)))),
            fc.uint8Array({ maxLength: 63 }).map((b) => Buffer.from(b)),
            fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from([254, ...b]))
          ),
          { minLength: 1, maxLength: 12 }
        ),
        async (values) => {
          const keys = values.map(() => {
            const k = Buffer.alloc(8)
            k.writeBigUInt64BE(BigInt(key++))
            return k
          })
          let last: Promise<boolean> | undefined
          for (const [i, v] of values.entries()) last = compressed.put(keys[i]!, v)
          await last
          for (const [i, v] of values.entries()) {
            expect(Buffer.from(compressed.getBinary(keys[i]!)!)).toEqual(v)
            const stored = Buffer.from(raw.getBinary(keys[i]!)!)
            if (v.length >= 64 || v[0]! >= 250) expect(stored[0]).toBe(254)
            else expect(stored).toEqual(v)
          }
        }
      ),
      { numRuns: 100 }
    )
    // A kilobyte of repeated bytes takes far less than a kilobyte once compressed.
    const k = Buffer.from("big")
    const big = Buffer.alloc(1024, 7)
    randomBytes(16).copy(big, 500)
    await compressed.put(k, big)
    expect(raw.getBinary(k)!.length).toBeLessThan(200)
    expect(Buffer.from(compressed.getBinary(k)!)).toEqual(big)
    await env.close()
  })
})
