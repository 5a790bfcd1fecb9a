import { addressEquals, addressToShortString } from "../../domain/AccountAddress.js"
import type { ModuleId, StructTag } from "../../domain/TypeTag.js"
import type { CompiledModule, CompiledScript, FunctionDefinition } from "../binary/CompiledModule.js"
import type { SignatureToken } from "../binary/SignatureToken.js"
import { type CompiledCode, compileCode } from "./compileCode.js"
import { scriptAsModule } from "./scriptModule.js"
import type { GasParams } from "./GasMeter.js"
import { inferKinds } from "./inferKinds.js"
import { parseResourceGroupName } from "../metadata/ModuleMetadata.js"
import { type VmModuleMetadata, vmModuleMetadata } from "./moduleMetadata.js"
import type { NativeFunction, NativeTable } from "./natives/NativeContext.js"
import type { StateView } from "./StateView.js"
import {
  type FieldType,
  functionOf,
  primitiveNamed,
  refOf,
  type StructType,
  structOf,
  type Type,
  tyParam,
  type VariantType,
  vectorOf
} from "./Type.js"
import { deserializeValue } from "./ValueBcs.js"
import type { Value } from "./Value.js"
import { VmError, vmError } from "./VmError.js"

/** Decodes module bytes; returns the module or an error message. */
export type ModuleDecoder = (bytes: Uint8Array) => CompiledModule | string

/**
 * Keys of the special addresses' modules (0x0–0xf, the framework: nearly every lookup) by last
 * byte and name, so a hit builds no string. Not a WeakMap by address array: requests bring fresh
 * arrays for the same address, and an ephemeron entry per request made every scavenge slow.
 */
const specialKeys: Array<Map<string, string>> = Array.from({ length: 16 }, () => new Map())
const MAX_KEYS_PER_ADDRESS = 4096
const isSpecial = (address: Uint8Array): boolean => {
  if (address.length !== 32 || address[31]! >= 16) return false
  for (let i = 0; i < 31; i++) if (address[i] !== 0) return false
  return true
}
/** `0x1::coin`. */
const moduleKey = (address: Uint8Array, name: string): string => {
  if (!isSpecial(address)) return `${addressToShortString(address)}::${name}`
  const byName = specialKeys[address[31]!]!
  let key = byName.get(name)
  if (key === undefined) {
    key = `${addressToShortString(address)}::${name}`
    if (byName.size >= MAX_KEYS_PER_ADDRESS) byName.clear()
    byName.set(name, key)
  }
  return key
}

/** A struct definition of a loaded module; field types are built on first use (they may link other modules). */
class LoadedStruct implements StructType {
  private _fields: ReadonlyArray<FieldType> | undefined
  private _variants: ReadonlyArray<VariantType> | undefined
  private built = false
  groupTag: StructTag | undefined
  readonly qualifiedName: string
  constructor(
    private readonly owner: LoadedModule,
    private readonly defIndex: number,
    readonly address: Uint8Array,
    readonly module: string,
    readonly name: string,
    readonly abilities: number,
    readonly typeParams: ReadonlyArray<{ readonly constraints: number; readonly isPhantom: boolean }>,
    readonly isNative: boolean
  ) {
    this.qualifiedName = `${owner.key}::${name}`
  }
  private build(): void {
    if (this.built) return
    const cm = this.owner.cm
    const info = cm.structDefs[this.defIndex]!.fieldInformation
    const ids = cm.identifiers
    if (info._tag === "Declared")
      this._fields = info.fields.map((f) => ({ name: ids[f.name]!, type: this.owner.tokenType(f.type) }))
    else if (info._tag === "DeclaredVariants")
      this._variants = info.variants.map((v) => ({
        name: ids[v.name]!,
        fields: v.fields.map((f) => ({ name: ids[f.name]!, type: this.owner.tokenType(f.type) }))
      }))
    else this._fields = []
    this.built = true
  }
  get fields(): ReadonlyArray<FieldType> | undefined {
    this.build()
    return this._fields
  }
  get variants(): ReadonlyArray<VariantType> | undefined {
    this.build()
    return this._variants
  }
}

/** A function of a loaded module: its signature as runtime types and its code, compiled on first call. */
export class LoadedFunction {
  private _code: CompiledCode | undefined
  private _params: ReadonlyArray<Type> | undefined
  private _returns: ReadonlyArray<Type> | undefined
  private _locals: ReadonlyArray<Type> | undefined
  private _fullName: string | undefined
  private _costParams: GasParams | undefined
  private _cost = 0
  constructor(
    readonly module: LoadedModule,
    readonly index: number,
    readonly name: string,
    readonly def: FunctionDefinition,
    readonly typeParamCount: number,
    readonly native: NativeFunction | undefined
  ) {}
  get isNative(): boolean {
    return this.def.code === undefined
  }
  /** `0x1::coin::balance`. */
  get fullName(): string {
    if (this._fullName === undefined) this._fullName = `${this.module.key}::${this.name}`
    return this._fullName
  }
  /** A native's base cost under `params` (the schedule's entry for it, or the flat default), memoised per schedule. */
  nativeCost(params: GasParams): number {
    if (this._costParams !== params) {
      this._cost = params.nativeCosts.get(this.fullName) ?? params.nativeBase
      this._costParams = params
    }
    return this._cost
  }
  get params(): ReadonlyArray<Type> {
    if (this._params === undefined) {
      const h = this.module.cm.functionHandles[this.def.function]!
      this._params = this.module.signature(h.parameters)
    }
    return this._params
  }
  get returns(): ReadonlyArray<Type> {
    if (this._returns === undefined) {
      const h = this.module.cm.functionHandles[this.def.function]!
      this._returns = this.module.signature(h.returns)
    }
    return this._returns
  }
  /** Types of the non-parameter locals. */
  get localTypes(): ReadonlyArray<Type> {
    if (this._locals === undefined) this._locals = this.def.code ? this.module.signature(this.def.code.locals) : []
    return this._locals
  }
  get code(): CompiledCode {
    if (this._code === undefined) {
      if (this.def.code === undefined) return vmError("UNREACHABLE", `${this.fullName} is native`)
      this._code = compileCode(this.def.code.code, inferKinds(this.module.cm, this.def))
    }
    return this._code
  }
}

/** A function handle or instantiation resolved to the function and its (possibly open) type arguments. */
export interface CallTarget {
  readonly fn: LoadedFunction
  readonly tyArgs: ReadonlyArray<Type>
}

/**
 * One loaded module: the compiled form plus lazily resolved tables (handles → loaded functions and
 * structs, signatures → types, constants → values). Everything resolved is cached here, so the
 * interpreter's per-instruction work is an array lookup.
 */
export class LoadedModule {
  readonly key: string
  readonly id: ModuleId
  readonly metadata: VmModuleMetadata
  readonly structs: ReadonlyArray<LoadedStruct>
  readonly functions: ReadonlyArray<LoadedFunction>
  private readonly structByName = new Map<string, LoadedStruct>()
  private readonly fnByName = new Map<string, LoadedFunction>()
  private readonly sigs: Array<ReadonlyArray<Type> | undefined>
  private readonly handleStructs: Array<StructType | undefined>
  private readonly handleFns: Array<LoadedFunction | undefined>
  private readonly fnInsts: Array<CallTarget | undefined>
  private readonly constants: Array<Value | undefined>
  private readonly structInsts: Array<Type | undefined>
  private readonly variantInsts: Array<Type | undefined>
  private readonly defTypes: Array<Type | undefined>
  /** The loader run that last verified this module against its view (see `Loader.tryLoad`). */
  checkedRun = 0
  private _deps: ReadonlyArray<string> | undefined
  /** Keys of the other modules this one's handles name (what a change to them makes stale). */
  get dependencyKeys(): ReadonlyArray<string> {
    if (this._deps === undefined) {
      const cm = this.cm
      this._deps = cm.moduleHandles
        .filter((_, i) => i !== cm.selfModuleHandleIndex)
        .map((h) => moduleKey(cm.addressIdentifiers[h.address]!, cm.identifiers[h.name]!))
    }
    return this._deps
  }

  /**
   * The history generation (`StateView.generation`) this module's bytes were last checked in,
   * with the bytes themselves to compare with when a view of another generation names the same
   * version and length (see `Loader.unchanged`).
   */
  generation: number | undefined

  constructor(
    readonly loader: Loader,
    readonly cm: CompiledModule,
    readonly version: bigint,
    readonly byteLength: number,
    readonly bytes?: Uint8Array | undefined,
    generation?: number | undefined
  ) {
    this.generation = generation
    const self = cm.moduleHandles[cm.selfModuleHandleIndex]!
    const address = cm.addressIdentifiers[self.address]!
    const name = cm.identifiers[self.name]!
    this.id = { address, name }
    this.key = moduleKey(address, name)
    this.metadata = vmModuleMetadata(cm)
    this.structs = cm.structDefs.map((d, i) => {
      const h = cm.structHandles[d.structHandle]!
      const s = new LoadedStruct(
        this,
        i,
        address,
        name,
        cm.identifiers[h.name]!,
        h.abilities,
        h.typeParameters,
        d.fieldInformation._tag === "Native"
      )
      const group = this.metadata.groupMembers.get(s.name)
      if (group !== undefined) s.groupTag = parseResourceGroupName(group)
      this.structByName.set(s.name, s)
      return s
    })
    this.functions = cm.functionDefs.map((d, i) => {
      const h = cm.functionHandles[d.function]!
      const fname = cm.identifiers[h.name]!
      const native = d.code === undefined ? loader.natives.get(`${this.key}::${fname}`) : undefined
      const f = new LoadedFunction(this, i, fname, d, h.typeParameters.length, native)
      this.fnByName.set(fname, f)
      return f
    })
    this.sigs = new Array(cm.signatures.length)
    this.handleStructs = new Array(cm.structHandles.length)
    this.handleFns = new Array(cm.functionHandles.length)
    this.fnInsts = new Array(cm.functionInstantiations.length)
    this.constants = new Array(cm.constantPool.length)
    this.structInsts = new Array(cm.structDefInstantiations.length)
    this.variantInsts = new Array(cm.structVariantInstantiations.length)
    this.defTypes = new Array(cm.structDefs.length)
  }

  struct(name: string): StructType | undefined {
    return this.structByName.get(name)
  }
  function(name: string): LoadedFunction | undefined {
    return this.fnByName.get(name)
  }

  /** The struct a handle names, in this module or (loading it) another. */
  structHandle(i: number): StructType {
    let s = this.handleStructs[i]
    if (s === undefined) {
      const h = this.cm.structHandles[i]!
      const mh = this.cm.moduleHandles[h.module]!
      const name = this.cm.identifiers[h.name]!
      const m =
        h.module === this.cm.selfModuleHandleIndex
          ? this
          : this.loader.load(this.cm.addressIdentifiers[mh.address]!, this.cm.identifiers[mh.name]!)
      s = m.struct(name)
      if (s === undefined) return vmError("TYPE_RESOLUTION_FAILURE", `struct ${m.key}::${name} not found`)
      this.handleStructs[i] = s
    }
    return s
  }

  tokenType(t: SignatureToken): Type {
    switch (t._tag) {
      case "Bool":
      case "U8":
      case "U16":
      case "U32":
      case "U64":
      case "U128":
      case "U256":
      case "I8":
      case "I16":
      case "I32":
      case "I64":
      case "I128":
      case "I256":
      case "Address":
      case "Signer":
        return primitiveNamed(t._tag.toLowerCase())!
      case "Vector":
        return vectorOf(this.tokenType(t.element))
      case "Reference":
        return refOf(this.tokenType(t.to), false)
      case "MutableReference":
        return refOf(this.tokenType(t.to), true)
      case "Struct":
        return structOf(this.structHandle(t.handle), [])
      case "StructInstantiation":
        return structOf(
          this.structHandle(t.handle),
          t.typeArgs.map((a) => this.tokenType(a))
        )
      case "TypeParameter":
        return tyParam(t.index)
      case "Function":
        return functionOf(
          t.args.map((a) => this.tokenType(a)),
          t.results.map((a) => this.tokenType(a)),
          t.abilities
        )
    }
  }

  signature(i: number): ReadonlyArray<Type> {
    let s = this.sigs[i]
    if (s === undefined) {
      s = this.cm.signatures[i]!.map((t) => this.tokenType(t))
      this.sigs[i] = s
    }
    return s
  }

  functionHandle(i: number): LoadedFunction {
    let f = this.handleFns[i]
    if (f === undefined) {
      const h = this.cm.functionHandles[i]!
      const name = this.cm.identifiers[h.name]!
      const mh = this.cm.moduleHandles[h.module]!
      const m =
        h.module === this.cm.selfModuleHandleIndex
          ? this
          : this.loader.load(this.cm.addressIdentifiers[mh.address]!, this.cm.identifiers[mh.name]!)
      f = m.function(name)
      if (f === undefined) return vmError("FUNCTION_RESOLUTION_FAILURE", `function ${m.key}::${name} not found`)
      this.handleFns[i] = f
    }
    return f
  }

  functionInstantiation(i: number): CallTarget {
    let c = this.fnInsts[i]
    if (c === undefined) {
      const inst = this.cm.functionInstantiations[i]!
      c = { fn: this.functionHandle(inst.handle), tyArgs: this.signature(inst.typeParameters) }
      this.fnInsts[i] = c
    }
    return c
  }

  /** The (possibly open) struct type of a struct-definition instantiation. */
  structInstantiation(i: number): Type {
    let t = this.structInsts[i]
    if (t === undefined) {
      const inst = this.cm.structDefInstantiations[i]!
      t = structOf(this.structs[inst.def]!, this.signature(inst.typeParameters))
      this.structInsts[i] = t
    }
    return t
  }

  variantInstantiation(i: number): Type {
    let t = this.variantInsts[i]
    if (t === undefined) {
      const inst = this.cm.structVariantInstantiations[i]!
      const h = this.cm.structVariantHandles[inst.handle]!
      t = structOf(this.structs[h.struct]!, this.signature(inst.typeParameters))
      this.variantInsts[i] = t
    }
    return t
  }

  /** The closed type of a non-generic struct definition. */
  structDefType(i: number): Type {
    let t = this.defTypes[i]
    if (t === undefined) {
      t = structOf(this.structs[i]!, [])
      this.defTypes[i] = t
    }
    return t
  }

  /** Number of fields of a struct definition (or of one of its variants). */
  fieldCount(def: number, variant: number): number {
    const info = this.cm.structDefs[def]!.fieldInformation
    if (info._tag === "Declared") return info.fields.length
    if (info._tag === "DeclaredVariants") return info.variants[variant]?.fields.length ?? 0
    return 0
  }

  constant(i: number): Value {
    let v = this.constants[i]
    if (v === undefined) {
      const c = this.cm.constantPool[i]!
      v = deserializeValue(c.data, this.tokenType(c.type))
      this.constants[i] = v
    }
    return v
  }
}

/**
 * Bytecode the loader's cache holds by default, summed over its modules (a loaded module takes ~24
 * heap bytes a byte of bytecode, measured over the devnet framework, more once its functions ran:
 * ~200–250 MB at the bound). The devnet framework is 0.7 MB and a transaction's dependencies far
 * less; what can exceed it is a fork, where every module of the network that a client's views
 * reach would otherwise stay loaded.
 */
export const DEFAULT_MAX_CACHED_BYTECODE = 8 * 1024 * 1024

/**
 * The module loader and its cache. Modules are cached by module id together with the version that
 * wrote them; when the state being read holds another version of a module, the whole cache is
 * dropped (cached links between modules would otherwise point at the old code). Reads go through the
 * `StateView` installed for the current run (`withView`): execution is synchronous, so one view is
 * active at a time.
 *
 * The cache is bounded by the bytecode of its modules (`maxCachedBytecode`): past it, the modules
 * least recently checked are dropped, with the modules that link to them, when the next outermost
 * run starts (never during one, so a run sees one copy of each module). A session spanning runs may
 * then meet a struct loaded twice; `typeEquals` compares structs by name when their definitions are
 * different objects, as the reference identifies structs.
 */
export class Loader {
  private readonly cache = new Map<string, LoadedModule>()
  /** Bytecode of the cached modules, summed. */
  private cachedBytecode = 0
  private view: StateView | undefined
  /**
   * The current run (one `withView`); a module whose `checkedRun` equals it was verified against
   * the current view (and charged) in this run. A counter instead of a set: nothing to allocate.
   */
  private run = 0
  private runs = 0
  /** The snapshot every cached module was last checked against (see `revalidate`). */
  private snapshot: string | bigint | undefined

  constructor(
    readonly natives: NativeTable,
    private readonly decode: ModuleDecoder,
    readonly maxCachedBytecode: number = DEFAULT_MAX_CACHED_BYTECODE
  ) {}

  /** Called the first time a run touches a module (the gas meter's dependency charge). */
  onFirstUse: ((address: Uint8Array, byteLength: number) => void) | undefined

  withView<A>(view: StateView, run: () => A): A {
    const prevView = this.view
    if (prevView === undefined && this.cachedBytecode > this.maxCachedBytecode) this.trim()
    const prevRun = this.run
    const prevHook = this.onFirstUse
    this.view = view
    this.run = ++this.runs
    this.onFirstUse = undefined
    try {
      return run()
    } finally {
      this.view = prevView
      this.run = prevRun
      this.onFirstUse = prevHook
    }
  }

  /** The module as of the current view; MISSING_DEPENDENCY / LINKER_ERROR when absent. */
  load(address: Uint8Array, name: string): LoadedModule {
    const m = this.tryLoad(address, name)
    if (m === undefined) return vmError("LINKER_ERROR", `module ${moduleKey(address, name)} not found`)
    return m
  }

  /**
   * A function by module and name as of the current view (an entry point's target): LINKER_ERROR
   * when the module is absent, FUNCTION_RESOLUTION_FAILURE when the function is.
   */
  loadFunction(address: Uint8Array, moduleName: string, name: string): LoadedFunction {
    const m = this.load(address, moduleName)
    const f = m.function(name)
    if (f === undefined) return vmError("FUNCTION_RESOLUTION_FAILURE", `function ${m.key}::${name} not found`)
    return f
  }

  tryLoad(address: Uint8Array, name: string): LoadedModule | undefined {
    const key = moduleKey(address, name)
    const cached = this.cache.get(key)
    if (cached !== undefined && cached.checkedRun === this.run) return cached
    const view = this.view
    if (view === undefined) return vmError("UNREACHABLE", "no state view installed")
    const snapshot = view.codeSnapshot ?? view.snapshot
    if (snapshot !== undefined) {
      if (snapshot !== this.snapshot) this.revalidate(view, snapshot)
      // Every cached module matches this snapshot: no read needed.
      const valid = this.cache.get(key)
      if (valid !== undefined) {
        valid.checkedRun = this.run
        this.onFirstUse?.(address, valid.byteLength)
        return valid
      }
    }
    const stored = view.module(address, name)
    if (stored === undefined) return undefined
    if (cached !== undefined) {
      // A MoveVm serves one ledger, where (id, version) names one module; the length check also
      // catches a second ledger's module written at the same version (tests mix chains).
      if (this.unchanged(cached, stored, view)) {
        cached.checkedRun = this.run
        this.onFirstUse?.(address, cached.byteLength)
        return cached
      }
      this.drop([key])
    }
    const decoded = this.decode(stored.bytes)
    if (typeof decoded === "string") throw new VmError("CODE_DESERIALIZATION_ERROR", `${key}: ${decoded}`)
    const m = new LoadedModule(this, decoded, stored.version, stored.bytes.length, stored.bytes, view.generation)
    if (!addressEquals(m.id.address, address) || m.id.name !== name)
      return vmError("LINKER_ERROR", `module stored at ${key} names itself ${m.key}`)
    this.cache.set(key, m)
    this.cachedBytecode += m.byteLength
    m.checkedRun = this.run
    this.onFirstUse?.(address, m.byteLength)
    return m
  }

  /**
   * Whether the stored module is the cached one: the same version and length, and, when the view
   * is of another history generation than the one the module was checked in (a rewind happened
   * since: versions are reused), the same bytes (compared once; the generation is then noted).
   */
  private unchanged(
    m: LoadedModule,
    stored: { readonly bytes: Uint8Array; readonly version: bigint },
    view: StateView
  ): boolean {
    if (stored.version !== m.version || stored.bytes.length !== m.byteLength) return false
    const generation = view.generation
    if (generation === undefined || generation === m.generation) return true
    if (
      m.bytes === undefined ||
      Buffer.compare(
        Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength),
        Buffer.from(stored.bytes.buffer, stored.bytes.byteOffset, stored.bytes.byteLength)
      ) !== 0
    )
      return false
    m.generation = generation
    return true
  }

  /**
   * A new snapshot: every cached module is checked against it once (cached links between modules
   * mean a run reaches modules without `tryLoad`, so checking only those it loads by name would miss
   * an upgraded dependency); any difference drops the whole cache. Then, for views naming this
   * snapshot, cached modules are used without reading them again. A ledger's views name their
   * modules by the newest module write at or below their version (`codeSnapshot`,
   * src/ledger/codeVersions.ts), so blocks that publish nothing are not new snapshots here.
   */
  private revalidate(view: StateView, snapshot: string | bigint): void {
    const changed: string[] = []
    for (const [key, m] of this.cache) {
      const stored = view.module(m.id.address, m.id.name)
      if (stored === undefined || !this.unchanged(m, stored, view)) changed.push(key)
    }
    if (changed.length > 0) this.drop(changed)
    this.snapshot = snapshot
  }

  /**
   * Drops modules and every cached module that links to them, transitively (a module's resolved
   * handles point at the loaded modules it uses, so a dependent of a changed module is stale too).
   * The rest stays: publishing a module does not cost reloading the framework.
   */
  private drop(keys: ReadonlyArray<string>): void {
    const gone = new Set(keys)
    for (let grew = true; grew; ) {
      grew = false
      for (const [key, m] of this.cache) {
        if (gone.has(key)) continue
        if (m.dependencyKeys.some((d) => gone.has(d))) {
          gone.add(key)
          grew = true
        }
      }
    }
    for (const key of gone) {
      const m = this.cache.get(key)
      if (m === undefined) continue
      this.cache.delete(key)
      this.cachedBytecode -= m.byteLength
    }
  }

  /**
   * Drops the modules least recently checked (`checkedRun`) until the rest is within three
   * quarters of the bound, so the next runs' new modules do not trim again at once. Their
   * dependents go with them (`drop`). A module reached only through another's cached links is not
   * re-checked by name and looks old: dropping it costs its dependents a reload, not a wrong answer.
   */
  private trim(): void {
    const target = (this.maxCachedBytecode * 3) / 4
    const byAge = [...this.cache].sort((a, b) => a[1].checkedRun - b[1].checkedRun)
    let left = this.cachedBytecode
    const gone: string[] = []
    for (const [key, m] of byAge) {
      if (left <= target) break
      gone.push(key)
      left -= m.byteLength
    }
    this.drop(gone)
  }

  /**
   * A script as a loaded module (`scriptAsModule`): linked through this loader like any module but
   * never cached (a script is not stored state).
   */
  loadScript(script: CompiledScript, byteLength: number): LoadedModule {
    return new LoadedModule(this, scriptAsModule(script), -1n, byteLength)
  }

  /** Forgets every cached module (tests; a module set that changed in ways no snapshot names). */
  invalidate(): void {
    this.cache.clear()
    this.cachedBytecode = 0
    this.snapshot = undefined
  }

  get cachedModules(): number {
    return this.cache.size
  }

  /** Bytecode of the cached modules, summed (what `maxCachedBytecode` bounds). */
  get cachedBytes(): number {
    return this.cachedBytecode
  }
}
