import { BcsReader } from "../../bcs/index.js"
import type { CompiledModule } from "../binary/CompiledModule.js"

/**
 * The error-map entry of an abort code: the map is keyed by the reason (the low 12 bits of a
 * canonical `category << 16 | reason` code), as the reference's `extract_abort_info` looks it up;
 * a full-code key is tried too.
 */
export const abortInfo = (
  m: VmModuleMetadata,
  code: bigint
): { readonly name: string; readonly description: string } | undefined => m.errors.get(code & 0xfffn) ?? m.errors.get(code)

/** What the VM needs of a module's Aptos metadata: views, resource-group members, the error map. */
export interface VmModuleMetadata {
  readonly views: ReadonlySet<string>
  /** Struct name → the fully qualified name of the resource group it belongs to. */
  readonly groupMembers: ReadonlyMap<string, string>
  readonly errors: ReadonlyMap<bigint, { readonly name: string; readonly description: string }>
}

const EMPTY: VmModuleMetadata = { views: new Set(), groupMembers: new Map(), errors: new Map() }
const decoder = new TextDecoder()
const KEY_V0 = "aptos::metadata_v0"
const KEY_V1 = "aptos::metadata_v1"

type Attributes = Map<string, Array<{ kind: number; args: string[] }>>

const readAttributes = (r: BcsReader): Attributes => {
  const out: Attributes = new Map()
  const n = r.length(1)
  for (let i = 0; i < n; i++) {
    const name = r.string()
    const m = r.length(1)
    const list: Array<{ kind: number; args: string[] }> = []
    for (let j = 0; j < m; j++) {
      const kind = r.u8()
      const k = r.length(1)
      const args: string[] = []
      for (let a = 0; a < k; a++) args.push(r.string())
      list.push({ kind, args })
    }
    out.set(name, list)
  }
  return out
}

/**
 * Decodes `aptos::metadata_v1` (error map, struct and function attributes) or `_v0` (error map
 * only). Attributes of a v5 module are ignored, as the reference does. Malformed metadata reads as
 * empty rather than failing the module: it only feeds lookups.
 */
export const vmModuleMetadata = (m: CompiledModule): VmModuleMetadata => {
  const entry =
    m.metadata.find((e) => decoder.decode(e.key) === KEY_V1) ?? m.metadata.find((e) => decoder.decode(e.key) === KEY_V0)
  if (entry === undefined) return EMPTY
  const v1 = decoder.decode(entry.key) === KEY_V1
  try {
    const r = new BcsReader(entry.value)
    const errors = new Map<bigint, { name: string; description: string }>()
    const n = r.length(1)
    for (let i = 0; i < n; i++) {
      const code = r.u64()
      errors.set(code, { name: r.string(), description: r.string() })
    }
    if (!v1 || m.version < 6) return { views: new Set(), groupMembers: new Map(), errors }
    const structs = readAttributes(r)
    const functions = readAttributes(r)
    const views = new Set<string>()
    for (const [name, attrs] of functions) if (attrs.some((a) => a.kind === 0 || a.kind === 1)) views.add(name)
    const groupMembers = new Map<string, string>()
    for (const [name, attrs] of structs) {
      const member = attrs.find((a) => a.kind === 3)
      if (member?.args[0] !== undefined) groupMembers.set(name, member.args[0])
    }
    return { views, groupMembers, errors }
  } catch {
    return EMPTY
  }
}
