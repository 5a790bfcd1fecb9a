import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { BcsWriter } from "../bcs/index.js"
import { type AccountAddress, parseAddress } from "../domain/AccountAddress.js"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import { writeContractEvent } from "../domain/ContractEventCodec.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { parseStructTag, structTagToString } from "../domain/TypeTagString.js"
import { Ledger, type VersionedEvent } from "../ledger/Ledger.js"
import { readResource, resourceLocation } from "./accountState.js"
import { apiErrorFromLedger } from "./apiErrorFromLedger.js"
import { readLedgerInfo } from "./LedgerVersion.js"
import { NodeConfig } from "./NodeConfig.js"
import { pageLimit, ReadErrors } from "./readErrors.js"
import { versionedEventJson } from "./render/eventsJson.js"
import { type JsonValue, resourceJson } from "./render/moveJson.js"
import { Renderer } from "./Renderer.js"
import type { WithLedger } from "./WithLedger.js"

export interface EventsAnswer {
  readonly events: ReadonlyArray<VersionedEvent>
  /** `[{"version", "guid", "sequence_number", "type", "data"}, …]`. */
  readonly json: string
  /** BCS of `Vec<EventWithVersion {transaction_version: u64, event: ContractEvent}>`. */
  readonly bcs: Uint8Array
}

export interface EventsRequest {
  /** The first sequence number; absent = the newest `limit` events. */
  readonly start?: bigint | undefined
  readonly limit?: number | undefined
}

export interface EventsService {
  /** `GET /v1/accounts/{address}/events/{creation_number}`. */
  readonly byCreationNumber: (
    address: AccountAddress,
    creationNumber: bigint,
    request: EventsRequest
  ) => Effect.Effect<WithLedger<EventsAnswer>, ApiError>
  /** `GET /v1/accounts/{address}/events/{event_handle}/{field_name}`: the stream of an `EventHandle` field. */
  readonly byHandle: (
    address: AccountAddress,
    eventHandle: string,
    fieldName: string,
    request: EventsRequest
  ) => Effect.Effect<WithLedger<EventsAnswer>, ApiError>
}

const DEFAULT_PAGE_SIZE = 25

/** An `0x1::event::EventHandle`'s JSON: `{"counter", "guid": {"id": {"addr", "creation_num"}}}` → its key. */
const eventKeyOf = (value: JsonValue): { address: AccountAddress; creationNumber: bigint } | undefined => {
  const id = (value as { guid?: { id?: { addr?: unknown; creation_num?: unknown } } } | null)?.guid?.id
  if (typeof id?.addr !== "string" || typeof id.creation_num !== "string") return undefined
  const address = parseAddress(id.addr)
  if (Result.isFailure(address) || !/^[0-9]+$/.test(id.creation_num)) return undefined
  return { address: address.success, creationNumber: BigInt(id.creation_num) }
}

/**
 * The event endpoints (the reference's `events.rs`): one event stream (an event key: creation
 * number and account address) from the by-key index written at commit, by sequence number, at the
 * latest version; the stream is named directly or as the `EventHandle` field of a resource. Only
 * handle events have a stream: module events are found in their transactions.
 */
export class Events extends Context.Service<Events, EventsService>()("movenode/node/Events") {
  static readonly layer = Layer.effect(
    Events,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const renderer = yield* Renderer
      const { maxEventsPageSize } = yield* NodeConfig
      const ledgerInfo = readLedgerInfo(ledger)

      const read = (info: LedgerInfo, address: AccountAddress, creationNumber: bigint, request: EventsRequest) => {
        const limit = pageLimit(request.limit, DEFAULT_PAGE_SIZE, maxEventsPageSize, info)
        if (typeof limit !== "number") return Effect.fail(limit)
        return Effect.all([
          ledger.eventsByKey({ address, creationNumber, start: request.start, limit }),
          ledger.stateAt(info.ledgerVersion)
        ]).pipe(
          Effect.mapError((e) => apiErrorFromLedger(e, info, "Failed to read events")),
          Effect.map(([events, state]): WithLedger<EventsAnswer> => {
            const modules = renderer.modulesAt(state)
            const w = new BcsWriter(256)
            w.uleb128(events.length)
            for (const e of events) {
              w.u64(e.version)
              writeContractEvent(w, e.event)
            }
            return {
              ledger: info,
              value: {
                events,
                json: JSON.stringify(events.map((e) => versionedEventJson(modules, e.version, e.event))),
                bcs: w.toBytes()
              }
            }
          })
        )
      }

      const byCreationNumber = (address: AccountAddress, creationNumber: bigint, request: EventsRequest) =>
        Effect.flatMap(ledgerInfo, (info) => read(info, address, creationNumber, request))

      const byHandle = (address: AccountAddress, eventHandle: string, fieldName: string, request: EventsRequest) =>
        Effect.flatMap(ledgerInfo, (info) => {
          const struct = parseStructTag(eventHandle)
          if (Result.isFailure(struct))
            return Effect.fail(ApiErrors.badRequest(`Given event handle was invalid: ${struct.failure.message}`, info))
          const typeText = structTagToString(struct.success)
          return Effect.mapError(ledger.stateAt(info.ledgerVersion), (e) =>
            apiErrorFromLedger(e, info, "Failed to read state")
          ).pipe(
            Effect.flatMap((state) => {
              const modules = renderer.modulesAt(state)
              const bytes = readResource(state, resourceLocation(modules, address, struct.success))
              if (bytes === undefined)
                return Effect.fail(ReadErrors.resourceNotFound(address, typeText, info.ledgerVersion, info))
              const json = resourceJson(modules, struct.success, bytes)
              if (Result.isFailure(json))
                return Effect.fail(
                  ApiErrors.internal(`Failed to convert move structs from storage: ${json.failure}`, info)
                )
              const data = json.success.data as { [k: string]: JsonValue }
              if (!Object.hasOwn(data, fieldName))
                return Effect.fail(
                  ReadErrors.structFieldNotFound(address, typeText, fieldName, info.ledgerVersion, info)
                )
              const key = eventKeyOf(data[fieldName]!)
              if (key === undefined)
                return Effect.fail(
                  ApiErrors.badRequest(
                    `Deserialization error, field(${fieldName}) type is not a EventHandle struct`,
                    info
                  )
                )
              return read(info, key.address, key.creationNumber, request)
            })
          )
        })

      return Events.of({ byCreationNumber, byHandle })
    })
  )
}
