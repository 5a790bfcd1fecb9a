import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { parseAddressParam, parseU16Query, parseU64Query } from "../Params.js"
import { parseCursorQuery, parseFieldNameParam, parseStructTagParam, parseU64Path } from "../ReadParams.js"
import { transactionsBcs } from "../../node/render/transactionBcs.js"
import { asciiJsonReply, bcsReply, jsonReply } from "../Reply.js"
import type { HandlerEnv, RequestInput, RouteSpec } from "./HandlerTypes.js"

/** `start` and `limit` of the event and account-transaction pages: a u64 and a u16. */
const pageQuery = (input: RequestInput) =>
  Result.flatMap(parseU64Query("start", input.query.get("start")), (start) =>
    Result.map(parseU16Query("limit", input.query.get("limit")), (limit) => ({ start, limit }))
  )

/**
 * An account and its state: the account, resources, one resource, modules, its transactions, its
 * event streams. Parameters are parsed synchronously (first failure wins, path then query) before
 * the node is asked, as the other handlers do.
 */
export const accountStateHandlers = (env: HandlerEnv) => {
  const { headers } = env
  const reads = env.node.reads
  const cursorHeader = (cursor: string | undefined) =>
    cursor === undefined ? undefined : [headers.names.cursor, cursor]

  const account: RouteSpec = {
    handler: (input) => {
      const address = parseAddressParam("address", input.params.address!)
      if (Result.isFailure(address)) return Effect.fail(address.failure)
      const version = parseU64Query("ledger_version", input.query.get("ledger_version"))
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      return Effect.map(reads.accounts.account(address.success, version.success), ({ ledger, value }) =>
        input.bcs ? bcsReply(value.bcs, ledger) : asciiJsonReply(value.json, ledger)
      )
    }
  }

  const statePage = (kind: "resources" | "modules"): RouteSpec => ({
    handler: (input) => {
      const address = parseAddressParam("address", input.params.address!)
      if (Result.isFailure(address)) return Effect.fail(address.failure)
      const version = parseU64Query("ledger_version", input.query.get("ledger_version"))
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      const start = parseCursorQuery(input.query.get("start"))
      if (Result.isFailure(start)) return Effect.fail(start.failure)
      const limit = parseU16Query("limit", input.query.get("limit"))
      if (Result.isFailure(limit)) return Effect.fail(limit.failure)
      const request = { ledgerVersion: version.success, start: start.success, limit: limit.success }
      return Effect.map(reads.resources[kind](address.success, request), ({ ledger, value }) =>
        input.bcs
          ? bcsReply(value.bcs, ledger, cursorHeader(value.cursor))
          : jsonReply(value.json, ledger, cursorHeader(value.cursor))
      )
    }
  })

  const resource: RouteSpec = {
    handler: (input) => {
      const address = parseAddressParam("address", input.params.address!)
      if (Result.isFailure(address)) return Effect.fail(address.failure)
      const type = parseStructTagParam("resource_type", input.params.resource_type!)
      if (Result.isFailure(type)) return Effect.fail(type.failure)
      const version = parseU64Query("ledger_version", input.query.get("ledger_version"))
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      return Effect.map(
        reads.resources.resource(address.success, type.success, version.success),
        ({ ledger, value }) => (input.bcs ? bcsReply(value.bcs, ledger) : jsonReply(value.json, ledger))
      )
    }
  }

  const transactions: RouteSpec = {
    handler: (input) => {
      const address = parseAddressParam("address", input.params.address!)
      if (Result.isFailure(address)) return Effect.fail(address.failure)
      const page = pageQuery(input)
      if (Result.isFailure(page)) return Effect.fail(page.failure)
      return Effect.map(reads.transactions.byAccount(address.success, page.success), ({ ledger, value }) =>
        input.bcs ? bcsReply(transactionsBcs(value.transactions), ledger) : jsonReply(value.json, ledger)
      )
    }
  }

  const eventsByCreationNumber: RouteSpec = {
    handler: (input) => {
      const address = parseAddressParam("address", input.params.address!)
      if (Result.isFailure(address)) return Effect.fail(address.failure)
      const creationNumber = parseU64Path("creation_number", input.params.creation_number!)
      if (Result.isFailure(creationNumber)) return Effect.fail(creationNumber.failure)
      const page = pageQuery(input)
      if (Result.isFailure(page)) return Effect.fail(page.failure)
      return Effect.map(
        reads.events.byCreationNumber(address.success, creationNumber.success, page.success),
        ({ ledger, value }) => (input.bcs ? bcsReply(value.bcs, ledger) : jsonReply(value.json, ledger))
      )
    }
  }

  const eventsByHandle: RouteSpec = {
    handler: (input) => {
      const address = parseAddressParam("address", input.params.address!)
      if (Result.isFailure(address)) return Effect.fail(address.failure)
      const handle = parseStructTagParam("event_handle", input.params.event_handle!)
      if (Result.isFailure(handle)) return Effect.fail(handle.failure)
      const field = parseFieldNameParam("field_name", input.params.field_name!)
      if (Result.isFailure(field)) return Effect.fail(field.failure)
      const page = pageQuery(input)
      if (Result.isFailure(page)) return Effect.fail(page.failure)
      return Effect.map(
        reads.events.byHandle(address.success, handle.success, field.success, page.success),
        ({ ledger, value }) => (input.bcs ? bcsReply(value.bcs, ledger) : jsonReply(value.json, ledger))
      )
    }
  }

  return {
    "accountState.account": account,
    "accountState.resources": statePage("resources"),
    "accountState.resource": resource,
    "accountState.modules": statePage("modules"),
    "accountState.transactions": transactions,
    "accountState.eventsByCreationNumber": eventsByCreationNumber,
    "accountState.eventsByHandle": eventsByHandle
  } as const
}
