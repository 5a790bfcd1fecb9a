import * as Result from "effect/Result"
import { addressToShortString } from "../../domain/AccountAddress.js"
import type { ContractEvent } from "../../domain/ContractEvent.js"
import { typeTagToString } from "../../domain/TypeTagString.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { hexJson, type JsonObject, moveValueJson } from "./moveJson.js"

/**
 * A handle event's `guid`, or the reference's dummy one for module events (`DUMMY_GUID`: creation
 * number "0", address "0x0"), whose sequence number is "0" too (`DUMMY_SEQUENCE_NUMBER`).
 */
const DUMMY_GUID: JsonObject = { creation_number: "0", account_address: "0x0" }

/**
 * An event as the API shows it: `{guid, sequence_number, type, data}`, `data` converted with the
 * event type's layout. Data that does not decode (its module gone or changed) is shown as its hex
 * bytes rather than failing the whole transaction (the reference would answer 500).
 */
export const eventJson = (modules: ModuleSource, e: ContractEvent): JsonObject => {
  const converted = moveValueJson(modules, e.typeTag, e.data)
  const data = Result.isSuccess(converted) ? converted.success : hexJson(e.data)
  return e._tag === "V1"
    ? {
        guid: {
          creation_number: e.key.creationNumber.toString(),
          account_address: addressToShortString(e.key.accountAddress)
        },
        sequence_number: e.sequenceNumber.toString(),
        type: typeTagToString(e.typeTag),
        data
      }
    : { guid: DUMMY_GUID, sequence_number: "0", type: typeTagToString(e.typeTag), data }
}

export const eventsJson = (modules: ModuleSource, events: ReadonlyArray<ContractEvent>): JsonObject[] =>
  events.map((e) => eventJson(modules, e))

/** An event read from an event stream (`VersionedEvent`): the event with the version that emitted it first. */
export const versionedEventJson = (modules: ModuleSource, version: bigint, e: ContractEvent): JsonObject => ({
  version: version.toString(),
  ...eventJson(modules, e)
})
