import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { transactionDataBcs } from "../../node/render/transactionBcs.js"
import { parseU16Query, parseU64Query } from "../Params.js"
import { parseU64Path } from "../ReadParams.js"
import { bcsReply, jsonReply } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

/** `GET /v1/transactions`, `GET /v1/transactions/by_version/{txn_version}`. */
export const transactionReadsHandlers = (env: HandlerEnv) => {
  const transactions = env.node.reads.transactions
  const list: RouteSpec = {
    handler: (input) => {
      const start = parseU64Query("start", input.query.get("start"))
      if (Result.isFailure(start)) return Effect.fail(start.failure)
      const limit = parseU16Query("limit", input.query.get("limit"))
      if (Result.isFailure(limit)) return Effect.fail(limit.failure)
      const request = { start: start.success, limit: limit.success }
      // BCS (a follower's feed) is built without rendering the JSON.
      if (input.bcs) return Effect.map(transactions.listBcs(request), ({ ledger, value }) => bcsReply(value, ledger))
      return Effect.map(transactions.list(request), ({ ledger, value }) => jsonReply(value.json, ledger))
    }
  }
  const byVersion: RouteSpec = {
    handler: (input) => {
      const version = parseU64Path("txn_version", input.params.txn_version!)
      if (Result.isFailure(version)) return Effect.fail(version.failure)
      return Effect.map(transactions.byVersion(version.success), ({ ledger, value }) =>
        input.bcs ? bcsReply(transactionDataBcs(value.transaction), ledger) : jsonReply(value.json, ledger)
      )
    }
  }
  return { "transactionReads.list": list, "transactionReads.byVersion": byVersion } as const
}
