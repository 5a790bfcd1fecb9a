/**
 * The fork's remote cache: what the source answered for each state key at the pinned version,
 * and nothing else (local writes live in the ledger, over it: Anvil once persisted local writes in
 * its fork cache and poisoned later runs). An answer is a value with its metadata, or "absent at
 * the source" (which is an answer too: it is never asked again).
 *
 * In memory always (a read hands out the same `Uint8Array` every time: the VM recognises the gas
 * schedule by identity); persisted in an LMDB environment when given a directory, one per
 * (source chain id, pinned version), written as answers arrive, so a second start of the same fork
 * (or one after `--fresh`) reads them back without asking the source. The environment also keeps
 * `meta` (what the fork needs to start offline: the source's identity and the pinned block).
 *
 * Record: 0 = absent at the source, 1 ‖ BCS(StateValue). Keys are BCS(StateKey), or 0xff ‖
 * sha3-256 of it when longer than 1 KiB (as the ledger stores them).
 */
import { mkdirSync } from "node:fs"
import { open, type RootDatabase } from "lmdb"
import { Bcs } from "../bcs/index.js"
import { type StateValue, stateValueCodec } from "../domain/StateValueCodec.js"
import { storedStateKey } from "../ledger/lmdbKeys.js"

/** A cached answer: a value, or `ABSENT` (the source has no value there). */
export type CachedAnswer = StateValue | typeof ABSENT

export const ABSENT = "absent" as const

export interface RemoteStateCache {
  /** The cached answer for `keyBytes`, or undefined when the source was never asked. */
  readonly get: (keyBytes: Uint8Array) => CachedAnswer | undefined
  readonly put: (keyBytes: Uint8Array, answer: CachedAnswer) => void
  /** Entries in memory (fetched or read back from disk in this process). */
  readonly size: () => number
  readonly meta: {
    readonly get: (name: string) => string | undefined
    readonly put: (name: string, value: string) => void
  }
  /** Waits for pending disk writes (tests, shutdown). */
  readonly flushed: () => Promise<void>
  readonly close: () => void
}

const META_PREFIX = Buffer.from([0xfe]) // never the first byte of a StateKey (0..2) or a hashed key (0xff)

const encodeAnswer = (a: CachedAnswer): Uint8Array =>
  a === ABSENT ? Uint8Array.of(0) : Buffer.concat([Uint8Array.of(1), Bcs.encode(stateValueCodec, a)])

const decodeAnswer = (bytes: Uint8Array): CachedAnswer | undefined => {
  if (bytes.length === 1 && bytes[0] === 0) return ABSENT
  if (bytes[0] !== 1) return undefined
  const decoded = Bcs.decode(stateValueCodec, bytes.subarray(1))
  return decoded._tag === "Success" ? decoded.success : undefined
}

/** A cache in memory only (gone with the process). */
export const memoryRemoteStateCache = (): RemoteStateCache => makeCache(undefined)

/** A cache persisted in the LMDB environment at `dir` (created when missing). */
export const persistentRemoteStateCache = (dir: string): RemoteStateCache => {
  mkdirSync(dir, { recursive: true })
  const db = open({ path: dir, keyEncoding: "binary", encoding: "binary", noSubdir: false, mapSize: 16 * 1024 ** 3 })
  return makeCache(db)
}

/** A map key for key bytes: latin1 is one native call, no hex digits to build (every VM read passes here). */
const mapKey = (keyBytes: Uint8Array): string =>
  Buffer.from(keyBytes.buffer, keyBytes.byteOffset, keyBytes.byteLength).toString("latin1")

const makeCache = (db: RootDatabase | undefined): RemoteStateCache => {
  const memory = new Map<string, CachedAnswer>()
  const metaMemory = new Map<string, string>()
  let pending: Promise<unknown> = Promise.resolve()
  const metaKey = (name: string) => Buffer.concat([META_PREFIX, Buffer.from(name, "utf8")])
  return {
    get: (keyBytes) => {
      const k = mapKey(keyBytes)
      const hit = memory.get(k)
      if (hit !== undefined || db === undefined) return hit
      const stored = db.getBinary(storedStateKey(keyBytes))
      if (stored === undefined) return undefined
      const answer = decodeAnswer(stored)
      if (answer !== undefined) memory.set(k, answer)
      return answer
    },
    put: (keyBytes, answer) => {
      memory.set(mapKey(keyBytes), answer)
      if (db !== undefined) pending = db.put(storedStateKey(keyBytes), encodeAnswer(answer))
    },
    size: () => memory.size,
    meta: {
      get: (name) => {
        const held = metaMemory.get(name)
        if (held !== undefined || db === undefined) return held
        const v = db.getBinary(metaKey(name))
        return v === undefined ? undefined : Buffer.from(v).toString("utf8")
      },
      put: (name, value) => {
        metaMemory.set(name, value)
        if (db !== undefined) pending = db.put(metaKey(name), Buffer.from(value, "utf8"))
      }
    },
    flushed: async () => {
      await pending
      if (db !== undefined) await db.flushed
    },
    close: () => {
      void db?.close()
    }
  }
}
