import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import {
  decodeSegment,
  parseAddressParam,
  parseAssetTypeParam,
  parseIdentifierParam,
  parseU16Query,
  parseU64Query
} from "../Params.js"
import { moduleJson, summariesPageBcs, summariesPageJson, u64Bcs } from "../Render.js"
import { asciiJsonReply, bcsReply, jsonReply } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

/**
 * Transaction summaries, a module, a balance. Parameters are parsed synchronously (first failure
 * wins, in path-then-query order) before the node is asked: no generator per request on hot paths.
 */
export const accountsHandlers = (env: HandlerEnv) => {
  const { node, headers } = env
  const transactionSummaries: RouteSpec = {
    handler: (input) => {
      const address = parseAddressParam("address", input.params.address!)
      if (Result.isFailure(address)) return Effect.fail(address.failure)
      const start = parseU64Query("start_version", input.query.get("start_version"))
      if (Result.isFailure(start)) return Effect.fail(start.failure)
      const end = parseU64Query("end_version", input.query.get("end_version"))
      if (Result.isFailure(end)) return Effect.fail(end.failure)
      const limit = parseU16Query("limit", input.query.get("limit"))
      if (Result.isFailure(limit)) return Effect.fail(limit.failure)
      const query = { startVersion: start.success, endVersion: end.success, limit: limit.success }
      return Effect.map(node.transactionSummaries(address.success, query), ({ ledger, value }) => {
        const extra = value.cursor === undefined ? undefined : [headers.names.cursor, value.cursor.toString()]
        return input.bcs
          ? bcsReply(summariesPageBcs(value.summaries), ledger, extra)
          : asciiJsonReply(summariesPageJson(value.summaries), ledger, extra)
      })
    }
  }
  const module: RouteSpec = {
    handler: (input) => {
      const address = parseAddressParam("address", input.params.address!)
      if (Result.isFailure(address)) return Effect.fail(address.failure)
      const name = Result.flatMap(decodeSegment("module_name", input.params.module_name!), (s) =>
        parseIdentifierParam("module_name", s)
      )
      if (Result.isFailure(name)) return Effect.fail(name.failure)
      const version = parseU64Query("ledger_version", input.query.get("ledger_version"))
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      return Effect.map(node.module(address.success, name.success, version.success), ({ ledger, value }) =>
        input.bcs ? bcsReply(value.bytecode, ledger) : jsonReply(moduleJson(value), ledger)
      )
    }
  }
  const balance: RouteSpec = {
    handler: (input) => {
      const address = parseAddressParam("address", input.params.address!)
      if (Result.isFailure(address)) return Effect.fail(address.failure)
      const asset = Result.flatMap(decodeSegment("asset_type", input.params.asset_type!), parseAssetTypeParam)
      if (Result.isFailure(asset)) return Effect.fail(asset.failure)
      const version = parseU64Query("ledger_version", input.query.get("ledger_version"))
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      return Effect.map(node.balance(address.success, asset.success, version.success), ({ ledger, value }) =>
        // A bare JSON number with all its digits: bigint's decimal form, not JSON.stringify.
        input.bcs ? bcsReply(u64Bcs(value), ledger) : asciiJsonReply(value.toString(), ledger)
      )
    }
  }
  return {
    "accounts.transactionSummaries": transactionSummaries,
    "accounts.module": module,
    "accounts.balance": balance
  } as const
}
