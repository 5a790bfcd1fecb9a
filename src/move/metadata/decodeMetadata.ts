import * as Result from "effect/Result"
import { BcsError, BcsReader } from "../../bcs/index.js"
import type { CompiledModule } from "../binary/CompiledModule.js"
import type { CompilationMetadata, ErrorDescription, KnownAttribute, ModuleMetadata } from "./ModuleMetadata.js"

export const METADATA_V0_KEY = "aptos::metadata_v0"
export const METADATA_V1_KEY = "aptos::metadata_v1"
export const COMPILATION_METADATA_KEY = "compilation_metadata"

const keyText = new TextDecoder()

/** BCS map: uleb count then entries (keys ascending in well-formed data; not enforced on read). */
const readMap = <K, V>(r: BcsReader, key: (r: BcsReader) => K, value: (r: BcsReader) => V): Map<K, V> => {
  const n = r.length(1)
  const out = new Map<K, V>()
  for (let i = 0; i < n; i++) {
    const k = key(r)
    out.set(k, value(r))
  }
  return out
}

const readErrorMap = (r: BcsReader): Map<bigint, ErrorDescription> =>
  readMap(
    r,
    (r) => r.u64(),
    (r) => {
      const codeName = r.string()
      return { codeName, codeDescription: r.string() }
    }
  )

const readAttributes = (r: BcsReader): KnownAttribute[] => {
  const n = r.length(2)
  const out: KnownAttribute[] = []
  for (let i = 0; i < n; i++) {
    const kind = r.u8()
    const argc = r.length(1)
    const args: string[] = []
    for (let j = 0; j < argc; j++) args.push(r.string())
    out.push({ kind, args })
  }
  return out
}

const readAttributeMap = (r: BcsReader): Map<string, KnownAttribute[]> => readMap(r, (r) => r.string(), readAttributes)

const decodeWhole = <A>(bytes: Uint8Array, read: (r: BcsReader) => A): A => {
  const r = new BcsReader(bytes)
  const a = read(r)
  r.expectEnd()
  return a
}

const find = (module: CompiledModule, key: string): Uint8Array | undefined =>
  module.metadata.find((m) => keyText.decode(m.key) === key)?.value

/**
 * Whether one metadata entry's value decodes as its key says (`metadata_v0`: an error map;
 * `metadata_v1`: error map and attribute maps; `compilation_metadata`); undefined for another key.
 */
export const entryDecodes = (key: string, value: Uint8Array): boolean | undefined => {
  const read =
    key === METADATA_V0_KEY
      ? (r: BcsReader) => void readErrorMap(r)
      : key === METADATA_V1_KEY
        ? (r: BcsReader) => {
            readErrorMap(r)
            readAttributeMap(r)
            readAttributeMap(r)
          }
        : key === COMPILATION_METADATA_KEY
          ? (r: BcsReader) => {
              r.bool()
              r.string()
              r.string()
            }
          : undefined
  if (read === undefined) return undefined
  try {
    decodeWhole(value, read)
    return true
  } catch (e) {
    if (e instanceof BcsError) return false
    throw e
  }
}

/**
 * The module's Aptos metadata, as the reference reads it: `metadata_v1` when present (its attribute
 * maps dropped for bytecode below v6, where they are not valid), otherwise `metadata_v0` upgraded
 * (error map only), otherwise empty. A present but undecodable entry is an error.
 */
export const decodeModuleMetadata = (module: CompiledModule): Result.Result<ModuleMetadata, BcsError> => {
  try {
    let errorMap = new Map<bigint, ErrorDescription>()
    let structAttributes = new Map<string, KnownAttribute[]>()
    let functionAttributes = new Map<string, KnownAttribute[]>()
    const v1 = find(module, METADATA_V1_KEY)
    const v0 = find(module, METADATA_V0_KEY)
    if (v1 !== undefined) {
      decodeWhole(v1, (r) => {
        errorMap = readErrorMap(r)
        structAttributes = readAttributeMap(r)
        functionAttributes = readAttributeMap(r)
      })
      if (module.version < 6) {
        structAttributes = new Map()
        functionAttributes = new Map()
      }
    } else if (v0 !== undefined) {
      errorMap = decodeWhole(v0, readErrorMap)
    }
    const c = find(module, COMPILATION_METADATA_KEY)
    const compilation: CompilationMetadata | undefined =
      c === undefined
        ? undefined
        : decodeWhole(c, (r) => {
            const unstable = r.bool()
            const compilerVersion = r.string()
            return { unstable, compilerVersion, languageVersion: r.string() }
          })
    return Result.succeed({ errorMap, structAttributes, functionAttributes, compilation })
  } catch (e) {
    if (e instanceof BcsError) return Result.fail(e)
    return Result.fail(new BcsError(String(e), -1))
  }
}
