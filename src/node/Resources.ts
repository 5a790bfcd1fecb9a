import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { Bcs, BcsWriter, fromHex } from "../bcs/index.js"
import { type AccountAddress, addressToLongString, addressToShortString } from "../domain/AccountAddress.js"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { resourceGroupCodec } from "../domain/ResourceGroupCodec.js"
import { compareStructTags } from "../domain/StructTagOrder.js"
import type { AccessPathKind } from "../domain/StateKey.js"
import { readStateKey } from "../domain/StateKeyCodec.js"
import { structTagToString, parseStructTag } from "../domain/TypeTagString.js"
import type { StructTag } from "../domain/TypeTag.js"
import { writeStructTag } from "../domain/TypeTagCodec.js"
import { Ledger, type StateEntry, type StateReader } from "../ledger/Ledger.js"
import { BcsReader } from "../bcs/index.js"
import { readResource, resourceLocation, type ResourceLocation } from "./accountState.js"
import { apiErrorFromLedger } from "./apiErrorFromLedger.js"
import { cachedStateAtLedgerVersion } from "./LedgerVersion.js"
import { forgetOnRewind } from "./forgetOnRewind.js"
import { LruCache } from "./LruCache.js"
import { moduleAbiJsonOf } from "./moduleAbiJsonOf.js"
import { NodeConfig } from "./NodeConfig.js"
import { pageLimit, ReadErrors } from "./readErrors.js"
import { resourceJson } from "./render/moveJson.js"
import { Renderer } from "./Renderer.js"
import type { WithLedger } from "./WithLedger.js"

/** One resource: `{"type", "data"}` as UTF-8 JSON (ready to send), and its BCS bytes. */
export interface ResourceAnswer {
  readonly json: Uint8Array
  readonly bcs: Uint8Array
}

/** A page of an account's resources or modules: the JSON array text, the BCS map, the next page's cursor. */
export interface StatePageAnswer {
  readonly json: string
  readonly bcs: Uint8Array
  /** Hex of the state key the next page starts at (the `CURSOR` header); undefined on the last page. */
  readonly cursor: string | undefined
}

export interface StatePageRequest {
  readonly ledgerVersion?: bigint | undefined
  /** The `start` query: a cursor from a previous page (hex of a state key). */
  readonly start?: string | undefined
  readonly limit?: number | undefined
}

export interface ResourcesService {
  /** `GET /v1/accounts/{address}/resource/{resource_type}`; `type` is the struct tag text. */
  readonly resource: (
    address: AccountAddress,
    type: string,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<ResourceAnswer>, ApiError>
  /** `GET /v1/accounts/{address}/resources`: resource groups' members listed one by one. */
  readonly resources: (
    address: AccountAddress,
    request: StatePageRequest
  ) => Effect.Effect<WithLedger<StatePageAnswer>, ApiError>
  /** `GET /v1/accounts/{address}/modules`: `{bytecode, abi}` per module. */
  readonly modules: (
    address: AccountAddress,
    request: StatePageRequest
  ) => Effect.Effect<WithLedger<StatePageAnswer>, ApiError>
}

const pathOf = (keyBytes: Uint8Array): AccessPathKind | undefined => {
  try {
    const r = new BcsReader(keyBytes)
    const key = readStateKey(r)
    r.expectEnd()
    return key._tag === "AccessPath" ? key.path : undefined
  } catch {
    return undefined
  }
}

/** An access path key's kind from its bytes alone: 0x00 ‖ address ‖ ULEB length ‖ path tag (0 code, 1 resource, 2 group). */
const pathTagOf = (keyBytes: Uint8Array): number => {
  let i = 33
  while (i < keyBytes.length && (keyBytes[i]! & 0x80) !== 0) i++
  return keyBytes[i + 1] ?? -1
}

const isModuleKey = (k: Uint8Array): boolean => pathTagOf(k) === 0
const isResourceKey = (k: Uint8Array): boolean => {
  const t = pathTagOf(k)
  return t === 1 || t === 2
}

/** Keys scanned per page, accepted or not: an account's modules are skipped when listing its resources. */
const scanBudget = (limit: number): number => Math.max(20_000, limit * 2)

/** The BCS of the reference's `BTreeMap<K, Vec<u8>>` pages: entries sorted by their key's BCS bytes. */
const bcsMap = (entries: ReadonlyArray<readonly [Uint8Array, Uint8Array]>): Uint8Array => {
  const sorted = [...entries].sort((a, b) => Buffer.compare(a[0], b[0]))
  const w = new BcsWriter(64)
  w.uleb128(sorted.length)
  for (const [k, v] of sorted) w.fixed(k).bytesWithLength(v)
  return w.toBytes()
}

const structTagBcs = (s: StructTag): Uint8Array => {
  const w = new BcsWriter(64)
  writeStructTag(w, s)
  return w.toBytes()
}

/** Pages kept for the current ledger head (clients poll the same account)… */
const PAGE_CACHE = 64
/**
 * …and at most this many bytes of them: 0x1's modules are a 2.2 MB page (JSON and BCS), its
 * resources 1.8 MB, so 64 such pages under different `limit`s or versions held ~250 MB in each
 * process answering reads (measured: the front process at 111 → 488 MB after 128 requests).
 */
const PAGE_CACHE_BYTES = 16 << 20
/** Resources' last answers kept: at most this many (address, type) entries and bytes of answers. */
const ENTRY_CACHE = 4096
const ENTRY_CACHE_BYTES = 32 << 20
/** What an entry costs besides its answer's bytes (its object, key and type text), roughly. */
const ENTRY_OVERHEAD = 256
const answerBytes = (a: ResourceAnswer | undefined): number => (a === undefined ? 0 : a.json.length + a.bcs.length)
/** Modules' rendered texts (bytecode hex and ABI, up to ~200 KB each) kept, in bytes. */
const MODULE_TEXT_BYTES = 32 << 20

/**
 * An account's state as the API reads it (local-chain.md §2.1, the reference's `accounts.rs` and
 * `state.rs`): one resource by type (resource-group members found in their group), and pages of
 * resources (groups flattened) or modules in state-key order with the reference's cursor, at
 * `ledger_version` (404/410 as elsewhere). Move values are rendered with the modules of the state
 * read. A resource's last answer is kept per (address, type) with the version that wrote it.
 */
export class Resources extends Context.Service<Resources, ResourcesService>()("movenode/node/Resources") {
  static readonly layer = Layer.effect(
    Resources,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const renderer = yield* Renderer
      const config = yield* NodeConfig
      const stateAt = cachedStateAtLedgerVersion(ledger)

      interface Entry {
        readonly struct: StructTag
        readonly typeText: string
        location: ResourceLocation | undefined
        version: bigint | undefined
        storedVersion: bigint | undefined
        answer: ResourceAnswer | undefined
      }
      const entries = new LruCache<string, Entry | ApiError>(ENTRY_CACHE, {
        max: ENTRY_CACHE_BYTES,
        of: (e) => ENTRY_OVERHEAD + ("struct" in e ? e.typeText.length + answerBytes(e.answer) : 0)
      })
      const rewound = forgetOnRewind(ledger, () => {
        entries.clear()
        pages.clear()
        moduleTexts.clear()
      })

      const entryOf = (id: string, type: string): Entry | ApiError => {
        let entry = entries.get(id)
        if (entry === undefined) {
          const parsed = parseStructTag(type)
          entry = Result.isSuccess(parsed)
            ? {
                struct: parsed.success,
                typeText: structTagToString(parsed.success),
                location: undefined,
                version: undefined,
                storedVersion: undefined,
                answer: undefined
              }
            : ApiErrors.webFramework(400, `failed to parse path \`resource_type\`: ${parsed.failure.message}`)
          entries.set(id, entry)
        }
        return entry
      }

      const resource = (address: AccountAddress, type: string, ledgerVersion: bigint | undefined) =>
        Effect.suspend(() => {
          rewound()
          const id = `${addressToLongString(address)}/${type}`
          const entry = entryOf(id, type)
          if (!("struct" in entry)) return Effect.fail(entry)
          return Effect.flatMap(stateAt(ledgerVersion), ({ ledger: info, version, state }) => {
            if (entry.version !== version) {
              const modules = renderer.modulesAt(state)
              // The location depends on the struct's module (a group member or not): kept once it exists.
              if (entry.location?.settled !== true) entry.location = resourceLocation(modules, address, entry.struct)
              const stored =
                state.versionOf?.(entry.location.keyBytes) ?? state.getVersioned(entry.location.keyBytes)?.version
              if (stored === undefined || stored !== entry.storedVersion || entry.answer === undefined) {
                const bytes = stored === undefined ? undefined : readResource(state, entry.location)
                if (bytes === undefined) entry.answer = undefined
                else {
                  const json = resourceJson(modules, entry.struct, bytes)
                  if (Result.isFailure(json))
                    return Effect.fail(
                      ApiErrors.internal(`Failed to deserialize resource data retrieved from DB: ${json.failure}`, info)
                    )
                  entry.answer = { json: Buffer.from(JSON.stringify(json.success), "utf8"), bcs: bytes }
                }
                entry.storedVersion = stored
                // Weighed again with its new answer (and dropped if that alone exceeds the budget).
                entries.set(id, entry)
              }
              entry.version = version
            }
            return entry.answer === undefined
              ? Effect.fail(ReadErrors.resourceNotFound(address, entry.typeText, version, info))
              : Effect.succeed({ ledger: info, value: entry.answer })
          })
        })

      const pages = new LruCache<string, StatePageAnswer>(PAGE_CACHE, {
        max: PAGE_CACHE_BYTES,
        of: (p) => p.json.length + p.bcs.length
      })

      const page = (
        kind: "resources" | "modules",
        address: AccountAddress,
        request: StatePageRequest,
        render: (
          info: LedgerInfo,
          state: StateReader,
          entries: ReadonlyArray<StateEntry>
        ) => Result.Result<Omit<StatePageAnswer, "cursor">, ApiError>
      ) =>
        Effect.flatMap(stateAt(request.ledgerVersion), ({ ledger: info, version, state }) => {
          const max = kind === "resources" ? config.maxResourcesPageSize : config.maxModulesPageSize
          const limit = pageLimit(request.limit, max, max, info)
          if (typeof limit !== "number") return Effect.fail(limit)
          let start: Uint8Array | undefined
          if (request.start !== undefined) {
            const key = cursorKey(request.start)
            if (key === undefined)
              return Effect.fail(
                ApiErrors.webFramework(
                  400,
                  `failed to parse query \`start\`: Invalid state key cursor '${request.start.slice(0, 100)}'`
                )
              )
            start = key
          }
          const id = `${kind}/${addressToLongString(address)}/${version}/${request.start ?? ""}/${limit}`
          rewound()
          const hit = pages.get(id)
          if (hit !== undefined) return Effect.succeed({ ledger: info, value: hit })
          return ledger
            .statePage(version, {
              address,
              start,
              accept: kind === "resources" ? isResourceKey : isModuleKey,
              limit,
              maxScan: scanBudget(limit)
            })
            .pipe(
              Effect.mapError((e) => apiErrorFromLedger(e, info, `Failed to get ${kind} from storage`)),
              Effect.flatMap((p) => {
                const rendered = render(info, state, p.entries)
                if (Result.isFailure(rendered)) return Effect.fail(rendered.failure)
                const answer: StatePageAnswer = {
                  ...rendered.success,
                  cursor: p.next === undefined ? undefined : Buffer.from(p.next).toString("hex")
                }
                pages.set(id, answer)
                return Effect.succeed({ ledger: info, value: answer })
              })
            )
        })

      const renderResources = (info: LedgerInfo, state: StateReader, entries: ReadonlyArray<StateEntry>) => {
        const modules = renderer.modulesAt(state)
        const items: Array<readonly [StructTag, Uint8Array]> = []
        for (const e of entries) {
          const path = pathOf(e.keyBytes)
          if (path === undefined || path._tag === "Code") continue
          if (path._tag === "Resource") items.push([path.struct, e.value])
          else {
            const members = Bcs.decode(resourceGroupCodec, e.value)
            if (Result.isFailure(members))
              return Result.fail(
                ApiErrors.internal(`Failed to decode resource group ${structTagToString(path.struct)}`, info)
              )
            // The reference lists a group's members as its `BTreeMap<StructTag, _>` iterates.
            const sorted = [...members.success].sort((a, b) => compareStructTags(a.struct, b.struct))
            for (const m of sorted) items.push([m.struct, m.bytes])
          }
        }
        const texts: string[] = []
        for (const [struct, bytes] of items) {
          const json = resourceJson(modules, struct, bytes)
          if (Result.isFailure(json))
            return Result.fail(
              ApiErrors.internal(`Failed to build move resource response from data in DB: ${json.failure}`, info)
            )
          texts.push(JSON.stringify(json.success))
        }
        return Result.succeed({
          json: `[${texts.join(",")}]`,
          bcs: bcsMap(items.map(([s, b]) => [structTagBcs(s), b] as const))
        })
      }

      const moduleTexts = new LruCache<string, string>(config.moduleAbiCacheSize, {
        max: MODULE_TEXT_BYTES,
        of: (text) => text.length
      })
      const renderModules = (_info: LedgerInfo, _state: StateReader, entries: ReadonlyArray<StateEntry>) => {
        const texts: string[] = []
        const bcsEntries: Array<readonly [Uint8Array, Uint8Array]> = []
        for (const e of entries) {
          const path = pathOf(e.keyBytes)
          if (path?._tag !== "Code") continue
          const id = `${Buffer.from(e.keyBytes).toString("hex")}@${e.version}`
          let text = moduleTexts.get(id)
          if (text === undefined) {
            text = `{"bytecode":"0x${Buffer.from(e.value).toString("hex")}","abi":${moduleAbiJsonOf(e.value)}}`
            moduleTexts.set(id, text)
          }
          texts.push(text)
          // `MoveModuleId` serializes as its text ("0x1::coin"): a BCS string.
          const name = new BcsWriter(64)
            .string(`${addressToShortString(path.module.address)}::${path.module.name}`)
            .toBytes()
          bcsEntries.push([name, e.value])
        }
        return Result.succeed({ json: `[${texts.join(",")}]`, bcs: bcsMap(bcsEntries) })
      }

      return Resources.of({
        resource,
        resources: (address, request) => page("resources", address, request, renderResources),
        modules: (address, request) => page("modules", address, request, renderModules)
      })
    })
  )
}

/** A `start` cursor: hex (with or without 0x) of BCS(StateKey), which must be an access path. */
const cursorKey = (text: string): Uint8Array | undefined => {
  const digits = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text
  if (digits.length === 0 || digits.length > 8192 || digits.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(digits))
    return undefined
  const bytes = fromHex(digits)
  if (bytes === undefined) return undefined
  return pathOf(bytes) === undefined ? undefined : bytes
}
