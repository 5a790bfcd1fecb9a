import * as Result from "effect/Result"
import { equalBytes } from "../../bcs/index.js"
import type { CompiledModule } from "../binary/CompiledModule.js"
import { deserializeModule } from "../binary/deserialize.js"
import type { ModuleDecoder } from "./Loader.js"

/**
 * FNV-1a over the bytes: cheap (the bytes are compared in full on a hit anyway). Kept a signed
 * 32-bit integer: as unsigned (`>>> 0`), half the hashes are beyond V8's small integers, and each
 * first such result threw the function's compiled code away ("lost precision").
 */
const fnv1a = (b: Uint8Array): number => {
  let h = 0x811c9dc5 | 0
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x01000193)
  return h
}

/**
 * A module decoder that decodes each distinct module once per thread and hands every caller the
 * same `CompiledModule`. A node has several VMs reading the same framework modules (block
 * execution, simulation, views, the genesis build), each with its own loader; before, each decoded
 * them itself, and a fresh start decoded the framework once per VM in cold code. Decoding is a
 * pure function of the bytes and nothing mutates a `CompiledModule`, so sharing is safe. Entries
 * are keyed by length and hash and confirmed byte for byte against a private copy (the caller's
 * array may be a view on a buffer that is reused); when the copies exceed `maxBytes` the memo
 * starts over. Refusals are not kept.
 */
export const makeSharedModuleDecoder = (
  maxBytes: number,
  hash: (bytes: Uint8Array) => number = fnv1a
): ModuleDecoder & { readonly size: () => number } => {
  const memo = new Map<string, Array<{ readonly bytes: Uint8Array; readonly module: CompiledModule }>>()
  let kept = 0
  const decode = (bytes: Uint8Array): CompiledModule | string => {
    const key = `${bytes.length}:${hash(bytes)}`
    const entries = memo.get(key)
    if (entries !== undefined) for (const e of entries) if (equalBytes(e.bytes, bytes)) return e.module
    const r = deserializeModule(bytes)
    if (Result.isFailure(r)) return r.failure.message
    if (kept + bytes.length > maxBytes) {
      memo.clear()
      kept = 0
    }
    if (bytes.length <= maxBytes) {
      const entry = { bytes: bytes.slice(), module: r.success }
      if (entries !== undefined && memo.has(key)) entries.push(entry)
      else memo.set(key, [entry])
      kept += bytes.length
    }
    return r.success
  }
  return Object.assign(decode, { size: () => kept })
}

/**
 * The decoder `MoveVm` uses unless told otherwise: shared by every VM of the thread, keeping up to
 * 32 MB of module bytes (the framework is 1.4 MB).
 */
export const sharedModuleDecoder: ModuleDecoder = makeSharedModuleDecoder(32 * 1024 * 1024)
